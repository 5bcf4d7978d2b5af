// Portable multiplication in GF(2)[x]/(x^n - 1) (spec §2.2): Karatsuba over 64-bit words with a
// branch-free carry-less 64x64 base case built from integer multiplications (no table lookups).
#pragma once

#include <cstddef>
#include <cstdint>

namespace hqc::gf2x {

// (hi:lo) = a * b as binary polynomials. Constant time: integer multiplications on operands whose
// set bits are spaced 5 apart, so the carries of each product never reach the next used bit.
void clmul64(std::uint64_t a, std::uint64_t b, std::uint64_t* lo, std::uint64_t* hi);

// out[0 .. 2n) = a[0..n) * b[0..n) (plain polynomial product, no reduction).
// scratch must hold karatsuba_scratch_words(n) words.
void karatsuba(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b, std::size_t n,
               std::uint64_t* scratch);
// Exactly the scratch karatsuba(n) uses: for n > 2, with hi = ceil(n/2), the two half sums (hi
// words each) and their product (2 hi), then below them what its three recursive products use
// (one after the other, each on at most hi words; the function is non-decreasing in n). About 4n
// words: the portable multiplication keeps it on the stack, which is what bounds a device's RAM.
constexpr std::size_t karatsuba_scratch_words(std::size_t n) {
  return n <= 2 ? 0 : 4 * (n - n / 2) + karatsuba_scratch_words(n - n / 2);
}

// out[0 .. words) = prod mod (x^n_bits - 1), where prod has 2*words words and degree < 2*n_bits - 1.
// Bits of out above n_bits are cleared.
void reduce_mod_xn_minus_1(std::uint64_t* out, const std::uint64_t* prod, std::size_t n_bits, std::size_t words);

}  // namespace hqc::gf2x
