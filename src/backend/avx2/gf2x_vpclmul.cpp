// Ring multiplication (spec §2.2) with VPCLMULQDQ on 256-bit vectors (Zen 3+, Ice Lake+): the same
// decompositions as gf2x_avx2.cpp (gf2x_impl.hpp) with a base product of two 256-bit blocks made
// of 8 VPCLMULQDQ (two 64 x 64 products each) instead of 9 PCLMULQDQ plus their shuffles.
// Reached only through the registry rows avx2-vpclmul*, which require VPCLMULQDQ. The
// instruction set is enabled by the pragma below for this file's own functions only (system and
// shared headers are included before it).
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "backend/avx2/kernels.hpp"
#include "backend/avx2/simd.hpp"
#include "params/params.hpp"

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,pclmul,bmi2,vpclmulqdq"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,pclmul,bmi2,vpclmulqdq")
#endif

#include "backend/avx2/gf2x_impl.hpp"

namespace hqc::backend::avx2 {
namespace {

// (r1:r0) = a * b, a = (A0 | A1), b = (B0 | B1) in 128-bit halves. Schoolbook on 64-bit words:
// VPCLMULQDQ on (a, b) gives A0 B0 and A1 B1 lane by lane, on (a, swap(b)) A0 B1 and A1 B0.
template <>
inline void mul256<Base::kV8>(__m256i a, __m256i b, __m256i& r0, __m256i& r1) {
  const __m256i bs = _mm256_permute2x128_si256(b, b, 0x01);
  // Per lane: 128 x 128 -> (lo, hi) from l, h and the middle m.
  __m256i l = _mm256_clmulepi64_epi128(a, b, 0x00);
  __m256i h = _mm256_clmulepi64_epi128(a, b, 0x11);
  __m256i m = _mm256_xor_si256(_mm256_clmulepi64_epi128(a, b, 0x01), _mm256_clmulepi64_epi128(a, b, 0x10));
  const __m256i dlo = _mm256_xor_si256(l, _mm256_slli_si256(m, 8));  // (A0B0.lo | A1B1.lo)
  const __m256i dhi = _mm256_xor_si256(h, _mm256_srli_si256(m, 8));  // (A0B0.hi | A1B1.hi)
  l = _mm256_clmulepi64_epi128(a, bs, 0x00);
  h = _mm256_clmulepi64_epi128(a, bs, 0x11);
  m = _mm256_xor_si256(_mm256_clmulepi64_epi128(a, bs, 0x01), _mm256_clmulepi64_epi128(a, bs, 0x10));
  __m256i xlo = _mm256_xor_si256(l, _mm256_slli_si256(m, 8));  // (A0B1.lo | A1B0.lo)
  __m256i xhi = _mm256_xor_si256(h, _mm256_srli_si256(m, 8));
  // X = A0 B1 + A1 B0 (256 bits), its halves in both lanes.
  xlo = _mm256_xor_si256(xlo, _mm256_permute2x128_si256(xlo, xlo, 0x01));
  xhi = _mm256_xor_si256(xhi, _mm256_permute2x128_si256(xhi, xhi, 0x01));
  // a b = A0B0 + X Y + A1B1 Y^2 with Y = x^128.
  r0 = _mm256_xor_si256(_mm256_permute2x128_si256(dlo, dhi, 0x20),
                        _mm256_blend_epi32(_mm256_setzero_si256(), xlo, 0xF0));
  r1 = _mm256_xor_si256(_mm256_permute2x128_si256(dlo, dhi, 0x31),
                        _mm256_blend_epi32(_mm256_setzero_si256(), xhi, 0x0F));
}

}  // namespace

template <class P>
void mul_vpclmul(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b) {
  mul_impl<P, 1, Base::kV8, kToomLevels<P>>(out, a, b);
}

template <class P>
void mul2_vpclmul(std::uint64_t* out1, std::uint64_t* out2, const std::uint64_t* a1, const std::uint64_t* a2,
                  const std::uint64_t* b) {
  mul2_impl<P, 1, Base::kV8, kToomLevels<P>>(out1, out2, a1, a2, b);
}

template <class P>
void mul_vpclmul_toom(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b, int toom) {
  if (toom == 0) mul_impl<P, 1, Base::kV8, 0>(out, a, b);
  else mul_impl<P, 1, Base::kV8, 1>(out, a, b);
}

#define HQC_AVX2_VPCLMUL_INSTANTIATE(P)                                                                     \
  template void mul_vpclmul<P>(std::uint64_t*, const std::uint64_t*, const std::uint64_t*);                 \
  template void mul2_vpclmul<P>(std::uint64_t*, std::uint64_t*, const std::uint64_t*, const std::uint64_t*, \
                                const std::uint64_t*);                                                      \
  template void mul_vpclmul_toom<P>(std::uint64_t*, const std::uint64_t*, const std::uint64_t*, int);
HQC_AVX2_VPCLMUL_INSTANTIATE(Hqc1)
HQC_AVX2_VPCLMUL_INSTANTIATE(Hqc3)
HQC_AVX2_VPCLMUL_INSTANTIATE(Hqc5)
#undef HQC_AVX2_VPCLMUL_INSTANTIATE

}  // namespace hqc::backend::avx2

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
