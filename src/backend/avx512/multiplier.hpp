// Which ring multiplier the production "avx512" table uses per parameter set, and the names that
// `hqc info` and the benchmarks print (the build records its choice there).
//
// The choice comes from measurements side by side (bench/avx512/fafft_results.txt, `hqc bench
// --backend all`; docs/AVX512.md): the FAFFT wins where kAvx512Multiplier says kFafft. The CMake
// option HQC_AVX512_MULTIPLIER (auto | karatsuba | fafft) overrides it for every level.
#pragma once

#include "backend/avx512/mul_plans.hpp"
#include "params/params.hpp"

namespace hqc::backend::avx512 {

// kKaratsuba: the tree for every product, no transforms. kFafft: the FAFFT for every product,
// and key objects prepared for many operations keep its transforms of h, s and y
// (kem::prepare_*).
enum class Multiplier { kKaratsuba, kFafft };

#if defined(HQC_AVX512_MULTIPLIER_KARATSUBA) && HQC_AVX512_MULTIPLIER_KARATSUBA
template <class P>
inline constexpr Multiplier kAvx512Multiplier = Multiplier::kKaratsuba;
#elif defined(HQC_AVX512_MULTIPLIER_FAFFT) && HQC_AVX512_MULTIPLIER_FAFFT
template <class P>
inline constexpr Multiplier kAvx512Multiplier = Multiplier::kFafft;
#else
// Measured choice (auto), bench/avx512/fafft_results.txt: at HQC-5 the FAFFT (over GF(2^32))
// wins every product, one-shot or with kept transforms (mul 0.85x, mul2 0.73x the tree's); at
// HQC-1 and HQC-3, whose products are far smaller than the 2^16- and 2^17-bit transforms, the
// tree wins even against the kept transforms.
template <class P>
inline constexpr Multiplier kAvx512Multiplier = P::kLevel == 5 ? Multiplier::kFafft : Multiplier::kKaratsuba;
#endif

template <class P>
inline constexpr const char* kFafftName =
    P::kLevel == 1 ? "fafft (GF(2^32), 2^16-bit product)" : "fafft (GF(2^32), 2^17-bit product)";

// "karatsuba/toom tree {base, depth, {levels}}" for kMulPlan<P>, built at compile time so that
// the printed name always matches the plan in use. Levels: 2 and 3 are Karatsuba splits, "t3" a
// Toom-3 split. An unbalanced top prints "{low tree} + {high tree[, +extra words]}".
constexpr const char* plan_level_name(const MulPlan& p, std::size_t level) {
  return p.kind[level] == kToom3 ? "t3" : p.split[level] == 2 ? "2" : "3";
}
struct PlanName {
  char s[224] = {};
  std::size_t len = 0;
  constexpr void put(const char* t) {
    while (*t) s[len++] = *t++;
  }
  constexpr void put_num(unsigned v) {
    char d[8] = {};
    int k = 0;
    do {
      d[k++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v != 0);
    while (k > 0) s[len++] = d[--k];
  }
  constexpr explicit PlanName(const MulPlan& p) {
    put("karatsuba/toom tree {");
    put_num(p.base);
    put(", ");
    put_num(p.depth);
    put(", {");
    for (std::size_t i = 0; i < p.depth; i++) {
      if (i != 0) put(", ");
      put(plan_level_name(p, i));
    }
    put("}}");
    if (p.unbalanced()) {  // unbalanced top: low tree + high tree
      const MulPlan h = p.high_plan();
      put(" + {");
      put_num(h.base);
      put(", ");
      put_num(h.depth);
      put(", {");
      for (std::size_t i = 0; i < h.depth; i++) {
        if (i != 0) put(", ");
        put(plan_level_name(h, i));
      }
      put("}");
      if (p.high.extra != 0) {
        put(", +");
        put_num(p.high.extra);
      }
      put("}");
    }
    put(" (VPCLMULQDQ)");
  }
};
template <class P>
inline constexpr PlanName kPlanName{kMulPlan<P>};
template <class P>
inline constexpr const char* kMulPlanName = kPlanName<P>.s;

}  // namespace hqc::backend::avx512
