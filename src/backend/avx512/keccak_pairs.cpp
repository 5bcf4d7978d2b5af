// Keccak-f[1600] (FIPS 202 §3) on one state, two lanes per xmm register: lane p = (x, y) shares a
// register with lane -p = (-x, -y) mod 5, lane (0, 0) has one of its own (in both halves), 13
// registers in all. pi (x, y) -> (y, 2x + 3y) is linear, so it maps the pair {p, -p} to the pair
// {pi p, -pi p}: as in the one-lane-per-register code (keccak_x4.cpp), pi is a renaming, no
// instruction, and the 24 unrolled rounds are written for where pi has taken each lane. (pi^12 is
// p -> -p, the only pairing pi keeps.) Against one lane per register, theta's lane XORs, rho's
// rotations (vprolvq, a count per half) and chi's products take half the instructions; what
// pairing costs is moving halves: theta's column sums come out as [C_x | C_-x] and need three
// half swaps, and chi's operands for the pair [B(x, y) | B(-x, -y)] are B(x + 1, y) and
// B(-x + 1, -y): the low half of the register of the row's next lane and the high half of the
// register of its previous one, one masked blend (vpblendmq) when every register of the row pair
// {y, -y} holds row y on the same side. A compile-time layout chooses per round which side (the
// side most registers of the row pair have after pi; the others swap halves after rho), so that
// most operands are blends. About 100 instructions a round against 115; measured per permutation
// in a dependent chain 0.91 x the one-lane code (docs/AVX512.md).
//
// Constant time: fixed instruction sequence, no memory index but the compile-time tables.
#include <immintrin.h>

#include <array>
#include <cstdint>
#include <utility>

#include "backend/avx512/kernels.hpp"
#include "backend/avx512/simd.hpp"
#include "common/static_for.hpp"
#include "sym/keccak_constants.hpp"

namespace hqc::backend::avx512 {

namespace {

using u64 = std::uint64_t;

constexpr const auto& kRc = sym::kKeccakRoundConstants;
constexpr const auto& kRho = sym::kKeccakRho;

struct Lane {
  int x, y;
};
constexpr int index(Lane l) { return l.x + 5 * l.y; }
constexpr Lane neg(Lane l) { return {(5 - l.x) % 5, (5 - l.y) % 5}; }
constexpr Lane pi(Lane l) { return {l.y, (2 * l.x + 3 * l.y) % 5}; }
constexpr bool same(Lane a, Lane b) { return a.x == b.x && a.y == b.y; }

constexpr int kRegs = 13;
// lo[r][k]: the lane in the low half of register k at the start of round r (the high half holds
// its negative; register 0 holds lane (0, 0) in both halves). Round r's rho and pi take lane p of
// register k to pi(p); the register then swaps its halves if the row pair of pi(p) keeps the
// other side for chi.
struct Layout {
  Lane lo[25][kRegs];
};
constexpr Layout kLayout = [] {
  Layout l{};
  constexpr Lane kStart[kRegs] = {{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}, {1, 3},
                                  {1, 4}, {2, 0}, {2, 1}, {2, 2}, {2, 3}, {2, 4}};
  for (int k = 0; k < kRegs; k++) l.lo[0][k] = kStart[k];
  for (int r = 0; r < 24; r++) {
    Lane p[kRegs];
    for (int k = 0; k < kRegs; k++) p[k] = pi(l.lo[r][k]);
    int low_row[3] = {0, 1, 2};  // row pairs {1, 4} and {2, 3}: the row kept in the low half
    for (int y = 1; y <= 2; y++) {
      int here = 0, there = 0;
      for (int k = 1; k < kRegs; k++) {
        here += p[k].y == y;
        there += p[k].y == 5 - y;
      }
      low_row[y] = here >= there ? y : 5 - y;
    }
    for (int k = 0; k < kRegs; k++) {
      const int pair = p[k].y <= 2 ? p[k].y : 5 - p[k].y;
      l.lo[r + 1][k] = (k == 0 || pair == 0 || p[k].y == low_row[pair]) ? p[k] : neg(p[k]);
    }
  }
  return l;
}();

// Where lane q is at the start of round r: register k, half h.
struct Where {
  int k, h;
};
constexpr Where where(int r, Lane q) {
  if (q.x == 0 && q.y == 0) return {0, 0};
  for (int k = 1; k < kRegs; k++) {
    if (same(kLayout.lo[r][k], q)) return {k, 0};
    if (same(kLayout.lo[r][k], neg(q))) return {k, 1};
  }
  return {-1, -1};
}

// rho's counts per round and register, [low lane's | high lane's].
struct RhoCounts {
  alignas(16) u64 c[24][kRegs][2];
};
constexpr RhoCounts kRhoCounts = [] {
  RhoCounts t{};
  for (int r = 0; r < 24; r++)
    for (int k = 0; k < kRegs; k++) {
      t.c[r][k][0] = static_cast<u64>(kRho[index(kLayout.lo[r][k])]);
      t.c[r][k][1] = static_cast<u64>(kRho[index(neg(kLayout.lo[r][k]))]);
    }
  return t;
}();

// The same rounds on xmm (one state) and on ymm (two states, one per 128-bit lane: every
// instruction below works within 128-bit lanes). The operations per register width:
struct Xmm {
  using V = __m128i;
  static constexpr __mmask8 kHighHalves = 0x2;  // the high 64-bit half of every 128-bit lane
  static V zero() { return _mm_setzero_si128(); }
  static V vxor(V a, V b) { return _mm_xor_si128(a, b); }
  static V xor3(V a, V b, V c) { return xor3_128(a, b, c); }
  static V swap_halves(V a) { return _mm_shuffle_epi32(a, 0x4E); }
  static V blend(V a, V b) { return _mm_mask_blend_epi64(kHighHalves, a, b); }
  static V align8(V b, V a) { return _mm_alignr_epi8(b, a, 8); }
  static V unpacklo(V a, V b) { return _mm_unpacklo_epi64(a, b); }
  static V unpackhi(V a, V b) { return _mm_unpackhi_epi64(a, b); }
  static V rol1(V a) { return _mm_rol_epi64(a, 1); }
  static V rolv(V a, const u64* counts) {
    return _mm_rolv_epi64(a, _mm_load_si128(reinterpret_cast<const __m128i*>(counts)));
  }
  template <int Imm>
  static V ternlog(V b, V a, V c) {
    return _mm_ternarylogic_epi64(b, a, c, Imm);
  }
  static V andnot(V b, V c) { return _mm_andnot_si128(b, c); }
  static V broadcast(u64 x) { return _mm_set1_epi64x(static_cast<long long>(x)); }
};
struct Ymm {
  using V = __m256i;
  static constexpr __mmask8 kHighHalves = 0xA;
  static V zero() { return _mm256_setzero_si256(); }
  static V vxor(V a, V b) { return _mm256_xor_si256(a, b); }
  static V xor3(V a, V b, V c) { return xor3_256(a, b, c); }
  static V swap_halves(V a) { return _mm256_shuffle_epi32(a, 0x4E); }
  static V blend(V a, V b) { return _mm256_mask_blend_epi64(kHighHalves, a, b); }
  static V align8(V b, V a) { return _mm256_alignr_epi8(b, a, 8); }
  static V unpacklo(V a, V b) { return _mm256_unpacklo_epi64(a, b); }
  static V unpackhi(V a, V b) { return _mm256_unpackhi_epi64(a, b); }
  static V rol1(V a) { return _mm256_rol_epi64(a, 1); }
  // The counts of one register, [low | high], for both states: a broadcast 128-bit load (a
  // table with the counts written twice, read as one memory operand, measured slower).
  static V rolv(V a, const u64* counts) {
    return _mm256_rolv_epi64(a, _mm256_broadcastsi128_si256(_mm_load_si128(reinterpret_cast<const __m128i*>(counts))));
  }
  template <int Imm>
  static V ternlog(V b, V a, V c) {
    return _mm256_ternarylogic_epi64(b, a, c, Imm);
  }
  static V andnot(V b, V c) { return _mm256_andnot_si256(b, c); }
  static V broadcast(u64 x) { return _mm256_set1_epi64x(static_cast<long long>(x)); }
};

// [half ha of a | half hb of b] in every 128-bit lane
template <class O, int Ha, int Hb, class V = typename O::V>
[[gnu::always_inline]] inline V halves(V a, V b) {
  if constexpr (Ha == 0 && Hb == 1) return O::blend(a, b);
  else if constexpr (Ha == 1 && Hb == 0) return O::align8(b, a);
  else if constexpr (Ha == 0) return O::unpacklo(a, b);
  else return O::unpackhi(a, b);
}
// chi's a ^ (~b & c) with b's register as the destination (b is a temporary; a is still read by
// other operands).
template <class O, class V = typename O::V>
[[gnu::always_inline]] inline V chi(V a, V b, V c) {
#ifdef HQC_AVX512_MSAN
  return O::vxor(a, O::andnot(b, c));
#else
  constexpr int kImm = [] {  // vpternlogq(src1 = b, src2 = a, src3 = c): bit (b << 2 | a << 1 | c)
    int imm = 0;
    for (int i = 0; i < 8; i++) {
      const int bb = (i >> 2) & 1, aa = (i >> 1) & 1, cc = i & 1;
      imm |= (aa ^ ((1 - bb) & cc)) << i;
    }
    return imm;
  }();
  return O::template ternlog<kImm>(b, a, c);
#endif
}

template <int R, class O, class V = typename O::V>
[[gnu::always_inline]] inline void keccak_round(V* s) {
  // theta: column sums. A register whose low lane is in column x adds [lane of x | lane of -x].
  V c1 = O::zero(), c4 = c1, c2 = c1, c3 = c1, c0 = c1;
  static_for<kRegs - 1>([&](auto i) __attribute__((always_inline)) {
    constexpr int k = i + 1;
    constexpr int x = kLayout.lo[R][k].x;
    if constexpr (x == 1) c1 = O::vxor(c1, s[k]);
    else if constexpr (x == 4) c4 = O::vxor(c4, s[k]);
    else if constexpr (x == 2) c2 = O::vxor(c2, s[k]);
    else if constexpr (x == 3) c3 = O::vxor(c3, s[k]);
    else c0 = O::vxor(c0, s[k]);
  });
  const V p = O::vxor(c1, O::swap_halves(c4));        // [C1 | C4]
  const V q = O::vxor(c2, O::swap_halves(c3));        // [C2 | C3]
  const V z = O::xor3(c0, O::swap_halves(c0), s[0]);  // [C0 | C0]
  // D_x = C_(x-1) ^ rot(C_(x+1), 1), as [D1 | D4], [D2 | D3], [D0 | D0] and the swapped pairs.
  const V d14 = O::vxor(O::blend(z, q), O::rol1(O::blend(q, z)));
  const V d23 = O::vxor(O::unpacklo(p, q), O::rol1(O::unpackhi(q, p)));
  const V d00 = O::vxor(O::unpackhi(p, p), O::rol1(O::unpacklo(p, p)));
  const V d41 = O::swap_halves(d14), d32 = O::swap_halves(d23);
  // theta's XOR and rho; pi renames; the layout's half swaps.
  s[0] = O::vxor(s[0], d00);
  static_for<kRegs - 1>([&](auto i) __attribute__((always_inline)) {
    constexpr int k = i + 1;
    constexpr Lane l = kLayout.lo[R][k];
    V d;
    if constexpr (l.x == 0) d = d00;
    else if constexpr (l.x == 1) d = d14;
    else if constexpr (l.x == 4) d = d41;
    else if constexpr (l.x == 2) d = d23;
    else d = d32;
    s[k] = O::rolv(O::vxor(s[k], d), kRhoCounts.c[R][k]);
    if constexpr (!same(pi(l), kLayout.lo[R + 1][k])) s[k] = O::swap_halves(s[k]);
  });
  // chi on the lanes after pi (round R + 1's layout): register [B(x, y) | B(-x, -y)] takes
  // [B(x + 1, y) | B(-x + 1, -y)] and [B(x + 2, y) | B(-x + 2, -y)]; all outputs from the inputs.
  V out[kRegs];
  static_for<kRegs>([&](auto k) __attribute__((always_inline)) {
    constexpr Lane lo = kLayout.lo[R + 1][k];
    constexpr Lane hi = neg(lo);
    constexpr Where a1 = where(R + 1, Lane{(lo.x + 1) % 5, lo.y}), b1 = where(R + 1, Lane{(hi.x + 1) % 5, hi.y});
    constexpr Where a2 = where(R + 1, Lane{(lo.x + 2) % 5, lo.y}), b2 = where(R + 1, Lane{(hi.x + 2) % 5, hi.y});
    out[k] = chi<O>(s[k], halves<O, a1.h, b1.h>(s[a1.k], s[b1.k]), halves<O, a2.h, b2.h>(s[a2.k], s[b2.k]));
  });
  static_for<kRegs>([&](auto k) __attribute__((always_inline)) { s[k] = out[k]; });
  // iota
  s[0] = O::vxor(s[0], O::broadcast(kRc[R]));
}

template <class O, class V = typename O::V>
[[gnu::always_inline]] inline void keccak_rounds(V* s) {
  static_for<24>([&](auto r) __attribute__((always_inline)) { keccak_round<r, O>(s); });
}

}  // namespace

void keccak_f1600_pairs(std::uint64_t state[25]) {
  __m128i s[kRegs];
  static_for<kRegs>([&](auto k) __attribute__((always_inline)) {
    constexpr Lane l = kLayout.lo[0][k];
    s[k] = _mm_set_epi64x(static_cast<long long>(state[index(neg(l))]), static_cast<long long>(state[index(l)]));
  });
  keccak_rounds<Xmm>(s);
  static_for<kRegs>([&](auto k) __attribute__((always_inline)) {
    constexpr Lane l = kLayout.lo[24][k];
    alignas(16) u64 t[2];
    _mm_store_si128(reinterpret_cast<__m128i*>(t), s[k]);
    state[index(l)] = t[0];
    if constexpr (k != 0) state[index(neg(l))] = t[1];
  });
}

void keccak_f1600_pairs_x2(std::uint64_t* a, std::uint64_t* b) {
  __m256i s[kRegs];
  static_for<kRegs>([&](auto k) __attribute__((always_inline)) {
    constexpr Lane l = kLayout.lo[0][k];
    s[k] = _mm256_set_epi64x(static_cast<long long>(b[index(neg(l))]), static_cast<long long>(b[index(l)]),
                             static_cast<long long>(a[index(neg(l))]), static_cast<long long>(a[index(l)]));
  });
  keccak_rounds<Ymm>(s);
  static_for<kRegs>([&](auto k) __attribute__((always_inline)) {
    constexpr Lane l = kLayout.lo[24][k];
    alignas(32) u64 t[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(t), s[k]);
    a[index(l)] = t[0];
    b[index(l)] = t[2];
    if constexpr (k != 0) {
      a[index(neg(l))] = t[1];
      b[index(neg(l))] = t[3];
    }
  });
}

}  // namespace hqc::backend::avx512
