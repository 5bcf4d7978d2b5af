// The avx2 FAFFT multiplier (backend/avx2/fafft_avx2.hpp) against the portable oracle at every
// level: mul, mul2, mul_transformed, mul_transformed_plain and mul2_transformed_plain on random,
// zero, all-ones, single-bit (0, 63, 64, n-2, n-1) and sparse operands, outputs prefilled with
// garbage (the padding must be written as zero); the transforms of 1 and x against the GF(2^32)
// evaluation points. (The avx512 backend's transforms hold the same values in another order: a
// key prepared by one table is never used by the other, pke/kept_transforms.hpp.)
#include <gtest/gtest.h>

#include <memory>

#include "../fafft_checks.hpp"
#include "backend/avx2/fafft_avx2.hpp"
#include "backend/fafft/field32.hpp"
#include "backend/registry.hpp"
#include "pke/pke.hpp"

namespace hqc {
namespace {

bool usable(const char* name) {
  const backend::Backend* b = backend::find_backend(name);
  return b != nullptr && backend::is_supported(*b, backend::effective_cpu_features());
}

// AVX2 + PCLMULQDQ + BMI2 + GFNI: exactly the requirements of the avx2-gfni row, the smallest row
// that uses the FAFFT.
#define REQUIRE_AVX2_GFNI() \
  if (!usable("avx2-gfni")) GTEST_SKIP() << "AVX2 + GFNI not usable here"

namespace ff = backend::avx2::fafft;

template <class P>
void check_level() {
  test::check_entry_points<P>({&ff::forward<P>, &ff::mul_transformed<P>, &ff::mul_transformed_plain<P>,
                               &ff::mul2_transformed_plain<P>, &ff::mul<P>, &ff::mul2<P>},
                              4321);
}

TEST(FafftAvx2, MulEqualsPortableHqc1) {
  REQUIRE_AVX2_GFNI();
  check_level<Hqc1>();
}
TEST(FafftAvx2, MulEqualsPortableHqc3) {
  REQUIRE_AVX2_GFNI();
  check_level<Hqc3>();
}
TEST(FafftAvx2, MulEqualsPortableHqc5) {
  REQUIRE_AVX2_GFNI();
  check_level<Hqc5>();
}

// The transform is the evaluation at the points beta_31 + sum_l (bit l of j) beta_l of GF(2^32),
// point j at dword point_dword(j): checked for f = 1 (every value 1) and f = x (the points
// themselves).
template <class P>
void check_evaluation() {
  namespace field = backend::fafft::field32;
  pke::RingVec<P> one{}, x{};
  one.w[0] = 1;
  x.w[0] = 2;
  auto t = std::make_unique<test::Transform<P>>();
  const auto dword = [&](std::size_t j) {
    const std::size_t d = ff::point_dword(j);
    return static_cast<std::uint32_t>(t->w[d / 2] >> (32 * (d % 2)));
  };
  ff::forward<P>(t->w, one.w);
  for (std::size_t j = 0; j < (std::size_t{1} << ff::kLogPoints<P>); j++)
    ASSERT_EQ(1u, dword(j)) << "f = 1 at point " << j;
  ff::forward<P>(t->w, x.w);
  for (std::size_t j = 0; j < (std::size_t{1} << ff::kLogPoints<P>); j++) {
    std::uint32_t point = field::kBeta[31];
    for (unsigned l = 0; l < ff::kLogPoints<P>; l++)
      if ((j >> l) & 1) point ^= field::kBeta[l];
    ASSERT_EQ(point, dword(j)) << "f = x at point " << j;
  }
}

TEST(FafftAvx2, TransformIsEvaluationAtTheCoset) {
  REQUIRE_AVX2_GFNI();
  check_evaluation<Hqc1>();
  check_evaluation<Hqc3>();
  check_evaluation<Hqc5>();
}

}  // namespace
}  // namespace hqc
