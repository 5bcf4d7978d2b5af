// Ring multiplication in GF(2)[x]/(x^n - 1) on 512-bit VPCLMULQDQ (spec §2.2).
//
// Structure: a decomposition tree (MulPlan, chosen per parameter set by bench/avx512/mul_search)
// of two-way and three-way Karatsuba levels down to a VPCLMULQDQ schoolbook on `base`-word
// operands, then reduction mod x^n - 1. Everything is branch-free: the only loop bounds and
// addresses are functions of the (public) sizes.
//
// Schoolbook base case. Output chunk t (words 8t .. 8t+7, one zmm) collects every a_i b_j with
// i + j in [8t, 8t+8). For b-lane m = (b_2m, b_2m+1), broadcast to the four 128-bit lanes, and
// the eight a-words X = a[8t-2m .. 8t-2m+8) (an unaligned load from a zero-guarded copy):
//   clmul(X, B_m, 0x00) = a_{8t-2m+2l} b_2m           -> word 8t + 2l     (even part E)
//   clmul(X, B_m, 0x01) ^ clmul(X, B_m, 0x10)        -> word 8t + 2l + 1 (odd part O)
//   clmul(X, B_{m-1}, 0x11) = a_{8t-2m+2l+1} b_{2m-1} -> word 8t + 2l     (E)
// so each product lands in place without shuffles; O is moved up one word with one valignq per
// output chunk. Four VPCLMULQDQ per 16 word products: the schoolbook runs at the multiplier's
// throughput. The two products of encryption (h*r2, s*r2) go through the tree together and
// share every sum and broadcast of r2.
#include <immintrin.h>

#include <cstring>

#include "backend/avx512/kernels.hpp"
#include "backend/avx512/mul_plans.hpp"
#include "backend/avx512/simd.hpp"

namespace hqc::backend::avx512 {

void wipe(void* p, std::size_t len) {
  if (len == 0 || p == nullptr) return;
  std::memset(p, 0, len);
  __asm__ __volatile__("" : : "r"(p) : "memory");
}

namespace {

using u64 = std::uint64_t;

inline __mmask8 tail_mask(std::size_t rem) { return static_cast<__mmask8>((1u << rem) - 1u); }

// dst = x ^ y (n words).
inline void xor2(u64* dst, const u64* x, const u64* y, std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm512_storeu_si512(dst + i, _mm512_xor_si512(_mm512_loadu_si512(x + i), _mm512_loadu_si512(y + i)));
  if (i < n) {
    const __mmask8 m = tail_mask(n - i);
    _mm512_mask_storeu_epi64(dst + i, m,
                             _mm512_xor_si512(_mm512_maskz_loadu_epi64(m, x + i), _mm512_maskz_loadu_epi64(m, y + i)));
  }
}
// dst ^= x ^ y (n words).
inline void xor3_into(u64* dst, const u64* x, const u64* y, std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm512_storeu_si512(dst + i, xor3_512(_mm512_loadu_si512(dst + i), _mm512_loadu_si512(x + i),
                                                           _mm512_loadu_si512(y + i)));
  if (i < n) {
    const __mmask8 m = tail_mask(n - i);
    _mm512_mask_storeu_epi64(dst + i, m,
                             xor3_512(_mm512_maskz_loadu_epi64(m, dst + i),
                                                       _mm512_maskz_loadu_epi64(m, x + i),
                                                       _mm512_maskz_loadu_epi64(m, y + i)));
  }
}
// dst ^= x (n words).
inline void xor_into(u64* dst, const u64* x, std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm512_storeu_si512(dst + i, _mm512_xor_si512(_mm512_loadu_si512(dst + i), _mm512_loadu_si512(x + i)));
  if (i < n) {
    const __mmask8 m = tail_mask(n - i);
    _mm512_mask_storeu_epi64(dst + i, m,
                             _mm512_xor_si512(_mm512_maskz_loadu_epi64(m, dst + i), _mm512_maskz_loadu_epi64(m, x + i)));
  }
}
inline void copy_words(u64* dst, const u64* src, std::size_t n) { std::memcpy(dst, src, n * sizeof(u64)); }
inline void zero_words(u64* dst, std::size_t n) { std::memset(dst, 0, n * sizeof(u64)); }

// ---- Register leaves: 8x8-word product with 16 VPCLMULQDQ, Karatsuba on 16 and 32 words. ----
//
// 8x8 words, 128-bit lanes k = (a_2k, a_2k+1). B_m is lane m of b in all four lanes and R_m is a
// rotated up by m lanes (lane k holds a-lane (k - m) mod 4). Then clmul(R_m, B_m, 0x00) and
// clmul(R_m, B_(m-1), 0x11) land on output lane k, or on lane k + 4 when the rotation wrapped
// (k < m): a lane mask splits every product between the low and the high output register without
// any shift. The middle terms (0x01, 0x10) sit one word higher and are moved once at the end.
// 16 multiplications for 64 word products: the multiplier's full width.
#define HQC_ALWAYS_INLINE inline __attribute__((always_inline))

template <int kM>
HQC_ALWAYS_INLINE __m512i lane_bcast(__m512i b) {
  return _mm512_maskz_shuffle_i64x2(0xFF, b, b, kM * 0x55);
}
template <int kM>
HQC_ALWAYS_INLINE __m512i lane_rot(__m512i a) {  // lane k <- lane (k - m) mod 4
  constexpr int i0 = (4 - kM) & 3, i1 = (5 - kM) & 3, i2 = (6 - kM) & 3, i3 = (7 - kM) & 3;
  return _mm512_maskz_shuffle_i64x2(0xFF, a, a, i0 | (i1 << 2) | (i2 << 4) | (i3 << 6));
}

HQC_ALWAYS_INLINE void mul8(__m512i a, __m512i b, __m512i& lo, __m512i& hi) {
  const __m512i b0 = lane_bcast<0>(b), b1 = lane_bcast<1>(b), b2 = lane_bcast<2>(b), b3 = lane_bcast<3>(b);
  const __m512i r1 = lane_rot<1>(a), r2 = lane_rot<2>(a), r3 = lane_rot<3>(a);
  __m512i elo = _mm512_clmulepi64_epi128(a, b0, 0x00);
  __m512i ehi = _mm512_clmulepi64_epi128(a, b3, 0x11);
  __m512i mlo = _mm512_xor_si512(_mm512_clmulepi64_epi128(a, b0, 0x01), _mm512_clmulepi64_epi128(a, b0, 0x10));
  __m512i mhi;
  {
    const __m512i e = _mm512_xor_si512(_mm512_clmulepi64_epi128(r1, b1, 0x00), _mm512_clmulepi64_epi128(r1, b0, 0x11));
    const __m512i m = _mm512_xor_si512(_mm512_clmulepi64_epi128(r1, b1, 0x01), _mm512_clmulepi64_epi128(r1, b1, 0x10));
    elo = _mm512_mask_xor_epi64(elo, 0xFC, elo, e);
    ehi = _mm512_mask_xor_epi64(ehi, 0x03, ehi, e);
    mlo = _mm512_mask_xor_epi64(mlo, 0xFC, mlo, m);
    mhi = _mm512_maskz_mov_epi64(0x03, m);
  }
  {
    const __m512i e = _mm512_xor_si512(_mm512_clmulepi64_epi128(r2, b2, 0x00), _mm512_clmulepi64_epi128(r2, b1, 0x11));
    const __m512i m = _mm512_xor_si512(_mm512_clmulepi64_epi128(r2, b2, 0x01), _mm512_clmulepi64_epi128(r2, b2, 0x10));
    elo = _mm512_mask_xor_epi64(elo, 0xF0, elo, e);
    ehi = _mm512_mask_xor_epi64(ehi, 0x0F, ehi, e);
    mlo = _mm512_mask_xor_epi64(mlo, 0xF0, mlo, m);
    mhi = _mm512_mask_xor_epi64(mhi, 0x0F, mhi, m);
  }
  {
    const __m512i e = _mm512_xor_si512(_mm512_clmulepi64_epi128(r3, b3, 0x00), _mm512_clmulepi64_epi128(r3, b2, 0x11));
    const __m512i m = _mm512_xor_si512(_mm512_clmulepi64_epi128(r3, b3, 0x01), _mm512_clmulepi64_epi128(r3, b3, 0x10));
    elo = _mm512_mask_xor_epi64(elo, 0xC0, elo, e);
    ehi = _mm512_mask_xor_epi64(ehi, 0x3F, ehi, e);
    mlo = _mm512_mask_xor_epi64(mlo, 0xC0, mlo, m);
    mhi = _mm512_mask_xor_epi64(mhi, 0x3F, mhi, m);
  }
  lo = _mm512_xor_si512(elo, alignr64<7>(mlo, _mm512_setzero_si512()));
  hi = _mm512_xor_si512(ehi, alignr64<7>(mhi, mlo));
}

// Karatsuba on Z registers (8Z words) per operand, all in registers: out has 2Z registers.
template <int Z>
HQC_ALWAYS_INLINE void mul_regs(const __m512i* a, const __m512i* b, __m512i* out) {
  if constexpr (Z == 1) {
    mul8(a[0], b[0], out[0], out[1]);
  } else {
    constexpr int H = Z / 2;
    __m512i as[H], bs[H], z0[Z], z1[Z], z2[Z];
    for (int i = 0; i < H; i++) {
      as[i] = _mm512_xor_si512(a[i], a[H + i]);
      bs[i] = _mm512_xor_si512(b[i], b[H + i]);
    }
    mul_regs<H>(a, b, z0);
    mul_regs<H>(a + H, b + H, z2);
    mul_regs<H>(as, bs, z1);
    for (int i = 0; i < Z; i++) z1[i] = xor3_512(z1[i], z0[i], z2[i]);
    for (int i = 0; i < H; i++) {
      out[i] = z0[i];
      out[H + i] = _mm512_xor_si512(z0[H + i], z1[i]);
      out[Z + i] = _mm512_xor_si512(z2[i], z1[H + i]);
      out[Z + H + i] = z2[H + i];
    }
  }
}

template <int Z, int NA>
void leaf_mul(u64* const* out, const u64* const* a, const u64* b) {
  __m512i bv[Z];
  for (int i = 0; i < Z; i++) bv[i] = _mm512_loadu_si512(b + 8 * i);
  for (int k = 0; k < NA; k++) {
    __m512i av[Z], o[2 * Z];
    for (int i = 0; i < Z; i++) av[i] = _mm512_loadu_si512(a[k] + 8 * i);
    mul_regs<Z>(av, bv, o);
    for (int i = 0; i < 2 * Z; i++) _mm512_storeu_si512(out[k] + 8 * i, o[i]);
  }
}

// out[k][0 .. 2B) = a[k][0 .. B) * b[0 .. B) for k < NA (see the file comment).
template <int NA>
void base_mul(u64* const* out, const u64* const* a, const u64* b, std::size_t B) {
  alignas(64) u64 abuf[NA][kMaxBaseWords + 24];
  alignas(64) u64 bbuf[kMaxBaseWords + 8];
  const std::size_t M = (B + 1) / 2;  // 128-bit lanes of b
  for (int k = 0; k < NA; k++) {
    zero_words(abuf[k], 8);
    copy_words(abuf[k] + 8, a[k], B);
    zero_words(abuf[k] + 8 + B, 16);
  }
  zero_words(bbuf, 2);
  copy_words(bbuf + 2, b, B);
  zero_words(bbuf + 2 + B, 4);

  const std::size_t T = (2 * B + 7) / 8;
  __m512i o_prev[NA];
  for (int k = 0; k < NA; k++) o_prev[k] = _mm512_setzero_si512();
  for (std::size_t t = 0; t < T; t++) {
    __m512i e[NA], o[NA];
    for (int k = 0; k < NA; k++) e[k] = o[k] = _mm512_setzero_si512();
    // Windows a[8t-2j, 8t-2j+8) that meet [0, B): 2j > 8t - B and 2j < 8t + 8 (public bounds).
    const std::size_t jlo = 8 * t + 1 > B ? (8 * t - B) / 2 + 1 : 0;
    const std::size_t jhi = 4 * t + 3 < M ? 4 * t + 3 : M;
    for (std::size_t j = jlo; j <= jhi; j++) {
      const __m512i bj = bcast128(bbuf + 2 + 2 * j);
      const __m512i bjm = bcast128(bbuf + 2 * j);
      for (int k = 0; k < NA; k++) {
        const __m512i x = _mm512_loadu_si512(abuf[k] + 8 + 8 * t - 2 * j);
        e[k] = xor3_512(e[k], _mm512_clmulepi64_epi128(x, bj, 0x00),
                                         _mm512_clmulepi64_epi128(x, bjm, 0x11));
        o[k] = xor3_512(o[k], _mm512_clmulepi64_epi128(x, bj, 0x01),
                                         _mm512_clmulepi64_epi128(x, bj, 0x10));
      }
    }
    const std::size_t rem = 2 * B - 8 * t;
    const __mmask8 m = rem >= 8 ? static_cast<__mmask8>(0xFF) : tail_mask(rem);
    for (int k = 0; k < NA; k++) {
      const __m512i r = _mm512_xor_si512(e[k], alignr64<7>(o[k], o_prev[k]));
      o_prev[k] = o[k];
      _mm512_mask_storeu_epi64(out[k] + 8 * t, m, r);
    }
  }
  wipe(abuf, sizeof(abuf));
  wipe(bbuf, sizeof(bbuf));
}

constexpr std::size_t level_scratch(int split, std::size_t n, int na) {
  const std::size_t s = n / static_cast<std::size_t>(split);
  const std::size_t una = static_cast<std::size_t>(na);
  return split == 2 ? (3 * una + 1) * s : (7 * una + 1) * s;
}

bool plan_valid(const MulPlan& plan) {
  if (plan.base < 1 || plan.base > kMaxBaseWords || plan.depth > 7) return false;
  for (std::size_t i = 0; i < plan.depth; i++)
    if (plan.split[i] != 2 && plan.split[i] != 3) return false;
  return plan.top_words() <= kMaxTopWords;
}

// out[k][0 .. 2n) = a[k][0 .. n) * b[0 .. n), n = plan.base * prod(plan.split[lvl ..]).
template <int NA>
void rec(u64* const* out, const u64* const* a, const u64* b, std::size_t n, const MulPlan& plan, int lvl,
         u64* scr) {
  if (lvl == plan.depth) {
    if (n == 8) leaf_mul<1, NA>(out, a, b);
    else if (n == 16) leaf_mul<2, NA>(out, a, b);
    else if (n == 32) leaf_mul<4, NA>(out, a, b);
    else base_mul<NA>(out, a, b, n);
    return;
  }
  const int split = plan.split[lvl];
  const std::size_t s = n / static_cast<std::size_t>(split);
  u64* o1[NA];
  const u64* a1[NA];
  if (split == 2) {
    // z0 = a0 b0 -> out[0, 2s), z2 = a1 b1 -> out[2s, 4s), out[s, 3s) ^= (a0+a1)(b0+b1) + z0 + z2.
    rec<NA>(out, a, b, s, plan, lvl + 1, scr);
    for (int k = 0; k < NA; k++) {
      o1[k] = out[k] + 2 * s;
      a1[k] = a[k] + s;
    }
    rec<NA>(o1, a1, b + s, s, plan, lvl + 1, scr);
    u64* asum[NA];
    u64* z1[NA];
    u64* bsum = scr + NA * s;
    for (int k = 0; k < NA; k++) {
      asum[k] = scr + static_cast<std::size_t>(k) * s;
      z1[k] = scr + (NA + 1) * s + static_cast<std::size_t>(k) * 2 * s;
      xor2(asum[k], a[k], a[k] + s, s);
    }
    xor2(bsum, b, b + s, s);
    u64* rest = scr + (3 * NA + 1) * s;
    rec<NA>(z1, asum, bsum, s, plan, lvl + 1, rest);
    for (int k = 0; k < NA; k++) {
      xor3_into(z1[k], out[k], out[k] + 2 * s, 2 * s);
      xor_into(out[k] + s, z1[k], 2 * s);
    }
    return;
  }
  // Three-way Karatsuba: p0, p1, p2 in place, then
  // out[s..3s) ^= p01 + p0 + p1, out[2s..4s) ^= p02 + p0 + p2, out[3s..5s) ^= p12 + p1 + p2.
  for (int part = 0; part < 3; part++) {
    for (int k = 0; k < NA; k++) {
      o1[k] = out[k] + 2 * s * static_cast<std::size_t>(part);
      a1[k] = a[k] + s * static_cast<std::size_t>(part);
    }
    rec<NA>(o1, a1, b + s * static_cast<std::size_t>(part), s, plan, lvl + 1, scr);
  }
  u64* asum[NA];
  const u64* asum_c[NA];
  u64* q[3][NA];
  u64* bsum = scr + NA * s;
  for (int k = 0; k < NA; k++) {
    asum[k] = scr + static_cast<std::size_t>(k) * s;
    asum_c[k] = asum[k];
    for (int p = 0; p < 3; p++) q[p][k] = scr + (NA + 1) * s + (static_cast<std::size_t>(p) * NA + static_cast<std::size_t>(k)) * 2 * s;
  }
  u64* rest = scr + (7 * NA + 1) * s;
  constexpr int kPairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
  for (int p = 0; p < 3; p++) {
    const std::size_t i0 = static_cast<std::size_t>(kPairs[p][0]), i1 = static_cast<std::size_t>(kPairs[p][1]);
    for (int k = 0; k < NA; k++) xor2(asum[k], a[k] + i0 * s, a[k] + i1 * s, s);
    xor2(bsum, b + i0 * s, b + i1 * s, s);
    rec<NA>(q[p], asum_c, bsum, s, plan, lvl + 1, rest);
    for (int k = 0; k < NA; k++) xor3_into(q[p][k], out[k] + 2 * s * i0, out[k] + 2 * s * i1, 2 * s);
  }
  for (int k = 0; k < NA; k++) {
    xor_into(out[k] + s, q[0][k], 2 * s);
    xor_into(out[k] + 2 * s, q[1][k], 2 * s);
    xor_into(out[k] + 3 * s, q[2][k], 2 * s);
  }
}

// out[0 .. words) = prod mod (x^n - 1), prod has at least 2*words words; clears bits >= n.
void reduce(u64* out, const u64* prod, std::size_t n_bits, std::size_t words) {
  const std::size_t q = n_bits / 64;
  const unsigned r = static_cast<unsigned>(n_bits % 64);  // non-zero for every HQC n
  const __m512i sr = _mm512_set1_epi64(r), sl = _mm512_set1_epi64(64 - r);
  std::size_t i = 0;
  for (; i + 8 <= words; i += 8) {
    const __m512i hi = _mm512_or_si512(srlv64(_mm512_loadu_si512(prod + i + q), sr),
                                       sllv64(_mm512_loadu_si512(prod + i + q + 1), sl));
    _mm512_storeu_si512(out + i, _mm512_xor_si512(_mm512_loadu_si512(prod + i), hi));
  }
  if (i < words) {
    const __mmask8 m = tail_mask(words - i);
    const __m512i hi = _mm512_or_si512(srlv64(_mm512_maskz_loadu_epi64(m, prod + i + q), sr),
                                       sllv64(_mm512_maskz_loadu_epi64(m, prod + i + q + 1), sl));
    _mm512_mask_storeu_epi64(out + i, m, _mm512_xor_si512(_mm512_maskz_loadu_epi64(m, prod + i), hi));
  }
  out[words - 1] &= (u64{1} << r) - 1;
}

constexpr std::size_t scratch_words(const MulPlan& plan, int na) {
  std::size_t n = plan.top_words(), total = 0;
  for (std::size_t i = 0; i < plan.depth; i++) {
    total += level_scratch(plan.split[i], n, na);
    n /= plan.split[i];
  }
  return total + 8;
}

template <class P, int NA>
void ring_mul(u64* const* out, const u64* const* a, const u64* b) {
  static constexpr MulPlan kPlan = kMulPlan<P>;
  constexpr std::size_t N = kPlan.top_words();
  constexpr std::size_t W = P::kNWords;
  static_assert(N >= W && N <= kMaxTopWords && kPlan.base <= kMaxBaseWords);
  constexpr std::size_t kProdWords = 2 * N > 2 * W + 8 ? 2 * N : 2 * W + 8;
  struct Tmp {
    alignas(64) u64 ab[NA][N > P::kNWordsPadded ? N : 1];
    alignas(64) u64 bb[N > P::kNWordsPadded ? N : 1];
    alignas(64) u64 prod[NA][kProdWords];
    alignas(64) u64 scratch[scratch_words(kPlan, NA)];
  };
  alignas(64) Tmp tmp;
  const u64* aa[NA];
  const u64* bp = b;
  u64* pp[NA];
  for (int k = 0; k < NA; k++) {
    aa[k] = a[k];
    pp[k] = tmp.prod[k];
    zero_words(tmp.prod[k] + 2 * N, kProdWords - 2 * N);
  }
  if constexpr (N > P::kNWordsPadded) {
    for (int k = 0; k < NA; k++) {
      copy_words(tmp.ab[k], a[k], P::kNWordsPadded);
      zero_words(tmp.ab[k] + P::kNWordsPadded, N - P::kNWordsPadded);
      aa[k] = tmp.ab[k];
    }
    copy_words(tmp.bb, b, P::kNWordsPadded);
    zero_words(tmp.bb + P::kNWordsPadded, N - P::kNWordsPadded);
    bp = tmp.bb;
  }
  rec<NA>(pp, aa, bp, N, kPlan, 0, tmp.scratch);
  for (int k = 0; k < NA; k++) {
    reduce(out[k], tmp.prod[k], P::kN, W);
    zero_words(out[k] + W, P::kNWordsPadded - W);
  }
  wipe(&tmp, sizeof(tmp));
}

}  // namespace

std::size_t plan_scratch_words(const MulPlan& plan, int products) { return scratch_words(plan, products); }

bool plan_multiply(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b, const MulPlan& plan,
                   std::uint64_t* scratch) {
  if (!plan_valid(plan)) return false;
  u64* o[1] = {out};
  const u64* aa[1] = {a};
  rec<1>(o, aa, b, plan.top_words(), plan, 0, scratch);
  return true;
}

bool plan_multiply2(std::uint64_t* out1, std::uint64_t* out2, const std::uint64_t* a1, const std::uint64_t* a2,
                    const std::uint64_t* b, const MulPlan& plan, std::uint64_t* scratch) {
  if (!plan_valid(plan)) return false;
  u64* o[2] = {out1, out2};
  const u64* aa[2] = {a1, a2};
  rec<2>(o, aa, b, plan.top_words(), plan, 0, scratch);
  return true;
}

template <class P>
void mul(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b) {
  u64* o[1] = {out};
  const u64* aa[1] = {a};
  ring_mul<P, 1>(o, aa, b);
}

template <class P>
void mul2(std::uint64_t* out1, std::uint64_t* out2, const std::uint64_t* a1, const std::uint64_t* a2,
          const std::uint64_t* b) {
  u64* o[2] = {out1, out2};
  const u64* aa[2] = {a1, a2};
  ring_mul<P, 2>(o, aa, b);
}

template <class P>
MulPlan mul_plan() {
  return kMulPlan<P>;
}

#define HQC_AVX512_MUL(P)                                                                           \
  template void mul<P>(std::uint64_t*, const std::uint64_t*, const std::uint64_t*);                 \
  template void mul2<P>(std::uint64_t*, std::uint64_t*, const std::uint64_t*, const std::uint64_t*, \
                        const std::uint64_t*);                                                      \
  template MulPlan mul_plan<P>();
HQC_AVX512_MUL(Hqc1)
HQC_AVX512_MUL(Hqc3)
HQC_AVX512_MUL(Hqc5)

}  // namespace hqc::backend::avx512
