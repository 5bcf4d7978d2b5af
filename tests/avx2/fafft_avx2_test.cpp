// The avx2 FAFFT multiplier (backend/avx2/fafft_avx2.hpp) against the portable oracle at every
// level: mul, mul2, mul_transformed, mul_transformed_plain and mul2_transformed_plain on random,
// zero, all-ones, single-bit (0, 63, 64, n-2, n-1) and sparse operands, outputs prefilled with
// garbage (the padding must be written as zero). (Its transforms are over GF(2^128), the avx512
// backend's over GF(2^32): a key prepared by one table is never used by the other, pke/kept_transforms.hpp.)
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "../fafft_checks.hpp"
#include "backend/avx2/fafft_avx2.hpp"
#include "backend/registry.hpp"
#include "pke/pke.hpp"
#if defined(HQC_WITH_AVX512)
#include "backend/avx512/fafft.hpp"
#endif

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

using test::operands;
using test::Transform;

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

}  // namespace
}  // namespace hqc
