// Decomposition trees of the VPCLMULQDQ multiplier, one per parameter set. Chosen by
// bench/avx512/mul_search.cpp (target avx512_mul_search) on the machine described in
// bench/avx512/mul_search_results.txt (re-run it on another CPU and paste its "chosen" lines here). Format: {base
// words, depth, {split per level, top first}, {kind per level: kKaratsuba or kToom3; omitted = all Karatsuba}} with top
// size = base * prod(split) >= ceil(n / 64) words; or, for an unbalanced top, that tree (L words) for the low part
// followed by {base, depth, {splits}, {kinds}, extra words} for the high part (T + extra words), L + T + extra >=
// ceil(n / 64) (kernels.hpp, MulPlan::high).
#pragma once

#include "backend/avx512/kernels.hpp"
#include "params/params.hpp"

namespace hqc::backend::avx512 {

template <class P>
inline constexpr MulPlan kMulPlan = {};
template <>
inline constexpr MulPlan kMulPlan<Hqc1> = {32, 2, {3, 3}, {kToom3, kToom3}};
template <>
inline constexpr MulPlan kMulPlan<Hqc3> = {64, 2, {3, 3}, {kToom3, kToom3}};
// 901 words = 512 + (384 + 5): two 512-word products (K2 K2 K2 K2 over the 32-word leaf) and one
// of 384 + 5 words (K2 T3 over the 64-word leaf, 5 one-word passes) instead of three of 512.
template <>
inline constexpr MulPlan kMulPlan<Hqc5> = {32, 4, {2, 2, 2, 2}, {}, {64, 2, {2, 3}, {kKaratsuba, kToom3}, 5}};

}  // namespace hqc::backend::avx512
