// Support expansion (spec §4.4) and the encryption sampler (spec §4.3) with AVX2. No position is
// ever used as an address: support expansion builds each 256-bit chunk from every position with a
// variable shift (VPSLLVQ yields 0 for counts >= 64, which also covers "negative" differences),
// and the sampler's duplicate fix-up compares each entry with all later ones, 8 per instruction.
#include "backend/avx2/kernels.hpp"
#include "backend/avx2/simd.hpp"

namespace hqc::backend::avx2 {
namespace {

using u64 = std::uint64_t;
using u32 = std::uint32_t;

// G chunks of 256 bits starting at word `w0`: acc_g |= 1 << (p - 64 (w0 + 4g + lane)).
template <std::size_t G>
inline void expand_group(u64* out, std::size_t w0, const u32* pos, std::size_t w) {
  const __m256i one = _mm256_set1_epi64x(1);
  __m256i acc[G], off[G];
  for (std::size_t g = 0; g < G; g++) {
    acc[g] = _mm256_setzero_si256();
    const auto base = 64 * static_cast<long long>(w0 + 4 * g);
    off[g] = _mm256_set_epi64x(base + 192, base + 128, base + 64, base);
  }
  for (std::size_t k = 0; k < w; k++) {
    const __m256i p = _mm256_set1_epi64x(static_cast<long long>(pos[k]));
    for (std::size_t g = 0; g < G; g++)
      acc[g] = _mm256_or_si256(acc[g], _mm256_sllv_epi64(one, _mm256_sub_epi64(p, off[g])));
  }
  for (std::size_t g = 0; g < G; g++) store256(out + w0 + 4 * g, acc[g]);
}

}  // namespace

template <class P>
void support_to_vector(u64* out, const u32* pos, std::size_t w) {
  static_assert(P::kNWordsPadded % 8 == 0);
  constexpr std::size_t kGroup = 4;  // chunks per pass over the positions
  std::size_t w0 = 0;
  for (; w0 + 4 * kGroup <= P::kNWordsPadded; w0 += 4 * kGroup) expand_group<kGroup>(out, w0, pos, w);
  for (; w0 < P::kNWordsPadded; w0 += 8) expand_group<2>(out, w0, pos, w);
}

template <class P>
void enc_positions(u32* pos, const std::uint8_t* rnd, std::size_t w) {
  constexpr std::size_t kMaxW = P::kWr > P::kWe ? P::kWr : P::kWe;
  constexpr std::size_t kBuf = (kMaxW + 7) / 8 * 8 + 8;
  alignas(32) u32 buf[kBuf];
  // 1. p_i = i + floor(R_i (n - i) / 2^32), four at a time (VPMULUDQ on 32-bit lanes).
  std::size_t i = 0;
  const __m256i step = _mm256_set1_epi64x(4);
  __m256i idx = _mm256_set_epi64x(3, 2, 1, 0);
  const __m256i nn = _mm256_set1_epi64x(static_cast<long long>(P::kN));
  const __m256i pack = _mm256_set_epi32(7, 5, 3, 1, 6, 4, 2, 0);
  for (; i + 4 <= w; i += 4) {
    const __m256i r = _mm256_cvtepu32_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i*>(rnd + 4 * i)));
    const __m256i prod = _mm256_mul_epu32(r, _mm256_sub_epi64(nn, idx));
    const __m256i p = _mm256_add_epi64(_mm256_srli_epi64(prod, 32), idx);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(buf + i), _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(p, pack)));
    idx = _mm256_add_epi64(idx, step);
  }
  for (; i < w; i++) {
    u32 r;
    std::memcpy(&r, rnd + 4 * i, 4);
    buf[i] = static_cast<u32>(i + ((static_cast<u64>(r) * (P::kN - i)) >> 32));
  }
  // Padding lanes never equal a position (< n).
  for (std::size_t j = w; j < kBuf; j++) buf[j] = 0xFFFFFFFFu;
  // 2. From w-2 down to 0: p_i = i if p_i equals any current p_j, j > i (all compared). The block
  //    of 8 that holds i stays in a register while it is being fixed (a vector load right after a
  //    scalar store of one of its lanes would stall on store forwarding, once per position); the
  //    blocks above it are whole-vector stores, read back whole.
  //    With fewer than two positions there is nothing to fix (w is public).
  if (w >= 2) {
    const __m256i lane = _mm256_set_epi32(7, 6, 5, 4, 3, 2, 1, 0);
    const std::size_t wpad = (w + 7) / 8 * 8;
    std::size_t blk = (w - 2) & ~std::size_t{7};
    __m256i cur = load256(buf + blk);
    for (std::size_t t = w - 1; t-- > 0;) {
      if ((t & ~std::size_t{7}) != blk) {  // public: t crosses into the next block down
        store256(buf + blk, cur);
        blk = t & ~std::size_t{7};
        cur = load256(buf + blk);
      }
      const __m256i li = _mm256_set1_epi32(static_cast<int>(t - blk));
      const __m256i b = _mm256_permutevar8x32_epi32(cur, li);
      // Lanes blk + l <= t are not "later" entries (public mask from the public index t).
      __m256i acc = _mm256_and_si256(_mm256_cmpgt_epi32(lane, li), _mm256_cmpeq_epi32(cur, b));
      for (std::size_t j = blk + 8; j < wpad; j += 8)
        acc = _mm256_or_si256(acc, _mm256_cmpeq_epi32(load256(buf + j), b));
      const u32 bits = static_cast<u32>(_mm256_movemask_epi8(acc));
      const u32 found = barrier<u32>(0u - ((bits | (0u - bits)) >> 31));
      // Lane t - blk becomes t where a duplicate was found (a mask, not a branch).
      const __m256i sel = _mm256_and_si256(_mm256_cmpeq_epi32(lane, li), _mm256_set1_epi32(static_cast<int>(found)));
      cur = _mm256_blendv_epi8(cur, _mm256_set1_epi32(static_cast<int>(t)), sel);
    }
    store256(buf + blk, cur);
  }
  std::memcpy(pos, buf, w * sizeof(u32));
  wipe(buf, sizeof(buf));
}

#define HQC_AVX2_SAMPLING_INSTANTIATE(P)                             \
  template void support_to_vector<P>(u64*, const u32*, std::size_t); \
  template void enc_positions<P>(u32*, const std::uint8_t*, std::size_t);
HQC_AVX2_SAMPLING_INSTANTIATE(Hqc1)
HQC_AVX2_SAMPLING_INSTANTIATE(Hqc3)
HQC_AVX2_SAMPLING_INSTANTIATE(Hqc5)
#undef HQC_AVX2_SAMPLING_INSTANTIATE

// All-ones if r is among pos[0..count). count is public; each compare covers 8 positions, the
// last (count % 8) positions are compared one by one with masks, so no address depends on r or
// the positions. (movemask, not ptest: MemorySanitizer models the former bit by bit.)
std::uint32_t position_taken(const u32* pos, std::size_t count, u32 r) {
  const __m256i vr = _mm256_set1_epi32(static_cast<int>(r));
  __m256i acc = _mm256_setzero_si256();
  std::size_t i = 0;
  for (; i + 8 <= count; i += 8)
    acc = _mm256_or_si256(acc, _mm256_cmpeq_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(pos + i)), vr));
  u32 hit = static_cast<u32>(_mm256_movemask_epi8(acc));
  for (; i < count; i++) {
    const u32 d = pos[i] ^ r;
    hit |= 1u ^ ((d | (0u - d)) >> 31);  // 1 iff pos[i] == r (positions are below 2^31)
  }
  // hit != 0 iff some position matched.
  return 0u - ((hit | (0u - hit)) >> 31);
}

}  // namespace hqc::backend::avx2
