// Duplicated first-order Reed-Muller code RM(1,7) (spec §1.6, §5.3, §5.5).
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/ct.hpp"
#include "params/params.hpp"

namespace hqc::code {

// The 128-bit codeword of byte b (spec §5.3): bit p = b7 ^ <b[0..6], p>. Branch-free: each message
// bit selects a constant pattern with a mask.
inline void rm_encode_byte(std::uint8_t b, std::uint64_t out[2]) {
  // Bits 0..4 select patterns within a 32-bit half, bit 5 the high half of each 64-bit word and
  // bit 6 the second word: the low half is built in 32-bit arithmetic (on the M4 about a quarter
  // of the instructions of the same in 64-bit words), then widened.
  constexpr std::uint32_t kPattern[5] = {0xAAAAAAAAu, 0xCCCCCCCCu, 0xF0F0F0F0u, 0xFF00FF00u, 0xFFFF0000u};
  std::uint32_t lo = ct::mask_bit32(b >> 7u);
  for (unsigned i = 0; i < 5; i++) lo ^= ct::mask_bit32(static_cast<std::uint32_t>(b) >> i) & kPattern[i];
  const std::uint32_t hi = lo ^ ct::mask_bit32(static_cast<std::uint32_t>(b) >> 5);
  const std::uint64_t w = lo | (std::uint64_t{hi} << 32);
  out[0] = w;
  out[1] = w ^ ct::mask_bit64(b >> 6);
}

// Encodes n1 RS symbols into the n1*n2-bit concatenated code word (spec §5.1 step 2).
template <class P>
// out is written: the check misreads the dependent array bound.
// NOLINTNEXTLINE(readability-non-const-parameter)
void rm_encode(std::uint64_t out[P::kN1N2Words], const std::uint8_t cw[P::kN1]) {
  for (std::size_t j = 0; j < P::kN1; j++) {
    std::uint64_t blk[2];
    rm_encode_byte(cw[j], blk);
    for (std::size_t t = 0; t < P::kMult; t++) {
      out[j * (P::kN2 / 64) + 2 * t] = blk[0];
      out[j * (P::kN2 / 64) + 2 * t + 1] = blk[1];
    }
  }
}

// Portable decoder of every block (spec §5.5): soft counts, natural-order Hadamard transform,
// first maximum of |F| with branch-free selection.
template <class P>
void rm_decode_portable(std::uint8_t out[P::kN1], const std::uint64_t in[P::kN1N2Words]);

// The transform of one block, exposed for the component tests (T3 tie-breaking).
void rm_hadamard_block(std::int16_t F[128], const std::uint64_t* block, std::size_t mult);
std::uint8_t rm_peak(const std::int16_t F[128]);

}  // namespace hqc::code
