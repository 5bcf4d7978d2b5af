// Sampling kernels on AVX-512 (spec §4.3, §4.4).
//  * support_to_vector: a GF(2) bit-matrix product with gf2p8affineqb (see above it).
//  * enc_positions: the multiply-shift for 16 positions at a time (vpmuludq on even/odd lanes),
//    then the duplicate fix-up without its serial chain: independent compares of each draw with
//    the later draws, and pointer jumping along the links i -> p_i (see above enc_positions).
#include <immintrin.h>

#include <bit>

#include "backend/avx512/kernels.hpp"
#include "backend/avx512/simd.hpp"
#include "backend/support_matrix.hpp"
#include "common/ct.hpp"
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

// Support expansion as a GF(2) bit-matrix product with GFNI (spec §4.4; the layout of R and S:
// backend/support_matrix.hpp) with every step on 512-bit vectors: with R's qword of (rb, kb)
// broadcast and the matrices M[kb][8 g .. 8 g + 8) as the lanes' matrices, lane l, byte i of a
// gf2p8affineqb is what positions 8 kb .. 8 kb + 7 put into byte 8 g + l of row 8 rb + i: four
// instructions per (rb, kb), XORed over kb. A byte transpose (vpermb) and a qword interleave then
// give two whole rows per vector.
//
// Constant time: a position meets only public lane indices, in compares whose masks select what
// is ORed; every loop bound and address is a function of w and the parameter set.
alignas(64) constexpr std::uint8_t kByteTranspose8[64] = {0, 8,  16, 24, 32, 40, 48, 56, 1, 9,  17, 25, 33, 41, 49, 57,
                                                          2, 10, 18, 26, 34, 42, 50, 58, 3, 11, 19, 27, 35, 43, 51, 59,
                                                          4, 12, 20, 28, 36, 44, 52, 60, 5, 13, 21, 29, 37, 45, 53, 61,
                                                          6, 14, 22, 30, 38, 46, 54, 62, 7, 15, 23, 31, 39, 47, 55, 63};

inline __m512i bcast64(u64 v) { return _mm512_set1_epi64(static_cast<long long>(v)); }

// acc[g], lane l, byte i: byte 8 g + l of row i. Stores rows 0..7 (256 bits each) at out.
inline void store_row_block(u64* out, const __m512i* acc) {
  const __m512i bt = _mm512_load_si512(kByteTranspose8);
  __m512i t[4];  // t[g], qword i: bytes 8 g .. 8 g + 7 of row i
  for (int g = 0; g < 4; g++) t[g] = _mm512_maskz_permutexvar_epi8(~__mmask64{0}, bt, acc[g]);
  const __m512i lo = _mm512_set_epi64(11, 3, 10, 2, 9, 1, 8, 0), hi = _mm512_set_epi64(15, 7, 14, 6, 13, 5, 12, 4);
  const __m512i first = _mm512_set_epi64(11, 10, 3, 2, 9, 8, 1, 0),
                second = _mm512_set_epi64(15, 14, 7, 6, 13, 12, 5, 4);
  const __m512i t01[2] = {_mm512_permutex2var_epi64(t[0], lo, t[1]), _mm512_permutex2var_epi64(t[0], hi, t[1])};
  const __m512i t23[2] = {_mm512_permutex2var_epi64(t[2], lo, t[3]), _mm512_permutex2var_epi64(t[2], hi, t[3])};
  for (int h = 0; h < 2; h++) {  // rows 4 h .. 4 h + 3
    _mm512_storeu_si512(out + 16 * h, _mm512_permutex2var_epi64(t01[h], first, t23[h]));
    _mm512_storeu_si512(out + 16 * h + 8, _mm512_permutex2var_epi64(t01[h], second, t23[h]));
  }
}

}  // namespace

template <class P>
void support_to_vector(u64* out, const std::uint32_t* pos, std::size_t w) {
  constexpr std::size_t kRows = support_matrix::kRows<P>;
  constexpr std::size_t kRb = support_matrix::kRowBlocks<P>;
  constexpr std::size_t kRv = (kRb + 7) / 8;  // vectors of R qwords per position block
  constexpr std::size_t kMaxKb = (kMaxW + 7) / 8;
  static_assert(kRows % 2 == 0, "rows are stored in pairs");
  const std::size_t kb_count = (w + 7) / 8;
  alignas(64) u64 mat[kMaxKb][32];
  alignas(64) u64 rows[kMaxKb][8 * kRv];
  const __m512i iota = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
  for (std::size_t kb = 0; kb < kb_count; kb++) {
    __m512i macc[4], racc[kRv];
    for (auto& a : macc) a = _mm512_setzero_si512();
    for (auto& a : racc) a = _mm512_setzero_si512();
    for (std::size_t t = 0; t < 8 && 8 * kb + t < w; t++) {  // public bound: padding adds nothing
      const auto c = support_matrix::coordinates(pos[8 * kb + t], t);
      const __m512i cb = bcast64(c.byte), mb = bcast64(c.byte_bit);
      const __m512i rb = bcast64(c.row_block), rv = bcast64(c.row_bit);
      for (std::size_t g = 0; g < 4; g++) {
        const __mmask8 hit = _mm512_cmpeq_epu64_mask(_mm512_add_epi64(iota, bcast64(8 * g)), cb);
        macc[g] = _mm512_mask_or_epi64(macc[g], hit, macc[g], mb);
      }
      for (std::size_t v = 0; v < kRv; v++) {
        const __mmask8 hit = _mm512_cmpeq_epu64_mask(_mm512_add_epi64(iota, bcast64(8 * v)), rb);
        racc[v] = _mm512_mask_or_epi64(racc[v], hit, racc[v], rv);
      }
    }
    for (std::size_t g = 0; g < 4; g++) _mm512_store_si512(mat[kb] + 8 * g, macc[g]);
    for (std::size_t v = 0; v < kRv; v++) _mm512_store_si512(rows[kb] + 8 * v, racc[v]);
  }
  for (std::size_t rb = 0; rb < kRb; rb++) {
    __m512i acc[4];
    for (auto& a : acc) a = _mm512_setzero_si512();
    for (std::size_t kb = 0; kb < kb_count; kb++) {
      const __m512i x = bcast64(rows[kb][rb]);
      for (std::size_t g = 0; g < 4; g++)
        acc[g] = _mm512_xor_si512(acc[g], _mm512_gf2p8affine_epi64_epi8(x, _mm512_load_si512(mat[kb] + 8 * g), 0));
    }
    if (8 * rb + 8 <= kRows) {  // public: the last block may hold fewer rows
      store_row_block(out + 32 * rb, acc);
    } else {
      alignas(64) u64 last[32];
      store_row_block(last, acc);
      for (std::size_t i = 0; i < 4 * (kRows - 8 * rb); i++) out[32 * rb + i] = last[i];
      wipe(last, sizeof(last));
    }
  }
  // Words >= kNWords are zero: positions are < n.
  wipe(mat, sizeof(mat));
  wipe(rows, sizeof(rows));
}

// The duplicate fix-up of spec §4.3 (from i = w-2 down to 0: p_i becomes i if it equals a current
// entry of a later index) without its serial chain. With final_j the value of entry j after the
// fix-up and dup_j its replacement flag:
//   {final_j : j > i} = {p_j : j > i} u {j : j > i, dup_j}
// (a replaced p_j equals some final_k, k > j; an unreplaced one is its own final value), so
//   dup_i = c_i or (i < p_i < w and dup_(p_i)),   c_i = [p_i equals some p_j, j > i].
// The c_i are independent compares of the drawn positions. The second term follows the links
// i -> p_i, which strictly increase, so dup_i is the OR of c along the chain that starts at i:
// pointer jumping (each round doubles the covered length) gives it in bit_width(w) rounds of
// in-register table lookups (vpermi2w), at no secret address.
template <class P>
void enc_positions(std::uint32_t* pos, const std::uint8_t* xof_bytes, std::size_t w) {
  constexpr std::size_t kChunks = (kMaxW + 15) / 16;     // 16 dword lanes per chunk
  constexpr std::size_t kLinks = (kMaxW + 1 + 31) / 32;  // 32 word lanes: the w entries and the sink
  static_assert(kMaxW + 1 <= 192, "three vpermi2w table pairs hold the links");
  __m512i v[kChunks];
  alignas(64) std::uint32_t drawn[16 * kChunks];
  const std::size_t chunks = (w + 15) / 16;
  const __m512i iota = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  const __m512i nvec = _mm512_set1_epi32(static_cast<int>(P::kN));
  const __m512i wvec = _mm512_set1_epi32(static_cast<int>(w));
  // The sink: the link target of an entry without a later one to follow (its own link, no flag).
  const std::uint32_t sink = static_cast<std::uint32_t>(w);
  std::uint32_t link_mask[2 * kLinks] = {};  // per 16 entries: lanes whose link is p_i
  for (std::size_t c = 0; c < chunks; c++) {
    const std::size_t rem = w - 16 * c;
    const __mmask16 m = rem >= 16 ? static_cast<__mmask16>(0xFFFF) : static_cast<__mmask16>((1u << rem) - 1u);
    const __m512i r = _mm512_maskz_loadu_epi32(m, xof_bytes + 64 * c);  // little-endian 32-bit words
    const __m512i idx = _mm512_add_epi32(iota, _mm512_set1_epi32(static_cast<int>(16 * c)));
    const __m512i nmi = _mm512_sub_epi32(nvec, idx);
    // p_i = i + (R_i * (n - i)) >> 32 for even and odd 32-bit lanes.
    const __m512i pe = srli64<32>(mul_epu32(r, nmi));
    const __m512i po = mul_epu32(srli64<32>(r), srli64<32>(nmi));
    const __m512i hi = _mm512_mask_blend_epi32(0xAAAA, pe, po);
    // Lanes past w hold an impossible position so that no compare ever matches them.
    v[c] = _mm512_mask_blend_epi32(m, _mm512_set1_epi32(-1), _mm512_add_epi32(hi, idx));
    _mm512_store_si512(drawn + 16 * c, v[c]);
    link_mask[c] = _mm512_mask_cmpgt_epu32_mask(_mm512_cmplt_epu32_mask(v[c], wvec), v[c], idx);
  }
  // c_i for every i (the last entry has no later one). Each i is independent of the others; the
  // flags of one chunk gather in a register.
  std::uint32_t cbits[2 * kLinks] = {};
  for (std::size_t ci = 0; ci < chunks; ci++) {
    const unsigned lanes = static_cast<unsigned>(w - 1 - 16 * ci < 16 ? w - 1 - 16 * ci : 16);
    std::uint32_t flags = 0;
    for (unsigned li = 0; li < lanes; li++) {
      const __m512i pi = _mm512_set1_epi32(static_cast<int>(drawn[16 * ci + li]));
      const __mmask16 later = static_cast<__mmask16>(~((2u << li) - 1u));  // lanes j > i in chunk ci
      std::uint32_t any = _mm512_mask_cmpeq_epi32_mask(later, v[ci], pi);
      for (std::size_t c = ci + 1; c < chunks; c++) any |= _mm512_cmpeq_epi32_mask(v[c], pi);
      flags |= barrier32((any | (0u - any)) >> 31) << li;  // bit li iff a later equal draw
    }
    cbits[ci] = flags;
  }
  // Links as 16-bit lanes: bits 0..7 the target (p_i or the sink), bit 15 the flag (c_i).
  __m512i e[kLinks];
  const std::size_t links = (w + 1 + 31) / 32;
  const __m512i flag = _mm512_set1_epi16(static_cast<short>(0x8000));
  alignas(64) static constexpr std::uint16_t kLowWords[32] = {0,  2,  4,  6,  8,  10, 12, 14, 16, 18, 20,
                                                              22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42,
                                                              44, 46, 48, 50, 52, 54, 56, 58, 60, 62};
  const __m512i low_words = _mm512_load_si512(kLowWords);
  for (std::size_t k = 0; k < links; k++) {
    const __m512i a = 2 * k < chunks ? v[2 * k] : _mm512_setzero_si512();
    const __m512i b = 2 * k + 1 < chunks ? v[2 * k + 1] : _mm512_setzero_si512();
    const __m512i targets = _mm512_maskz_permutex2var_epi16(~__mmask32{0}, a, low_words, b);  // low word of each lane
    const __mmask32 linked = static_cast<__mmask32>(link_mask[2 * k] | (link_mask[2 * k + 1] << 16));
    const __mmask32 flagged = static_cast<__mmask32>(cbits[2 * k] | (cbits[2 * k + 1] << 16));
    e[k] = _mm512_mask_blend_epi16(linked, _mm512_set1_epi16(static_cast<short>(sink)), targets);
    e[k] = _mm512_or_si512(e[k], _mm512_maskz_mov_epi16(flagged, flag));
  }
  // Entries past w and the sink itself are neither linked nor flagged, so they hold the sink: every
  // chain ends there. Registers past the links only fill the unused halves of the table pairs.
  for (std::size_t k = links; k < kLinks; k++) e[k] = _mm512_set1_epi16(static_cast<short>(sink));
  // Pointer jumping: e_i |= flag of e_(target_i); target_i = target of target_i.
  const __m512i lo6 = _mm512_set1_epi16(0x3F);
  const unsigned rounds = static_cast<unsigned>(std::bit_width(w));
  for (unsigned round = 0; round < rounds; round++) {
    __m512i next[kLinks];
    for (std::size_t k = 0; k < links; k++) {
      const __m512i t = _mm512_and_si512(e[k], lo6);
      const __m512i tsel =
          _mm512_maskz_srli_epi16(~__mmask32{0}, _mm512_and_si512(e[k], _mm512_set1_epi16(0xFF)), 6);  // table pair
      __m512i g = _mm512_maskz_permutex2var_epi16(~__mmask32{0}, e[0], t, e[1]);
      for (std::size_t pair = 1; 2 * pair < links; pair++) {
        const __mmask32 here = _mm512_cmpeq_epi16_mask(tsel, _mm512_set1_epi16(static_cast<short>(pair)));
        const __m512i b = 2 * pair + 1 < kLinks ? e[2 * pair + 1] : _mm512_setzero_si512();
        g = _mm512_mask_mov_epi16(g, here, _mm512_maskz_permutex2var_epi16(~__mmask32{0}, e[2 * pair], t, b));
      }
      next[k] = _mm512_or_si512(g, _mm512_and_si512(e[k], flag));
    }
    for (std::size_t k = 0; k < links; k++) e[k] = next[k];
  }
  // final_i = i where flagged, p_i otherwise.
  for (std::size_t c = 0; c < chunks; c++) {
    const __mmask32 f = _mm512_test_epi16_mask(e[c / 2], flag);
    const __mmask16 dup = static_cast<__mmask16>(c % 2 ? f >> 16 : f);
    const __m512i idx = _mm512_add_epi32(iota, _mm512_set1_epi32(static_cast<int>(16 * c)));
    v[c] = _mm512_mask_mov_epi32(v[c], dup, idx);
    const std::size_t rem = w - 16 * c;
    const __mmask16 m = rem >= 16 ? static_cast<__mmask16>(0xFFFF) : static_cast<__mmask16>((1u << rem) - 1u);
    _mm512_mask_storeu_epi32(pos + 16 * c, m, v[c]);
  }
  ct::wipe(drawn, sizeof(drawn));
  ct::wipe(cbits, sizeof(cbits));
  ct::wipe(link_mask, sizeof(link_mask));
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
