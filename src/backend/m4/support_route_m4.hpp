// Support expansion (spec §4.4) by an oblivious sort and two routing networks: its cost grows as
// W log W + w log^2 w instead of the w * W of building every word from every position (W the
// vector's words, w the weight). Device builds only (backend.cpp); the passes over
// the slots are a template parameter (Ops) so that the networks are the same code whatever runs
// them. A block is kBlockWords = 4 32-bit words of the vector (128 bits): position p lies in block
// B = p >> 7, word (p >> 5) & 3 of it, bit p & 31.
//
// 1. Sort the positions (Knuth's merge exchange, TAOCP 5.2.2 Algorithm M: a comparator network
//    for any n, each comparator a branch-free min/max), as 16-bit values: the device sorts them
//    two to a word.
// 2. Item j of the sorted s_j: its block B_j and its 128-bit mask. Where B_j = B_{j+1}, item j's
//    mask is ORed into item j+1 and item j becomes empty (mask 0); equal positions give equal
//    masks, so a repeat is an OR too, as in the portable kernel.
// 3. Compaction: item j moves down by c_j, the number of empty items below it, so that the w'
//    items with a mask fill slots 0 .. w'-1 in order of their blocks. c_j grows with j by at most
//    one per item, so moving by the bits of c_j from the lowest up never puts two items in one slot
//    (after bits 0 .. k-1, items i < j sit at i - (c_i mod 2^k) < j - (c_j mod 2^k)).
// 4. Expansion: the item in slot r moves up by d = B - r >= 0 to slot B, its block. The B are
//    distinct and increasing, so d never decreases with r; moving by the bits of d from the
//    highest down never puts two items in one slot (after the bits above k, items r < r' sit at
//    r + (d without its low k bits) < r' + (d' without its low k bits)). Slot B's mask is then
//    block B of the vector.
//
// Before expansion level k the items sit at r + (multiples of 2^(k+1)) for r < w, so only the
// slots in [a s, a s + w) for a = 0, 1, ... can change at that level (s = 2^k): the top levels
// touch a few hundred slots, not all of them.
//
// Every loop bound, index and address depends on w and n only (public); the positions only
// meet masks, shifts by a register (constant time on the M4) and min/max by subtraction.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/ct.hpp"
#include "common/mem.hpp"

namespace hqc::backend::m4::route {

// (a, b) = (min, max) of two 16-bit values, without a branch.
inline void min_max(std::uint16_t& a, std::uint16_t& b) {
  const std::uint32_t x = a, y = b;
  const std::uint32_t swap = ct::value_barrier<std::uint32_t>(0 - ((y - x) >> 31));  // all-ones iff y < x
  const std::uint32_t diff = (x ^ y) & swap;
  a = static_cast<std::uint16_t>(x ^ diff);
  b = static_cast<std::uint16_t>(y ^ diff);
}

// v[0 .. n) in increasing order by TAOCP 5.2.2 Algorithm M (merge exchange): the comparators
// depend on n only.
inline void sort(std::uint16_t* v, std::size_t n) {
  if (n < 2) return;
  std::size_t t = 0;
  while ((std::size_t{1} << t) < n) t++;
  for (std::size_t p = std::size_t{1} << (t - 1); p > 0; p >>= 1) {
    std::size_t q = std::size_t{1} << (t - 1), r = 0, d = p;
    for (;;) {
      // The comparators (i, i + d) with i & p == r: runs of p indices, every other run.
      for (std::size_t base = r; base + d < n; base += 2 * p) {
        const std::size_t end = base + p < n - d ? base + p : n - d;
        std::uint16_t* x = v + base;
        std::uint16_t* const x_end = v + end;
        for (; x != x_end; x++) min_max(x[0], x[d]);
      }
      if (q == p) break;
      d = q - p;
      q >>= 1;
      r = p;
    }
  }
}

// Routing levels. A slot is kSlotWords = 5 words, the block's mask (4 words) and an offset, and
// an empty slot is all zero, which never moves. The offset is kept shifted so that the bit of
// the current level is bit 31, and every level shifts it left by one (the bit is used up): a
// level reads one bit per slot without a shift by a level-dependent amount. One step of a level
// with distance s, in place from the top slot down: slot j keeps its item unless bit 31 of its
// offset is set, and takes the item of slot j - s if bit 31 of that one's offset is set; at most
// one of the two is non-empty, so the masked words are ORed.
inline constexpr std::size_t kBlockWords = 4;
inline constexpr std::size_t kSlotWords = kBlockWords + 1;

// The step of a slot whose source would be below the array (j < s).
inline void keep_only(std::uint32_t* slot) {
  const std::uint32_t go = ct::value_barrier<std::uint32_t>(0 - (slot[kBlockWords] >> 31));
  for (std::size_t t = 0; t < kBlockWords; t++) slot[t] &= ~go;
  slot[kBlockWords] = (slot[kBlockWords] & ~go) << 1;
}

// The step of slot j from slot j - s (slot and src point at their first words).
inline void step(std::uint32_t* slot, const std::uint32_t* src) {
  const std::uint32_t go = ct::value_barrier<std::uint32_t>(0 - (slot[kBlockWords] >> 31));
  const std::uint32_t come = ct::value_barrier<std::uint32_t>(0 - (src[kBlockWords] >> 31));
  for (std::size_t t = 0; t < kBlockWords; t++) slot[t] = (slot[t] & ~go) | (src[t] & come);
  slot[kBlockWords] = ((slot[kBlockWords] & ~go) | (src[kBlockWords] & come)) << 1;
}

// x with its 32 bits in reverse order.
inline std::uint32_t reverse_bits(std::uint32_t x) {
  x = ((x >> 1) & 0x55555555) | ((x & 0x55555555) << 1);
  x = ((x >> 2) & 0x33333333) | ((x & 0x33333333) << 2);
  x = ((x >> 4) & 0x0F0F0F0F) | ((x & 0x0F0F0F0F) << 4);
  x = ((x >> 8) & 0x00FF00FF) | ((x & 0x00FF00FF) << 8);
  return (x >> 16) | (x << 16);
}

// The value after the sorted positions (and the pad that makes their count even for the device's
// sort): its block, 511, is no position's (positions below 32 * nwords <= kPositionLimit).
inline constexpr std::uint16_t kSentinel = 0xFFFF;
inline constexpr std::uint32_t kPositionLimit = 0xFF80;

// Step 2 and the compaction's offsets: the w sorted positions sorted[0 .. w) (sorted[w] =
// kSentinel) become items, item j in the slot of five words that ends at comp_top - 5 j (slot
// w - 1 - j of the compaction). Item j's mask is its bit ORed with the masks carried from the
// items below it in its block; where item j + 1 is in the same block, item j passes the mask on
// and empties. Its offset word is (c_j bit-reversed) | B, zero if it is empty, c_j being the
// number of empty items below j (the compaction moves item j down by c_j, lowest bit first).
inline void items(std::uint32_t* comp_top, const std::uint16_t* sorted, std::size_t w) {
  std::uint32_t carry[kBlockWords] = {};
  std::uint32_t empties = 0;
  for (std::size_t j = 0; j < w; j++) {
    const std::uint32_t b = sorted[j] >> 7;
    const std::uint32_t word = (sorted[j] >> 5) & 3;
    const std::uint32_t bit = std::uint32_t{1} << (sorted[j] & 31);
    const std::uint32_t same = ct::mask_eq32(b, static_cast<std::uint32_t>(sorted[j + 1] >> 7));
    std::uint32_t* slot = comp_top - kSlotWords * (j + 1);
    std::uint32_t any = 0;
    for (std::uint32_t t = 0; t < kBlockWords; t++) {
      const std::uint32_t m = carry[t] | (bit & ct::mask_eq32(t, word));
      carry[t] = m & same;
      slot[t] = m & ~same;
      any |= slot[t];
    }
    const std::uint32_t full = ct::mask_nonzero32(any);
    slot[kBlockWords] = (reverse_bits(empties) | b) & full;  // c_j < w <= 256: bits 24..31; B < 2^9
    empties += ~full & 1;
  }
  ct::wipe(carry, sizeof(carry));
}

// What a device supplies to the networks (backend.cpp: Thumb-2; PortableOps: the same in C++).
//   pass(slots, lo, hi, s): the steps of slots [lo, hi) from the top down, each from the slot s
//     below; lo >= s, hi - lo a positive multiple of 2.
//   last(slots, out32, lo, hi): the steps of the last expansion level (s = 1) for slots
//     [lo, hi), lo >= 1, hi - lo a positive multiple of 2, each slot's new mask stored to block j
//     of out32 (words 4 j .. 4 j + 3); the slots are left as they are.
//   keep(slots, lo, hi): the steps of slots [lo, hi) that have no source (hi <= s), lo < hi.
//   zero(p, words): p[0 .. words) = 0.
//   sort(v, n): route::sort's comparators, in the same order; n even, v 4-byte aligned.
//   items(comp_top, sorted, w): route::items' slots, the same words.
struct PortableOps {
  static void pass(std::uint32_t* slots, std::size_t lo, std::size_t hi, std::size_t s) {
    for (std::size_t j = hi; j-- > lo;) step(slots + kSlotWords * j, slots + kSlotWords * (j - s));
  }
  static void last(std::uint32_t* slots, std::uint32_t* out32, std::size_t lo, std::size_t hi) {
    for (std::size_t j = hi; j-- > lo;) {
      step(slots + kSlotWords * j, slots + kSlotWords * (j - 1));
      for (std::size_t t = 0; t < kBlockWords; t++) out32[kBlockWords * j + t] = slots[kSlotWords * j + t];
    }
  }
  static void keep(std::uint32_t* slots, std::size_t lo, std::size_t hi) {
    for (std::size_t j = hi; j-- > lo;) keep_only(slots + kSlotWords * j);
  }
  static void zero(std::uint32_t* p, std::size_t words) { mem::zero(p, words * sizeof(std::uint32_t)); }
  static void sort(std::uint16_t* v, std::size_t n) { route::sort(v, n); }
  static void items(std::uint32_t* comp_top, const std::uint16_t* sorted, std::size_t w) {
    route::items(comp_top, sorted, w);
  }
};

// The steps of slots [start, end) of a level with distance s, from the top down: the part from
// max(start, s) up to an even count by Ops::pass, the rest here.
template <class Ops>
void level_range(std::uint32_t* slots, std::size_t start, std::size_t end, std::size_t s) {
  const std::size_t lo = start < s ? s : start;
  const std::size_t hi = lo < end ? lo + ((end - lo) & ~std::size_t{1}) : lo;
  for (std::size_t j = end; j-- > hi;) step(slots + kSlotWords * j, slots + kSlotWords * (j - s));
  if (hi > lo) Ops::pass(slots, lo, hi, s);
  const std::size_t keep_end = lo < end ? lo : end;
  if (keep_end > start) Ops::keep(slots, start, keep_end);
}

// Scratch words support_to_vector needs for its slots: nblocks for the expansion plus the
// compaction's w (rounded up to even) above them.
constexpr std::size_t scratch_words(std::size_t nblocks, std::size_t w) {
  return kSlotWords * (nblocks + ((w + 1) & ~std::size_t{1}));
}

// out32[0 .. nwords) = the vector with ones at pos[0 .. w), positions below 32 * nwords <=
// kPositionLimit, 1 <= w <= 256. nblocks = ceil(nwords / 4), 2^levels >= nblocks. slots:
// scratch_words(nblocks, w) words of scratch; sorted: w + 1 halfwords, 4-byte aligned.
template <class Ops>
void support_to_vector(std::uint32_t* out32, std::uint32_t* slots, std::uint16_t* sorted, const std::uint32_t* pos,
                       std::size_t w, std::size_t nwords, std::size_t nblocks, unsigned levels) {
  for (std::size_t j = 0; j < w; j++) sorted[j] = static_cast<std::uint16_t>(pos[j]);
  // The sentinel: after the positions, or the pad that makes their count even, which sorts last.
  sorted[w] = kSentinel;
  if (w >= 2) Ops::sort(sorted, w + (w & 1));  // public
  // Compaction (step 3) above the expansion's slots, in reverse order: item j in slot w - 1 - j
  // moves up by c_j, lowest bit first, so its offset word holds c_j bit-reversed (bit 0 at bit
  // 31) above its block B; after the compaction's clevels shifts only B << clevels remains.
  unsigned clevels = 0;
  while ((std::size_t{1} << clevels) < w) clevels++;
  const std::size_t cslots = (w + 1) & ~std::size_t{1};
  std::uint32_t* comp = slots + kSlotWords * nblocks;
  // Every slot starts empty, but the items' set-up writes the compaction's slots [0, w) and the
  // expansion's items are copied into slots [0, w) before the expansion reads them: only the
  // rest is zeroed, the compaction's padding slot and the expansion's slots from w up.
  if (cslots > w) Ops::zero(comp + kSlotWords * w, kSlotWords);
  if (nblocks > w) Ops::zero(slots + kSlotWords * w, kSlotWords * (nblocks - w));
  Ops::items(comp + kSlotWords * w, sorted, w);
  for (unsigned k = 0; k < clevels; k++) level_range<Ops>(comp, 0, cslots, std::size_t{1} << k);
  // Expansion items: the item of rank r (compacted into slot w - 1 - r) goes to slot r with
  // offset B - r, its top bit (levels - 1) at bit 31.
  for (std::size_t r = 0; r < w; r++) {
    const std::uint32_t* from = comp + kSlotWords * (w - 1 - r);
    std::uint32_t* to = slots + kSlotWords * r;
    std::uint32_t any = 0;
    for (std::size_t t = 0; t < kBlockWords; t++) {
      to[t] = from[t];
      any |= from[t];
    }
    const std::uint32_t b = from[kBlockWords] >> clevels;
    to[kBlockWords] = ((b - static_cast<std::uint32_t>(r)) << (32 - levels)) & ct::mask_nonzero32(any);
  }
  Ops::zero(comp, kSlotWords * cslots);
  // Expansion, highest bit first (only slots [a s, a s + w) can change at level k, see above).
  for (unsigned k = levels; k-- > 1;) {
    const std::size_t s = std::size_t{1} << k;
    if (w >= s) {
      level_range<Ops>(slots, 0, nblocks, s);
      continue;
    }
    for (std::size_t a = (nblocks - 1) / s + 1; a-- > 0;) {
      const std::size_t start = a * s;
      level_range<Ops>(slots, start, start + w < nblocks ? start + w : nblocks, s);
    }
  }
  // The last level (s = 1) stores each slot's mask to its block of out32: the top block (which
  // may hold fewer than four words of out32) and block 0 here, the rest by Ops::last.
  const std::size_t top = nblocks - 1;
  step(slots + kSlotWords * top, slots + kSlotWords * (top - 1));
  for (std::size_t t = 0; t < kBlockWords && kBlockWords * top + t < nwords; t++)  // public
    out32[kBlockWords * top + t] = slots[kSlotWords * top + t];
  const std::size_t lo = 1 + ((top - 1) & 1);  // top - lo even
  if (top > lo) Ops::last(slots, out32, lo, top);
  for (std::size_t j = lo; j-- > 0;) {
    if (j > 0) step(slots + kSlotWords * j, slots + kSlotWords * (j - 1));  // public
    else keep_only(slots);
    for (std::size_t t = 0; t < kBlockWords; t++) out32[kBlockWords * j + t] = slots[kSlotWords * j + t];
  }
  ct::wipe(sorted, (w + 1) * sizeof(std::uint16_t));
  Ops::zero(slots, kSlotWords * nblocks);  // the expansion's slots: the vector and the offsets (secret)
}

}  // namespace hqc::backend::m4::route
