// Small wrappers used by the avx512 translation units only (all compiled with the same flags).
// g++ 12 reports -Wmaybe-uninitialized inside a few unmasked intrinsics (they start from
// _mm512_undefined_epi32()); the zero-masked forms with a full mask compile to the same
// instruction and keep the build warning-free.
#pragma once

#include <immintrin.h>

#if defined(__has_feature)
#if __has_feature(memory_sanitizer)
#define HQC_AVX512_MSAN 1
#endif
#endif

namespace hqc::backend::avx512 {

// Three-input logic. vpternlogq normally; under MemorySanitizer (whose clang 14 does not model
// vpternlogq and would stop tracking secrets there) the same function from plain vector ops.
inline __m512i xor3_512(__m512i a, __m512i b, __m512i c) {
#ifdef HQC_AVX512_MSAN
  return _mm512_xor_si512(_mm512_xor_si512(a, b), c);
#else
  return _mm512_ternarylogic_epi64(a, b, c, 0x96);
#endif
}
inline __m256i xor3_256(__m256i a, __m256i b, __m256i c) {
#ifdef HQC_AVX512_MSAN
  return _mm256_xor_si256(_mm256_xor_si256(a, b), c);
#else
  return _mm256_ternarylogic_epi64(a, b, c, 0x96);
#endif
}
inline __m128i xor3_128(__m128i a, __m128i b, __m128i c) {
#ifdef HQC_AVX512_MSAN
  return _mm_xor_si128(_mm_xor_si128(a, b), c);
#else
  return _mm_ternarylogic_epi64(a, b, c, 0x96);
#endif
}
inline __m128i chi_128(__m128i a, __m128i b, __m128i c) {
#ifdef HQC_AVX512_MSAN
  return _mm_xor_si128(a, _mm_andnot_si128(b, c));
#else
  return _mm_ternarylogic_epi64(a, b, c, 0xD2);
#endif
}
// a ^ (~b & c), Keccak's chi.
inline __m512i chi_512(__m512i a, __m512i b, __m512i c) {
#ifdef HQC_AVX512_MSAN
  return _mm512_xor_si512(a, _mm512_andnot_si512(b, c));
#else
  return _mm512_ternarylogic_epi64(a, b, c, 0xD2);
#endif
}
inline __m256i chi_256(__m256i a, __m256i b, __m256i c) {
#ifdef HQC_AVX512_MSAN
  return _mm256_xor_si256(a, _mm256_andnot_si256(b, c));
#else
  return _mm256_ternarylogic_epi64(a, b, c, 0xD2);
#endif
}

inline __m512i sllv64(__m512i x, __m512i c) { return _mm512_maskz_sllv_epi64(0xFF, x, c); }
inline __m512i srlv64(__m512i x, __m512i c) { return _mm512_maskz_srlv_epi64(0xFF, x, c); }
template <int kImm>
inline __m512i alignr64(__m512i hi, __m512i lo) {
  return _mm512_maskz_alignr_epi64(0xFF, hi, lo, kImm);
}
inline __m512i rolv64(__m512i x, __m512i c) { return _mm512_maskz_rolv_epi64(0xFF, x, c); }
template <int kBits>
inline __m512i rol64(__m512i x) {
  return _mm512_maskz_rol_epi64(0xFF, x, kBits);
}
inline __m512i perm64(__m512i idx, __m512i x) { return _mm512_maskz_permutexvar_epi64(0xFF, idx, x); }
inline __m512i perm32(__m512i idx, __m512i x) { return _mm512_maskz_permutexvar_epi32(0xFFFF, idx, x); }
inline __m512i mul_epu32(__m512i a, __m512i b) { return _mm512_maskz_mul_epu32(0xFF, a, b); }
template <unsigned kBits>
inline __m512i srli64(__m512i x) {
  return _mm512_maskz_srli_epi64(0xFF, x, kBits);
}
inline __m512i cvt_u32_u64(__m256i x) { return _mm512_maskz_cvtepu32_epi64(0xFF, x); }
inline __m512i bcast128(const void* p) {
  return _mm512_maskz_broadcast_i64x2(0xFF, _mm_loadu_si128(static_cast<const __m128i*>(p)));
}

}  // namespace hqc::backend::avx512
