// Small wrappers used by the avx512 translation units only (all compiled with the same flags).
// g++ 12 reports -Wmaybe-uninitialized inside a few unmasked intrinsics (they start from
// _mm512_undefined_epi32()); the zero-masked forms with a full mask compile to the same
// instruction and keep the build warning-free.
#pragma once

#include <immintrin.h>

namespace hqc::backend::avx512 {

inline __m512i sllv64(__m512i x, __m512i c) { return _mm512_maskz_sllv_epi64(0xFF, x, c); }
inline __m512i srlv64(__m512i x, __m512i c) { return _mm512_maskz_srlv_epi64(0xFF, x, c); }
template <int kImm>
inline __m512i alignr64(__m512i hi, __m512i lo) { return _mm512_maskz_alignr_epi64(0xFF, hi, lo, kImm); }
inline __m512i bcast128(const void* p) {
  return _mm512_maskz_broadcast_i64x2(0xFF, _mm_loadu_si128(static_cast<const __m128i*>(p)));
}

}  // namespace hqc::backend::avx512
