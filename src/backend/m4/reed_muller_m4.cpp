// RM(1,7) decoding for the Cortex-M4 (spec §5.5): the counts of each block (bit-sliced over the
// copies) and its fast Hadamard transform on pairs of 16-bit values with the M4's SIMD32
// instructions (SADD16, SSUB16, SSAX: two butterflies per instruction), then the peak search on
// the same pairs (USUB16 and SEL keep each half's first largest |F|), the last three levels and
// the peak in one Thumb-2 pass (hqc_m4_rm_hadamard_peak, reed_muller_m4.S: code::rm_peak's rule
// and bytes). Every index and loop bound is fixed: nothing
// depends on the received word but the values computed.
#include <arm_acle.h>

#include <cstddef>
#include <cstdint>

#include "code/reed_muller.hpp"
#include "common/ct.hpp"
#include "common/mem.hpp"
#include "params/params.hpp"

// The decoded byte of a block from its transform in the stored layout but for the last three
// levels, which it applies (reed_muller_m4.S): the index of the largest |F| (the first on ties) in
// bits 0..6 and its sign in bit 7, as code::rm_peak.
extern "C" std::uint32_t hqc_m4_rm_hadamard_peak(const std::uint32_t w[64]);

namespace hqc::backend::m4 {
namespace {

// Storage of the 128 counts: position p = 32c + i (c = p >> 5, i = p & 31) lives in word
// 16c + (i & 15), in its low half if i < 16 and its high half otherwise, i.e. at 16-bit index
// s(p) = 32c + 2(i & 15) + (i >> 4). s is a permutation of the 7 index bits, and the Hadamard
// transform commutes with such a permutation: transforming the stored array gives F[q] at s(q).
constexpr std::size_t stored_index(std::size_t p) { return (p & 0x60) | ((p & 15) << 1) | ((p >> 4) & 1); }
static_assert(stored_index(37) == 32 + 10 && stored_index(53) == 32 + 10 + 1);

// The butterflies between r[m] and r[m + d] for d = 1, 2, 4 (the lower index gets the sum), both
// 16-bit halves of each word at once: three levels of the transform on eight words in registers.
[[gnu::always_inline]] inline void butterflies8(std::uint32_t r[8]) {
#pragma GCC unroll 3
  for (std::size_t d = 1; d < 8; d <<= 1)
#pragma GCC unroll 8
    for (std::size_t m = 0; m < 8; m++)
      if ((m & d) == 0) {  // public: the butterfly's index
        const std::uint32_t x = r[m], y = r[m + d];
        r[m] = static_cast<std::uint32_t>(__sadd16(x, y));
        r[m + d] = static_cast<std::uint32_t>(__ssub16(x, y));
      }
}

// w = the Hadamard transform of the counts of ones of the block's `Mult` copies (as
// code::rm_hadamard_block) but for its last three levels, in the stored layout: after those
// levels, F[q] at 16-bit index stored_index(q), i.e. for q = 32c + i the low half of word 16c + i
// if i < 16, else the high half of word 16c + i - 16.
template <std::size_t Mult>
void hadamard_block(std::uint32_t w[64], const std::uint64_t* block) {
  static_assert(Mult < 8, "three bit planes hold the counts");
  // Bits i and i + 16 of a plane. In a register (the empty asm hides the value), so that each
  // count is AND with a shifted operand, one instruction, rather than a shift and an AND with an
  // immediate (Thumb-2 has no shifted operand for an immediate AND).
  std::uint32_t kBits = 0x00010001u;
  __asm__("" : "+r"(kBits));
  for (std::size_t c = 0; c < 4; c++) {
    // The counts of bits 32c .. 32c + 31 over the copies, bit-sliced: count = p0 + 2 p1 + 4 p2,
    // each copy's word added by a ripple of half adders.
    std::uint32_t p0 = 0, p1 = 0, p2 = 0;
    for (std::size_t t = 0; t < Mult; t++) {
      std::uint32_t carry = mem::load_le32(reinterpret_cast<const std::uint8_t*>(block) + 16 * t + 4 * c);
      const std::uint32_t s0 = p0 ^ carry;
      carry &= p0;
      p0 = s0;
      const std::uint32_t s1 = p1 ^ carry;
      carry &= p1;
      p1 = s1;
      p2 ^= carry;
    }
    // Words 16c + 8h .. 16c + 8h + 7: the counts of bits i and i + 16 (i = 8h + k) in the low and
    // high halves, then the butterflies between 16-bit indices s and s + 1 (within a word:
    // (lo, hi) -> (lo + hi, lo - hi)) and s and s + h for h = 2, 4, 8 (words k and k + h/2, both
    // halves at once), eight words in registers.
#pragma GCC unroll 2
    for (std::size_t h = 0; h < 2; h++) {
      std::uint32_t r[8];
#pragma GCC unroll 8
      for (std::size_t k = 0; k < 8; k++) {
        const std::size_t i = 8 * h + k;
        std::uint32_t cnt = ((p0 >> i) & kBits) + (((p1 >> i) & kBits) << 1);
        if constexpr (Mult > 3) cnt += ((p2 >> i) & kBits) << 2;
        // (lo + hi, hi - lo): the butterfly of bits i and i + 16 with the difference negated,
        // one SSAX without the rotation that (lo + hi, lo - hi) would need. So is every F[q] whose
        // q has bit 4 set (the transform is linear); rm_decode corrects the sign bit.
        r[k] = static_cast<std::uint32_t>(__ssax(cnt, cnt));
      }
      butterflies8(r);
      // F[0] (the low half of word 0 after the last levels) less the bias of 0/1 counts, 64 per
      // copy: 8 per copy off the low half of each of the eight words 0, 8, .., 56 that the last
      // levels add up for word 0 (every other word of that group takes as many off as it adds).
      r[0] = static_cast<std::uint32_t>(__ssub16(r[0], 8 * Mult));
#pragma GCC unroll 8
      for (std::size_t k = 0; k < 8; k++) w[16 * c + 8 * h + k] = r[k];
    }
  }
  // The last three levels (h = 16 .. 64, words k and k + d for d = 8, 16, 32) run in
  // hqc_m4_rm_hadamard_peak, with the peak search, on the eight words j + 8m of each j < 8.
}

}  // namespace

template <class P>
void rm_decode(std::uint8_t out[P::kN1], const std::uint64_t in[P::kN1N2Words]) {
  std::uint32_t w[64];
  for (std::size_t j = 0; j < P::kN1; j++) {
    hadamard_block<P::kMult>(w, in + j * (P::kN2 / 64));
    // hadamard_block negates F[q] where bit 4 of q is set: |F| and so the index are the same, the
    // sign bit (F > 0) is flipped there (F is never 0 at the peak: the transform of the +-1
    // sums of an odd number of copies is not all zero).
    const std::uint32_t peak = hqc_m4_rm_hadamard_peak(w);
    out[j] = static_cast<std::uint8_t>(peak ^ ((peak << 3) & 0x80u));
  }
  ct::wipe(w, sizeof(w));
}

template void rm_decode<Hqc1>(std::uint8_t*, const std::uint64_t*);
template void rm_decode<Hqc3>(std::uint8_t*, const std::uint64_t*);
template void rm_decode<Hqc5>(std::uint8_t*, const std::uint64_t*);

}  // namespace hqc::backend::m4
