// Kernels of the avx512 backend (namespace hqc::backend::avx512). Defined only in this folder's
// translation units, which are compiled with the AVX-512 / VPCLMULQDQ / GFNI flags; nothing here is
// inline, so no code compiled with those flags can be picked by the linker for another backend.
#pragma once

#include <cstddef>
#include <cstdint>

#include "backend/ops.hpp"

namespace hqc::backend::avx512 {

// ---- Ring multiplication (gf2x.cpp) -------------------------------------------------------------

// A decomposition tree for a product of two polynomials of `top_words()` 64-bit words: level i
// splits its operands into split[i] parts, by the method kind[i]:
//   kKaratsuba, split 2: two-way Karatsuba (3 products of half size);
//   kKaratsuba, split 3: three-way Karatsuba (6 products of a third);
//   kToom3,     split 3: Toom-Cook-3 at 0, 1, t, t + 1, inf with t = x^32 (5 products of a third;
//                        the one extra word of the evaluations at t and t + 1 is added back by a
//                        linear VPCLMULQDQ pass).
// Below the last level, products of `base` words are computed by a VPCLMULQDQ schoolbook (or a
// register leaf for 8, 16, 32 words). Chosen per parameter set by bench/avx512/mul_search.cpp (results
// in mul_plans.hpp). An initializer without kinds ({32, 2, {3, 3}}) is all Karatsuba.
//
// Unbalanced top (optional `high` tree, high.base != 0): a two-way Karatsuba whose low part is the
// tree above (L = low_words() words) and whose high part has H = high_words() <= L words: with
// X = x^(64 L), (a0 + a1 X)(b0 + b1 X) from a0 b0 and (a0 + a1)(b0 + b1) (L x L, a1 zero-extended)
// and a1 b1 (H x H). a1 b1 multiplies the low high.top_words() words by the `high` tree and adds
// the products of its top high.extra words (0 .. kMaxExtraWords) by one VPCLMULQDQ pass per word.
// Operands then have L + H words, so a size that is not of the form base * 2^i * 3^j needs less
// padding (HQC-5: 901 words as 512 + (384 + 5) instead of 1024).
enum MulLevel : std::uint8_t { kKaratsuba = 0, kToom3 = 1 };
struct MulTree {  // the high part of an unbalanced top (fields as in MulPlan); base 0 = none
  std::uint16_t base = 0;
  std::uint8_t depth = 0;
  std::uint8_t split[7] = {};
  MulLevel kind[7] = {};
  std::uint8_t extra = 0;  // words above the tree, multiplied by one-word passes
  constexpr std::size_t top_words() const {
    std::size_t n = base;
    for (std::size_t i = 0; i < depth; i++) n *= split[i];
    return n;
  }
};
inline constexpr std::size_t kMaxExtraWords = 8;
struct MulPlan {
  std::uint16_t base;     // words of a base product (1 .. kMaxBaseWords)
  std::uint8_t depth;     // number of splitting levels (0 .. 7)
  std::uint8_t split[7];  // 2 or 3 per level, top level first
  MulLevel kind[7] = {};  // per level, top first: kKaratsuba (default) or kToom3 (split 3)
  MulTree high = {};      // high part of an unbalanced top; omitted (base 0) = balanced tree
  constexpr bool unbalanced() const { return high.base != 0; }
  // Words of the (low) tree: base * prod(split).
  constexpr std::size_t low_words() const {
    std::size_t n = base;
    for (std::size_t i = 0; i < depth; i++) n *= split[i];
    return n;
  }
  // Words of the high part of an unbalanced top (tree + extra words), 0 for a balanced tree.
  constexpr std::size_t high_words() const { return unbalanced() ? high.top_words() + high.extra : 0; }
  // Operand words: low_words() + high_words().
  constexpr std::size_t top_words() const { return low_words() + high_words(); }
  // The high tree as a balanced plan (without the extra words).
  constexpr MulPlan high_plan() const {
    MulPlan p{high.base, high.depth, {}, {}, {}};
    for (std::size_t i = 0; i < 7; i++) {
      p.split[i] = high.split[i];
      p.kind[i] = high.kind[i];
    }
    return p;
  }
};
inline constexpr std::size_t kMaxBaseWords = 128;
inline constexpr std::size_t kMaxTopWords = 1280;

// Scratch words needed by plan_multiply / plan_multiply2 for `plan`.
std::size_t plan_scratch_words(const MulPlan& plan, int products);
// Plain products (no reduction) of top_words()-word operands, out has 2*top_words() words.
// Returns false if the plan is not valid. For the search tool and the tests.
bool plan_multiply(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b, const MulPlan& plan,
                   std::uint64_t* scratch);
bool plan_multiply2(std::uint64_t* out1, std::uint64_t* out2, const std::uint64_t* a1, const std::uint64_t* a2,
                    const std::uint64_t* b, const MulPlan& plan, std::uint64_t* scratch);

template <class P>
void mul(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b);
template <class P>
void mul2(std::uint64_t* out1, std::uint64_t* out2, const std::uint64_t* a1, const std::uint64_t* a2,
          const std::uint64_t* b);
template <class P>
MulPlan mul_plan();

// ---- Keccak (keccak.cpp) ------------------------------------------------------------------------
// Five-register layout (one state per call).
void keccak_f1600(std::uint64_t state[25]);
// Four independent states, lane-interleaved in 25 ymm registers.
void keccak_f1600_x4(std::uint64_t* s0, std::uint64_t* s1, std::uint64_t* s2, std::uint64_t* s3);
// One state with the lane-interleaved code on xmm registers (no transposes).
void keccak_f1600_lanes(std::uint64_t state[25]);
// One state, lanes p and -p paired in 13 xmm registers (keccak_pairs.cpp): the backend's keccak_f1600.
void keccak_f1600_pairs(std::uint64_t state[25]);
// Two states with the same rounds on ymm registers, one state per 128-bit lane (keccak_pairs.cpp):
// what keccak_f1600_x4 runs when exactly two states are given.
void keccak_f1600_pairs_x2(std::uint64_t* a, std::uint64_t* b);

// ---- Sampling (sampling.cpp) --------------------------------------------------------------------
template <class P>
void support_to_vector(std::uint64_t* out, const std::uint32_t* pos, std::size_t w);
template <class P>
void enc_positions(std::uint32_t* pos, const std::uint8_t* xof_bytes, std::size_t w);
// The key-generation sampler's duplicate test (backend/ops.hpp): 16 positions per compare.
std::uint32_t position_taken(const std::uint32_t* pos, std::size_t count, std::uint32_t r);
// One refill of the key-generation sampler (backend/ops.hpp keygen_accept).
template <class P>
std::size_t keygen_accept(std::uint32_t* pos, std::size_t count, const std::uint8_t* draws, std::size_t groups);

// ---- Decoding (rm.cpp, rs.cpp) ------------------------------------------------------------------
template <class P>
void rm_decode(std::uint8_t* out, const std::uint64_t* in);
template <class P>
void rs_decode(std::uint8_t* msg, const std::uint8_t* cw);
// Systematic Reed-Solomon encoding with GFNI (spec §5.2), the same bytes as code::rs_encode.
template <class P>
void rs_encode(std::uint8_t* cw, const std::uint8_t* msg);

// Wipes memory so that the compiler cannot drop it (own copy: common/ct.hpp is not used here).
void wipe(void* p, std::size_t len);

}  // namespace hqc::backend::avx512
