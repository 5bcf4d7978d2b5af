// Backend selection is a pure function of the feature mask and HQC_BACKEND (tested with mocked
// masks), and every compiled backend has a complete kernel table.
#include <gtest/gtest.h>

#include <algorithm>

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

// Every ISA-dependent choice is a row: select_backend() with mocked masks picks the avx2 row
// that matches the optional instructions, and the alias "avx2" resolves the same way.
TEST(Registry, Avx2RowPerOptionalInstructionSet) {
  if (find_backend("avx2-base", 0) == nullptr) GTEST_SKIP() << "avx2 backend not built";
  const CpuFeatures base = kCpuAvx2 | kCpuPclmul | kCpuBmi2 | kCpuSse2;
  struct Case {
    CpuFeatures extra;
    const char* row;
  };
  for (const Case& c : {Case{0, "avx2-base"}, Case{kCpuGfni, "avx2-gfni"}, Case{kCpuVpclmul, "avx2-vpclmul"},
                        Case{kCpuGfni | kCpuVpclmul, "avx2-vpclmul-gfni"}}) {
    SCOPED_TRACE(c.row);
    std::string err;
    const Backend* sel = select_backend(base | c.extra, nullptr, &err);
    ASSERT_NE(sel, nullptr) << err;
    EXPECT_STREQ(sel->name, c.row);
    EXPECT_EQ(select_backend(base | c.extra, "avx2", &err), sel) << err;
    EXPECT_EQ(find_backend("avx2", base | c.extra), sel);
    EXPECT_EQ(select_backend(base | kCpuGfni | kCpuVpclmul, c.row, &err), find_backend(c.row, 0)) << err;
  }
  // Without AVX2 the alias is a clear error naming what is missing; so is a row whose optional
  // instruction is absent.
  std::string err;
  EXPECT_EQ(select_backend(kCpuSse2 | kCpuPclmul, "avx2", &err), nullptr);
  EXPECT_NE(err.find("'avx2' needs CPU features avx2"), std::string::npos) << err;
  EXPECT_EQ(select_backend(base, "avx2-gfni", &err), nullptr);
  EXPECT_NE(err.find("gfni"), std::string::npos) << err;
  // Unknown names list the alias too.
  EXPECT_EQ(select_backend(base, "avx3", &err), nullptr);
  EXPECT_NE(err.find(", avx2"), std::string::npos) << err;
}

// The avx512 row needs VBMI2 (the FAFFT's funnel shifts): without it the selection falls to the
// best avx2 row, and forcing avx512 names the missing feature.
TEST(Registry, Avx512NeedsVbmi2) {
  const Backend* avx512 = find_backend("avx512", 0);
  if (avx512 == nullptr || find_backend("avx2-base", 0) == nullptr) GTEST_SKIP() << "x86 backends not built";
  EXPECT_NE(avx512->required & kCpuAvx512VBMI2, 0u);
  std::string err;
  EXPECT_EQ(select_backend(avx512->required, nullptr, &err), avx512) << err;
  const CpuFeatures without = avx512->required & ~CpuFeatures{kCpuAvx512VBMI2};
  const Backend* sel = select_backend(without, nullptr, &err);
  ASSERT_NE(sel, nullptr) << err;
  EXPECT_STREQ(sel->name, "avx2-vpclmul-gfni");
  EXPECT_EQ(select_backend(without, "avx512", &err), nullptr);
  EXPECT_NE(err.find("avx512_vbmi2"), std::string::npos) << err;
  CpuFeatures parsed = 0;
  EXPECT_TRUE(parse_feature_list("avx512_vbmi2", &parsed, &err)) << err;
  EXPECT_EQ(parsed, CpuFeatures{kCpuAvx512VBMI2});
}

TEST(Registry, AliasesNameRowsFastestFirst) {
  for (const BackendAlias& a : backend_aliases()) {
    SCOPED_TRACE(a.name);
    EXPECT_EQ(find_backend(a.name, 0), a.rows.back());  // nothing supported: the base row
    ASSERT_FALSE(a.rows.empty());
    std::size_t prev = 0;
    for (const Backend* r : a.rows) {  // in registry order, each listed exactly once
      const auto all = all_backends();
      const auto it = std::find(all.begin(), all.end(), r);
      ASSERT_NE(it, all.end()) << r->name;
      const auto idx = static_cast<std::size_t>(it - all.begin());
      EXPECT_TRUE(r == a.rows.front() || idx > prev) << r->name;
      prev = idx;
      EXPECT_EQ(find_backend(a.name, r->required), r) << r->name;
    }
  }
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
  EXPECT_NE(k.rs_encode, nullptr);
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
