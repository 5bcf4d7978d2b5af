// What both FAFFT implementations (avx512/fafft.cpp over GF(2^32) on 512-bit vectors,
// avx2/fafft_avx2.cpp over GF(2^32) on 256-bit vectors) share: the size of a product and of a
// transform, the step list of the novel-basis conversion and its plan of register and memory
// passes. Plain constexpr C++, no instructions: each backend turns the plan into its own vector
// code. The algorithm: docs/FAFFT.md.
#pragma once

#include <cstddef>
#include <cstdint>

#include "backend/ops.hpp"
#include "params/params.hpp"

namespace hqc::backend::fafft {

// Smallest m with 2^m >= 2n - 1 (the product has 2n - 1 coefficients).
constexpr unsigned log_product_bits(std::size_t n) {
  unsigned m = 0;
  while ((std::size_t{1} << m) < 2 * n - 1) m++;
  return m;
}
template <class P>
inline constexpr unsigned kLogProduct = log_product_bits(P::kN);
// uint64 words of one transform of these FAFFTs: 2^m bits (2^(m-5) elements of GF(2^32)). On a
// hosted build that is the contract's size (backend/ops.hpp, checked below); a Cortex-M4 device
// build's contract keeps the m4 row's smaller transforms at HQC-1 and HQC-3, and the m4 FAFFT on
// the whole 2^m bits is there a test and benchmark of its own buffers.
template <class P>
inline constexpr std::size_t kTransformWords = std::size_t{1} << (kLogProduct<P> - 6);
#if !(defined(HQC_DEVICE_CORTEX_M4) && HQC_DEVICE_CORTEX_M4)
static_assert(kTransformWords<Hqc1> == backend::kTransformWords<Hqc1> &&
                  kTransformWords<Hqc3> == backend::kTransformWords<Hqc3> &&
                  kTransformWords<Hqc5> == backend::kTransformWords<Hqc5>,
              "a hosted build's transforms are 2^m bits");
#endif

// ---- Novel-basis conversion over GF(2): the steps ----------------------------------------------
//
// convert(L, G): the array is a sequence of blocks of 2^L elements of G bits (a polynomial with
// coefficients that are G-bit units, converted themselves by a later call). With T the largest
// power of two below L, Taylor-expand at y = x^(2^T) + x = s_T(x): each level lev = L..T+1
// (k = lev - 1 - T, sub-blocks of 2^lev elements, half h = 2^(lev-1)) is
//   A: elements [h, h + 2^k) ^= elements [2h - 2^k, 2h)
//   B: elements [2^k, h) ^= elements [h, 2h - 2^k)
// which gives f = g0 + g1 * y^(2^k). Then convert(L - T, G * 2^T) (the y-polynomials, all
// 2^T coefficient slots at once) and convert(T, G) (each 2^T-element coefficient). Every step
// leaves its source range unchanged, so the inverse runs the same steps in reverse order.

struct Step {
  std::uint32_t block, dst, src, len;  // in bits, per block of `block` bits
};
constexpr int kMaxSteps = 72;  // gen_steps(17, 1) has 66 steps

// Appends the steps of convert(L, G) to s[n..] and returns the new count.
constexpr int gen_steps(unsigned L, std::uint32_t G, Step* s, int n) {
  if (L <= 1) return n;
  unsigned T = 1;
  while (2 * T < L) T *= 2;
  for (unsigned lev = L; lev > T; lev--) {
    const unsigned k = lev - 1 - T;
    const std::uint32_t half = G << (lev - 1), piece = G << k, block = G << lev;
    s[n++] = Step{block, half, 2 * half - piece, piece};
    s[n++] = Step{block, piece, half, half - piece};
  }
  n = gen_steps(L - T, G << T, s, n);
  return gen_steps(T, G, s, n);
}
constexpr int gen_steps_count(unsigned L) {
  Step s[256] = {};
  return gen_steps(L, 1, s, 0);
}
static_assert(gen_steps_count(17) <= kMaxSteps);

// ---- The steps as register and memory passes -------------------------------------------------
//
// Both implementations run the steps on blocks of at most kRegBits bits inside registers: a unit
// of kUnitWords words (sixteen ymm or eight zmm) is loaded once and every step of such a run is
// x ^= (x >> delta) & mask on the whole unit, unrolled at compile time from the RegOp below. A
// step on larger blocks is a memory pass of its own. The plan is a compile-time constant.
inline constexpr int kUnitWords = 64;
inline constexpr std::uint32_t kRegBits = 64 * kUnitWords;

struct RegOp {
  std::uint64_t mask[kUnitWords];  // destination bits of the step in the unit
  std::uint32_t q, r;              // delta = src - dst = 64 q + r bits
  std::uint32_t block;             // the step's block size in bits
  // Blocks within words: the source bits are in the same word.
  constexpr bool in_word() const { return block <= 64; }
};

struct Group {
  bool reg;
  int first, count;  // steps (reg == false) or reg ops
};

struct ConversionPlan {
  int nsteps = 0;
  Step steps[kMaxSteps];
  int nops = 0;
  RegOp ops[kMaxSteps];
  int ngroups = 0;
  Group groups[kMaxSteps];
};

// Bits [lo, hi) of a word (clipped to 0..64).
constexpr std::uint64_t bit_range(std::int64_t lo, std::int64_t hi) {
  if (lo < 0) lo = 0;
  if (hi > 64) hi = 64;
  if (hi <= lo) return 0;
  const std::uint64_t upto_hi = hi == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << hi) - 1;
  return upto_hi & ~((std::uint64_t{1} << lo) - 1);
}

constexpr RegOp make_regop(const Step& s) {
  RegOp op{};
  const std::uint32_t wb = s.block < 64 ? s.block : 64;
  for (int i = 0; i < kUnitWords; i++) {
    // Word i holds bits 64i .. 64i+63; blocks are powers of two, so a word is inside one block
    // (block >= 64) or holds 64 / block whole blocks.
    std::uint64_t m = 0;
    for (std::uint32_t b0 = 0; b0 < 64; b0 += wb) {
      const std::int64_t o = static_cast<std::int64_t>((64 * static_cast<std::uint32_t>(i) + b0) % s.block);
      m |= bit_range(static_cast<std::int64_t>(s.dst) - o + b0, static_cast<std::int64_t>(s.dst + s.len) - o + b0) &
           bit_range(b0, b0 + wb);
    }
    op.mask[i] = m;
  }
  const std::uint32_t delta = s.src - s.dst;
  op.q = delta / 64;
  op.r = delta % 64;
  op.block = s.block;
  return op;
}

// Maximal runs of consecutive steps on blocks of <= kRegBits bits become register groups (ops in
// forward order); the inverse runs the groups backwards and each group's ops backwards.
constexpr void build_groups(ConversionPlan& p) {
  int i = 0;
  while (i < p.nsteps) {
    if (p.steps[i].block > kRegBits) {
      p.groups[p.ngroups++] = Group{false, i, 1};
      i++;
      continue;
    }
    const int first = p.nops;
    for (; i < p.nsteps && p.steps[i].block <= kRegBits; i++) p.ops[p.nops++] = make_regop(p.steps[i]);
    p.groups[p.ngroups++] = Group{true, first, p.nops - first};
  }
}

constexpr ConversionPlan make_conversion_plan(unsigned L) {
  ConversionPlan p{};
  if (L > 17) __builtin_trap();  // public constants only (see kMaxSteps)
  p.nsteps = gen_steps(L, 1, p.steps, 0);
  build_groups(p);
  return p;
}
// ---- The ops on blocks of at most 16 bits as one map per 16-bit lane ----------------------------
//
// A run of register ops whose blocks are at most 16 bits (every plan ends its last register group
// with eight of them) acts on each 16-bit lane alone, and in the same way on every lane: one
// 16 x 16 bit matrix. Every step moves bits downwards (src > dst), so no bit of the low byte
// reaches the high byte: out_lo = A lo + B hi, out_hi = D hi. Where a backend has GFNI, each of
// A, B, D is one gf2p8affineqb matrix (result bit j = parity(byte 7 - j of the matrix & x)).
struct PairMap {
  std::uint64_t a, b, d;
};

// The ops first .. first + count - 1 of plan p applied in order (reverse: in reverse order, the
// inverse map: each step is an involution). Traps (at compile time) unless they act on 16-bit
// lanes alike and keep the high byte out of the low one's sources, as above.
constexpr PairMap make_pair_map(const RegOp* ops, int count, bool reverse) {
  std::uint32_t col[16] = {};
  for (int i = 0; i < 16; i++) {
    std::uint32_t v = std::uint32_t{1} << i;
    for (int k = 0; k < count; k++) {
      const RegOp& op = ops[reverse ? count - 1 - k : k];
      if (op.block > 16 || op.q != 0) __builtin_trap();
      for (const std::uint64_t word_mask : op.mask)
        for (int lane = 0; lane < 4; lane++)
          if (((word_mask >> (16 * lane)) & 0xFFFF) != (op.mask[0] & 0xFFFF)) __builtin_trap();
      v ^= (v >> op.r) & static_cast<std::uint32_t>(op.mask[0] & 0xFFFF);
    }
    col[i] = v;
  }
  PairMap m{};
  for (int j = 0; j < 16; j++)
    for (int i = 0; i < 16; i++) {
      if (((col[i] >> j) & 1) == 0) continue;
      if (j >= 8 && i < 8) __builtin_trap();  // low byte into the high one: not a pair map
      const std::uint64_t bit = std::uint64_t{1} << (8 * (7 - (j % 8)) + (i % 8));
      if (j < 8 && i < 8) m.a |= bit;
      else if (j < 8) m.b |= bit;
      else m.d |= bit;
    }
  return m;
}

// Number of ops at the end of ops[first .. first + count) whose blocks are at most 16 bits.
constexpr int tail16_count(const ConversionPlan& p, int first, int count) {
  int t = 0;
  while (t < count && p.ops[first + count - 1 - t].block <= 16) t++;
  return t;
}

// The conversion plan of 2^L bits (compile-time constant, .rodata where it is read at run time).
template <unsigned L>
inline constexpr ConversionPlan kConversionPlan = make_conversion_plan(L);

}  // namespace hqc::backend::fafft
