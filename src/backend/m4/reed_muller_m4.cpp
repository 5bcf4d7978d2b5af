// RM(1,7) decoding for the Cortex-M4 (spec §5.5): the counts and the fast Hadamard transform of
// each block on pairs of 16-bit values with the M4's SIMD32 instructions (SADD16, SSUB16, SASX:
// two butterflies per instruction), then the peak search with one comparison of a combined key per
// index (`peak`: code::rm_peak's rule and bytes). Every index and loop bound is fixed: nothing
// depends on the received word but the values computed.
#include <arm_acle.h>

#include <cstddef>
#include <cstdint>

#include "code/reed_muller.hpp"
#include "common/ct.hpp"
#include "common/mem.hpp"
#include "params/params.hpp"

namespace hqc::backend::m4 {
namespace {

// Storage of the 128 counts: position p = 32c + i (c = p >> 5, i = p & 31) lives in word
// 16c + (i & 15), in its low half if i < 16 and its high half otherwise, i.e. at 16-bit index
// s(p) = 32c + 2(i & 15) + (i >> 4). s is a permutation of the 7 index bits, and the Hadamard
// transform commutes with such a permutation: transforming the stored array gives F[q] at s(q).
constexpr std::size_t stored_index(std::size_t p) { return (p & 0x60) | ((p & 15) << 1) | ((p >> 4) & 1); }

// F = the Hadamard transform of the counts of ones of the block's `Mult` copies (as
// code::rm_hadamard_block).
template <std::size_t Mult>
void hadamard_block(std::int16_t F[128], const std::uint64_t* block) {
  std::uint32_t w[64];
  for (std::uint32_t& x : w) x = 0;  // a loop, not a call to the C library's byte-wise memset
  for (std::size_t t = 0; t < Mult; t++)
    for (std::size_t c = 0; c < 4; c++) {
      const std::uint32_t x = mem::load_le32(reinterpret_cast<const std::uint8_t*>(block) + 16 * t + 4 * c);
#pragma GCC unroll 16
      for (std::size_t i = 0; i < 16; i++) w[16 * c + i] += (x >> i) & 0x00010001u;  // bits i, i + 16
    }
  // Butterflies between 16-bit indices s and s + 1 (within a word: (lo, hi) -> (lo + hi, lo - hi)),
  // then s and s + h for h = 2, 4, 8 (words k and k + h/2, both halves at once), eight words at a
  // time in registers.
  for (std::size_t g = 0; g < 64; g += 8) {
    std::uint32_t r[8];
#pragma GCC unroll 8
    for (std::size_t k = 0; k < 8; k++) {
      const auto t = static_cast<std::uint32_t>(__sasx(w[g + k], w[g + k]));  // (lo - hi, hi + lo)
      r[k] = (t >> 16) | (t << 16);
    }
#pragma GCC unroll 3
    for (std::size_t d = 1; d < 8; d <<= 1)
#pragma GCC unroll 8
      for (std::size_t j = 0; j < 8; j++)
        if ((j & d) == 0) {  // public: the butterfly's index
          const std::uint32_t x = r[j], y = r[j + d];
          r[j] = static_cast<std::uint32_t>(__sadd16(x, y));
          r[j + d] = static_cast<std::uint32_t>(__ssub16(x, y));
        }
#pragma GCC unroll 8
    for (std::size_t k = 0; k < 8; k++) w[g + k] = r[k];
  }
  // h = 16 .. 64: words k and k + d for d = 8, 16, 32.
  for (std::size_t d = 8; d < 64; d <<= 1)
    for (std::size_t base = 0; base < 64; base += 2 * d)
      for (std::size_t j = base; j < base + d; j++) {
        const std::uint32_t x = w[j], y = w[j + d];
        w[j] = static_cast<std::uint32_t>(__sadd16(x, y));
        w[j + d] = static_cast<std::uint32_t>(__ssub16(x, y));
      }
  // F[q] is at 16-bit index stored_index(q): for q = 32c + i, the low half of word 16c + i if
  // i < 16, else the high half of word 16c + i - 16.
  for (std::size_t c = 0; c < 4; c++)
    for (std::size_t i = 0; i < 16; i++) {
      const std::uint32_t x = w[16 * c + i];
      F[32 * c + i] = static_cast<std::int16_t>(static_cast<std::uint16_t>(x));
      F[32 * c + 16 + i] = static_cast<std::int16_t>(static_cast<std::uint16_t>(x >> 16));
    }
  static_assert(stored_index(37) == 32 + 10 && stored_index(53) == 32 + 10 + 1);
  F[0] = static_cast<std::int16_t>(F[0] - 64 * static_cast<int>(Mult));  // the bias of 0/1 counts
  volatile std::uint32_t* v = w;
  for (std::size_t k = 0; k < 64; k++) v[k] = 0;
}

// code::rm_peak's byte with one comparison per index: the key (|F[q]| << 8) | ((127 - q) << 1) |
// (F[q] > 0) orders by |F[q]| first and then by the smaller q, which is the portable rule (the
// first index of maximal |F| wins); the sign bit rides along and never decides, because no two
// keys share q. The largest key is kept with masks. If every F[q] is 0, index 0's key is the
// largest and its sign bit is 0: byte 0, as portable.
std::uint8_t peak(const std::int16_t F[128]) {
  std::uint32_t best = 0;
  for (std::uint32_t q = 0; q < 128; q++) {
    const std::int32_t v = F[q];
    const auto sign = static_cast<std::uint32_t>(v >> 31);  // all-ones if negative
    const std::uint32_t absv = (static_cast<std::uint32_t>(v) ^ sign) - sign;
    const std::uint32_t key = (absv << 8) | ((127 - q) << 1) | (static_cast<std::uint32_t>(-v) >> 31);
    const std::uint32_t upd = ct::value_barrier<std::uint32_t>(0u - ((best - key) >> 31));  // best < key (< 2^24)
    best = (key & upd) | (best & ~upd);
  }
  return static_cast<std::uint8_t>((127 - ((best >> 1) & 127)) | ((best & 1) << 7));
}

}  // namespace

template <class P>
void rm_decode(std::uint8_t out[P::kN1], const std::uint64_t in[P::kN1N2Words]) {
  std::int16_t F[128];
  for (std::size_t j = 0; j < P::kN1; j++) {
    hadamard_block<P::kMult>(F, in + j * (P::kN2 / 64));
    out[j] = peak(F);
  }
  volatile std::int16_t* v = F;
  for (std::size_t q = 0; q < 128; q++) v[q] = 0;
}

template void rm_decode<Hqc1>(std::uint8_t*, const std::uint64_t*);
template void rm_decode<Hqc3>(std::uint8_t*, const std::uint64_t*);
template void rm_decode<Hqc5>(std::uint8_t*, const std::uint64_t*);

}  // namespace hqc::backend::m4
