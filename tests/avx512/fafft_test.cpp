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
#include "backend/fafft/field32.hpp"
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

// The transform is the evaluation at the points beta_31 + sum_l (bit l of j) beta_l, point j at
// dword point_dword(j): checked for f = 1 (every value 1) and f = x (the points themselves).
template <class P>
void check_evaluation() {
  namespace field = backend::fafft::field32;
  pke::RingVec<P> one{}, x{};
  one.w[0] = 1;
  x.w[0] = 2;
  auto t = std::make_unique<Transform<P>>();
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

TEST(Fafft, TransformIsEvaluationAtTheCoset) {
  REQUIRE_AVX512();
  check_evaluation<Hqc1>();
  check_evaluation<Hqc3>();
  check_evaluation<Hqc5>();
}

// The field: the modulus y^4 + y^3 + y^2 + 6 has no root and no quadratic factor over GF(2^8)
// (so GF(2^8)[y]/(modulus) is GF(2^32)); the Cantor basis satisfies beta_i^2 + beta_i = beta_(i-1)
// and spans GF(2^32); products by a constant through its diagonals equal the products.
TEST(Fafft, Field32) {
  namespace field = backend::fafft::field32;
  const auto eval = [](unsigned a3, unsigned a2, unsigned a1, unsigned a0, std::uint8_t x) {
    std::uint8_t v = 1;  // Horner: y^4 + a3 y^3 + a2 y^2 + a1 y + a0 at x
    for (unsigned c : {a3, a2, a1, a0}) v = static_cast<std::uint8_t>(field::mul8(v, x) ^ c);
    return v;
  };
  const unsigned q0 = field::kModulus[0], q1 = field::kModulus[1], q2 = field::kModulus[2], q3 = field::kModulus[3];
  for (unsigned x = 0; x < 256; x++) ASSERT_NE(0, eval(q3, q2, q1, q0, static_cast<std::uint8_t>(x))) << "root " << x;
  // y^4 + q3 y^3 + q2 y^2 + q1 y + q0 = (y^2 + a y + b)(y^2 + c y + d) needs c = q3 + a,
  // d = q2 + b + a c, a d + b c = q1, b d = q0; no a, b may satisfy all of them.
  for (unsigned a = 0; a < 256; a++)
    for (unsigned b = 0; b < 256; b++) {
      const unsigned c = q3 ^ a;
      const unsigned d = q2 ^ b ^ field::mul8(static_cast<std::uint8_t>(a), static_cast<std::uint8_t>(c));
      const bool factor = (field::mul8(static_cast<std::uint8_t>(a), static_cast<std::uint8_t>(d)) ^
                           field::mul8(static_cast<std::uint8_t>(b), static_cast<std::uint8_t>(c))) == q1 &&
                          field::mul8(static_cast<std::uint8_t>(b), static_cast<std::uint8_t>(d)) == q0;
      ASSERT_FALSE(factor) << "quadratic factor y^2 + " << a << " y + " << b;
    }
  EXPECT_EQ(1u, field::kBeta[0]);
  std::uint32_t span[32] = {};  // Gaussian elimination: the basis has rank 32
  for (unsigned i = 0; i < 32; i++) {
    if (i > 0) {
      EXPECT_EQ(field::kBeta[i - 1], field::mul(field::kBeta[i], field::kBeta[i]) ^ field::kBeta[i]) << i;
    }
    std::uint32_t v = field::kBeta[i];
    for (unsigned bit = 32; bit-- > 0;) {
      if (((v >> bit) & 1) == 0) continue;
      if (span[bit] == 0) {
        span[bit] = v;
        break;
      }
      v ^= span[bit];
    }
    EXPECT_NE(0u, v) << "beta_" << i << " is in the span of the ones before it";
  }
  std::mt19937 rng(3);
  for (int k = 0; k < 1000; k++) {
    const auto c = static_cast<std::uint32_t>(rng()), a = static_cast<std::uint32_t>(rng());
    const field::Diagonals d = field::diagonals(c);
    std::uint32_t r = 0;
    for (unsigned s = 0; s < 4; s++) {
      const std::uint32_t rot = s == 0 ? a : (a << (8 * s)) | (a >> (32 - 8 * s));
      for (unsigned j = 0; j < 4; j++)
        r ^= std::uint32_t{field::mul8(field::byte_of(rot, j), field::byte_of(d.d[s], j))} << (8 * j);
    }
    ASSERT_EQ(field::mul(c, a), r);
    ASSERT_EQ(field::mul(c, a), field::mul(a, c));
  }
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
