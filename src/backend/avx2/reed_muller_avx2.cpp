// Duplicated RM(1,7) decoding (spec §5.5) with AVX2: the 128 soft counts of a block live in eight
// vectors of 16-bit lanes (X_p at vector p >> 4, lane p & 15); the Walsh-Hadamard transform is
// three butterfly passes across vectors (index bits 4-6) and four inside them (bits 0-3, partner
// lanes by shuffles, signs by VPSIGNW); the peak is a horizontal maximum of |F| (PHMINPOSUW on
// the complement) followed by a second horizontal maximum over the keys (127 - q) << 1 | (F > 0)
// of the lanes that reach it, which picks the smallest index on ties without any index-dependent
// address or branch.
#include "backend/avx2/kernels.hpp"
#include "backend/avx2/simd.hpp"

namespace hqc::backend::avx2 {
namespace {

using u64 = std::uint64_t;

// Maximum of the unsigned 16-bit lanes of v, broadcast to every lane.
inline __m256i hmax_u16(__m256i v) {
  const __m128i m = _mm_max_epu16(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  const __m128i c = _mm_xor_si128(m, _mm_set1_epi16(-1));
  const __m128i mn = _mm_minpos_epu16(c);  // lane 0 = min of the complements
  return _mm256_broadcastw_epi16(_mm_xor_si128(mn, _mm_set1_epi16(-1)));
}

template <std::size_t Mult>
inline std::uint8_t decode_block(const u64* blk) {
  const __m256i lane_bit = _mm256_set_epi16(static_cast<short>(0x8000), 0x4000, 0x2000, 0x1000, 0x0800, 0x0400, 0x0200,
                                            0x0100, 0x0080, 0x0040, 0x0020, 0x0010, 0x0008, 0x0004, 0x0002, 0x0001);
  __m256i x[8];
  for (auto& v : x) v = _mm256_setzero_si256();
  // 1. Counts: bit p of every copy, as 0 / -1 lanes subtracted from the count.
  for (std::size_t t = 0; t < Mult; t++) {
    const __m256i copy = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(blk + 2 * t)));
    for (int v = 0; v < 8; v++) {
      const char lo = static_cast<char>(2 * v), hi = static_cast<char>(2 * v + 1);
      const __m256i sel = _mm256_set_epi8(hi, lo, hi, lo, hi, lo, hi, lo, hi, lo, hi, lo, hi, lo, hi, lo, hi, lo, hi,
                                          lo, hi, lo, hi, lo, hi, lo, hi, lo, hi, lo, hi, lo);
      const __m256i w = _mm256_shuffle_epi8(copy, sel);  // bits 16v .. 16v+15 in every lane
      const __m256i set = _mm256_cmpeq_epi16(_mm256_and_si256(w, lane_bit), lane_bit);
      x[v] = _mm256_sub_epi16(x[v], set);
    }
  }
  // 2. Hadamard transform, natural order. Index bits 4..6: across vectors.
  for (int h = 1; h < 8; h <<= 1) {
    for (int v = 0; v < 8; v++) {
      if (v & h) continue;  // public loop structure
      const __m256i a = x[v], b = x[v + h];
      x[v] = _mm256_add_epi16(a, b);
      x[v + h] = _mm256_sub_epi16(a, b);
    }
  }
  // Index bits 0..3: new[l] = x[l ^ 2^b] + s * x[l] with s = -1 on lanes whose bit b is set.
  const __m256i swap16 = _mm256_set_epi8(13, 12, 15, 14, 9, 8, 11, 10, 5, 4, 7, 6, 1, 0, 3, 2, 13, 12, 15, 14, 9, 8, 11,
                                         10, 5, 4, 7, 6, 1, 0, 3, 2);
  const __m256i s0 = _mm256_set_epi16(-1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1);
  const __m256i s1 = _mm256_set_epi16(-1, -1, 1, 1, -1, -1, 1, 1, -1, -1, 1, 1, -1, -1, 1, 1);
  const __m256i s2 = _mm256_set_epi16(-1, -1, -1, -1, 1, 1, 1, 1, -1, -1, -1, -1, 1, 1, 1, 1);
  const __m256i s3 = _mm256_set_epi16(-1, -1, -1, -1, -1, -1, -1, -1, 1, 1, 1, 1, 1, 1, 1, 1);
  // swap16 exchanges 16-bit lanes within 32-bit pairs: bytes (1,0) <-> (3,2).
  for (auto& v : x) {
    v = _mm256_add_epi16(_mm256_shuffle_epi8(v, swap16), _mm256_sign_epi16(v, s0));
    v = _mm256_add_epi16(_mm256_shuffle_epi32(v, 0xB1), _mm256_sign_epi16(v, s1));
    v = _mm256_add_epi16(_mm256_shuffle_epi32(v, 0x4E), _mm256_sign_epi16(v, s2));
    v = _mm256_add_epi16(_mm256_permute4x64_epi64(v, 0x4E), _mm256_sign_epi16(v, s3));
  }
  // 3. F[0] -= 64 mult.
  x[0] = _mm256_sub_epi16(x[0],
                          _mm256_set_epi16(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, static_cast<short>(64 * Mult)));
  // 4. Peak: M = max |F|; among lanes with |F| = M the largest key (127 - q) << 1 | (F > 0).
  __m256i a[8];
  __m256i m = _mm256_setzero_si256();
  for (int v = 0; v < 8; v++) {
    a[v] = _mm256_abs_epi16(x[v]);
    m = _mm256_max_epi16(m, a[v]);
  }
  m = hmax_u16(m);
  const __m256i zero = _mm256_setzero_si256();
  __m256i best = zero;
  for (int v = 0; v < 8; v++) {
    const short b = static_cast<short>(127 - 16 * v);
    const __m256i base = _mm256_set_epi16(
        static_cast<short>(2 * (b - 15)), static_cast<short>(2 * (b - 14)), static_cast<short>(2 * (b - 13)),
        static_cast<short>(2 * (b - 12)), static_cast<short>(2 * (b - 11)), static_cast<short>(2 * (b - 10)),
        static_cast<short>(2 * (b - 9)), static_cast<short>(2 * (b - 8)), static_cast<short>(2 * (b - 7)),
        static_cast<short>(2 * (b - 6)), static_cast<short>(2 * (b - 5)), static_cast<short>(2 * (b - 4)),
        static_cast<short>(2 * (b - 3)), static_cast<short>(2 * (b - 2)), static_cast<short>(2 * (b - 1)),
        static_cast<short>(2 * b));
    const __m256i positive = _mm256_srli_epi16(_mm256_cmpgt_epi16(x[v], zero), 15);
    const __m256i key = _mm256_and_si256(_mm256_cmpeq_epi16(a[v], m), _mm256_or_si256(base, positive));
    best = _mm256_max_epi16(best, key);
  }
  const auto k = static_cast<unsigned>(_mm256_extract_epi16(hmax_u16(best), 0));
  // 5. Byte = q* + 128 * (F[q*] > 0), with q* = 127 - (key >> 1).
  return static_cast<std::uint8_t>((127u - (k >> 1)) | ((k & 1u) << 7));
}

}  // namespace

template <class P>
void rm_decode(std::uint8_t* out, const u64* in) {
  for (std::size_t j = 0; j < P::kN1; j++) out[j] = decode_block<P::kMult>(in + j * (P::kN2 / 64));
}

template void rm_decode<Hqc1>(std::uint8_t*, const u64*);
template void rm_decode<Hqc3>(std::uint8_t*, const u64*);
template void rm_decode<Hqc5>(std::uint8_t*, const u64*);

}  // namespace hqc::backend::avx2
