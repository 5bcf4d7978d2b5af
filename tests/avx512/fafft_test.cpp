// The FAFFT multiplier (backend/avx512/fafft.hpp) against the portable oracle at every level:
// random, zero, all-ones, single-bit and sparse operands; mul2; the cached-transform entry points
// (mul_transformed, mul_transformed_plain, mul2_transformed_plain);
// zero padding of the output; and a planted fault in a transform that must change the product.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "../fafft_checks.hpp"
#include "backend/avx512/fafft.hpp"
#include "backend/fafft/tables.hpp"
#include "backend/registry.hpp"
#include "pke/pke.hpp"

namespace hqc {
namespace {

bool avx512_usable() {
  const backend::Backend* b = backend::find_backend("avx512");
  return b != nullptr && backend::is_supported(*b, backend::effective_cpu_features());
}

#define REQUIRE_AVX512() \
  if (!avx512_usable()) GTEST_SKIP() << "avx512 backend not usable here"

namespace ff = backend::avx512::fafft;

using test::Transform;

template <class P>
void check_level() {
  test::check_entry_points<P>({&ff::forward<P>, &ff::mul_transformed<P>, &ff::mul_transformed_plain<P>,
                               &ff::mul2_transformed_plain<P>, &ff::mul<P>, &ff::mul2<P>},
                              1234);
}

TEST(Fafft, MulEqualsPortableHqc1) {
  REQUIRE_AVX512();
  check_level<Hqc1>();
}
TEST(Fafft, MulEqualsPortableHqc3) {
  REQUIRE_AVX512();
  check_level<Hqc3>();
}
TEST(Fafft, MulEqualsPortableHqc5) {
  REQUIRE_AVX512();
  check_level<Hqc5>();
}

// Products with x^i are rotations: checks every output position for a few i at HQC-5.
TEST(Fafft, RotationsHqc5) {
  REQUIRE_AVX512();
  using P = Hqc5;
  const auto& ref = backend::portable().kernels<P>();
  std::mt19937_64 rng(5);
  pke::RingVec<P> a{}, x{}, o{}, e{};
  for (std::size_t k = 0; k < P::kNWords; k++) a.w[k] = rng();
  a.w[P::kNWords - 1] &= P::kLastWordMask;
  for (std::size_t bit : {std::size_t{1}, std::size_t{4095}, std::size_t{28818}, std::size_t{57600}}) {
    std::memset(x.w, 0, sizeof(x.w));
    x.w[bit / 64] = std::uint64_t{1} << (bit % 64);
    ref.mul(e.w, a.w, x.w);
    ff::mul<P>(o.w, a.w, x.w);
    ASSERT_EQ(0, std::memcmp(e.w, o.w, sizeof(o.w))) << "rotation " << bit;
  }
}

// The transform is the evaluation at the points beta_127 + sum_l (bit l of j) beta_l: checked
// for f = 1 (every value 1) and f = x (the points themselves, from the Cantor basis table).
template <class P>
void check_evaluation() {
  pke::RingVec<P> one{}, x{};
  one.w[0] = 1;
  x.w[0] = 2;
  auto t = std::make_unique<Transform<P>>();
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

TEST(Fafft, TransformIsEvaluationAtTheCoset) {
  REQUIRE_AVX512();
  check_evaluation<Hqc1>();
  check_evaluation<Hqc3>();
  check_evaluation<Hqc5>();
}

// A transform is used: one flipped bit of it must change the product (the tests can fail).
template <class P>
void check_planted_fault() {
  std::mt19937_64 rng(77);
  pke::RingVec<P> a{}, b{}, good{}, bad{};
  for (std::size_t k = 0; k < P::kNWords; k++) {
    a.w[k] = rng();
    b.w[k] = rng();
  }
  a.w[P::kNWords - 1] &= P::kLastWordMask;
  b.w[P::kNWords - 1] &= P::kLastWordMask;
  auto ta = std::make_unique<Transform<P>>();
  ff::forward<P>(ta->w, a.w);
  ff::mul_transformed_plain<P>(good.w, ta->w, b.w);
  for (std::size_t word : {std::size_t{0}, ff::kTransformWords<P> / 2 + 1, ff::kTransformWords<P> - 1}) {
    auto tf = std::make_unique<Transform<P>>(*ta);
    tf->w[word] ^= std::uint64_t{1} << 17;
    ff::mul_transformed_plain<P>(bad.w, tf->w, b.w);
    EXPECT_NE(0, std::memcmp(good.w, bad.w, sizeof(good.w))) << "flipped word " << word;
  }
}

TEST(Fafft, PlantedFaultChangesProduct) {
  REQUIRE_AVX512();
  check_planted_fault<Hqc1>();
  check_planted_fault<Hqc3>();
  check_planted_fault<Hqc5>();
}

}  // namespace
}  // namespace hqc
