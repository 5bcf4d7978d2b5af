// Keccak-f[1600] (FIPS 202 §3) with every lane of the state in a register of its own: 64-bit
// element k of lane register i is lane i of state k. One state on xmm registers
// (keccak_f1600_lanes, a variant: the backend permutes one state with keccak_pairs.cpp, two lanes
// per register), three or four independent states on ymm registers (keccak_f1600_x4, which gives
// one or two states to the lane-pair code; the states are transposed in and out with 4x4 64-bit
// transposes).
//
// The 25 lanes stay in 25 named registers for all 24 rounds, which are unrolled, and every step
// works in place: theta's column sums C and D (ten registers) and chi's two saved inputs per plane
// fit beside them in the 32 vector registers of AVX-512 (g++ 12 keeps one value per round on the stack
// in the one-state code, about three in the four-state code, instead of the whole state). pi only moves
// lanes, so it is no instruction at all: round r is written for the register that holds each
// lane after r applications of pi (HQC_KECCAK_PERMUTE lists the 24 round calls with their lane
// order; pi has order 24 on the 24 lanes it moves, so the lanes are back in place after the last
// round). theta's XOR of five lanes is two vpternlogq, chi one per lane.
//
// The code this replaced computed each round into a second 25-element array, which the compiler
// kept in memory. Side by side in one process on AMD Zen 5 (docs/AVX512.md), per call: one state
// 0.79 x the replaced code and 0.66-0.91 x the avx2 backend's scalar BMI2 Keccak (which slows down
// more than vector code when the host is busy), four states 0.81 x the replaced code.
#include <immintrin.h>

#include <initializer_list>

#include "backend/avx512/kernels.hpp"
#include "backend/avx512/simd.hpp"
#include "sym/keccak_constants.hpp"

namespace hqc::backend::avx512 {

namespace {

constexpr const auto& kRc = sym::kKeccakRoundConstants;

#define HQC_KECCAK_INLINE inline __attribute__((always_inline))

// The lane operations on xmm (one state) and ymm (four states).
inline __m128i vxor(__m128i a, __m128i b) { return _mm_xor_si128(a, b); }
inline __m256i vxor(__m256i a, __m256i b) { return _mm256_xor_si256(a, b); }
inline __m128i vxor3(__m128i a, __m128i b, __m128i c) { return xor3_128(a, b, c); }
inline __m256i vxor3(__m256i a, __m256i b, __m256i c) { return xor3_256(a, b, c); }
inline __m128i vchi(__m128i a, __m128i b, __m128i c) { return chi_128(a, b, c); }
inline __m256i vchi(__m256i a, __m256i b, __m256i c) { return chi_256(a, b, c); }
template <int R>
inline __m128i vrol(__m128i x) {
  return _mm_maskz_rol_epi64(0x3, x, R);
}
template <int R>
inline __m256i vrol(__m256i x) {
  return _mm256_maskz_rol_epi64(0xF, x, R);
}
inline __m128i vrc(__m128i /*type*/, std::uint64_t rc) { return _mm_set1_epi64x(static_cast<long long>(rc)); }
inline __m256i vrc(__m256i /*type*/, std::uint64_t rc) { return _mm256_set1_epi64x(static_cast<long long>(rc)); }

// theta + rho on a lane in place: a = rot(a ^ d, r).
template <int R, class V>
HQC_KECCAK_INLINE void theta_rho(V& a, V d) {
  a = vrol<R>(vxor(a, d));
}
// chi on one plane in place (its first two lanes saved: the last two outputs read them).
template <class V>
HQC_KECCAK_INLINE void chi5(V& v0, V& v1, V& v2, V& v3, V& v4) {
  const V t0 = v0, t1 = v1;
  v0 = vchi(v0, v1, v2);
  v1 = vchi(v1, v2, v3);
  v2 = vchi(v2, v3, v4);
  v3 = vchi(v3, v4, t0);
  v4 = vchi(v4, t0, t1);
}
// Round R on the registers a00 .. a24 that hold lanes x + 5y = 0 .. 24 at its start. After pi,
// lane (X, Y) is the old lane ((X + 3Y) mod 5, X): chi's planes are the register groups below, and
// the next round takes the registers in that order.
template <int R, class V>
HQC_KECCAK_INLINE void keccak_round(V& a00, V& a01, V& a02, V& a03, V& a04, V& a05, V& a06, V& a07, V& a08, V& a09,
                                    V& a10, V& a11, V& a12, V& a13, V& a14, V& a15, V& a16, V& a17, V& a18, V& a19,
                                    V& a20, V& a21, V& a22, V& a23, V& a24) {
  const V c0 = vxor3(vxor3(a00, a05, a10), a15, a20);
  const V c1 = vxor3(vxor3(a01, a06, a11), a16, a21);
  const V c2 = vxor3(vxor3(a02, a07, a12), a17, a22);
  const V c3 = vxor3(vxor3(a03, a08, a13), a18, a23);
  const V c4 = vxor3(vxor3(a04, a09, a14), a19, a24);
  const V d0 = vxor(c4, vrol<1>(c1)), d1 = vxor(c0, vrol<1>(c2)), d2 = vxor(c1, vrol<1>(c3));
  const V d3 = vxor(c2, vrol<1>(c4)), d4 = vxor(c3, vrol<1>(c0));
  a00 = vxor(a00, d0);
  theta_rho<1>(a01, d1);
  theta_rho<62>(a02, d2);
  theta_rho<28>(a03, d3);
  theta_rho<27>(a04, d4);
  theta_rho<36>(a05, d0);
  theta_rho<44>(a06, d1);
  theta_rho<6>(a07, d2);
  theta_rho<55>(a08, d3);
  theta_rho<20>(a09, d4);
  theta_rho<3>(a10, d0);
  theta_rho<10>(a11, d1);
  theta_rho<43>(a12, d2);
  theta_rho<25>(a13, d3);
  theta_rho<39>(a14, d4);
  theta_rho<41>(a15, d0);
  theta_rho<45>(a16, d1);
  theta_rho<15>(a17, d2);
  theta_rho<21>(a18, d3);
  theta_rho<8>(a19, d4);
  theta_rho<18>(a20, d0);
  theta_rho<2>(a21, d1);
  theta_rho<61>(a22, d2);
  theta_rho<56>(a23, d3);
  theta_rho<14>(a24, d4);
  chi5(a00, a06, a12, a18, a24);
  chi5(a03, a09, a10, a16, a22);
  chi5(a01, a07, a13, a19, a20);
  chi5(a04, a05, a11, a17, a23);
  chi5(a02, a08, a14, a15, a21);
  a00 = vxor(a00, vrc(a00, kRc[R]));
}

}  // namespace

// The 24 rounds on s00 .. s24 (lane i in s<i> before and after).
#define HQC_KECCAK_PERMUTE()                                                                                           \
  keccak_round<0>(s00, s01, s02, s03, s04, s05, s06, s07, s08, s09, s10, s11, s12, s13, s14, s15, s16, s17, s18, s19,  \
                  s20, s21, s22, s23, s24);                                                                            \
  keccak_round<1>(s00, s06, s12, s18, s24, s03, s09, s10, s16, s22, s01, s07, s13, s19, s20, s04, s05, s11, s17, s23,  \
                  s02, s08, s14, s15, s21);                                                                            \
  keccak_round<2>(s00, s09, s13, s17, s21, s18, s22, s01, s05, s14, s06, s10, s19, s23, s02, s24, s03, s07, s11, s15,  \
                  s12, s16, s20, s04, s08);                                                                            \
  keccak_round<3>(s00, s22, s19, s11, s08, s17, s14, s06, s03, s20, s09, s01, s23, s15, s12, s21, s18, s10, s07, s04,  \
                  s13, s05, s02, s24, s16);                                                                            \
  keccak_round<4>(s00, s14, s23, s07, s16, s11, s20, s09, s18, s02, s22, s06, s15, s04, s13, s08, s17, s01, s10, s24,  \
                  s19, s03, s12, s21, s05);                                                                            \
  keccak_round<5>(s00, s20, s15, s10, s05, s07, s02, s22, s17, s12, s14, s09, s04, s24, s19, s16, s11, s06, s01, s21,  \
                  s23, s18, s13, s08, s03);                                                                            \
  keccak_round<6>(s00, s02, s04, s01, s03, s10, s12, s14, s11, s13, s20, s22, s24, s21, s23, s05, s07, s09, s06, s08,  \
                  s15, s17, s19, s16, s18);                                                                            \
  keccak_round<7>(s00, s12, s24, s06, s18, s01, s13, s20, s07, s19, s02, s14, s21, s08, s15, s03, s10, s22, s09, s16,  \
                  s04, s11, s23, s05, s17);                                                                            \
  keccak_round<8>(s00, s13, s21, s09, s17, s06, s19, s02, s10, s23, s12, s20, s08, s16, s04, s18, s01, s14, s22, s05,  \
                  s24, s07, s15, s03, s11);                                                                            \
  keccak_round<9>(s00, s19, s08, s22, s11, s09, s23, s12, s01, s15, s13, s02, s16, s05, s24, s17, s06, s20, s14, s03,  \
                  s21, s10, s04, s18, s07);                                                                            \
  keccak_round<10>(s00, s23, s16, s14, s07, s22, s15, s13, s06, s04, s19, s12, s05, s03, s21, s11, s09, s02, s20, s18, \
                   s08, s01, s24, s17, s10);                                                                           \
  keccak_round<11>(s00, s15, s05, s20, s10, s14, s04, s19, s09, s24, s23, s13, s03, s18, s08, s07, s22, s12, s02, s17, \
                   s16, s06, s21, s11, s01);                                                                           \
  keccak_round<12>(s00, s04, s03, s02, s01, s20, s24, s23, s22, s21, s15, s19, s18, s17, s16, s10, s14, s13, s12, s11, \
                   s05, s09, s08, s07, s06);                                                                           \
  keccak_round<13>(s00, s24, s18, s12, s06, s02, s21, s15, s14, s08, s04, s23, s17, s11, s05, s01, s20, s19, s13, s07, \
                   s03, s22, s16, s10, s09);                                                                           \
  keccak_round<14>(s00, s21, s17, s13, s09, s12, s08, s04, s20, s16, s24, s15, s11, s07, s03, s06, s02, s23, s19, s10, \
                   s18, s14, s05, s01, s22);                                                                           \
  keccak_round<15>(s00, s08, s11, s19, s22, s13, s16, s24, s02, s05, s21, s04, s07, s10, s18, s09, s12, s15, s23, s01, \
                   s17, s20, s03, s06, s14);                                                                           \
  keccak_round<16>(s00, s16, s07, s23, s14, s19, s05, s21, s12, s03, s08, s24, s10, s01, s17, s22, s13, s04, s15, s06, \
                   s11, s02, s18, s09, s20);                                                                           \
  keccak_round<17>(s00, s05, s10, s15, s20, s23, s03, s08, s13, s18, s16, s21, s01, s06, s11, s14, s19, s24, s04, s09, \
                   s07, s12, s17, s22, s02);                                                                           \
  keccak_round<18>(s00, s03, s01, s04, s02, s15, s18, s16, s19, s17, s05, s08, s06, s09, s07, s20, s23, s21, s24, s22, \
                   s10, s13, s11, s14, s12);                                                                           \
  keccak_round<19>(s00, s18, s06, s24, s12, s04, s17, s05, s23, s11, s03, s16, s09, s22, s10, s02, s15, s08, s21, s14, \
                   s01, s19, s07, s20, s13);                                                                           \
  keccak_round<20>(s00, s17, s09, s21, s13, s24, s11, s03, s15, s07, s18, s05, s22, s14, s01, s12, s04, s16, s08, s20, \
                   s06, s23, s10, s02, s19);                                                                           \
  keccak_round<21>(s00, s11, s22, s08, s19, s21, s07, s18, s04, s10, s17, s03, s14, s20, s06, s13, s24, s05, s16, s02, \
                   s09, s15, s01, s12, s23);                                                                           \
  keccak_round<22>(s00, s07, s14, s16, s23, s08, s10, s17, s24, s01, s11, s18, s20, s02, s09, s19, s21, s03, s05, s12, \
                   s22, s04, s06, s13, s15);                                                                           \
  keccak_round<23>(s00, s10, s20, s05, s15, s16, s01, s11, s21, s06, s07, s17, s02, s12, s22, s23, s08, s18, s03, s13, \
                   s14, s24, s09, s19, s04);
#define HQC_KECCAK_LANE_VARS(V)                                                                                        \
  V s00, s01, s02, s03, s04, s05, s06, s07, s08, s09, s10, s11, s12, s13, s14, s15, s16, s17, s18, s19, s20, s21, s22, \
      s23, s24

// NOLINTNEXTLINE(readability-function-size): the 24 rounds are unrolled on purpose (pi as a renaming).
void keccak_f1600_lanes(std::uint64_t state[25]) {
  HQC_KECCAK_LANE_VARS(__m128i);
#define HQC_LOAD1(v, i) (v) = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(state + (i)))
#define HQC_STORE1(v, i) _mm_storel_epi64(reinterpret_cast<__m128i*>(state + (i)), v)
#define HQC_EACH_LANE(F) \
  F(s00, 0);             \
  F(s01, 1);             \
  F(s02, 2);             \
  F(s03, 3);             \
  F(s04, 4);             \
  F(s05, 5);             \
  F(s06, 6);             \
  F(s07, 7);             \
  F(s08, 8);             \
  F(s09, 9);             \
  F(s10, 10);            \
  F(s11, 11);            \
  F(s12, 12);            \
  F(s13, 13);            \
  F(s14, 14);            \
  F(s15, 15);            \
  F(s16, 16);            \
  F(s17, 17);            \
  F(s18, 18);            \
  F(s19, 19);            \
  F(s20, 20);            \
  F(s21, 21);            \
  F(s22, 22);            \
  F(s23, 23);            \
  F(s24, 24)
  HQC_EACH_LANE(HQC_LOAD1);
  // The rounds take the lane registers in pi's order on purpose.
  HQC_KECCAK_PERMUTE();  // NOLINT(readability-suspicious-call-argument)
  HQC_EACH_LANE(HQC_STORE1);
#undef HQC_LOAD1
#undef HQC_STORE1
}

namespace {

inline __attribute__((always_inline)) void transpose4(__m256i& a, __m256i& b, __m256i& c, __m256i& d) {
  const __m256i t0 = _mm256_unpacklo_epi64(a, b), t1 = _mm256_unpackhi_epi64(a, b);
  const __m256i t2 = _mm256_unpacklo_epi64(c, d), t3 = _mm256_unpackhi_epi64(c, d);
  a = _mm256_permute2x128_si256(t0, t2, 0x20);
  b = _mm256_permute2x128_si256(t1, t3, 0x20);
  c = _mm256_permute2x128_si256(t0, t2, 0x31);
  d = _mm256_permute2x128_si256(t1, t3, 0x31);
}

// Four states on ymm: lanes 4g .. 4g + 3 of the four states in, transposed (lane 24 alone).
// NOLINTNEXTLINE(readability-function-size): the 24 rounds are unrolled on purpose (pi as a renaming).
void keccak_f1600_x4_ymm(std::uint64_t* s0, std::uint64_t* s1, std::uint64_t* s2, std::uint64_t* s3) {
  HQC_KECCAK_LANE_VARS(__m256i);
#define HQC_LOAD4(g, a, b, c, d)                                              \
  do {                                                                        \
    (a) = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s0 + 4 * (g))); \
    (b) = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s1 + 4 * (g))); \
    (c) = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s2 + 4 * (g))); \
    (d) = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s3 + 4 * (g))); \
    transpose4((a), (b), (c), (d));                                           \
  } while (0)
#define HQC_STORE4(g, a, b, c, d)                                      \
  do {                                                                 \
    __m256i ta = (a), tb = (b), tc = (c), td = (d);                    \
    transpose4(ta, tb, tc, td);                                        \
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(s0 + 4 * (g)), ta); \
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(s1 + 4 * (g)), tb); \
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(s2 + 4 * (g)), tc); \
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(s3 + 4 * (g)), td); \
  } while (0)
#define HQC_EACH_GROUP(F)   \
  F(0, s00, s01, s02, s03); \
  F(1, s04, s05, s06, s07); \
  F(2, s08, s09, s10, s11); \
  F(3, s12, s13, s14, s15); \
  F(4, s16, s17, s18, s19); \
  F(5, s20, s21, s22, s23)
  HQC_EACH_GROUP(HQC_LOAD4);
  s24 = _mm256_set_epi64x(static_cast<long long>(s3[24]), static_cast<long long>(s2[24]),
                          static_cast<long long>(s1[24]), static_cast<long long>(s0[24]));
  // The rounds take the lane registers in pi's order on purpose.
  HQC_KECCAK_PERMUTE();  // NOLINT(readability-suspicious-call-argument)
  HQC_EACH_GROUP(HQC_STORE4);
  alignas(32) std::uint64_t last[4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(last), s24);
  s0[24] = last[0];
  s1[24] = last[1];
  s2[24] = last[2];
  s3[24] = last[3];
#undef HQC_LOAD4
#undef HQC_STORE4
#undef HQC_EACH_GROUP
}

}  // namespace

// Which states are present (non-null) is public. One state: the lane-pair code on xmm; two: the
// lane-pair code on ymm, a state per 128-bit lane (same instruction count as one state); three or
// four: the one-lane code on ymm, a missing state on scratch lanes.
void keccak_f1600_x4(std::uint64_t* s0, std::uint64_t* s1, std::uint64_t* s2, std::uint64_t* s3) {
  std::uint64_t* given[4];
  int count = 0;
  for (std::uint64_t* s : {s0, s1, s2, s3})
    if (s != nullptr) given[count++] = s;
  if (count == 0) return;
  if (count == 1) {
    keccak_f1600_pairs(given[0]);
    return;
  }
  if (count == 2) {
    keccak_f1600_pairs_x2(given[0], given[1]);
    return;
  }
  alignas(32) std::uint64_t scratch[4][25];
  keccak_f1600_x4_ymm(s0 != nullptr ? s0 : scratch[0], s1 != nullptr ? s1 : scratch[1], s2 != nullptr ? s2 : scratch[2],
                      s3 != nullptr ? s3 : scratch[3]);
}

#undef HQC_EACH_LANE
#undef HQC_KECCAK_LANE_VARS
#undef HQC_KECCAK_PERMUTE
#undef HQC_KECCAK_INLINE

}  // namespace hqc::backend::avx512
