// The avx2 FAFFT multiplier (backend/avx2/fafft_avx2.hpp) against the portable oracle at every
// level: mul, mul2, mul_transformed, mul_transformed_plain and mul2_transformed_plain on random,
// zero, all-ones, single-bit (0, 63, 64, n-2, n-1) and sparse operands, outputs prefilled with
// garbage (the padding must be written as zero); the transforms of 1 and x against the GF(2^128)
// evaluation points. (Its transforms are over GF(2^128), the avx512 backend's over GF(2^32): a key
// prepared by one table is never used by the other, pke/kept_transforms.hpp.)
#include <gtest/gtest.h>

#include <memory>

#include "../fafft_checks.hpp"
#include "backend/avx2/fafft_avx2.hpp"
#include "backend/fafft/tables.hpp"
#include "backend/registry.hpp"
#include "pke/pke.hpp"

namespace hqc {
namespace {

bool usable(const char* name) {
  const backend::Backend* b = backend::find_backend(name);
  return b != nullptr && backend::is_supported(*b, backend::effective_cpu_features());
}

// AVX2 + PCLMULQDQ + BMI2 + VPCLMULQDQ + GFNI: exactly the requirements of this row.
#define REQUIRE_AVX2_VPCLMUL_GFNI() \
  if (!usable("avx2-vpclmul-gfni")) GTEST_SKIP() << "AVX2 + VPCLMULQDQ + GFNI not usable here"

namespace ff = backend::avx2::fafft;

template <class P>
void check_level() {
  test::check_entry_points<P>({&ff::forward<P>, &ff::mul_transformed<P>, &ff::mul_transformed_plain<P>,
                               &ff::mul2_transformed_plain<P>, &ff::mul<P>, &ff::mul2<P>},
                              4321);
}

TEST(FafftAvx2, MulEqualsPortableHqc1) {
  REQUIRE_AVX2_VPCLMUL_GFNI();
  check_level<Hqc1>();
}
TEST(FafftAvx2, MulEqualsPortableHqc3) {
  REQUIRE_AVX2_VPCLMUL_GFNI();
  check_level<Hqc3>();
}
TEST(FafftAvx2, MulEqualsPortableHqc5) {
  REQUIRE_AVX2_VPCLMUL_GFNI();
  check_level<Hqc5>();
}

// The transform is the evaluation at the points beta_127 + sum_l (bit l of j) beta_l of GF(2^128),
// point j in words 2j, 2j + 1: checked for f = 1 (every value 1) and f = x (the points themselves,
// from the Cantor basis table).
template <class P>
void check_evaluation() {
  pke::RingVec<P> one{}, x{};
  one.w[0] = 1;
  x.w[0] = 2;
  auto t = std::make_unique<test::Transform<P>>();
  ff::forward<P>(t->w, one.w);
  for (std::size_t j = 0; j < (std::size_t{1} << ff::kLogPoints<P>); j++) {
    ASSERT_EQ(1u, t->w[2 * j]) << "f = 1 at point " << j;
    ASSERT_EQ(0u, t->w[2 * j + 1]) << "f = 1 at point " << j;
  }
  ff::forward<P>(t->w, x.w);
  const std::uint64_t* beta = backend::fafft::tables::kBeta;
  for (std::size_t j = 0; j < (std::size_t{1} << ff::kLogPoints<P>); j++) {
    std::uint64_t lo = beta[2 * 127], hi = beta[2 * 127 + 1];
    for (unsigned l = 0; l < ff::kLogPoints<P>; l++)
      if ((j >> l) & 1) {
        lo ^= beta[2 * l];
        hi ^= beta[2 * l + 1];
      }
    ASSERT_EQ(lo, t->w[2 * j]) << "f = x at point " << j;
    ASSERT_EQ(hi, t->w[2 * j + 1]) << "f = x at point " << j;
  }
}

TEST(FafftAvx2, TransformIsEvaluationAtTheCoset) {
  REQUIRE_AVX2_VPCLMUL_GFNI();
  check_evaluation<Hqc1>();
  check_evaluation<Hqc3>();
  check_evaluation<Hqc5>();
}

}  // namespace
}  // namespace hqc
