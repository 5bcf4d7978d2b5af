// The Cortex-M4 ring multiplication's polynomial product (ring_mul_m4.cpp): Toom-3 over 32-bit
// words on the large sizes, Karatsuba below, and the Thumb-2 carry-less leaves of clmul_m4.S. Every
// size, split and loop bound depends on the operand length only (public), never on the operands.
#pragma once

#include <cstddef>
#include <cstdint>

namespace hqc::backend::m4 {

// A 32-bit word that may alias any object: the ring vectors are arrays of 64-bit words, read and
// written here as their 32-bit halves (little-endian) without a copy.
typedef std::uint32_t __attribute__((__may_alias__)) Word32;

// From this many 32-bit words up a product is split in three (Toom-3), below it in two (Karatsuba).
inline constexpr std::size_t kToomMinWords = 96;

constexpr std::size_t max_of(std::size_t x, std::size_t y) { return x > y ? x : y; }

// The scratch words poly_mul(n) uses: its own buffers, then below them the largest that one of its
// sub-products uses (they run one after the other).
constexpr std::size_t poly_mul_scratch_words(std::size_t n) {
  if (n <= 2 || n == 4) return 0;
  if (n >= kToomMinWords) {
    const std::size_t m = (n + 2) / 3, r = n - 2 * m;
    return 8 * m + 12 +
           max_of(poly_mul_scratch_words(m + 2), max_of(poly_mul_scratch_words(m), poly_mul_scratch_words(r)));
  }
  const std::size_t lo = n / 2, hi = n - lo;
  return 4 * hi + max_of(poly_mul_scratch_words(lo), poly_mul_scratch_words(hi));
}

// out[0 .. 2n) = a[0 .. n) * b[0 .. n) over GF(2) (32-bit little-endian words, no reduction);
// scratch holds poly_mul_scratch_words(n) words. out may not overlap a, b or scratch.
void poly_mul(Word32* out, const Word32* a, const Word32* b, std::size_t n, Word32* scratch);

}  // namespace hqc::backend::m4
