// Ring multiplication (spec §2.2) with VPCLMULQDQ on 256-bit vectors (Zen 3+, Ice Lake+): the same
// decompositions as gf2x_avx2.cpp (gf2x_impl.hpp) with a base product of two 256-bit blocks made
// of 6 VPCLMULQDQ (two 64 x 64 products each: Karatsuba at 256 bits, the three 128 x 128
// products schoolbook in the two lanes) instead of 9 PCLMULQDQ plus their shuffles. A VPCLMULQDQ
// costs the same on 128-, 256- and 512-bit vectors on the CPUs measured (docs/AVX2.md), so the
// base is bounded by their count; the 8-VPCLMULQDQ schoolbook base stays as a bench variant.
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

// (r1:r0) = a * b, a = (A0 | A1), b = (B0 | B1) in 128-bit halves (the bench variant). Schoolbook on 64-bit words:
// VPCLMULQDQ on (a, b) gives A0 B0 and A1 B1 lane by lane, on (a, swap(b)) A0 B1 and A1 B0.
template <>
HQC_AVX2_ALWAYS_INLINE void mul256<Base::kV8>(__m256i a, __m256i b, __m256i& r0, __m256i& r1) {
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

// (r1:r0) = a * b with 6 VPCLMULQDQ: Karatsuba at 256 bits over schoolbook 128 x 128 products,
// the two outer products A0 B0 and A1 B1 in the two lanes of (a, b), and the middle product
// (A0 + A1)(B0 + B1) = S T on S = (s | s), T = (t | swap(t)) so that one VPCLMULQDQ gives s0 t0 in
// lane 0 and s0 t1 in lane 1, another s1 t1 and s1 t0.
template <>
HQC_AVX2_ALWAYS_INLINE void mul256<Base::kV6>(__m256i a, __m256i b, __m256i& r0, __m256i& r1) {
  // Outer products, lane by lane: d = (A0B0 | A1B1) as (lo | lo) and (hi | hi) halves.
  const __m256i l = _mm256_clmulepi64_epi128(a, b, 0x00);
  const __m256i h = _mm256_clmulepi64_epi128(a, b, 0x11);
  const __m256i m = _mm256_xor_si256(_mm256_clmulepi64_epi128(a, b, 0x01), _mm256_clmulepi64_epi128(a, b, 0x10));
  const __m256i dlo = _mm256_xor_si256(l, _mm256_slli_si256(m, 8));
  const __m256i dhi = _mm256_xor_si256(h, _mm256_srli_si256(m, 8));
  // S = (s | s), T = (t | swap(t)) with s = A0 + A1, t = B0 + B1.
  const __m256i s = _mm256_xor_si256(a, _mm256_permute2x128_si256(a, a, 0x01));
  const __m256i tt = _mm256_xor_si256(b, _mm256_permute2x128_si256(b, b, 0x01));
  const __m256i t = _mm256_blend_epi32(tt, _mm256_shuffle_epi32(tt, 0x4E), 0xF0);
  const __m256i m00 = _mm256_clmulepi64_epi128(s, t, 0x00);  // (s0 t0 | s0 t1)
  const __m256i m11 = _mm256_clmulepi64_epi128(s, t, 0x11);  // (s1 t1 | s1 t0)
  // S T = s0 t0 + c x^64 + s1 t1 x^128 with c = s0 t1 + s1 t0 (the upper lanes).
  const __m256i cc = _mm256_xor_si256(m00, m11);
  const __m256i cs =
      _mm256_blend_epi32(_mm256_permute4x64_epi64(cc, 0x38), _mm256_setzero_si256(), 0xC3);  // (0, c0 | c1, 0)
  const __m256i st = _mm256_xor_si256(_mm256_permute2x128_si256(m00, m11, 0x20), cs);        // (ST.lo | ST.hi)
  // P0 = A0B0, P2 = A1B1 as 256-bit vectors; the middle term ST + P0 + P2 at x^128.
  const __m256i p0 = _mm256_permute2x128_si256(dlo, dhi, 0x20);
  const __m256i p2 = _mm256_permute2x128_si256(dlo, dhi, 0x31);
  const __m256i mid = _mm256_xor_si256(st, _mm256_xor_si256(p0, p2));
  r0 = _mm256_xor_si256(p0, _mm256_permute2x128_si256(mid, mid, 0x08));  // + (0 | mid.lo)
  r1 = _mm256_xor_si256(p2, _mm256_permute2x128_si256(mid, mid, 0x81));  // + (mid.hi | 0)
}

}  // namespace

template <class P>
void mul_vpclmul(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b) {
  mul_impl<P, 1, Base::kV6, kToomLevels<P>>(out, a, b);
}

template <class P>
void mul2_vpclmul(std::uint64_t* out1, std::uint64_t* out2, const std::uint64_t* a1, const std::uint64_t* a2,
                  const std::uint64_t* b) {
  mul2_impl<P, 1, Base::kV6, kToomLevels<P>>(out1, out2, a1, a2, b);
}

template <class P>
void mul_vpclmul_variant(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b, int toom, int clmuls) {
  if (clmuls == 8) mul_impl<P, 1, Base::kV8, 0>(out, a, b);
  else if (toom == 0) mul_impl<P, 1, Base::kV6, 0>(out, a, b);
  else mul_impl<P, 1, Base::kV6, 1>(out, a, b);
}

#define HQC_AVX2_VPCLMUL_INSTANTIATE(P)                                                                     \
  template void mul_vpclmul<P>(std::uint64_t*, const std::uint64_t*, const std::uint64_t*);                 \
  template void mul2_vpclmul<P>(std::uint64_t*, std::uint64_t*, const std::uint64_t*, const std::uint64_t*, \
                                const std::uint64_t*);                                                      \
  template void mul_vpclmul_variant<P>(std::uint64_t*, const std::uint64_t*, const std::uint64_t*, int, int);
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
