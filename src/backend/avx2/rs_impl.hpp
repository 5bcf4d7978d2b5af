// The Reed-Solomon decoder of the avx2 backend (spec §5.6), written once over a "field ops" type F
// and instantiated twice: reed_solomon_avx2.cpp (AVX2 only: PSHUFB nibble tables and shift-and-add
// products in HQC's field 0x11D) and reed_solomon_gfni.cpp (GFNI: the whole decoder runs in the
// AES field 0x11B through the isomorphism phi, where every product is one GF2P8MULB; the received
// word enters and the message leaves through GF2P8AFFINEQB with phi's and phi^-1's bit matrices).
// Private to this folder; included only by those two translation units (anonymous namespace).
//
// Same arithmetic as the portable decoder for EVERY input (so the bytes are equal even beyond the
// correction capacity): syndromes S_1..S_2delta; Berlekamp with the same 2delta steps, degree
// bookkeeping and truncation at degree delta, but inversion-free: sigma <- d_rho sigma + d P. Each
// polynomial is then a nonzero multiple c of the portable one (c is a product of nonzero d_rho),
// so every zero test (d != 0, Chien) agrees and Forney's Omega / sigma' is unchanged. Chien search
// and Forney are evaluated at all n1 positions, 32 positions per vector.
//
// F provides: V = __m256i lanes in F's representation;
//   static constexpr std::array<std::uint8_t, 256> kMap             (HQC element -> F's representation)
//   static __m256i to(__m256i), from(__m256i)                      (convert 32 lanes)
//   struct Prep; static Prep prep(__m256i broadcast_s)             (precomputation for s)
//   static __m256i mul_s(__m256i v, const Prep&)                   (v * s)
//   static __m256i mul(__m256i a, __m256i b)                       (lane-wise product)
#pragma once

#include <array>

#include "backend/avx2/simd.hpp"
#include "params/params.hpp"

namespace hqc::backend::avx2 {
// Included once per ISA-flagged translation unit; internal linkage keeps each unit's copy
// (built with its own -m flags) out of the others.
namespace {  // NOLINT(cert-dcl59-cpp)

using u8 = std::uint8_t;

// GF(2^8) mod 0x11D at compile time only (tables of public constants).
constexpr u8 hqc_mul_ct(u8 a, u8 b) {
  unsigned r = 0;
  for (unsigned i = 0; i < 8; i++)
    if ((b >> i) & 1u) r ^= static_cast<unsigned>(a) << i;
  for (unsigned i = 14; i >= 8; i--)
    if ((r >> i) & 1u) r ^= 0x11Du << (i - 8);
  return static_cast<u8>(r);
}
// alpha^e, e = 0..254 (public exponents only).
constexpr std::array<u8, 255> kHqcExp = [] {  // NOLINT(misc-definitions-in-headers): see above
  std::array<u8, 255> t{};
  u8 x = 1;
  for (std::size_t i = 0; i < 255; i++) {
    t[i] = x;
    x = hqc_mul_ct(x, 2);
  }
  return t;
}();

template <class P>
struct RsDims {
  static constexpr std::size_t kN1 = P::kN1, kD = P::kDelta, kR = P::kRsParity, kK = P::kK;
  static constexpr std::size_t kNV = (kN1 + 31) / 32;  // vectors of positions
  static constexpr std::size_t kNJ = 32 * kNV;
  static_assert(kR <= 64 && kD + 1 <= 32);
};

template <class P, class F>
struct RsTables {
  using D = RsDims<P>;
  // syn[j][i] = alpha^((i+1) j) for i < 2 delta (0 above): S = sum_j r_j syn[j].
  static constexpr auto kSyn = [] {
    std::array<std::array<u8, 64>, D::kN1> t{};
    for (std::size_t j = 0; j < D::kN1; j++)
      for (std::size_t i = 0; i < D::kR; i++) t[j][i] = F::kMap[kHqcExp[((i + 1) * j) % 255]];
    return t;
  }();
  // ch[t][j] = alpha^(-j t) for j < n1 (0 above): Chien (t = i), Forney numerator (t) and
  // derivative (t = i - 1).
  static constexpr auto kCh = [] {
    std::array<std::array<u8, D::kNJ>, D::kR> t{};
    for (std::size_t j = 0; j < D::kN1; j++)
      for (std::size_t i = 0; i < D::kR; i++) t[i][j] = F::kMap[kHqcExp[((255 - j) * i) % 255]];
    return t;
  }();
};

// The systematic encoder's rows (spec §5.2): cw's parity is msg(x) x^(2 delta) mod g(x) =
// sum_i msg_i (x^(2 delta + i) mod g(x)), so row i holds the 2 delta coefficients of
// x^(2 delta + i) mod g(x), with g(x) = prod_{l=1}^{2 delta} (x - alpha^l) (spec §1.5), in F's
// representation (0 above lane 2 delta). Public constants, computed at compile time.
template <class P, class F>
struct RsEncodeTables {
  using D = RsDims<P>;
  static_assert(D::kK <= 32);
  static constexpr auto kRow = [] {
    std::array<u8, D::kR + 1> g{};
    g[0] = 1;
    for (std::size_t l = 1; l <= D::kR; l++) {
      const u8 root = kHqcExp[l];
      for (std::size_t j = l; j >= 1; j--) g[j] = static_cast<u8>(g[j - 1] ^ hqc_mul_ct(g[j], root));
      g[0] = hqc_mul_ct(g[0], root);
    }
    std::array<std::array<u8, 64>, D::kK> t{};
    std::array<u8, D::kR> rem{};  // x^(2 delta) mod g = g - x^(2 delta) (characteristic 2)
    for (std::size_t j = 0; j < D::kR; j++) rem[j] = g[j];
    for (std::size_t i = 0; i < D::kK; i++) {
      for (std::size_t j = 0; j < D::kR; j++) t[i][j] = F::kMap[rem[j]];
      const u8 top = rem[D::kR - 1];  // rem <- x rem mod g
      for (std::size_t j = D::kR - 1; j >= 1; j--) rem[j] = static_cast<u8>(rem[j - 1] ^ hqc_mul_ct(top, g[j]));
      rem[0] = hqc_mul_ct(top, g[0]);
    }
    return t;
  }();
};

// Systematic RS encoding (spec §5.2) as the sum of the rows above scaled by the message symbols:
// k independent products of a broadcast symbol with a constant row (no data-dependent branch or
// address; the symbols enter and leave F's representation through F::to / F::from). The same
// bytes as the portable shift register for every message (the shift register computes the same
// remainder).
template <class P, class F>
void rs_encode_impl(u8* cw, const u8* msg) {
  using D = RsDims<P>;
  using T = RsEncodeTables<P, F>;
  constexpr std::size_t R = D::kR, K = D::kK;
  struct State {
    alignas(32) u8 m[32];
    alignas(32) u8 par[64];
  };
  alignas(32) State s;
  std::memset(&s, 0, sizeof(s));
  std::memcpy(s.m, msg, K);
  store256(s.m, F::to(load256(s.m)));
  // Two accumulators per half: the products of even and odd symbols are independent chains.
  __m256i p0[2] = {_mm256_setzero_si256(), _mm256_setzero_si256()};
  __m256i p1[2] = {_mm256_setzero_si256(), _mm256_setzero_si256()};
  for (std::size_t i = 0; i < K; i++) {
    const typename F::Prep pr = F::prep(_mm256_set1_epi8(static_cast<char>(s.m[i])));
    p0[i & 1] = _mm256_xor_si256(p0[i & 1], F::mul_s(load256(T::kRow[i].data()), pr));
    if constexpr (R > 32) p1[i & 1] = _mm256_xor_si256(p1[i & 1], F::mul_s(load256(T::kRow[i].data() + 32), pr));
  }
  store256(s.par, F::from(_mm256_xor_si256(p0[0], p0[1])));
  store256(s.par + 32, F::from(_mm256_xor_si256(p1[0], p1[1])));
  std::memcpy(cw, s.par, R);
  std::memcpy(cw + R, msg, K);
  wipe(&s, sizeof(s));
}

// XOR of the 32 lanes, broadcast.
inline __m256i hxor8(__m256i v) {
  __m256i x = _mm256_xor_si256(v, _mm256_permute2x128_si256(v, v, 0x01));
  x = _mm256_xor_si256(x, _mm256_shuffle_epi32(x, 0x4E));
  x = _mm256_xor_si256(x, _mm256_shuffle_epi32(x, 0xB1));
  x = _mm256_xor_si256(x, _mm256_srli_epi32(x, 16));
  x = _mm256_xor_si256(x, _mm256_srli_epi32(x, 8));
  return _mm256_broadcastb_epi8(_mm256_castsi256_si128(x));
}

// One lane up (lane i <- lane i-1, lane 0 <- 0): multiplication by x of a polynomial.
inline __m256i shift_up1(__m256i v) {
  const __m256i lowhalf_up = _mm256_permute2x128_si256(v, v, 0x08);  // (0, v.lo)
  return _mm256_alignr_epi8(v, lowhalf_up, 15);
}

template <class F>
inline __m256i inv_lanes(__m256i a) {
  const __m256i a2 = F::mul(a, a);
  const __m256i a3 = F::mul(a2, a);
  const __m256i a6 = F::mul(a3, a3);
  const __m256i a12 = F::mul(a6, a6);
  const __m256i a15 = F::mul(a12, a3);
  __m256i x = a15;
  for (int i = 0; i < 4; i++) x = F::mul(x, x);  // a^240
  return F::mul(F::mul(x, a12), a2);             // a^254
}

// All-ones (64-bit) if the lane-0 byte of the broadcast vector v is nonzero.
inline std::uint64_t nonzero_mask(__m256i v) {
  const auto eq = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_setzero_si256())));
  return barrier<std::uint64_t>(static_cast<std::uint64_t>(eq & 1u) - 1u);
}

template <class P, class F>
void rs_decode_impl(u8* msg, const u8* cw) {
  using D = RsDims<P>;
  using T = RsTables<P, F>;
  constexpr std::size_t R = D::kR, DL = D::kD;
  struct State {
    alignas(32) u8 r[D::kNJ];
    alignas(32) u8 syn[64];
    alignas(32) u8 z[128];  // z[x] = S_(x-31) (= syn[x-32]) for 32 <= x < 96, else 0
    alignas(32) u8 y[128];  // y[m] = z[127 - m]: windows of reversed syndromes
    alignas(32) u8 sigma[32];
    alignas(32) u8 omega[64];
  };
  alignas(32) State s;
  std::memset(&s, 0, sizeof(s));
  std::memcpy(s.r, cw, D::kN1);
  for (std::size_t v = 0; v < D::kNV; v++) store256(s.r + 32 * v, F::to(load256(s.r + 32 * v)));

  // 1. Syndromes, 64 at a time (two vectors), one received symbol per step.
  __m256i s0 = _mm256_setzero_si256(), s1 = _mm256_setzero_si256();
  for (std::size_t j = 0; j < D::kN1; j++) {
    const typename F::Prep pr = F::prep(_mm256_set1_epi8(static_cast<char>(s.r[j])));
    s0 = _mm256_xor_si256(s0, F::mul_s(load256(T::kSyn[j].data()), pr));
    if constexpr (R > 32) s1 = _mm256_xor_si256(s1, F::mul_s(load256(T::kSyn[j].data() + 32), pr));
  }
  store256(s.syn, s0);
  store256(s.syn + 32, s1);
  std::memcpy(s.z + 32, s.syn, 64);
  for (std::size_t m = 0; m < 128; m++) s.y[m] = s.z[127 - m];

  // 2. Berlekamp, inversion-free, with the portable decoder's control (masks only).
  const __m256i lane_idx = _mm256_set_epi8(31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13,
                                           12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  const __m256i lanes_d = _mm256_cmpgt_epi8(_mm256_set1_epi8(static_cast<char>(DL + 1)), lane_idx);  // lanes 0..delta
  const __m256i one0 = _mm256_set_epi64x(0, 0, 0, 1);  // F's 1 is 1 (both maps fix 1)
  __m256i sigma = one0;
  __m256i pp = _mm256_set_epi64x(0, 0, 0, 0x100);  // P(x) = x
  __m256i d = _mm256_set1_epi8(static_cast<char>(s.syn[0]));
  __m256i d_rho = _mm256_set1_epi8(1);
  std::uint64_t L = 0, Lp = 0, rho = ~std::uint64_t{0};  // rho = -1
  for (std::size_t mu = 0; mu < R; mu++) {
    const __m256i sigma_old = sigma;
    const std::uint64_t L_old = L;
    sigma = _mm256_xor_si256(F::mul_s(sigma, F::prep(d_rho)), F::mul_s(pp, F::prep(d)));
    const std::uint64_t cand = static_cast<std::uint64_t>(mu) - rho + Lp;
    const std::uint64_t lt = barrier<std::uint64_t>(0 - ((L - cand) >> 63));  // L < cand
    const std::uint64_t grow = nonzero_mask(d) & lt;
    L = (cand & grow) | (L & ~grow);
    if (mu == R - 1) break;  // public loop index
    const __m256i gv = _mm256_set1_epi64x(static_cast<long long>(grow));
    rho = (static_cast<std::uint64_t>(mu) & grow) | (rho & ~grow);
    d_rho = _mm256_blendv_epi8(d_rho, d, gv);
    pp = _mm256_and_si256(shift_up1(_mm256_blendv_epi8(pp, sigma_old, gv)), lanes_d);
    Lp = (L_old & grow) | (Lp & ~grow);
    // d = sum_i sigma_i S_(mu+2-i): the window lane i = y[94 - mu + i] = S_(mu+2-i).
    d = hxor8(F::mul(sigma, load256(s.y + 94 - mu)));
  }
  store256(s.sigma, sigma);

  // 3./4. Chien search, Omega and the derivative from sigma's coefficients.
  __m256i val[D::kNV], der[D::kNV];
  for (std::size_t v = 0; v < D::kNV; v++) val[v] = der[v] = _mm256_setzero_si256();
  __m256i om0 = _mm256_setzero_si256(), om1 = _mm256_setzero_si256();
  for (std::size_t i = 0; i <= DL; i++) {
    const typename F::Prep pr = F::prep(_mm256_set1_epi8(static_cast<char>(s.sigma[i])));
    for (std::size_t v = 0; v < D::kNV; v++)
      val[v] = _mm256_xor_si256(val[v], F::mul_s(load256(T::kCh[i].data() + 32 * v), pr));
    if (i & 1)
      for (std::size_t v = 0; v < D::kNV; v++)
        der[v] = _mm256_xor_si256(der[v], F::mul_s(load256(T::kCh[i - 1].data() + 32 * v), pr));
    // Omega_t += sigma_i S_(t-i+1): lane t of z + 32 - i + 32h is syn[t - i].
    om0 = _mm256_xor_si256(om0, F::mul_s(load256(s.z + 32 - i), pr));
    if constexpr (R > 32) om1 = _mm256_xor_si256(om1, F::mul_s(load256(s.z + 64 - i), pr));
  }
  // Omega = S sigma mod x^(2 delta): lanes t >= 2 delta cleared.
  {
    const __m256i lim = _mm256_set1_epi8(static_cast<char>(R));
    om0 = _mm256_and_si256(om0, _mm256_cmpgt_epi8(lim, lane_idx));
    om1 = _mm256_and_si256(om1, _mm256_cmpgt_epi8(lim, _mm256_add_epi8(lane_idx, _mm256_set1_epi8(32))));
  }
  store256(s.omega, om0);
  store256(s.omega + 32, om1);
  __m256i om[D::kNV];
  for (std::size_t v = 0; v < D::kNV; v++) om[v] = _mm256_setzero_si256();
  for (std::size_t t = 0; t < R; t++) {
    const typename F::Prep pr = F::prep(_mm256_set1_epi8(static_cast<char>(s.omega[t])));
    for (std::size_t v = 0; v < D::kNV; v++)
      om[v] = _mm256_xor_si256(om[v], F::mul_s(load256(T::kCh[t].data() + 32 * v), pr));
  }
  // 5. e_j = Omega(X^-1) / sigma'(X^-1) where sigma(X^-1) = 0; r_j ^= e_j.
  const __m256i zero = _mm256_setzero_si256();
  for (std::size_t v = 0; v < D::kNV; v++) {
    const __m256i is_root = _mm256_cmpeq_epi8(val[v], zero);
    const __m256i e = _mm256_and_si256(F::mul(om[v], inv_lanes<F>(der[v])), is_root);
    store256(s.r + 32 * v, F::from(_mm256_xor_si256(load256(s.r + 32 * v), e)));
  }
  std::memcpy(msg, s.r + R, D::kK);
  wipe(&s, sizeof(s));
}

}  // namespace
}  // namespace hqc::backend::avx2
