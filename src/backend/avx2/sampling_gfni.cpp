// Support expansion (spec §4.4) as a GF(2) bit-matrix product with GFNI on 256-bit vectors:
// the variant of the avx2 rows that require GFNI (backend.cpp); GFNI is enabled by the target
// pragma below for this file's own functions only, so the file builds with the backend's plain
// -mavx2 flags wherever it is compiled. The layout of R and S: backend/support_matrix.hpp. One
// instruction does four output bytes cb (a different matrix per lane, R's qword broadcast); XOR
// over the position blocks accumulates; a byte shuffle and an 8x8 transpose of 16-bit words put
// every row's 32 bytes together.
//
// Constant time: a position only ever meets public lane indices in compares (the masks select
// what is ORed); every loop bound and address is a function of w and the parameter set.
#include <immintrin.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "backend/avx2/kernels.hpp"
#include "backend/avx2/simd.hpp"
#include "backend/support_matrix.hpp"
#include "params/params.hpp"

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,pclmul,bmi2,gfni"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,pclmul,bmi2,gfni")
#endif

namespace hqc::backend::avx2 {
namespace {

using u64 = std::uint64_t;
using u32 = std::uint32_t;

// Blocks of 8 positions for the largest weight of the parameter set (w, w_r, w_e: every caller's w).
template <class P>
constexpr std::size_t kMaxKb = (std::max({P::kW, P::kWr, P::kWe}) + 7) / 8;

inline __m256i bcast64(u64 v) { return _mm256_set1_epi64x(static_cast<long long>(v)); }

// acc[g]: lane l holds byte i of row 8 rb + i, byte 4 g + l of the row. Returns rows in z[i].
inline void rows_from_products(__m256i* z) {
  // Per 128-bit lane (cb pair c' = 0, 1; 8 bytes i each): byte 8 c' + i -> byte 2 i + c'.
  const __m256i shuf = _mm256_setr_epi8(0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15, 0, 8, 1, 9, 2, 10, 3, 11,
                                        4, 12, 5, 13, 6, 14, 7, 15);
  for (int g = 0; g < 8; g++) z[g] = _mm256_shuffle_epi8(z[g], shuf);
  // 8x8 transpose of 16-bit words inside each 128-bit lane: z[g] word i -> z[i] word g.
  __m256i a[8], b[8];
  for (int m = 0; m < 4; m++) {
    a[2 * m] = _mm256_unpacklo_epi16(z[2 * m], z[2 * m + 1]);
    a[2 * m + 1] = _mm256_unpackhi_epi16(z[2 * m], z[2 * m + 1]);
  }
  for (int m = 0; m < 2; m++)
    for (int h = 0; h < 2; h++) {
      b[4 * m + 2 * h] = _mm256_unpacklo_epi32(a[4 * m + h], a[4 * m + 2 + h]);
      b[4 * m + 2 * h + 1] = _mm256_unpackhi_epi32(a[4 * m + h], a[4 * m + 2 + h]);
    }
  // b[0..3]: words 0-1, 2-3 (of rows from z[0..3]) and 4-5, 6-7; b[4..7] the same for z[4..7].
  for (int q = 0; q < 4; q++) {
    z[2 * q] = _mm256_unpacklo_epi64(b[q], b[4 + q]);
    z[2 * q + 1] = _mm256_unpackhi_epi64(b[q], b[4 + q]);
  }
  // Row i: 128-bit lane h word g = byte pair 2 g + h; interleave the lanes' words.
  for (int i = 0; i < 8; i++) {
    const __m128i lo = _mm256_castsi256_si128(z[i]), hi = _mm256_extracti128_si256(z[i], 1);
    z[i] = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_unpacklo_epi16(lo, hi)), _mm_unpackhi_epi16(lo, hi), 1);
  }
}

}  // namespace

template <class P>
void support_to_vector_gfni(u64* out, const u32* pos, std::size_t w) {
  constexpr std::size_t kRows = support_matrix::kRows<P>;
  constexpr std::size_t kRb = support_matrix::kRowBlocks<P>;
  constexpr std::size_t kRv = (kRb + 3) / 4;  // ymm of R qwords per position block
  static_assert(P::kNWordsPadded % 4 == 0);
  const std::size_t kb_count = (w + 7) / 8;
  alignas(32) u64 mat[kMaxKb<P>][32];
  alignas(32) u64 rows[kMaxKb<P>][4 * kRv];
  const __m256i iota = _mm256_setr_epi64x(0, 1, 2, 3);
  for (std::size_t kb = 0; kb < kb_count; kb++) {
    __m256i macc[8], racc[kRv];
    for (auto& a : macc) a = _mm256_setzero_si256();
    for (auto& a : racc) a = _mm256_setzero_si256();
    for (std::size_t t = 0; t < 8 && 8 * kb + t < w; t++) {  // public bound: padding adds nothing
      const auto c = support_matrix::coordinates(pos[8 * kb + t], t);
      const __m256i cb = bcast64(c.byte), mb = bcast64(c.byte_bit);
      const __m256i rb = bcast64(c.row_block), rv = bcast64(c.row_bit);
      for (std::size_t g = 0; g < 8; g++) {
        const __m256i hit = _mm256_cmpeq_epi64(_mm256_add_epi64(iota, bcast64(4 * g)), cb);
        macc[g] = _mm256_or_si256(macc[g], _mm256_and_si256(hit, mb));
      }
      for (std::size_t v = 0; v < kRv; v++) {
        const __m256i hit = _mm256_cmpeq_epi64(_mm256_add_epi64(iota, bcast64(4 * v)), rb);
        racc[v] = _mm256_or_si256(racc[v], _mm256_and_si256(hit, rv));
      }
    }
    for (std::size_t g = 0; g < 8; g++) store256(mat[kb] + 4 * g, macc[g]);
    for (std::size_t v = 0; v < kRv; v++) store256(rows[kb] + 4 * v, racc[v]);
  }
  for (std::size_t rb = 0; rb < kRb; rb++) {
    __m256i acc[8];
    for (auto& a : acc) a = _mm256_setzero_si256();
    for (std::size_t kb = 0; kb < kb_count; kb++) {
      const __m256i x = bcast64(rows[kb][rb]);
      for (std::size_t g = 0; g < 8; g++)
        acc[g] = _mm256_xor_si256(acc[g], _mm256_gf2p8affine_epi64_epi8(x, load256(mat[kb] + 4 * g), 0));
    }
    rows_from_products(acc);
    for (std::size_t i = 0; i < 8 && 8 * rb + i < kRows; i++) store256(out + 4 * (8 * rb + i), acc[i]);
  }
  // Words >= kNWords are zero: positions are < n.
  wipe(mat, sizeof(mat));
  wipe(rows, sizeof(rows));
}

#define HQC_AVX2_SUPPORT_GFNI_INSTANTIATE(P) template void support_to_vector_gfni<P>(u64*, const u32*, std::size_t);
HQC_AVX2_SUPPORT_GFNI_INSTANTIATE(Hqc1)
HQC_AVX2_SUPPORT_GFNI_INSTANTIATE(Hqc3)
HQC_AVX2_SUPPORT_GFNI_INSTANTIATE(Hqc5)
#undef HQC_AVX2_SUPPORT_GFNI_INSTANTIATE

}  // namespace hqc::backend::avx2

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
