// Backend selection is a pure function of the feature mask and HQC_BACKEND (tested with mocked
// masks), and every compiled backend has a complete kernel table.
#include <gtest/gtest.h>

#include "backend/registry.hpp"

namespace hqc::backend {
namespace {

TEST(Registry, PortableAlwaysPresentAndLast) {
  auto all = all_backends();
  ASSERT_FALSE(all.empty());
  EXPECT_STREQ(all.back()->name, "portable");
  EXPECT_EQ(all.back()->required, 0u);
  EXPECT_EQ(&portable(), all.back());
}

TEST(Registry, NoFeaturesSelectsPortable) {
  std::string err;
  const Backend* b = select_backend(0, nullptr, &err);
  ASSERT_NE(b, nullptr);
  EXPECT_STREQ(b->name, "portable");
}

TEST(Registry, AllFeaturesSelectsFastestCompiledBackend) {
  std::string err;
  const Backend* b = select_backend(~CpuFeatures{0}, nullptr, &err);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b, all_backends().front());
}

TEST(Registry, EachBackendSelectedExactlyWhenItsFeaturesArePresent) {
  for (const Backend* b : all_backends()) {
    std::string err;
    const Backend* sel = select_backend(b->required, nullptr, &err);
    ASSERT_NE(sel, nullptr);
    // With exactly b's features, b (or a faster backend needing a subset) is chosen.
    EXPECT_TRUE(is_supported(*sel, b->required));
    const Backend* forced = select_backend(b->required, b->name, &err);
    EXPECT_EQ(forced, b) << err;
    if (b->required != 0) {
      // Removing any one required feature makes forcing it an error.
      for (const auto& fn : kFeatureNames) {
        if (!(b->required & fn.bit)) continue;
        std::string e;
        EXPECT_EQ(select_backend(b->required & ~fn.bit, b->name, &e), nullptr);
        EXPECT_NE(e.find("lacks"), std::string::npos) << e;
      }
    }
  }
}

TEST(Registry, UnknownForcedNameIsAClearError) {
  std::string err;
  EXPECT_EQ(select_backend(~CpuFeatures{0}, "sse9", &err), nullptr);
  EXPECT_NE(err.find("unknown backend 'sse9'"), std::string::npos) << err;
  EXPECT_NE(err.find("portable"), std::string::npos) << err;
}

TEST(Registry, EmptyForcedNameMeansAutomatic) {
  std::string err;
  EXPECT_EQ(select_backend(0, "", &err), &portable());
}

TEST(Registry, FeatureListParsing) {
  CpuFeatures f = 0;
  std::string err;
  EXPECT_TRUE(parse_feature_list("gfni,avx512f", &f, &err));
  EXPECT_EQ(f, CpuFeatures{kCpuGfni | kCpuAvx512F});
  EXPECT_FALSE(parse_feature_list("gfni,bogus", &f, &err));
  EXPECT_NE(err.find("bogus"), std::string::npos);
  EXPECT_TRUE(parse_feature_list("", &f, &err));
  EXPECT_EQ(f, 0u);
}

template <class P>
void expect_complete(const KernelTable<P>& k) {
  EXPECT_NE(k.mul, nullptr);
  EXPECT_NE(k.mul2, nullptr);
  EXPECT_NE(k.support_to_vector, nullptr);
  EXPECT_NE(k.enc_positions, nullptr);
  EXPECT_NE(k.position_taken, nullptr);
  EXPECT_NE(k.keygen_accept, nullptr);
  EXPECT_NE(k.rm_decode, nullptr);
  EXPECT_NE(k.rs_decode, nullptr);
  EXPECT_NE(k.mul_name, nullptr);
  if (k.transforms != nullptr) {  // the one optional capability: complete when present
    EXPECT_NE(k.transforms->transform, nullptr);
    EXPECT_NE(k.transforms->mul_transforms, nullptr);
    EXPECT_NE(k.transforms->mul_transform_plain, nullptr);
  }
}

TEST(Registry, EveryTableIsComplete) {
  for (const Backend* b : all_backends()) {
    SCOPED_TRACE(b->name);
    EXPECT_NE(b->keccak_f1600, nullptr);
    EXPECT_NE(b->keccak_f1600_x4, nullptr);
    EXPECT_NE(b->description, nullptr);
    expect_complete(b->hqc1);
    expect_complete(b->hqc3);
    expect_complete(b->hqc5);
  }
}

TEST(Registry, ActiveBackendIsSupported) {
  const Backend* b = active();
  if (std::getenv("HQC_BACKEND") == nullptr && std::getenv("HQC_CPU_MASK") == nullptr) {
    ASSERT_NE(b, nullptr) << active_error();
  }
  if (b != nullptr) {
    EXPECT_TRUE(is_supported(*b, effective_cpu_features()));
  }
}

}  // namespace
}  // namespace hqc::backend
