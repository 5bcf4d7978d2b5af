// Sampling kernels on AVX-512 (spec §4.3, §4.4).
//  * support_to_vector: eight 64-bit output words per iteration; every position is compared with
//    the word index of every lane (vpcmpeqq -> mask -> masked vporq), so a position never becomes
//    an address. Four output vectors share each broadcast position.
//  * enc_positions: the multiply-shift for 16 positions at a time (vpmuludq on even/odd lanes),
//    then the duplicate fix-up from w-2 down to 0 with the positions kept in vector registers:
//    each step compares one broadcast position with all later ones and merges i with a mask.
#include <immintrin.h>

#include "backend/avx512/kernels.hpp"
#include "backend/avx512/simd.hpp"
#if defined(HQC_AVX512_MSAN)
#include <sanitizer/msan_interface.h>
#endif

namespace hqc::backend::avx512 {

namespace {

using u64 = std::uint64_t;
constexpr std::size_t kMaxW = 160;

// Hides a value from the optimiser (keeps mask arithmetic from becoming a branch).
inline std::uint32_t barrier32(std::uint32_t x) {
#ifndef HQC_AVX512_MSAN  // MemorySanitizer treats asm outputs as defined: skip it there
  __asm__("" : "+r"(x));
#endif
  return x;
}

template <int U>
inline void expand_chunks(u64* out, std::size_t c0, const u64* widx, const u64* bits, std::size_t w) {
  __m512i acc[U], lane_words[U];
  const __m512i iota = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
  for (int u = 0; u < U; u++) {
    acc[u] = _mm512_setzero_si512();
    lane_words[u] =
        _mm512_add_epi64(iota, _mm512_set1_epi64(8 * static_cast<long long>(c0 + static_cast<std::size_t>(u))));
  }
  for (std::size_t k = 0; k < w; k++) {
    const __m512i wk = _mm512_set1_epi64(static_cast<long long>(widx[k]));
    const __m512i bk = _mm512_set1_epi64(static_cast<long long>(bits[k]));
    for (int u = 0; u < U; u++) {
      const __mmask8 m = _mm512_cmpeq_epu64_mask(lane_words[u], wk);
      acc[u] = _mm512_mask_or_epi64(acc[u], m, acc[u], bk);
    }
  }
  for (int u = 0; u < U; u++) _mm512_storeu_si512(out + 8 * (c0 + static_cast<std::size_t>(u)), acc[u]);
}

}  // namespace

template <class P>
void support_to_vector(std::uint64_t* out, const std::uint32_t* pos, std::size_t w) {
  alignas(64) u64 widx[kMaxW + 8];
  alignas(64) u64 bits[kMaxW + 8];
  const __m512i low6 = _mm512_set1_epi64(63), one = _mm512_set1_epi64(1);
  for (std::size_t k = 0; k < w; k += 8) {
    const std::size_t rem = w - k;
    const __mmask8 m = rem >= 8 ? static_cast<__mmask8>(0xFF) : static_cast<__mmask8>((1u << rem) - 1u);
    const __m512i p = cvt_u32_u64(_mm256_maskz_loadu_epi32(m, pos + k));
    _mm512_store_si512(widx + k, srli64<6>(p));
    _mm512_store_si512(bits + k, sllv64(one, _mm512_and_si512(p, low6)));
  }
  // Eight output vectors per pass over the positions, and the C % 8 last ones in one more pass
  // (C is a compile-time constant: 35 / 71 / 113 vectors for HQC-1/3/5).
  constexpr std::size_t C = P::kNWordsPadded / 8;
  constexpr std::size_t kFull = C / 8 * 8;
  for (std::size_t c = 0; c < kFull; c += 8) expand_chunks<8>(out, c, widx, bits, w);
  if constexpr (C % 8 != 0) expand_chunks<static_cast<int>(C % 8)>(out, kFull, widx, bits, w);
  // Words >= kNWords stay zero: positions are < n.
  wipe(widx, sizeof(widx));
  wipe(bits, sizeof(bits));
}

template <class P>
void enc_positions(std::uint32_t* pos, const std::uint8_t* xof_bytes, std::size_t w) {
  constexpr std::size_t kChunks = (kMaxW + 15) / 16;
  __m512i v[kChunks];
  const std::size_t chunks = (w + 15) / 16;
  const __m512i iota = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  const __m512i nvec = _mm512_set1_epi32(static_cast<int>(P::kN));
  for (std::size_t c = 0; c < chunks; c++) {
    const std::size_t rem = w - 16 * c;
    const __mmask16 m = rem >= 16 ? static_cast<__mmask16>(0xFFFF) : static_cast<__mmask16>((1u << rem) - 1u);
    const __m512i r = _mm512_maskz_loadu_epi32(m, xof_bytes + 64 * c);  // little-endian 32-bit words
    const __m512i idx = _mm512_add_epi32(iota, _mm512_set1_epi32(static_cast<int>(16 * c)));
    const __m512i nmi = _mm512_sub_epi32(nvec, idx);
    // (r * (n - i)) >> 32 for even and odd 32-bit lanes.
    const __m512i pe = srli64<32>(mul_epu32(r, nmi));
    const __m512i po = mul_epu32(srli64<32>(r), srli64<32>(nmi));
    const __m512i hi = _mm512_mask_blend_epi32(0xAAAA, pe, po);
    // Lanes past w hold an impossible position so that the duplicate search never matches them.
    v[c] = _mm512_mask_blend_epi32(m, _mm512_set1_epi32(-1), _mm512_add_epi32(hi, idx));
  }
  for (std::size_t i = w - 1; i-- > 0;) {
    const std::size_t ci = i / 16;
    const unsigned li = static_cast<unsigned>(i % 16);
    const __m512i pi = perm32(_mm512_set1_epi32(static_cast<int>(li)), v[ci]);
    const __mmask16 later = static_cast<__mmask16>(~((2u << li) - 1u));  // lanes j > i in chunk ci
    std::uint32_t any = _mm512_mask_cmpeq_epi32_mask(later, v[ci], pi);
    for (std::size_t c = ci + 1; c < chunks; c++) any |= _mm512_cmpeq_epi32_mask(v[c], pi);
    const std::uint32_t found = barrier32(0u - ((any | (0u - any)) >> 31));  // all-ones iff a duplicate
    const __mmask16 sel = static_cast<__mmask16>((1u << li) & found);
    v[ci] = _mm512_mask_mov_epi32(v[ci], sel, _mm512_set1_epi32(static_cast<int>(i)));
  }
  for (std::size_t c = 0; c < chunks; c++) {
    const std::size_t rem = w - 16 * c;
    const __mmask16 m = rem >= 16 ? static_cast<__mmask16>(0xFFFF) : static_cast<__mmask16>((1u << rem) - 1u);
    _mm512_mask_storeu_epi32(pos + 16 * c, m, v[c]);
  }
}

#define HQC_AVX512_SAMPLING(P)                                                           \
  template void support_to_vector<P>(std::uint64_t*, const std::uint32_t*, std::size_t); \
  template void enc_positions<P>(std::uint32_t*, const std::uint8_t*, std::size_t);
HQC_AVX512_SAMPLING(Hqc1)
HQC_AVX512_SAMPLING(Hqc3)
HQC_AVX512_SAMPLING(Hqc5)

// All-ones if r is among pos[0..count). count is public; 16 positions per compare, the tail
// through a masked load (no read past count), so no address depends on r or the positions.
std::uint32_t position_taken(const std::uint32_t* pos, std::size_t count, std::uint32_t r) {
  const __m512i vr = _mm512_set1_epi32(static_cast<int>(r));
  __mmask16 hit = 0;
  std::size_t i = 0;
  for (; i + 16 <= count; i += 16) hit |= _mm512_cmpeq_epi32_mask(_mm512_loadu_si512(pos + i), vr);
  if (i < count) {
    const __mmask16 live = static_cast<__mmask16>((1u << (count - i)) - 1u);
    hit |= _mm512_mask_cmpeq_epi32_mask(live, _mm512_maskz_loadu_epi32(live, pos + i), vr);
  }
  // hit < 2^16, so (0 - hit) >> 31 is 1 iff some lane matched.
  const std::uint32_t any = (0u - barrier32(static_cast<std::uint32_t>(hit))) >> 31;
  return 0u - any;
}

// One refill of the key-generation sampler. Every draw i gets its position r_i (Barrett, as
// sampling::reduce_mod_n) and validity (c_i < T); the concatenation A = pos[0..count) followed by
// the r_i (an invalid draw replaced by ~0, which equals no position) makes draw i a duplicate iff
// r_i is in A[0..count + i): the positions accepted before draw i and the earlier valid draws of
// this refill are the same set, so every draw is decided independently (16 compares per
// instruction, no dependency chain from draw to draw) and the result equals the sequential
// sampler's. Only then is the accept pattern, which is public (spec §8), declassified and used to
// append the accepted positions in order.
template <class P>
std::size_t keygen_accept(std::uint32_t* pos, std::size_t count, const std::uint8_t* draws, std::size_t groups) {
  constexpr std::uint64_t kBarrett = (std::uint64_t{1} << 32) / P::kN;
  constexpr std::uint32_t kN = static_cast<std::uint32_t>(P::kN);
  alignas(64) std::uint32_t a[2 * kMaxW + 16];
  std::uint32_t r[kMaxW];
  std::uint8_t ok[kMaxW];
  for (std::size_t i = 0; i < count; i++) a[i] = pos[i];
  for (std::size_t i = 0; i < groups; i++) {
    const std::uint32_t c = static_cast<std::uint32_t>(draws[3 * i]) |
                            (static_cast<std::uint32_t>(draws[3 * i + 1]) << 8) |
                            (static_cast<std::uint32_t>(draws[3 * i + 2]) << 16);
    const std::uint32_t q = static_cast<std::uint32_t>((c * kBarrett) >> 32);
    std::uint32_t x = c - q * kN;
    x -= kN & (0u - ((kN - 1 - x) >> 31));                               // x >= n: subtract n once
    const std::uint32_t valid = 0u - ((c - P::kRejectThreshold) >> 31);  // all-ones iff c < T
    r[i] = x;
    a[count + i] = (x & valid) | ~valid;
  }
  // Sixteen draws at a time: every earlier entry of A (accepted positions and earlier draws of
  // this refill, one broadcast each) against the block's 16 positions, then the block's own
  // earlier lanes (lane i only against lanes j < i). The same comparisons as draw by draw, without
  // a per-draw loop.
  for (std::size_t i = count + groups; i % 16 != 0; i++) a[i] = ~0u;  // pad the last block
  for (std::size_t b = 0; b < groups; b += 16) {
    const __m512i vr = _mm512_loadu_si512(a + count + b);
    __mmask16 hit = 0;
    for (std::size_t j = 0; j < count + b; j++)
      hit |= _mm512_cmpeq_epi32_mask(vr, _mm512_set1_epi32(static_cast<int>(a[j])));
    for (unsigned j = 0; j < 15; j++)
      hit |= _mm512_mask_cmpeq_epi32_mask(static_cast<__mmask16>(0xFFFEu << j), vr,
                                          _mm512_set1_epi32(static_cast<int>(a[count + b + j])));
    // Accepted iff valid (not ~0) and no hit. The mask of accepted lanes is the public accept
    // pattern (declassified below, after every draw of the refill is decided).
    const __mmask16 invalid = _mm512_cmpeq_epi32_mask(vr, _mm512_set1_epi32(-1));
    const std::uint32_t acc = ~barrier32(static_cast<std::uint32_t>(hit | invalid)) & 0xFFFFu;
    for (std::size_t i = 0; i < 16 && b + i < groups; i++) ok[b + i] = static_cast<std::uint8_t>((acc >> i) & 1u);
  }
#if defined(HQC_AVX512_MSAN)
  __msan_unpoison(ok, groups);  // the accept pattern is public (spec §8)
#endif
  for (std::size_t i = 0; i < groups; i++)
    if (ok[i]) pos[count++] = r[i];
  wipe(a, sizeof(a));
  wipe(r, sizeof(r));
  return count;
}

template std::size_t keygen_accept<Hqc1>(std::uint32_t*, std::size_t, const std::uint8_t*, std::size_t);
template std::size_t keygen_accept<Hqc3>(std::uint32_t*, std::size_t, const std::uint8_t*, std::size_t);
template std::size_t keygen_accept<Hqc5>(std::uint32_t*, std::size_t, const std::uint8_t*, std::size_t);

}  // namespace hqc::backend::avx512
