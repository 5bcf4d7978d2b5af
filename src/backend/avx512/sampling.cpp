// Sampling kernels on AVX-512 (spec §4.3, §4.4).
//  * support_to_vector: a GF(2) bit-matrix product with GFNI (see below); every position is
//    compared with public lane indices (vpcmpeqq -> mask -> masked vporq) and never becomes an
//    address.
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

// ---- support_to_vector as a GF(2) matrix product (GFNI) ---------------------------------------
//
// The output, C chunks of 512 bits, is a C x 512 bit matrix: row c = bits [512 c, 512 c + 512).
// Position p_k sets bit o_k = p_k mod 512 of row c_k = p_k / 512, so with R[c][k] = [c_k = c]
// and S[k][o] = [o_k = o]:  Out = R S over GF(2) (positions are distinct: no two terms meet).
// Blocks of 8 rows (rb), 8 positions (kb) and one output byte (cb, bits j) are 8x8 products:
// gf2p8affineqb(x, A) gives, for every byte x of a lane, result bit j = parity(A.byte[7 - j] & x).
// With x = byte i of the qword R[kb][rb] (bit t = R[8 rb + i][8 kb + t]) and the lane's A =
// M[kb][cb] (byte 7 - j, bit t = S[8 kb + t][8 cb + j]), the result byte is the contribution of
// positions 8 kb .. 8 kb + 7 to byte cb of row 8 rb + i. One instruction does eight cb at once
// (a different A per lane, x broadcast); XOR over kb accumulates. Then an 8x8 byte transpose per
// lane and an 8x8 qword transpose put every row's 64 bytes together.
// Building M and R costs one compare and one masked OR per position and 512-bit accumulator
// (8 for M, ceil(C / 64) for R) instead of C for the chunk-by-chunk expansion; no position is an
// address (every index below is a public loop counter).

constexpr std::size_t kMaxKb = (kMaxW + 7) / 8;

// 8x8 qword transpose of z[0..8) (z[i] lane j -> z[j] lane i).
inline void transpose_qwords(__m512i* z) {
  alignas(64) static constexpr u64 kLo1[8] = {0, 8, 2, 10, 4, 12, 6, 14}, kHi1[8] = {1, 9, 3, 11, 5, 13, 7, 15};
  alignas(64) static constexpr u64 kLo2[8] = {0, 1, 8, 9, 4, 5, 12, 13}, kHi2[8] = {2, 3, 10, 11, 6, 7, 14, 15};
  alignas(64) static constexpr u64 kLo4[8] = {0, 1, 2, 3, 8, 9, 10, 11}, kHi4[8] = {4, 5, 6, 7, 12, 13, 14, 15};
  const u64* lo[3] = {kLo1, kLo2, kLo4};
  const u64* hi[3] = {kHi1, kHi2, kHi4};
  for (int s = 0, d = 1; s < 3; s++, d *= 2) {
    const __m512i il = _mm512_load_si512(lo[s]), ih = _mm512_load_si512(hi[s]);
    __m512i t[8];
    for (int i = 0; i < 8; i++) {
      const int a = (i / (2 * d)) * (2 * d) + (i % d), b = a + d;
      t[i] = (i % (2 * d)) < d ? _mm512_permutex2var_epi64(z[a], il, z[b]) : _mm512_permutex2var_epi64(z[a], ih, z[b]);
    }
    for (int i = 0; i < 8; i++) z[i] = t[i];
  }
}

}  // namespace

template <class P>
void support_to_vector(std::uint64_t* out, const std::uint32_t* pos, std::size_t w) {
  constexpr std::size_t C = P::kNWordsPadded / 8;  // 512-bit rows: 35 / 71 / 113
  constexpr std::size_t kRb = (C + 7) / 8;         // blocks of 8 rows
  constexpr std::size_t kRv = (kRb + 7) / 8;       // zmm of R qwords per position block
  static_assert(P::kNWordsPadded % 8 == 0 && kRv <= 2);
  const std::size_t kb_count = (w + 7) / 8;
  // Per position (padding lanes: a chunk and a byte that match nothing):
  //   mbit = 1 << (8 (7 - j) + t), mcb = byte cb of the row; rbit = 1 << (8 (c mod 8) + t), rrb = c / 8.
  alignas(64) u64 mbit[kMaxW + 8], mcb[kMaxW + 8], rbit[kMaxW + 8], rrb[kMaxW + 8];
  {
    const __m512i seven = _mm512_set1_epi64(7), t_of_lane = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
    const __m512i one = _mm512_set1_epi64(1), none = _mm512_set1_epi64(0xFFFF);
    for (std::size_t k = 0; k < 8 * kb_count; k += 8) {
      const std::size_t rem = w - k;
      const __mmask8 m = rem >= 8 ? static_cast<__mmask8>(0xFF) : static_cast<__mmask8>((1u << rem) - 1u);
      const __m512i p = cvt_u32_u64(_mm256_maskz_loadu_epi32(m, pos + k));
      const __m512i j = _mm512_and_si512(p, seven);
      const __m512i c = srli64<9>(p);
      const __m512i msh = _mm512_add_epi64(sllv64(_mm512_sub_epi64(seven, j), _mm512_set1_epi64(3)), t_of_lane);
      const __m512i rsh = _mm512_add_epi64(sllv64(_mm512_and_si512(c, seven), _mm512_set1_epi64(3)), t_of_lane);
      _mm512_store_si512(mbit + k, sllv64(one, msh));
      _mm512_store_si512(mcb + k,
                         _mm512_mask_blend_epi64(m, none, _mm512_and_si512(srli64<3>(p), _mm512_set1_epi64(63))));
      _mm512_store_si512(rbit + k, sllv64(one, rsh));
      _mm512_store_si512(rrb + k, _mm512_mask_blend_epi64(m, none, srli64<3>(c)));
    }
  }
  // M[kb][cb] (64 qwords per position block) and R[kb][rb] (kRv zmm per position block).
  alignas(64) u64 mat[kMaxKb][64];
  alignas(64) u64 rows[kMaxKb][8 * kRv];
  const __m512i iota = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
  for (std::size_t kb = 0; kb < kb_count; kb++) {
    __m512i macc[8], racc[kRv];
    for (auto& a : macc) a = _mm512_setzero_si512();
    for (auto& a : racc) a = _mm512_setzero_si512();
    for (std::size_t t = 0; t < 8; t++) {
      const std::size_t k = 8 * kb + t;
      const __m512i cb = _mm512_set1_epi64(static_cast<long long>(mcb[k]));
      const __m512i mb = _mm512_set1_epi64(static_cast<long long>(mbit[k]));
      for (std::size_t g = 0; g < 8; g++) {
        const __mmask8 hit =
            _mm512_cmpeq_epu64_mask(_mm512_add_epi64(iota, _mm512_set1_epi64(static_cast<long long>(8 * g))), cb);
        macc[g] = _mm512_mask_or_epi64(macc[g], hit, macc[g], mb);
      }
      const __m512i rb = _mm512_set1_epi64(static_cast<long long>(rrb[k]));
      const __m512i rv = _mm512_set1_epi64(static_cast<long long>(rbit[k]));
      for (std::size_t v = 0; v < kRv; v++) {
        const __mmask8 hit =
            _mm512_cmpeq_epu64_mask(_mm512_add_epi64(iota, _mm512_set1_epi64(static_cast<long long>(8 * v))), rb);
        racc[v] = _mm512_mask_or_epi64(racc[v], hit, racc[v], rv);
      }
    }
    for (std::size_t g = 0; g < 8; g++) _mm512_store_si512(mat[kb] + 8 * g, macc[g]);
    for (std::size_t v = 0; v < kRv; v++) _mm512_store_si512(rows[kb] + 8 * v, racc[v]);
  }
  // Byte (8 l + i) of a product lane l -> byte (8 i + l): lane i then holds row i's bytes 8 g .. 8 g + 7.
  alignas(64) static constexpr std::uint8_t kByteT[64] = {0, 8,  16, 24, 32, 40, 48, 56, 1, 9,  17, 25, 33, 41, 49, 57,
                                                          2, 10, 18, 26, 34, 42, 50, 58, 3, 11, 19, 27, 35, 43, 51, 59,
                                                          4, 12, 20, 28, 36, 44, 52, 60, 5, 13, 21, 29, 37, 45, 53, 61,
                                                          6, 14, 22, 30, 38, 46, 54, 62, 7, 15, 23, 31, 39, 47, 55, 63};
  const __m512i bt = _mm512_load_si512(kByteT);
  for (std::size_t rb = 0; rb < kRb; rb++) {
    __m512i acc[8];
    for (auto& a : acc) a = _mm512_setzero_si512();
    for (std::size_t kb = 0; kb < kb_count; kb++) {
      const __m512i x = _mm512_set1_epi64(static_cast<long long>(rows[kb][rb]));
      for (std::size_t g = 0; g < 8; g++)
        acc[g] = _mm512_xor_si512(acc[g], _mm512_gf2p8affine_epi64_epi8(x, _mm512_load_si512(mat[kb] + 8 * g), 0));
    }
    for (auto& a : acc) a = _mm512_maskz_permutexvar_epi8(~__mmask64{0}, bt, a);
    transpose_qwords(acc);  // acc[i] = row 8 rb + i
    for (std::size_t i = 0; i < 8 && 8 * rb + i < C; i++) _mm512_storeu_si512(out + 8 * (8 * rb + i), acc[i]);
  }
  // Words >= kNWords are zero: positions are < n.
  wipe(mbit, sizeof(mbit));
  wipe(mcb, sizeof(mcb));
  wipe(rbit, sizeof(rbit));
  wipe(rrb, sizeof(rrb));
  wipe(mat, sizeof(mat));
  wipe(rows, sizeof(rows));
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
