// Decomposition trees of the VPCLMULQDQ multiplier, one per parameter set. Chosen by
// bench/avx512/mul_search on the machine described in bench/avx512/mul_search_results.txt
// (re-run it on another CPU and paste its "chosen" lines here). Format: {base words, depth,
// {split per level, top first}, {kind per level: kKaratsuba or kToom3; omitted = all Karatsuba}};
// top size = base * prod(split) >= ceil(n / 64) words.
#pragma once

#include "backend/avx512/kernels.hpp"
#include "params/params.hpp"

namespace hqc::backend::avx512 {

template <class P>
inline constexpr MulPlan kMulPlan = {};
template <>
inline constexpr MulPlan kMulPlan<Hqc1> = {32, 2, {3, 3}, {kToom3, kToom3}};
template <>
inline constexpr MulPlan kMulPlan<Hqc3> = {32, 3, {3, 3, 2}, {kToom3, kToom3, kKaratsuba}};
template <>
inline constexpr MulPlan kMulPlan<Hqc5> = {32, 5, {2, 2, 2, 2, 2}};

}  // namespace hqc::backend::avx512
