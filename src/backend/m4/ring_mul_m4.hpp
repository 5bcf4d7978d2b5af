// The Cortex-M4 ring multiplication's polynomial product (ring_mul_m4.cpp): Toom-3 and Karatsuba
// over 32-bit words down to the Thumb-2 carry-less leaves of clmul_m4.S, the split of every size
// chosen at compile time by a cost model. Every size, split and loop bound depends on the operand
// length only (public), never on the operands.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "params/params.hpp"

namespace hqc::backend::m4 {

// A 32-bit word that may alias any object: the ring vectors are arrays of 64-bit words, read and
// written here as their 32-bit halves (little-endian) without a copy.
typedef std::uint32_t __attribute__((__may_alias__)) Word32;

// How poly_mul splits a product of n words.
enum class Split : std::uint8_t {
  kLeaf,           // n = 1, 2, 4, 8 or 16: one Thumb-2 routine
  kToom3,          // three parts of m = ceil(n/3) words (the top one shorter), five products
  kKaratsuba,      // halves of n/2 and n - n/2 words
  kKaratsubaFour,  // a high part of the least multiple of 4 words >= n/2, the low part the rest
};

// The words of a ring vector of the largest level built in (HQC_ONLY_LEVEL).
inline constexpr std::size_t kMaxPolyWords = kLevelEnabled<5>   ? (Hqc5::kN + 31) / 32
                                             : kLevelEnabled<3> ? (Hqc3::kN + 31) / 32
                                                                : (Hqc1::kN + 31) / 32;

// floor(x / 3) for x < 2^16 by a multiplication: GCC at -Os would otherwise emit a UDIV, whose
// time varies on the M4 (the sizes are public, but the device's rule is no UDIV/SDIV at all).
constexpr std::size_t div3(std::size_t x) { return (x * 0xAAABu) >> 17; }
static_assert(div3(2 * kMaxPolyWords + 2) == (2 * kMaxPolyWords + 2) / 3 && div3(65535) == 21845);

constexpr std::size_t karatsuba_low(Split s, std::size_t n) {
  if (s == Split::kKaratsuba) return n / 2;
  const std::size_t hi = (n - n / 2 + 3) / 4 * 4;
  return n - hi;
}

// The split of each size, by dynamic programming over the estimated cycles (scripts/m4-cycles.py):
// the leaves at 86, 236, 687, 2170 and 6740 cycles (1, 2, 4, 8, 16 words, as measured), a
// Karatsuba step at 250 + 16n (350 + 23n when the parts differ by more than a word: three passes
// instead of one), a Toom-3 step at 1100 + 80n (the calls and words of its 26 linear passes at
// about 35 cycles a call and 5.75 a word). The plan is near the best for any constants of that
// order; its cost model is checked by the totals of scripts/m4-cycles.py, not by each step.
constexpr std::array<Split, kMaxPolyWords + 1> make_plan() {
  std::array<Split, kMaxPolyWords + 1> plan{};
  std::array<std::uint64_t, kMaxPolyWords + 3> cost{};
  for (std::size_t n = 1; n <= kMaxPolyWords + 2; n++) {
    std::uint64_t best = ~std::uint64_t{0};
    Split how = Split::kKaratsuba;
    if (n == 1 || n == 2 || n == 4 || n == 8 || n == 16) {
      best = n == 1 ? 86 : n == 2 ? 236 : n == 4 ? 687 : n == 8 ? 2170 : 6740;
      how = Split::kLeaf;
    }
    for (Split s : {Split::kKaratsuba, Split::kKaratsubaFour}) {
      if (n < 2) break;
      const std::size_t lo = karatsuba_low(s, n), hi = n - lo;
      if (lo == 0 || lo > hi) continue;
      const std::uint64_t c = cost[lo] + 2 * cost[hi] + (hi - lo <= 1 ? 250 + 16 * n : 350 + 23 * n);
      if (c < best) best = c, how = s;
    }
    if (n >= 9) {
      const std::size_t m = div3(n + 2), rem = n - 2 * m;
      if (m + 2 < n) {
        const std::uint64_t c = 2 * cost[m] + cost[rem] + 2 * cost[m + 2] + 1100 + 80 * n;
        if (c < best) best = c, how = Split::kToom3;
      }
    }
    cost[n] = best;
    if (n <= kMaxPolyWords) plan[n] = how;
  }
  return plan;
}
inline constexpr std::array<Split, kMaxPolyWords + 1> kPlan = make_plan();

constexpr std::size_t max_of(std::size_t x, std::size_t y) { return x > y ? x : y; }

// The scratch words poly_mul(n) uses: its own buffers, then below them the largest that one of its
// sub-products uses (they run one after the other).
constexpr std::size_t poly_mul_scratch_words(std::size_t n) {
  switch (kPlan[n]) {
    case Split::kLeaf: return 0;
    case Split::kToom3: {
      const std::size_t m = div3(n + 2), rem = n - 2 * m;
      return 8 * m + 12 +
             max_of(poly_mul_scratch_words(m + 2), max_of(poly_mul_scratch_words(m), poly_mul_scratch_words(rem)));
    }
    default: {
      const std::size_t lo = karatsuba_low(kPlan[n], n), hi = n - lo;
      return 4 * hi + max_of(poly_mul_scratch_words(lo), poly_mul_scratch_words(hi));
    }
  }
}

// out[0 .. 2n) = a[0 .. n) * b[0 .. n) over GF(2) (32-bit little-endian words, no reduction),
// n <= kMaxPolyWords; scratch holds poly_mul_scratch_words(n) words. out may not overlap a, b or
// scratch.
void poly_mul(Word32* out, const Word32* a, const Word32* b, std::size_t n, Word32* scratch);

}  // namespace hqc::backend::m4
