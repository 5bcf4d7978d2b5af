// The Cortex-M4 ring multiplication's polynomial product (ring_mul_m4.cpp): Toom-4, Toom-3 and Karatsuba
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

}  // namespace hqc::backend::m4

// The reduction modulo x^n - 1 for n mod 32 = 5 and 11 (poly_m4.S; fold_product below).
extern "C" void hqc_m4_fold_5(std::uint32_t* o, const std::uint32_t* lo, const std::uint32_t* hi, std::size_t quads);
extern "C" void hqc_m4_fold_11(std::uint32_t* o, const std::uint32_t* lo, const std::uint32_t* hi, std::size_t quads);

namespace hqc::backend::m4 {

// How poly_mul computes a product of n words (Step::how).
enum class Split : std::uint8_t {
  kLeaf,       // n = 1, 2, 4, 8, 12, 16, 24, 32 or 64: one Thumb-2 routine
  kToom3,      // parts of m = Step::k words (the top one rem = n - 2m <= m), five products
  kToom3Half,  // the same at t = x^16 (half a word) instead of x^32: C(t), C(t + 1) at m + 1 words
  kKaratsuba,  // a low part of lo = Step::k <= n/2 words, a high part of hi = n - lo
  kKara3,      // n = 3k, three parts of k = Step::k words, six products (ring_mul_m4.cpp, karatsuba3)
  kToom4,      // parts of m = Step::k words (the top one rem = n - 3m <= m), seven products
};

// The split the dynamic programming below chooses for one size n (compile time only). pad: the
// size the product is computed at (n, or more: the operands are copied into zero-padded buffers,
// and the padded product's top words, zero, are dropped). how, k: the split of the size n itself.
// s1: the size the product of the operand sums is computed at (Karatsuba's middle product,
// Toom-3's C(1)); s2: that of Toom-3's C(t) and C(t + 1). The sums live in scratch, so computing
// them at a larger size costs only the zeroing of their top words.
struct Choice {
  Split how = Split::kLeaf;
  std::uint16_t k = 0, s1 = 0, s2 = 0, pad = 0;
};

// The product of the top bits of two operands in the FAFFT's Chinese remainder step (fafft_m4.cpp,
// CrtEntry, HQC-1 and HQC-3): ceil((2n - 1 - 2^(m-1)) / 32) words, 2^m the smallest power of two
// >= 2n - 1.
template <class P>
constexpr std::size_t crt_top_words() {
  std::size_t full = 1;
  while (full < 2 * P::kN - 1) full *= 2;
  return (2 * P::kN - 1 - full / 2 + 31) / 32;
}
template <class P>
inline constexpr std::size_t kCrtTopWords = crt_top_words<P>();

// Whether the tree multiplies level L's whole ring vectors (ceil(n/32) words): at every level of a
// build of all three (HQC_ONLY_LEVEL = 0), so that scripts/m4-mul-bench.py compares the tree with
// the FAFFT at each. The rows take the FAFFT's mul and mul2 (backend.cpp, mul_choice), so a build
// of HQC-1 or HQC-3 alone reaches the tree only for the CRT's top product. (A build of HQC-5 alone
// links no tree at all.)
template <unsigned L>
inline constexpr bool kTreeWholeProduct = kLevelEnabled<L> && (HQC_ONLY_LEVEL == 0 || HQC_ONLY_LEVEL == 5);

// The largest product the tree computes, in words.
inline constexpr std::size_t kMaxPolyWords = kTreeWholeProduct<5>   ? (Hqc5::kN + 31) / 32
                                             : kTreeWholeProduct<3> ? (Hqc3::kN + 31) / 32
                                             : kTreeWholeProduct<1> ? (Hqc1::kN + 31) / 32
                                             : kLevelEnabled<3>     ? kCrtTopWords<Hqc3>
                                                                    : kCrtTopWords<Hqc1>;

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
// Since the three evaluations of each operand run in one pass (toom3_evaluate), both Toom-3 forms
// cost about 6n less; with 1500 + 49n and kToom3HalfPerWord = 56 the plans of all three levels
// are the same as with 55n and 62, so both stay as checked.
// The leaf figures of 8 words and up predate the last changes to mul256 (about 30 estimated cycles
// fewer per mul256, so 1.5 % off those leaves): with them updated, the plans of HQC-1 and HQC-3
// stay the same and HQC-5's changes at one size (120 words: Karatsuba instead of Toom-4), which
// measures 0.06 % slower, so the plan keeps the figures it was checked with. Likewise since the
// 32-word leaf takes two Karatsuba levels at once (clmul_m4.S, KARA4): it measures 18276 and the
// 64-word leaf 54641; with those figures the plans of HQC-1 and HQC-3 stay the same and HQC-5's
// changes at three sizes (Karatsuba on 56 and 120 words), which measures 0.14 % slower.
// The sizes are evaluated in increasing order (sub-products are smaller than their parent); a
// sub-product's cost is the best of the padded sizes evaluated so far, and the plan then pads
// each size to its best padded size.
// Toom-4's own cost, besides its seven products: kToom4Fixed + kToom4PerWord * n estimated cycles
// (fitted to the products of scripts/m4-mul-bench.py at HQC-3 and HQC-5).
inline constexpr std::uint64_t kToom4Fixed = 3000, kToom4PerWord = 105;
// Toom-3 at t = x^16 (ring_mul_m4.cpp, toom3<true>): its evaluations at t and t + 1 have m + 1
// words, not m + 2, which keeps a product of 189 words (HQC-1's C(t) at the top) on five 64-word
// leaves, where Toom-3 at x^32 needs two products of 66 words, each a Toom-3 over 24-word leaves.
// Its half-word shifts and running XORs cost a few cycles a word more than the whole-word ones
// (poly_m4.S: its first interpolation pass one instruction a word more than toom3's, its second
// five, its evaluation at t one). 62 per word gave the fastest products of the figures tried
// (58, 62, 65, 70): HQC-1 2.3 %, HQC-3 4.5 % and HQC-5 0.6 % fewer estimated cycles in keygen
// than without this step; 58 made HQC-1 0.05 % slower, 65 and 70 left HQC-5 at whole words.
inline constexpr std::uint64_t kToom3HalfFixed = 1500, kToom3HalfPerWord = 62;
struct PlanTable {
  std::array<Choice, kMaxPlanWords> step{};
  // The estimated cycles of poly_mul(n) by the plan (at its padded size step[n].pad, with the copy).
  std::array<std::uint64_t, kMaxPlanWords> cost{};
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
    Choice how{};
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
        if (c < best) best = c, how = Choice{Split::kKaratsuba, static_cast<std::uint16_t>(lo), at_free[hi], 0, 0};
      }
    }
    if (n >= 6 && 3 * div3(n) == n) {
      // Three-way Karatsuba: six products of k = n/3 words (three in place, three of sums at a
      // padded size in scratch), six sum passes and one interpolation pass (hqc_m4_karatsuba3_interp,
      // about 41 cycles per word of k). It wins where Toom-3's two products at k + 2 words cost
      // much more than at k (k = 8, 16: the leaves).
      const std::size_t k = div3(n);
      const std::uint64_t c = 3 * copy[k] + 3 * free[k] + 250 + 25 * n;
      if (c < best) best = c, how = Choice{Split::kKara3, static_cast<std::uint16_t>(k), at_free[k], 0, 0};
    }
    if (n >= 9) {
      for (std::size_t m = div3(n + 2); m <= div3(n + 2) + 3; m++) {
        if (2 * m >= n || n - 2 * m > m || m + 2 >= n) continue;
        const std::size_t rem = n - 2 * m;
        const std::uint64_t c = copy[m] + copy[rem] + free[m] + 2 * free[m + 2] + 1500 + 55 * n;
        if (c < best)
          best = c, how = Choice{Split::kToom3, static_cast<std::uint16_t>(m), at_free[m], at_free[m + 2], 0};
        const std::uint64_t h =
            copy[m] + copy[rem] + free[m] + 2 * free[m + 1] + kToom3HalfFixed + kToom3HalfPerWord * n;
        if (h < best)
          best = h, how = Choice{Split::kToom3Half, static_cast<std::uint16_t>(m), at_free[m], at_free[m + 1], 0};
      }
    }
    if (n >= 16) {
      // Toom-4: seven products, of m, rem, s1 >= m and four of s2 >= m + 3 words.
      for (std::size_t m = (n + 3) / 4; m <= (n + 3) / 4 + 3; m++) {
        if (3 * m >= n || n - 3 * m > m) continue;
        const std::size_t rem = n - 3 * m;
        const std::uint64_t c = copy[m] + copy[rem] + free[m] + 4 * free[m + 3] + kToom4Fixed + kToom4PerWord * n;
        if (c < best)
          best = c, how = Choice{Split::kToom4, static_cast<std::uint16_t>(m), at_free[m], at_free[m + 3], 0};
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
  for (std::size_t n = 1; n < kMaxPlanWords; n++) t.step[n].pad = at_copy[n], t.cost[n] = copy[n];
  return t;
}
// Every size's choice. Only ever read in constant expressions (the walk below), never odr-used:
// the compiler emits no copy of it, and flash holds only kPlan.
inline constexpr PlanTable kFullPlan = make_plan();

// The split kinds (bit i: Split i) that the plan of n reaches, padded or not.
constexpr std::uint32_t plan_splits(std::size_t n, std::array<bool, kMaxPlanWords>& seen) {
  if (seen[n]) return 0;
  seen[n] = true;
  const Choice& c = kFullPlan.step[n];
  std::uint32_t f = std::uint32_t{1} << static_cast<unsigned>(c.how);
  if (c.pad != n) f |= plan_splits(c.pad, seen);
  switch (c.how) {
    case Split::kLeaf: return f;
    case Split::kToom3:
    case Split::kToom3Half:
      return f | plan_splits(c.k, seen) | plan_splits(n - 2 * c.k, seen) | plan_splits(c.s1, seen) |
             plan_splits(c.s2, seen);
    case Split::kToom4:
      return f | plan_splits(c.k, seen) | plan_splits(n - 3 * c.k, seen) | plan_splits(c.s1, seen) |
             plan_splits(c.s2, seen);
    case Split::kKara3: return f | plan_splits(c.k, seen) | plan_splits(c.s1, seen);
    case Split::kKaratsuba: return f | plan_splits(c.k, seen) | plan_splits(n - c.k, seen) | plan_splits(c.s1, seen);
  }
  return f;
}
constexpr std::uint32_t plan_splits(std::size_t n) {
  std::array<bool, kMaxPlanWords> seen{};
  return plan_splits(n, seen);
}

// The CRT's quotient (fafft_m4.cpp, CrtEntry::top_quotient) reads words N - 1 .. 2N - 1 of the
// product of two N-word operands (N = kCrtTopWords), which only the word products a_i b_j with
// i + j >= N - 2 reach: a short product (Mulders' split). With a = a1 x^(32k) + a0 and b alike (a0,
// b0: the k low words), a1 b1 gives the pairs with both indices >= k, and a's top k + 1 words
// (i >= N - 1 - k) times b0, zero-padded to k + 1 words, the needed pairs of a1 b0 (j <= k - 1, so
// i >= N - 1 - k), and likewise b's top with a0; a0 b0 (words below 2k <= N - 1) is not needed. The
// products' extra pairs reach only words below N - 1. kShortSplit<N> is the k with the fewest
// estimated cycles by the plan's costs (one product of N - k words, two of k + 1, the copies and
// XORs) among the splits whose sizes take no split kind that the whole product does not (so that
// a library of one level links no step it did not link before: at HQC-3 alone, the Toom-4 step
// would come back with k = 31), or 0 where the whole product is cheaper.
constexpr std::size_t short_split(std::size_t n) {
  const std::uint32_t whole = plan_splits(n);
  std::size_t best_k = 0;
  std::uint64_t best = kFullPlan.cost[n];
  for (std::size_t k = 1; 2 * k + 1 <= n; k++) {
    const std::uint64_t c = kFullPlan.cost[n - k] + 2 * kFullPlan.cost[k + 1] + 2 * (200 + 12 * k);
    if (c < best && ((plan_splits(n - k) | plan_splits(k + 1)) & ~whole) == 0) best = c, best_k = k;
  }
  return best_k;
}
template <std::size_t N>
inline constexpr std::size_t kShortSplit = short_split(N);

// The sizes the run-time code reaches: from the CRT's top product and the whole product of each
// level that has it (kTreeWholeProduct), every size that the recursion multiplies at, padded or not, and every size
// listed brings in its padded size and the parts of its own split. So for each listed size both
// poly_mul (padding it by the plan) and poly_mul_direct (its own split) use listed sizes only.
struct PlanSizes {
  std::array<bool, kMaxPlanWords> on{};
  std::size_t count = 0;
};
constexpr void list_size(PlanSizes& r, std::size_t n) {
  if (r.on[n]) return;
  r.on[n] = true;
  r.count++;
  const Choice& c = kFullPlan.step[n];
  list_size(r, c.pad);
  switch (c.how) {
    case Split::kLeaf: return;
    case Split::kToom3:
    case Split::kToom3Half:
      list_size(r, c.k), list_size(r, n - 2 * c.k), list_size(r, c.s1), list_size(r, c.s2);
      return;
    case Split::kToom4: list_size(r, c.k), list_size(r, n - 3 * c.k), list_size(r, c.s1), list_size(r, c.s2); return;
    case Split::kKara3: list_size(r, c.k), list_size(r, c.s1); return;
    case Split::kKaratsuba: list_size(r, c.k), list_size(r, n - c.k), list_size(r, c.s1); return;
  }
}
constexpr PlanSizes plan_sizes() {
  PlanSizes r{};
  // The top product's whole size stays listed (the largest size of a single-level plan), and its
  // short product's two sizes.
  if (kLevelEnabled<1>) list_size(r, kCrtTopWords<Hqc1>);
  if (kLevelEnabled<3>) list_size(r, kCrtTopWords<Hqc3>);
  for (const std::size_t n : {kLevelEnabled<1> ? kCrtTopWords<Hqc1> : 0, kLevelEnabled<3> ? kCrtTopWords<Hqc3> : 0})
    if (n != 0 && short_split(n) != 0) list_size(r, n - short_split(n)), list_size(r, short_split(n) + 1);
  if (kTreeWholeProduct<1>) list_size(r, (Hqc1::kN + 31) / 32);
  if (kTreeWholeProduct<3>) list_size(r, (Hqc3::kN + 31) / 32);
  if (kTreeWholeProduct<5>) list_size(r, (Hqc5::kN + 31) / 32);
  return r;
}
inline constexpr PlanSizes kPlanSizes = plan_sizes();  // compile time only, like kFullPlan

// One entry of the compact plan: the size n, its choice (how, k, s1, s2, pad as in Choice), and
// the indices in kPlan of the sizes it multiplies at: at_pad that of pad; at_lo, at_hi those of
// its split's two part sizes (Karatsuba's lo and hi, Toom-3's m and rem, three-way Karatsuba's k
// twice; unused for a leaf); at_s1, at_s2 those of s1 and s2 (unused where the split has none).
// The recursion passes these indices down, so a step finds its parts' entries by one load.
struct Step {
  Split how = Split::kLeaf;
  std::uint8_t at_pad = 0, at_lo = 0, at_hi = 0, at_s1 = 0, at_s2 = 0;
  std::uint16_t n = 0, k = 0, s1 = 0, s2 = 0, pad = 0;
};
static_assert(kPlanSizes.count <= 255, "kPlan's indices are 8-bit");

// kPlan: the listed sizes in increasing order (kPlan[i].n < kPlan[i + 1].n), the last the
// largest product, kMaxPolyWords. A size's parts are smaller than it, so every at_* of
// entry i but at_pad (pad >= n) is below i.
using PlanArray = std::array<Step, kPlanSizes.count>;
constexpr PlanArray make_compact_plan() {
  PlanArray t{};
  std::array<std::uint8_t, kMaxPlanWords> at{};
  std::size_t i = 0;
  for (std::size_t n = 1; n < kMaxPlanWords; n++)
    if (kPlanSizes.on[n]) at[n] = static_cast<std::uint8_t>(i++);
  for (std::size_t n = 1; n < kMaxPlanWords; n++) {
    if (!kPlanSizes.on[n]) continue;
    const Choice& c = kFullPlan.step[n];
    Step& e = t[at[n]];
    e.how = c.how, e.n = static_cast<std::uint16_t>(n), e.k = c.k, e.s1 = c.s1, e.s2 = c.s2, e.pad = c.pad;
    e.at_pad = at[c.pad];
    if (c.how == Split::kLeaf) continue;
    e.at_lo = at[c.k];
    e.at_hi = at[c.how == Split::kToom3 || c.how == Split::kToom3Half ? n - 2 * c.k
                 : c.how == Split::kToom4                             ? n - 3 * c.k
                 : c.how == Split::kKara3                             ? c.k
                                                                      : n - c.k];
    e.at_s1 = at[c.s1];
    e.at_s2 = at[c.how == Split::kToom3 || c.how == Split::kToom3Half || c.how == Split::kToom4 ? c.s2 : c.s1];
  }
  return t;
}
inline constexpr PlanArray kPlan = make_compact_plan();
static_assert(kPlan.back().n == kMaxPolyWords);

// Whether some size of the plan takes the split `how` (a build of HQC-1 or HQC-3 alone has no
// Toom-4 step).
template <Split how>
inline constexpr bool kPlanUses = [] {
  for (const Step& st : kPlan)
    if (st.how == how) return true;
  return false;
}();

// The index of the smallest listed size >= n, for n <= kMaxPolyWords: a search down from the top
// (n is public; the top sizes of the levels, what the ring multiplication asks for, are found in
// one step for the largest level and a few for the others). Comparisons only, no division.
constexpr std::size_t plan_at(std::size_t n) {
  std::size_t i = kPlan.size() - 1;
  while (i > 0 && kPlan[i - 1].n >= n) i--;
  return i;
}

constexpr std::size_t max_of(std::size_t x, std::size_t y) { return x > y ? x : y; }

constexpr std::size_t scratch_at(std::size_t i);

// The scratch words of the split of entry i's size itself (kPlan[i].how), without padding: its
// own buffers, then below them the largest that one of its sub-products uses (they run one after
// the other).
constexpr std::size_t direct_scratch_at(std::size_t i) {
  const Step& st = kPlan[i];
  switch (st.how) {
    case Split::kLeaf: return 0;
    case Split::kToom3:
    case Split::kToom3Half: {
      const std::size_t e = max_of(st.s1, st.s2);
      return 2 * e + 2 * st.s1 + 4 * st.s2 +
             max_of(max_of(direct_scratch_at(st.at_s1), direct_scratch_at(st.at_s2)),
                    max_of(scratch_at(st.at_lo), scratch_at(st.at_hi)));
    }
    case Split::kToom4: {
      const std::size_t e = max_of(st.s1, st.s2);
      return 2 * (2 * st.k + 12) + 4 * e + 5 * (2 * e + 2) + 2 * st.k +
             max_of(max_of(direct_scratch_at(st.at_s1), direct_scratch_at(st.at_s2)),
                    max_of(scratch_at(st.at_lo), scratch_at(st.at_hi)));
    }
    case Split::kKara3: return 8 * st.s1 + max_of(scratch_at(st.at_lo), direct_scratch_at(st.at_s1));
    case Split::kKaratsuba:
      return 4 * st.s1 + max_of(scratch_at(st.at_lo), max_of(scratch_at(st.at_hi), direct_scratch_at(st.at_s1)));
  }
  return 0;
}

// The scratch words of entry i's product by the plan: with padding, the padded operands and
// product (4 pad words) and below them the split of the padded size.
constexpr std::size_t scratch_at(std::size_t i) {
  const Step& st = kPlan[i];
  return st.pad != st.n ? 4 * st.pad + direct_scratch_at(st.at_pad) : direct_scratch_at(i);
}

// The scratch words poly_mul(n) uses, n <= kMaxPolyWords: a listed size's by the plan; any other
// size is computed at the smallest listed size p above it (ring_mul_m4.cpp, poly_mul), in 4p
// words of padded operands and product and below them p's own scratch.
constexpr std::size_t poly_mul_scratch_words(std::size_t n) {
  const std::size_t i = plan_at(n);
  return kPlan[i].n == n ? scratch_at(i) : 4 * kPlan[i].n + scratch_at(i);
}
// The scratch words of poly_mul_direct(n), n a listed size (kPlan[plan_at(n)].n == n).
constexpr std::size_t direct_scratch_words(std::size_t n) { return direct_scratch_at(plan_at(n)); }

// out[0 .. 2n) = a[0 .. n) * b[0 .. n) over GF(2) (32-bit little-endian words, no reduction),
// n <= kMaxPolyWords; scratch holds poly_mul_scratch_words(n) words. out may not overlap a, b or
// scratch. The sizes the ring multiplication asks for (the levels' top sizes) are listed in kPlan;
// any other (the tests' sizes) is padded to the smallest listed size above it.
void poly_mul(Word32* out, const Word32* a, const Word32* b, std::size_t n, Word32* scratch);

// out = prod mod x^n - 1 (spec §2.2) for a product prod of 2n - 1 bits (32-bit words, the words
// above it zero as far as word 2 ceil(n/32)): bit n + j folds onto bit j, and out's words from
// ceil(n/32) to the padded length are zeroed. Word i gains words q + i and q + i + 1 shifted down
// by r = n mod 32, four words per LDM/STM in Thumb-2 (hqc_m4_fold_5, hqc_m4_fold_11, poly_m4.S: the
// shifts are immediates), about 7 estimated cycles a word against 9 for a C++ loop of four; the
// top words here. The tree's mul and the FAFFT's inverse both end with it.
template <class P>
void fold_product(std::uint64_t* out, const Word32* prod) {
  constexpr std::size_t N = (P::kN + 31) / 32, q = P::kN / 32;
  constexpr unsigned r = P::kN % 32;
  static_assert(r == 5 || r == 11, "a fold routine for n mod 32 (poly_m4.S)");
  auto* o = reinterpret_cast<Word32*>(out);
  constexpr std::size_t kQuads = (N - 1) / 4;  // words 0 .. 4 kQuads - 1 (all but the top one or more)
  (r == 5 ? hqc_m4_fold_5 : hqc_m4_fold_11)(o, prod, prod + q + 1, kQuads);
  for (std::size_t i = 4 * kQuads; i + 1 < N; i++) o[i] = prod[i] ^ (prod[i + q] >> r) ^ (prod[i + q + 1] << (32 - r));
  o[N - 1] = (prod[N - 1] ^ (prod[N - 1 + q] >> r)) & ((Word32{1} << r) - 1);
  for (std::size_t k = N; k < 2 * P::kNWordsPadded; k++) o[k] = 0;
}
// The same by the split of n itself, never padded, n a listed size: direct_scratch_words(n) words
// of scratch.
void poly_mul_direct(Word32* out, const Word32* a, const Word32* b, std::size_t n, Word32* scratch);

}  // namespace hqc::backend::m4
