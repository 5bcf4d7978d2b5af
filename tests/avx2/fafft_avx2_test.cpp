// The avx2 FAFFT multiplier (backend/avx2/fafft_avx2.hpp) against the portable oracle at every
// level: mul, mul2, mul_transformed, mul_transformed_plain and mul2_transformed_plain on random,
// zero, all-ones, single-bit (0, 63, 64, n-2, n-1) and sparse operands, outputs prefilled with
// garbage (the padding must be written as zero); and forward() against avx512::fafft::forward
// word for word where the CPU has the avx512 backend (the two transforms are interchangeable).
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

#if defined(HQC_WITH_AVX512)
// Same words as the avx512 transform for the same input, and each implementation's products
// accept the other's transforms.
template <class P>
void check_same_as_avx512() {
  namespace f5 = backend::avx512::fafft;
  static_assert(f5::kTransformWords<P> == ff::kTransformWords<P>);
  const auto& ref = backend::portable().kernels<P>();
  std::mt19937_64 rng(99 + P::kLevel);
  const auto vs = operands<P>(rng);
  auto t2 = std::make_unique<Transform<P>>();
  auto t5 = std::make_unique<Transform<P>>();
  for (std::size_t i = 0; i < vs.size(); i++) {
    std::memset(t2->w, 0x11, sizeof(t2->w));
    std::memset(t5->w, 0x22, sizeof(t5->w));
    ff::forward<P>(t2->w, vs[i].w);
    f5::forward<P>(t5->w, vs[i].w);
    ASSERT_EQ(0, std::memcmp(t2->w, t5->w, sizeof(t2->w))) << "forward " << i;
    const auto& b = vs[(i + 3) % vs.size()];
    pke::RingVec<P> expect{}, o{};
    ref.mul(expect.w, vs[i].w, b.w);
    ff::mul_transformed_plain<P>(o.w, t5->w, b.w);
    ASSERT_EQ(0, std::memcmp(expect.w, o.w, sizeof(o.w))) << "avx2 product of an avx512 transform " << i;
    f5::mul_transformed_plain<P>(o.w, t2->w, b.w);
    ASSERT_EQ(0, std::memcmp(expect.w, o.w, sizeof(o.w))) << "avx512 product of an avx2 transform " << i;
  }
}

TEST(FafftAvx2, ForwardEqualsAvx512) {
  REQUIRE_AVX2_VPCLMUL_GFNI();
  if (!usable("avx512")) GTEST_SKIP() << "avx512 backend not usable here";
  check_same_as_avx512<Hqc1>();
  check_same_as_avx512<Hqc3>();
  check_same_as_avx512<Hqc5>();
}
#endif

}  // namespace
}  // namespace hqc
