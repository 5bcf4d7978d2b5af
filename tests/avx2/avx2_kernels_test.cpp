// What the conformance suite (tests/conformance_test.cpp, Conformance/avx2_*/...) does not cover
// for the avx2 backend: the multiplier variants of the benchmarks (mul_variant), that each avx2
// registry row holds the kernels of its instruction sets, and that the alias "avx2" follows
// HQC_CPU_MASK. Compiled without ISA flags: the avx2 kernels are reached only through the
// declarations of backend/avx2/kernels.hpp.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "backend/avx2/fafft_avx2.hpp"
#include "backend/avx2/kernels.hpp"
#include "backend/cpu.hpp"
#include "backend/registry.hpp"

namespace hqc {
namespace {

namespace av = backend::avx2;

bool have_avx2() {
  const auto base = backend::kCpuAvx2 | backend::kCpuPclmul | backend::kCpuBmi2;
  return (backend::effective_cpu_features() & base) == base;
}

#define REQUIRE_AVX2()                                               \
  do {                                                               \
    if (!have_avx2()) GTEST_SKIP() << "no AVX2/PCLMULQDQ/BMI2 here"; \
  } while (0)

template <class P>
struct Vec {
  alignas(64) std::uint64_t w[P::kNWordsPadded] = {};
};

template <class P>
class Avx2Kernels : public testing::Test {};

using Levels = testing::Types<Hqc1, Hqc3, Hqc5>;
TYPED_TEST_SUITE(Avx2Kernels, Levels);

// The multiplier variants that `hqc bench` and the benchmarks compare (mul_variant; no table uses
// them directly) against the portable oracle.
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
      backend::portable().kernels<P>().mul(want.w, a.w, b.w);
      for (int v = 0; v < static_cast<int>(av::MulVariant::kCount); v++) {
        std::memset(got.w, 0xA5, sizeof(got.w));
        av::mul_variant<P>(static_cast<av::MulVariant>(v), got.w, a.w, b.w);
        ASSERT_EQ(0, std::memcmp(want.w, got.w, sizeof(want.w)))
            << av::mul_variant_name(static_cast<av::MulVariant>(v));
      }
    }
}

TYPED_TEST(Avx2Kernels, BackendRowsUseTheseKernels) {
  using P = TypeParam;
  struct Row {
    const char* name;
    bool vpclmul, gfni;
  };
  for (const Row& r : {Row{"avx2-vpclmul-gfni", true, true}, Row{"avx2-vpclmul", true, false},
                       Row{"avx2-gfni", false, true}, Row{"avx2-base", false, false}}) {
    const backend::Backend* be = backend::find_backend(r.name);
    ASSERT_NE(be, nullptr) << r.name;
    const auto& k = be->kernels<P>();
    // HQC-5 with GFNI: every product and the transforms are the FAFFT's.
    const bool fafft = r.gfni && P::kLevel == 5;
    EXPECT_EQ(k.mul, fafft       ? &backend::avx2::fafft::mul<P>
                     : r.vpclmul ? &av::mul_vpclmul<P>
                                 : &av::mul_pclmul<P>)
        << r.name;
    EXPECT_EQ(k.mul2, fafft       ? &backend::avx2::fafft::mul2<P>
                      : r.vpclmul ? &av::mul2_vpclmul<P>
                                  : &av::mul2_pclmul<P>)
        << r.name;
    EXPECT_EQ(k.transforms != nullptr, fafft) << r.name;
    if (fafft) {
      EXPECT_EQ(k.transforms->transform, &backend::avx2::fafft::forward<P>) << r.name;
      EXPECT_TRUE(k.transforms->mul_is_transform_product) << r.name;
    }
    EXPECT_EQ(k.rs_decode, r.gfni ? &av::rs_decode_gfni<P> : &av::rs_decode_avx2<P>) << r.name;
    EXPECT_EQ(k.rs_encode, r.gfni ? &av::rs_encode_gfni<P> : &av::rs_encode_avx2<P>) << r.name;
    EXPECT_EQ(k.rm_decode, &av::rm_decode<P>) << r.name;
    EXPECT_EQ((be->required & backend::kCpuVpclmul) != 0, r.vpclmul) << r.name;
    EXPECT_EQ((be->required & backend::kCpuGfni) != 0, r.gfni) << r.name;
  }
}

// "avx2" is the first avx2 row this CPU (after HQC_CPU_MASK) supports: with HQC_CPU_MASK=gfni
// the VPCLMULQDQ row without GFNI, with gfni,vpclmulqdq the base row.
TEST(Avx2Backend, AliasFollowsCpuMask) {
  REQUIRE_AVX2();
  const auto f = backend::effective_cpu_features();
  const backend::Backend* be = backend::find_backend("avx2");
  ASSERT_NE(be, nullptr);
  EXPECT_TRUE(backend::is_supported(*be, f)) << be->name;
  EXPECT_EQ((be->required & backend::kCpuVpclmul) != 0, (f & backend::kCpuVpclmul) != 0) << be->name;
  EXPECT_EQ((be->required & backend::kCpuGfni) != 0, (f & backend::kCpuGfni) != 0) << be->name;
  if (const char* m = std::getenv("HQC_CPU_MASK"); m != nullptr && std::string(m).find("gfni") != std::string::npos) {
    EXPECT_EQ(be->required & backend::kCpuGfni, 0u) << be->name;
  }
}

}  // namespace
}  // namespace hqc
