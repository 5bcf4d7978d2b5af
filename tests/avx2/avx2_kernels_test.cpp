// What the conformance suite (tests/conformance_test.cpp) does not cover for the avx2 backend: the
// multiplier variants of the benchmarks, that the table holds the avx2 kernels, and that the
// GFNI / VPCLMULQDQ choices follow HQC_CPU_MASK. Compiled without ISA flags: the avx2 kernels are
// reached only through the declarations of backend/avx2/kernels.hpp.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <cstring>
#include <random>
#include <vector>

#include "backend/avx2/kernels.hpp"
#include "backend/cpu.hpp"
#include "backend/registry.hpp"

namespace hqc {
namespace {

namespace av = backend::avx2;

bool have_avx2() { return av::cpu_supported(); }
#define REQUIRE_AVX2()                                  \
  do {                                                  \
    if (!have_avx2()) GTEST_SKIP() << "no AVX2/PCLMULQDQ/BMI2 here"; \
  } while (0)

template <class P>
const backend::KernelTable<P>& portable() {
  return backend::portable().kernels<P>();
}

template <class P>
struct Vec {
  alignas(64) std::uint64_t w[P::kNWordsPadded] = {};
};

template <class P>
class Avx2Kernels : public testing::Test {};

using Levels = testing::Types<Hqc1, Hqc3, Hqc5>;
TYPED_TEST_SUITE(Avx2Kernels, Levels);

// The multiplier variants that `hqc bench` and the benchmarks compare (mul_variant; no table uses
// them directly) against the portable oracle. The table kernels themselves are in the
// conformance suite (tests/conformance_test.cpp, Conformance/avx2/...).
TYPED_TEST(Avx2Kernels, MulVariantsMatchPortable) {
  REQUIRE_AVX2();
  using P = TypeParam;
  std::mt19937_64 rng(0x48514332 + P::kLevel);
  std::vector<Vec<P>> in(4);
  for (std::size_t i = 0; i < P::kNWords; i++) {
    in[0].w[i] = ~std::uint64_t{0};
    in[1].w[i] = rng();
    in[2].w[i] = rng();
  }
  for (auto& v : in) v.w[P::kNWords - 1] &= P::kLastWordMask;
  in[3].w[(P::kN - 1) / 64] = std::uint64_t{1} << ((P::kN - 1) % 64);
  for (const auto& a : in)
    for (const auto& b : in) {
      Vec<P> want, got;
      portable<P>().mul(want.w, a.w, b.w);
      for (int v = 0; v < static_cast<int>(av::MulVariant::kCount); v++) {
        std::memset(got.w, 0xA5, sizeof(got.w));
        av::mul_variant<P>(static_cast<av::MulVariant>(v), got.w, a.w, b.w);
        ASSERT_EQ(0, std::memcmp(want.w, got.w, sizeof(want.w))) << av::mul_variant_name(static_cast<av::MulVariant>(v));
      }
    }
}

TYPED_TEST(Avx2Kernels, BackendTableUsesTheseKernels) {
  REQUIRE_AVX2();
  using P = TypeParam;
  const backend::Backend* be = backend::find_backend("avx2");
  ASSERT_NE(be, nullptr);
  EXPECT_EQ(be->kernels<P>().mul, &av::mul<P>);
  EXPECT_EQ(be->kernels<P>().mul2, &av::mul2<P>);
  EXPECT_EQ(be->kernels<P>().rs_decode, &av::rs_decode<P>);
  EXPECT_EQ(be->kernels<P>().rm_decode, &av::rm_decode<P>);
}

TEST(Avx2Backend, VpclmulDispatchFollowsCpuMask) {
  REQUIRE_AVX2();
  EXPECT_EQ(av::vpclmul_supported(), (backend::effective_cpu_features() & backend::kCpuVpclmul) != 0);
  const backend::Backend* be = backend::find_backend("avx2");
  ASSERT_NE(be, nullptr);
  EXPECT_EQ(be->required & backend::kCpuVpclmul, 0u) << "VPCLMULQDQ must stay optional";
}

TEST(Avx2Backend, GfniDispatchFollowsCpuMask) {
  REQUIRE_AVX2();
  const bool effective = (backend::effective_cpu_features() & backend::kCpuGfni) != 0;
  EXPECT_EQ(av::gfni_supported(), effective);
  const backend::Backend* be = backend::find_backend("avx2");
  ASSERT_NE(be, nullptr);
  EXPECT_EQ(be->required & backend::kCpuGfni, 0u) << "GFNI must stay optional";
  EXPECT_TRUE(backend::is_supported(*be, backend::kCpuAvx2 | backend::kCpuPclmul | backend::kCpuBmi2));
  if (const char* m = std::getenv("HQC_CPU_MASK"); m != nullptr && std::string(m).find("gfni") != std::string::npos) {
    EXPECT_FALSE(av::gfni_supported());
  }
}

}  // namespace
}  // namespace hqc
