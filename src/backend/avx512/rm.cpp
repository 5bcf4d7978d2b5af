// Reed-Muller RM(1,7) decoding of every block on AVX-512 (spec §5.5).
// Per block: the 128 counts X_p (16-bit lanes, four zmm) are built with masked adds straight from
// the code word bits (k-masks), the natural-order Hadamard transform runs as 7 butterfly levels
// (two between registers, five inside a register: one lane permutation, one add, one masked
// subtract), and find_peaks uses comparison masks only: every lane gets the key
// |F| << 7 | (127 - q), whose unsigned maximum (reduced with lane permutations) is the first
// index of maximal |F|; its sign is read through an equality mask, never through an index.
#include <immintrin.h>

#include "backend/avx512/kernels.hpp"
#include "backend/avx512/simd.hpp"

namespace hqc::backend::avx512 {

namespace {

using u64 = std::uint64_t;

// Lane permutations that swap 16-bit lanes at distance 16, 8, 4, 2, 1.
inline __m512i swap16(__m512i x) { return _mm512_maskz_shuffle_i64x2(0xFF, x, x, 0x4E); }
inline __m512i swap8(__m512i x) { return _mm512_maskz_shuffle_i64x2(0xFF, x, x, 0xB1); }
inline __m512i swap4(__m512i x) { return _mm512_maskz_shuffle_epi32(0xFFFF, x, static_cast<_MM_PERM_ENUM>(0x4E)); }
inline __m512i swap2(__m512i x) { return _mm512_maskz_shuffle_epi32(0xFFFF, x, static_cast<_MM_PERM_ENUM>(0xB1)); }
inline __m512i swap1(__m512i x) { return _mm512_maskz_rol_epi32(0xFFFF, x, 16); }

// One in-register butterfly level: lanes with the distance bit clear get a + b, the others a - b.
template <__m512i (*Swap)(__m512i), __mmask32 kUpper>
inline __m512i butterfly(__m512i x) {
  const __m512i s = Swap(x);
  return _mm512_mask_sub_epi16(_mm512_add_epi16(x, s), kUpper, s, x);
}

inline __m512i butterflies_in_register(__m512i x) {
  x = butterfly<swap16, 0xFFFF0000u>(x);
  x = butterfly<swap8, 0xFF00FF00u>(x);
  x = butterfly<swap4, 0xF0F0F0F0u>(x);
  x = butterfly<swap2, 0xCCCCCCCCu>(x);
  x = butterfly<swap1, 0xAAAAAAAAu>(x);
  return x;
}

inline __m512i max_all_lanes(__m512i x) {
  x = _mm512_max_epu16(x, swap16(x));
  x = _mm512_max_epu16(x, swap8(x));
  x = _mm512_max_epu16(x, swap4(x));
  x = _mm512_max_epu16(x, swap2(x));
  x = _mm512_max_epu16(x, swap1(x));
  return x;
}

std::uint8_t decode_block(const u64* block, std::size_t mult) {
  // 1. Counts: zmm r holds X_p for p = 32r .. 32r+31, i.e. bits 32(r&1).. of word r>>1 of a copy.
  __m512i f[4];
  const __m512i one = _mm512_set1_epi16(1);
  for (__m512i& v : f) v = _mm512_setzero_si512();
  for (std::size_t t = 0; t < mult; t++) {
    for (int r = 0; r < 4; r++) {
      const __mmask32 bits = static_cast<__mmask32>(block[2 * t + static_cast<std::size_t>(r >> 1)] >> (32 * (r & 1)));
      f[r] = _mm512_mask_add_epi16(f[r], bits, f[r], one);
    }
  }
  // 2. Hadamard transform: distances 64 and 32 between registers, 16 .. 1 inside.
  for (int r = 0; r < 2; r++) {
    const __m512i a = f[r], b = f[r + 2];
    f[r] = _mm512_add_epi16(a, b);
    f[r + 2] = _mm512_sub_epi16(a, b);
  }
  for (int r = 0; r < 4; r += 2) {
    const __m512i a = f[r], b = f[r + 1];
    f[r] = _mm512_add_epi16(a, b);
    f[r + 1] = _mm512_sub_epi16(a, b);
  }
  for (__m512i& v : f) v = butterflies_in_register(v);
  // 3. Bias of the 0/1 counts: F[0] -= 64 * mult.
  f[0] = _mm512_mask_sub_epi16(f[0], 1, f[0], _mm512_set1_epi16(static_cast<short>(64 * mult)));
  // 4./5. First index of maximal |F| and its sign.
  __m512i key[4];
  const __m512i iota = _mm512_set_epi16(31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12,
                                        11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  for (int r = 0; r < 4; r++) {
    const __m512i rev_q = _mm512_sub_epi16(_mm512_set1_epi16(static_cast<short>(127 - 32 * r)), iota);  // 127 - q
    const __m512i absf = _mm512_maskz_abs_epi16(0xFFFFFFFFu, f[r]);
    key[r] = _mm512_or_si512(_mm512_maskz_slli_epi16(0xFFFFFFFFu, absf, 7), rev_q);
  }
  const __m512i best =
      max_all_lanes(_mm512_max_epu16(_mm512_max_epu16(key[0], key[1]), _mm512_max_epu16(key[2], key[3])));
  u64 positive = 0;
  for (int r = 0; r < 4; r++) {
    const __mmask32 at = _mm512_cmpeq_epi16_mask(key[r], best);
    positive |= static_cast<u64>(_mm512_mask_cmpgt_epi16_mask(at, f[r], _mm512_setzero_si512()));
  }
  const std::uint32_t best_key = static_cast<std::uint32_t>(_mm512_cvtsi512_si32(best)) & 0xFFFFu;
  const std::uint32_t q = 127u - (best_key & 127u);
  const std::uint32_t pos_bit = static_cast<std::uint32_t>((positive + 0xFFFFFFFFull) >> 32);  // 1 iff a mask bit set
  for (int r = 0; r < 4; r++) f[r] = key[r] = _mm512_setzero_si512();
  return static_cast<std::uint8_t>(q | (pos_bit << 7));
}

}  // namespace

template <class P>
void rm_decode(std::uint8_t* out, const std::uint64_t* in) {
  for (std::size_t j = 0; j < P::kN1; j++) out[j] = decode_block(in + j * (P::kN2 / 64), P::kMult);
}

template void rm_decode<Hqc1>(std::uint8_t*, const std::uint64_t*);
template void rm_decode<Hqc3>(std::uint8_t*, const std::uint64_t*);
template void rm_decode<Hqc5>(std::uint8_t*, const std::uint64_t*);

}  // namespace hqc::backend::avx512
