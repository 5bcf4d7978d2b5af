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

template <class P>
struct alignas(64) Transform {
  std::uint64_t w[ff::kTransformWords<P>];
};

template <class P>
std::vector<pke::RingVec<P>> operands(std::mt19937_64& rng) {
  std::vector<pke::RingVec<P>> vs;
  pke::RingVec<P> v{};
  for (int i = 0; i < 4; i++) {  // random
    std::memset(v.w, 0, sizeof(v.w));
    for (std::size_t k = 0; k < P::kNWords; k++) v.w[k] = rng();
    v.w[P::kNWords - 1] &= P::kLastWordMask;
    vs.push_back(v);
  }
  std::memset(v.w, 0, sizeof(v.w));
  vs.push_back(v);  // zero
  for (std::size_t k = 0; k < P::kNWords; k++) v.w[k] = ~0ull;
  v.w[P::kNWords - 1] &= P::kLastWordMask;
  vs.push_back(v);  // all ones
  for (std::size_t bit : {std::size_t{0}, std::size_t{63}, std::size_t{64}, P::kN - 2, P::kN - 1}) {
    std::memset(v.w, 0, sizeof(v.w));
    v.w[bit / 64] = std::uint64_t{1} << (bit % 64);
    vs.push_back(v);  // single bits
  }
  for (std::size_t weight : {std::size_t{66}, std::size_t{75}, std::size_t{100}, std::size_t{149}}) {
    std::memset(v.w, 0, sizeof(v.w));
    for (std::size_t i = 0; i < weight; i++) {
      const std::size_t bit = rng() % P::kN;
      v.w[bit / 64] |= std::uint64_t{1} << (bit % 64);
    }
    vs.push_back(v);  // sparse (as the secret vectors)
  }
  return vs;
}

template <class P>
void expect_padding_zero(const pke::RingVec<P>& v) {
  EXPECT_EQ(0u, v.w[P::kNWords - 1] & ~P::kLastWordMask);
  for (std::size_t i = P::kNWords; i < P::kNWordsPadded; i++) EXPECT_EQ(0u, v.w[i]);
}

template <class P>
void check_level() {
  const auto& ref = backend::portable().kernels<P>();
  std::mt19937_64 rng(4321 + P::kLevel);
  const auto vs = operands<P>(rng);
  auto ta = std::make_unique<Transform<P>>();
  auto tb = std::make_unique<Transform<P>>();
  auto ta2 = std::make_unique<Transform<P>>();
  for (std::size_t i = 0; i < vs.size(); i++) {
    for (std::size_t j = 0; j < vs.size(); j++) {
      if ((i + j) % 3 != 0 && i != j && i < 6 && j < 6) continue;  // keep the run short
      const auto& a = vs[i];
      const auto& a2 = vs[(i + 7) % vs.size()];
      const auto& b = vs[j];
      pke::RingVec<P> expect{}, expect2{};
      ref.mul(expect.w, a.w, b.w);
      ref.mul(expect2.w, a2.w, b.w);
      pke::RingVec<P> o1, o2;
      std::memset(o1.w, 0xA5, sizeof(o1.w));
      ff::mul<P>(o1.w, a.w, b.w);
      ASSERT_EQ(0, std::memcmp(expect.w, o1.w, sizeof(o1.w))) << "mul " << i << "," << j;
      expect_padding_zero<P>(o1);
      std::memset(o1.w, 0x5A, sizeof(o1.w));
      std::memset(o2.w, 0x5A, sizeof(o2.w));
      ff::mul2<P>(o1.w, o2.w, a.w, a2.w, b.w);
      ASSERT_EQ(0, std::memcmp(expect.w, o1.w, sizeof(o1.w))) << "mul2 first " << i << "," << j;
      ASSERT_EQ(0, std::memcmp(expect2.w, o2.w, sizeof(o2.w))) << "mul2 second " << i << "," << j;
      expect_padding_zero<P>(o1);
      expect_padding_zero<P>(o2);
      ff::forward<P>(ta->w, a.w);
      ff::forward<P>(tb->w, b.w);
      std::memset(o1.w, 0xFF, sizeof(o1.w));
      ff::mul_transformed<P>(o1.w, ta->w, tb->w);
      ASSERT_EQ(0, std::memcmp(expect.w, o1.w, sizeof(o1.w))) << "mul_transformed " << i << "," << j;
      expect_padding_zero<P>(o1);
      std::memset(o1.w, 0xFF, sizeof(o1.w));
      ff::mul_transformed_plain<P>(o1.w, ta->w, b.w);
      ASSERT_EQ(0, std::memcmp(expect.w, o1.w, sizeof(o1.w))) << "mul_transformed_plain " << i << "," << j;
      expect_padding_zero<P>(o1);
      ff::forward<P>(ta2->w, a2.w);
      std::memset(o1.w, 0xC3, sizeof(o1.w));
      std::memset(o2.w, 0xC3, sizeof(o2.w));
      ff::mul2_transformed_plain<P>(o1.w, o2.w, ta->w, ta2->w, b.w);
      ASSERT_EQ(0, std::memcmp(expect.w, o1.w, sizeof(o1.w))) << "mul2_transformed_plain first " << i << "," << j;
      ASSERT_EQ(0, std::memcmp(expect2.w, o2.w, sizeof(o2.w))) << "mul2_transformed_plain second " << i << "," << j;
      expect_padding_zero<P>(o1);
      expect_padding_zero<P>(o2);
    }
  }
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
