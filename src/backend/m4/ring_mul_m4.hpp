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

// How poly_mul computes a product of n words (Step::how).
enum class Split : std::uint8_t {
  kLeaf,       // n = 1, 2, 4, 8, 12, 16, 24, 32 or 64: one Thumb-2 routine
  kToom3,      // parts of m = Step::k words (the top one rem = n - 2m <= m), five products
  kKaratsuba,  // a low part of lo = Step::k <= n/2 words, a high part of hi = n - lo
  kKara3,      // n = 3k, three parts of k = Step::k words, six products (ring_mul_m4.cpp, karatsuba3)
};

// The plan of one size n. pad: the size the product is computed at (n, or more: the operands are
// copied into zero-padded buffers, and the padded product's top words, zero, are dropped). how, k:
// the split of the size pad (or n). s1: the size the product of the operand sums is computed at
// (Karatsuba's middle product, Toom-3's C(1)); s2: that of Toom-3's C(t) and C(t + 1). The sums
// live in scratch, so computing them at a larger size costs only the zeroing of their top words.
struct Step {
  Split how = Split::kLeaf;
  std::uint16_t k = 0, s1 = 0, s2 = 0, pad = 0;
};

// The words of a ring vector of the largest level built in (HQC_ONLY_LEVEL).
inline constexpr std::size_t kMaxPolyWords = kLevelEnabled<5>   ? (Hqc5::kN + 31) / 32
                                             : kLevelEnabled<3> ? (Hqc3::kN + 31) / 32
                                                                : (Hqc1::kN + 31) / 32;

// floor(x / 3) for x < 2^16 by a multiplication: GCC at -Os would otherwise emit a UDIV, whose
// time varies on the M4 (the sizes are public, but the device's rule is no UDIV/SDIV at all).
constexpr std::size_t div3(std::size_t x) { return (x * 0xAAABu) >> 17; }
static_assert(div3(2 * kMaxPolyWords + 2) == (2 * kMaxPolyWords + 2) / 3 && div3(65535) == 21845);

// How far a size may be padded: at most a quarter and two words more, and 48 words.
constexpr std::size_t pad_limit(std::size_t n) { return n + (n / 4 + 2 < 48 ? n / 4 + 2 : 48); }
inline constexpr std::size_t kMaxPlanWords = pad_limit(kMaxPolyWords + 2) + 1;

// The plan, by dynamic programming over the estimated cycles of scripts/m4-cycles.py
// (scripts/m4-mul-bench.py --sizes measures poly_mul at each size): the leaves at 135, 287, 698,
// 2020, 3981, 6139, 12240, 18708 and 56700 cycles (1, 2, 4, 8, 12, 16, 24, 32, 64 words, with
// poly_mul's call; 12 and 24 are three-way Karatsuba leaves), a three-way Karatsuba step at 250 + 25n
// (measured 534, 836, 1138, 1440 at n = 12, 24, 36, 48 besides its six products), a Karatsuba
// step at 250 + 16n (300 + 18n when the parts differ by more than a word: a second, three-stream
// pass above the paired words; measured 680, 1184, 2192 at n = 32, 64, 128), a Toom-3 step at
// 1500 + 55n (measured about 10500 at n = 192; 1000 + 50n gives plans 0.06 % slower at HQC-3),
// zeroing at 2 cycles a word and padding by copy at 100 + 6n (the operands in, the product out).
// The sizes are evaluated in increasing order (sub-products are smaller than their parent); a
// sub-product's cost is the best of the padded sizes evaluated so far, and the plan then pads
// each size to its best padded size.
struct PlanTable {
  std::array<Step, kMaxPlanWords> step{};
};
constexpr PlanTable make_plan() {
  PlanTable t{};
  // free[k], copy[k]: the cheapest of computing k words at a size in [k, pad_limit(k)] evaluated
  // so far, padding in scratch (zeroing) or by copying; at_free, at_copy: that size.
  std::array<std::uint64_t, kMaxPlanWords> free{}, copy{};
  std::array<std::uint16_t, kMaxPlanWords> at_free{}, at_copy{};
  constexpr std::uint64_t kInf = ~std::uint64_t{0} >> 2;
  for (std::size_t n = 1; n < kMaxPlanWords; n++) {
    std::uint64_t best = kInf;
    Step how{};
    if (n == 1 || n == 2 || n == 4 || n == 8 || n == 12 || n == 16 || n == 24 || n == 32 || n == 64) {
      best = n == 1    ? 135
             : n == 2  ? 287
             : n == 4  ? 698
             : n == 8  ? 2020
             : n == 12 ? 3981
             : n == 16 ? 6139
             : n == 24 ? 12240
             : n == 32 ? 18708
                       : 56700;
      how.how = Split::kLeaf;
    }
    if (n >= 2) {
      // Karatsuba: hi = ceil(n/2), or that rounded up to a multiple of 2, 4, 8, 16.
      for (std::size_t r : {1u, 2u, 4u, 8u, 16u}) {
        const std::size_t hi = (n - n / 2 + r - 1) / r * r, lo = n - hi;
        if (lo == 0 || lo > hi) continue;
        const std::uint64_t c = copy[lo] + copy[hi] + free[hi] + (hi - lo <= 1 ? 250 + 16 * n : 300 + 18 * n);
        if (c < best) best = c, how = Step{Split::kKaratsuba, static_cast<std::uint16_t>(lo), at_free[hi], 0, 0};
      }
    }
    if (n >= 6 && 3 * div3(n) == n) {
      // Three-way Karatsuba: six products of k = n/3 words (three in place, three of sums at a
      // padded size in scratch), six sum passes and one interpolation pass (hqc_m4_karatsuba3_interp,
      // about 41 cycles per word of k). It wins where Toom-3's two products at k + 2 words cost
      // much more than at k (k = 8, 16: the leaves).
      const std::size_t k = div3(n);
      const std::uint64_t c = 3 * copy[k] + 3 * free[k] + 250 + 25 * n;
      if (c < best) best = c, how = Step{Split::kKara3, static_cast<std::uint16_t>(k), at_free[k], 0, 0};
    }
    if (n >= 9) {
      for (std::size_t m = div3(n + 2); m <= div3(n + 2) + 3; m++) {
        if (2 * m >= n || n - 2 * m > m || m + 2 >= n) continue;
        const std::size_t rem = n - 2 * m;
        const std::uint64_t c = copy[m] + copy[rem] + free[m] + 2 * free[m + 2] + 1500 + 55 * n;
        if (c < best) best = c, how = Step{Split::kToom3, static_cast<std::uint16_t>(m), at_free[m], at_free[m + 2], 0};
      }
    }
    how.pad = static_cast<std::uint16_t>(n);
    t.step[n] = how;
    free[n] = copy[n] = best;
    at_free[n] = at_copy[n] = static_cast<std::uint16_t>(n);
    for (std::size_t k = n > 48 ? n - 48 : 1; k < n; k++) {
      if (pad_limit(k) < n) continue;
      if (best + 2 * (n - k) < free[k]) free[k] = best + 2 * (n - k), at_free[k] = static_cast<std::uint16_t>(n);
      if (best + 100 + 6 * n < copy[k]) copy[k] = best + 100 + 6 * n, at_copy[k] = static_cast<std::uint16_t>(n);
    }
  }
  for (std::size_t n = 1; n < kMaxPlanWords; n++) t.step[n].pad = at_copy[n];
  return t;
}
inline constexpr PlanTable kPlan = make_plan();

constexpr std::size_t max_of(std::size_t x, std::size_t y) { return x > y ? x : y; }

constexpr std::size_t poly_mul_scratch_words(std::size_t n);

// The scratch words of the split of n itself (kPlan.step[n].how), without padding n: its own
// buffers, then below them the largest that one of its sub-products uses (they run one after the
// other).
constexpr std::size_t direct_scratch_words(std::size_t n) {
  const Step& st = kPlan.step[n];
  switch (st.how) {
    case Split::kLeaf: return 0;
    case Split::kToom3: {
      const std::size_t m = st.k, rem = n - 2 * m, e = max_of(st.s1, st.s2);
      return 2 * e + 2 * st.s1 + 4 * st.s2 +
             max_of(max_of(direct_scratch_words(st.s1), direct_scratch_words(st.s2)),
                    max_of(poly_mul_scratch_words(m), poly_mul_scratch_words(rem)));
    }
    case Split::kKara3: {
      const std::size_t k = st.k;
      return 8 * st.s1 + max_of(poly_mul_scratch_words(k), direct_scratch_words(st.s1));
    }
    case Split::kKaratsuba: {
      const std::size_t lo = st.k, hi = n - lo;
      return 4 * st.s1 +
             max_of(poly_mul_scratch_words(lo), max_of(poly_mul_scratch_words(hi), direct_scratch_words(st.s1)));
    }
  }
  return 0;
}

// The scratch words poly_mul(n) uses: with padding, the padded operands and product (4 pad words)
// and below them the split of the padded size.
constexpr std::size_t poly_mul_scratch_words(std::size_t n) {
  const std::size_t p = kPlan.step[n].pad;
  return p != n ? 4 * p + direct_scratch_words(p) : direct_scratch_words(n);
}

// out[0 .. 2n) = a[0 .. n) * b[0 .. n) over GF(2) (32-bit little-endian words, no reduction),
// n <= kMaxPolyWords; scratch holds poly_mul_scratch_words(n) words. out may not overlap a, b or
// scratch.
void poly_mul(Word32* out, const Word32* a, const Word32* b, std::size_t n, Word32* scratch);
// The same by the split of n itself, never padded: direct_scratch_words(n) words of scratch.
void poly_mul_direct(Word32* out, const Word32* a, const Word32* b, std::size_t n, Word32* scratch);

}  // namespace hqc::backend::m4
