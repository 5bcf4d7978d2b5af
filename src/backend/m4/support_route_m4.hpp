// Support expansion (spec §4.4) by an oblivious sort and two routing networks, for the weights
// where it beats the ramps of support_m4.S: its cost grows as W log W + w log^2 w instead of
// w * W (W the vector's 32-bit words, w the weight). Device builds only (backend.cpp); the
// range pass is a template parameter so that the network is the same code whatever runs it.
//
// 1. Sort the positions (Knuth's merge exchange, TAOCP 5.2.2 Algorithm M: a comparator network
//    for any n, each comparator a branch-free min/max).
// 2. Word q_j = s_j >> 5 and mask m_j = 1 << (s_j & 31) of the sorted s_j. Where q_j = q_{j+1},
//    item j's mask is ORed into item j+1 and item j becomes empty (mask 0); equal positions give
//    equal masks, so a repeat is an OR too, as in the portable kernel.
// 3. Compaction: item j moves down by c_j, the number of empty items below it, so that the w'
//    items with a mask fill slots 0 .. w'-1 in order of their words. c_j grows with j by at most
//    one per item, so moving by the bits of c_j from the lowest up never puts two items in one slot
//    (after bits 0 .. k-1, items i < j sit at i - (c_i mod 2^k) < j - (c_j mod 2^k)).
// 4. Expansion: the item in slot r moves up by d = q - r >= 0 to slot q, its word. The q are
//    distinct and increasing, so d never decreases with r; moving by the bits of d from the
//    highest down never puts two items in one slot (after the bits above k, items r < r' sit at
//    r + (d without its low k bits) < r' + (d' without its low k bits)). Slot q's mask is then output word q.
//
// A slot is two words, (mask, offset), and an empty slot is (0, 0), which never moves. A step of
// level k, distance s = 2^k, in place from the top slot down: slot j keeps its item unless bit k
// of its offset is set, and takes slot j - s's item if bit k of that one's offset is set; at most
// one of the two is non-empty, so the two masked values are ORed. Before level k the items sit
// at r + (multiples of 2^(k+1)) for r < w, so only the slots in [a s, a s + w) for a = 0, 1, ...
// can change: the top levels touch a few hundred slots, not all W.
//
// Every loop bound, index and address depends on w and n only (public); the positions only
// meet masks, shifts by a register (constant time on the M4) and min/max by subtraction.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/ct.hpp"
#include "common/mem.hpp"

namespace hqc::backend::m4::route {

// (a, b) = (min, max) of two values below 2^31, without a branch.
inline void min_max(std::uint32_t& a, std::uint32_t& b) {
  const std::uint32_t x = a, y = b;
  const std::uint32_t swap = ct::value_barrier<std::uint32_t>(0 - ((y - x) >> 31));  // all-ones iff y < x
  const std::uint32_t diff = (x ^ y) & swap;
  a = x ^ diff;
  b = y ^ diff;
}

// v[0 .. n) in increasing order by TAOCP 5.2.2 Algorithm M (merge exchange): the comparators
// depend on n only. Values below 2^31.
inline void sort(std::uint32_t* v, std::size_t n) {
  if (n < 2) return;
  std::size_t t = 0;
  while ((std::size_t{1} << t) < n) t++;
  for (std::size_t p = std::size_t{1} << (t - 1); p > 0; p >>= 1) {
    std::size_t q = std::size_t{1} << (t - 1), r = 0, d = p;
    for (;;) {
      // The comparators (i, i + d) with i & p == r: runs of p indices, every other run.
      for (std::size_t base = r; base + d < n; base += 2 * p) {
        const std::size_t end = base + p < n - d ? base + p : n - d;
        std::uint32_t* x = v + base;
        std::uint32_t* const x_end = v + end;
        for (; x != x_end; x++) min_max(x[0], x[d]);
      }
      if (q == p) break;
      d = q - p;
      q >>= 1;
      r = p;
    }
  }
}

// Routing levels. A slot is two words, (mask, offset), and an empty slot is (0, 0), which never
// moves. The offset is kept shifted so that the bit of the current level is bit 31, and every
// level shifts it left by one (the bit is used up): a level reads one bit per slot without a
// shift by a level-dependent amount. One step of a level with distance s, in place from the top
// slot down: slot j keeps its item unless bit 31 of its offset is set, and takes the item of slot
// j - s if bit 31 of that one's offset is set; at most one of the two is non-empty, so the masked
// values are ORed.

// The step of a slot whose source would be below the array (j < s).
inline void keep_only(std::uint32_t* slot) {
  const std::uint32_t go = ct::value_barrier<std::uint32_t>(0 - (slot[1] >> 31));
  slot[0] &= ~go;
  slot[1] = (slot[1] & ~go) << 1;
}

// The step of slot j from slot j - s (slot and src point at their mask words).
inline void step(std::uint32_t* slot, const std::uint32_t* src) {
  const std::uint32_t go = ct::value_barrier<std::uint32_t>(0 - (slot[1] >> 31));
  const std::uint32_t come = ct::value_barrier<std::uint32_t>(0 - (src[1] >> 31));
  slot[0] = (slot[0] & ~go) | (src[0] & come);
  slot[1] = ((slot[1] & ~go) | (src[1] & come)) << 1;
}

// What a device supplies to the networks (backend.cpp: Thumb-2; PortableOps: the same in C++).
//   pass(slots, lo, hi, s): the steps of slots [lo, hi) from the top down, each from the slot s
//     below; lo is a multiple of 4 and at least s, hi - lo a positive multiple of 4.
//   last(slots, out32, lo, hi): the steps of the last level (s = 1) for slots [lo, hi), each
//     slot's new mask stored to out32[j] and the slot (both words) cleared; lo is a multiple of 4
//     and at least 4, hi - lo a positive multiple of 4.
//   zero(p, words): p[0 .. words) = 0.
struct PortableOps {
  static void pass(std::uint32_t* slots, std::size_t lo, std::size_t hi, std::size_t s) {
    for (std::size_t j = hi; j-- > lo;) step(slots + 2 * j, slots + 2 * (j - s));
  }
  static void last(std::uint32_t* slots, std::uint32_t* out32, std::size_t lo, std::size_t hi) {
    for (std::size_t j = hi; j-- > lo;) {
      step(slots + 2 * j, slots + 2 * (j - 1));
      out32[j] = slots[2 * j];
      slots[2 * j] = 0;
      slots[2 * j + 1] = 0;
    }
  }
  static void zero(std::uint32_t* p, std::size_t words) { mem::zero(p, words * sizeof(std::uint32_t)); }
};

// x with its 32 bits in reverse order.
inline std::uint32_t reverse_bits(std::uint32_t x) {
  x = ((x >> 1) & 0x55555555) | ((x & 0x55555555) << 1);
  x = ((x >> 2) & 0x33333333) | ((x & 0x33333333) << 2);
  x = ((x >> 4) & 0x0F0F0F0F) | ((x & 0x0F0F0F0F) << 4);
  x = ((x >> 8) & 0x00FF00FF) | ((x & 0x00FF00FF) << 8);
  return (x >> 16) | (x << 16);
}

// The steps of slots [start, end) of a level with distance s, from the top down: the part from
// a multiple of 4 at or above max(start, s) to a multiple of 4 at or below end by Ops::pass, the
// rest here.
template <class Ops>
void level_range(std::uint32_t* slots, std::size_t start, std::size_t end, std::size_t s) {
  const std::size_t lo = ((start < s ? s : start) + 3) & ~std::size_t{3};
  std::size_t hi = end & ~std::size_t{3};
  if (hi < lo) hi = lo;
  for (std::size_t j = end; j-- > hi;) {
    if (j >= s) step(slots + 2 * j, slots + 2 * (j - s));
    else keep_only(slots + 2 * j);
  }
  if (hi > lo) Ops::pass(slots, lo, hi, s);
  for (std::size_t j = lo < end ? lo : end; j-- > start;) {
    if (j >= s) step(slots + 2 * j, slots + 2 * (j - s));
    else keep_only(slots + 2 * j);
  }
}

// out32[0 .. nwords) = the vector with ones at pos[0 .. w), positions below 32 * nwords <= 2^16,
// 1 <= w <= 256, nwords >= 8. nslots: nwords rounded up to a multiple of 4, at least 2 w + 4;
// 2^levels >= nslots. slots: 2 * nslots words of scratch; sorted: w words.
template <class Ops>
void support_to_vector(std::uint32_t* out32, std::uint32_t* slots, std::uint32_t* sorted, const std::uint32_t* pos,
                       std::size_t w, std::size_t nwords, std::size_t nslots, unsigned levels) {
  for (std::size_t j = 0; j < w; j++) sorted[j] = pos[j];
  sort(sorted, w);
  Ops::zero(slots, 2 * nslots);
  // Compaction (step 3) in the top slots, in reverse order: item j in slot base + w - 1 - j moves
  // up by c_j, lowest bit first, so its offset word holds c_j bit-reversed (bit 0 at bit 31) above
  // its word q; after the compaction's clevels shifts only q << clevels remains.
  unsigned clevels = 0;
  while ((std::size_t{1} << clevels) < w) clevels++;
  const std::size_t cslots = (w + 3) & ~std::size_t{3};
  std::uint32_t* comp = slots + 2 * (nslots - cslots);
  std::uint32_t empties = 0;  // c_j: the empty items below j
  for (std::size_t j = 0; j < w; j++) {
    const std::uint32_t q = sorted[j] >> 5;
    std::uint32_t m = std::uint32_t{1} << (sorted[j] & 31);
    // Item j passes its mask to item j + 1 and empties if their words are equal (the mask
    // received from item j - 1 is already in comp).
    std::uint32_t* slot = comp + 2 * (w - 1 - j);
    m |= slot[0];
    if (j + 1 < w) {  // public
      const std::uint32_t same = ct::mask_eq32(q, sorted[j + 1] >> 5);
      slot[-2] = m & same;
      m &= ~same;
    }
    const std::uint32_t full = ct::mask_nonzero32(m);
    const std::uint32_t rev = reverse_bits(empties);  // c_j < 2^clevels: bit 0 at bit 31
    slot[0] = m;
    slot[1] = (rev | q) & full;
    empties += ~full & 1;
  }
  for (unsigned k = 0; k < clevels; k++) level_range<Ops>(comp, 0, cslots, std::size_t{1} << k);
  // Expansion items: the item of rank r (compacted into slot w - 1 - r) goes to slot r with
  // offset q - r, its top bit (levels - 1) at bit 31.
  for (std::size_t r = 0; r < w; r++) {
    std::uint32_t* from = comp + 2 * (w - 1 - r);
    const std::uint32_t q = from[1] >> clevels;
    const std::uint32_t full = ct::mask_nonzero32(from[0]);
    slots[2 * r] = from[0];
    slots[2 * r + 1] = ((q - static_cast<std::uint32_t>(r)) << (32 - levels)) & full;
  }
  Ops::zero(comp, 2 * cslots);
  // Expansion, highest bit first. Before level k the items sit at r + (multiples of 2^(k+1)),
  // r < w: only slots [a s, a s + w) can change, for a from the top down (one range once w >= s).
  for (unsigned k = levels; k-- > 1;) {
    const std::size_t s = std::size_t{1} << k;
    if (w >= s) {
      level_range<Ops>(slots, 0, nslots, s);
      continue;
    }
    for (std::size_t a = (nslots - 1) / s + 1; a-- > 0;) {
      const std::size_t start = a * s;
      level_range<Ops>(slots, start, start + w < nslots ? start + w : nslots, s);
    }
  }
  // The last level (s = 1, every slot) stores each slot's mask, its output word, and clears the
  // slot: afterwards slots holds zeros only, so it needs no wipe. Slots at and above nwords
  // (padding, empty) are cleared without a store.
  const std::size_t hi = nwords & ~std::size_t{3};
  for (std::size_t j = nslots; j-- > hi;) {
    step(slots + 2 * j, slots + 2 * (j - 1));
    if (j < nwords) out32[j] = slots[2 * j];  // public
    slots[2 * j] = 0;
    slots[2 * j + 1] = 0;
  }
  Ops::last(slots, out32, 4, hi);
  for (std::size_t j = 4; j-- > 0;) {
    if (j > 0) step(slots + 2 * j, slots + 2 * (j - 1));  // public
    else keep_only(slots);
    out32[j] = slots[2 * j];
    slots[2 * j] = 0;
    slots[2 * j + 1] = 0;
  }
  ct::wipe(sorted, w * sizeof(std::uint32_t));
}

}  // namespace hqc::backend::m4::route
