// What the conformance suite (tests/conformance_test.cpp, Conformance/avx512*/...) does not cover
// for the avx512 backend: every multiplier decomposition tree shape (not only the tables' plans),
// the one-state Keccak variants no table uses (five-register, lane-interleaved), the side-by-side
// sponges, cached vs uncached key paths of the KEM (identical bytes), and the registry entry.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "backend/avx512/kernels.hpp"
#include "backend/registry.hpp"
#include "gf2x/gf2x_portable.hpp"
#include "kem/kem.hpp"
#include "sym/sponge_lanes.hpp"

namespace hqc {
namespace {

const backend::Backend* avx512_backend() {
  const backend::Backend* b = backend::find_backend("avx512");
  if (b == nullptr || !backend::is_supported(*b, backend::effective_cpu_features())) return nullptr;
  return b;
}

#define REQUIRE_AVX512()                                                  \
  const backend::Backend* be512 = avx512_backend();                       \
  if (be512 == nullptr) GTEST_SKIP() << "avx512 backend not usable here"; \
  const backend::Backend& be = *be512

template <class P>
void random_ring(pke::RingVec<P>& v, std::mt19937_64& rng) {
  std::memset(v.w, 0, sizeof(v.w));
  for (std::size_t i = 0; i < P::kNWords; i++) v.w[i] = rng();
  v.w[P::kNWords - 1] &= P::kLastWordMask;
}

// Every shape of tree the search tool may pick: register leaves (8, 16, 32 words), the generic
// schoolbook at odd sizes, two-way Karatsuba, three-way Karatsuba and Toom-3 levels in any order
// (Toom-3 over the smallest parts, 1 and 2 words, where the 2-word tails of the products at t and
// t + 1 are as large as the parts, and over parts that are not a multiple of 8 words), and
// unbalanced tops (a low tree and a shorter high tree).
TEST(Avx512, DecompositionTreesEqualKaratsuba) {
  REQUIRE_AVX512();
  (void)be;
  using backend::avx512::kKaratsuba;
  using backend::avx512::kToom3;
  using backend::avx512::MulPlan;
  constexpr auto K = kKaratsuba;
  constexpr auto T = kToom3;
  const std::vector<MulPlan> plans = {
      {1, 0, {}},
      {3, 0, {}},
      {8, 0, {}},
      {9, 1, {2}},
      {16, 1, {3}},
      {32, 2, {2, 3}},
      {32, 2, {3, 2}},
      {35, 3, {2, 2, 2}},
      {7, 3, {3, 2, 3}},
      {8, 4, {2, 2, 2, 2}},
      {128, 1, {2}},
      {5, 2, {3, 3}},
      {17, 2, {2, 2}},
      {32, 5, {2, 2, 2, 2, 2}},
      {12, 3, {3, 3, 3}},
      // Toom-3 levels.
      {1, 1, {3}, {T}},
      {2, 1, {3}, {T}},
      {3, 1, {3}, {T}},
      {5, 1, {3}, {T}},
      {7, 1, {3}, {T}},
      {8, 1, {3}, {T}},
      {9, 1, {3}, {T}},
      {16, 1, {3}, {T}},
      {32, 1, {3}, {T}},
      {35, 1, {3}, {T}},
      {1, 2, {3, 3}, {T, T}},
      {32, 2, {3, 3}, {T, K}},
      {32, 2, {3, 3}, {K, T}},
      {32, 2, {3, 3}, {T, T}},
      {16, 3, {3, 2, 3}, {T, K, T}},
      {16, 3, {2, 3, 3}, {K, T, K}},
      {11, 3, {3, 3, 2}, {T, T, K}},
      {32, 3, {2, 3, 3}, {K, T, T}},
      {8, 4, {3, 2, 3, 2}, {T, K, T, K}},
      {4, 4, {3, 3, 3, 3}, {T, K, T, K}},
      {32, 4, {3, 2, 2, 2}, {T}},
      {2, 6, {3, 3, 3, 2, 2, 3}, {T, T, T, K, K, T}},
      // Unbalanced tops (low tree + high tree [+ extra words]): HQC-5-sized 512 + (384 + 5),
      // 512 + 432 and 512 + 384, equal parts, odd sizes, a high part much shorter than the low part,
      // extra words up to the maximum and up to the low part's size, schoolbook and register leaves.
      {32, 4, {2, 2, 2, 2}, {}, {32, 3, {3, 2, 2}, {T, K, K}, 5}},
      {32, 4, {2, 2, 2, 2}, {}, {16, 3, {3, 3, 3}, {T, T, T}}},
      {32, 4, {2, 2, 2, 2}, {}, {32, 3, {3, 2, 2}, {T, K, K}}},
      {32, 3, {3, 3, 2}, {T, T, K}, {32, 2, {3, 3}, {T, T}, 8}},
      {8, 1, {2}, {}, {8, 0, {}, {}, 8}},
      {9, 1, {2}, {}, {1, 0, {}, {}, 1}},
      {5, 1, {3}, {T}, {2, 1, {3}, {T}, 7}},
      {32, 3, {3, 3, 2}, {T, T, K}, {16, 3, {3, 2, 2}, {K, K, K}}},
      {8, 1, {2}, {}, {16, 0, {}}},
      {9, 1, {2}, {}, {5, 1, {3}, {T}}},
      {3, 0, {}, {}, {1, 0, {}}},
      {16, 2, {3, 3}, {T, T}, {8, 1, {3}, {K}}},
      {32, 2, {2, 2}, {}, {1, 0, {}}},
      {7, 2, {3, 2}, {T, K}, {13, 1, {3}, {T}}},
  };
  std::mt19937_64 rng(99);
  for (const MulPlan& p : plans) {
    const std::size_t n = p.top_words();
    std::vector<std::uint64_t> a(n), a2(n), b(n), o1(2 * n), o2(2 * n), ref(2 * n), ref2(2 * n);
    // Words at the edges of the parts of an unbalanced top (low part, high tree, extra words).
    const std::size_t lw = p.low_words(), tw = lw + (p.unbalanced() ? p.high.top_words() : 0);
    const auto edge = [&](std::size_t i) {
      return i == 0 || i + 1 == lw || i == lw || i + 1 == tw || i == tw || i + 1 == n;
    };
    // random; a all-ones; b = x^(64n-1); all operands all-ones; a, b = bits 0 and 63 of the edge
    // words (a2 random)
    for (int mode = 0; mode < 5; mode++) {
      for (std::size_t i = 0; i < n; i++) {
        const std::uint64_t e = edge(i) ? (1ull << 63) | 1ull : 0;
        a[i] = mode == 1 || mode == 3 ? ~0ull : mode == 4 ? e : rng();
        a2[i] = mode == 3 ? ~0ull : rng();
        b[i] = mode == 2 ? (i == n - 1 ? 1ull << 63 : 0) : mode == 3 ? ~0ull : mode == 4 ? e : rng();
      }
      std::vector<std::uint64_t> ks(gf2x::karatsuba_scratch_words(n)), scr(backend::avx512::plan_scratch_words(p, 2));
      gf2x::karatsuba(ref.data(), a.data(), b.data(), n, ks.data());
      gf2x::karatsuba(ref2.data(), a2.data(), b.data(), n, ks.data());
      ASSERT_TRUE(backend::avx512::plan_multiply(o1.data(), a.data(), b.data(), p, scr.data()));
      std::string shape = "plan base " + std::to_string(p.base) + " levels";
      for (int i = 0; i < p.depth; i++) {
        shape += p.kind[i] == T ? " T" : " K";
        shape += std::to_string(p.split[i]);
      }
      if (p.unbalanced()) {
        shape += " + high base " + std::to_string(p.high.base) + " levels";
        for (int i = 0; i < p.high.depth; i++) {
          shape += p.high.kind[i] == T ? " T" : " K";
          shape += std::to_string(p.high.split[i]);
        }
        shape += " + " + std::to_string(p.high.extra) + " extra words";
      }
      ASSERT_EQ(o1, ref) << shape << " mode " << mode;
      ASSERT_TRUE(backend::avx512::plan_multiply2(o1.data(), o2.data(), a.data(), a2.data(), b.data(), p, scr.data()));
      ASSERT_EQ(o1, ref) << shape << " (mul2) mode " << mode;
      ASSERT_EQ(o2, ref2) << shape << " (mul2) mode " << mode;
    }
  }
  MulPlan bad{200, 0, {}};
  std::vector<std::uint64_t> x(400);
  EXPECT_FALSE(backend::avx512::plan_multiply(x.data(), x.data(), x.data(), bad, x.data()));
  const MulPlan bad_toom{8, 1, {2}, {T}};  // Toom-3 needs three parts
  EXPECT_FALSE(backend::avx512::plan_multiply(x.data(), x.data(), x.data(), bad_toom, x.data()));
  EXPECT_FALSE(backend::avx512::plan_multiply2(x.data(), x.data(), x.data(), x.data(), x.data(), bad_toom, x.data()));
  const MulPlan bad_high{8, 0, {}, {}, {16, 0, {}}};  // the high part may not exceed the low part
  EXPECT_FALSE(backend::avx512::plan_multiply(x.data(), x.data(), x.data(), bad_high, x.data()));
  const MulPlan bad_high_extra{16, 0, {}, {}, {4, 0, {}, {}, 9}};  // at most kMaxExtraWords
  EXPECT_FALSE(backend::avx512::plan_multiply(x.data(), x.data(), x.data(), bad_high_extra, x.data()));
  const MulPlan bad_high_sum{16, 0, {}, {}, {12, 0, {}, {}, 5}};  // 12 + 5 > 16
  EXPECT_FALSE(backend::avx512::plan_multiply(x.data(), x.data(), x.data(), bad_high_sum, x.data()));
  const MulPlan bad_high_toom{16, 0, {}, {}, {4, 1, {2}, {T}}};
  EXPECT_FALSE(
      backend::avx512::plan_multiply2(x.data(), x.data(), x.data(), x.data(), x.data(), bad_high_toom, x.data()));
}

TEST(Avx512, OneStateKeccakVariantsEqualPortable) {
  REQUIRE_AVX512();
  (void)be;
  std::mt19937_64 rng(5);
  for (int iter = 0; iter < 50; iter++) {
    std::uint64_t s[4][25], r[4][25], t[4][25];
    for (auto& st : s)
      for (auto& x : st) x = iter == 0 ? 0 : iter == 1 ? ~0ull : rng();
    std::memcpy(r, s, sizeof(s));
    for (auto& st : r) sym::keccak_f1600_portable(st);
    std::memcpy(t, s, sizeof(s));
    backend::avx512::keccak_f1600(t[0]);
    EXPECT_EQ(0, std::memcmp(t[0], r[0], 200)) << "five-register";
    std::memcpy(t, s, sizeof(s));
    backend::avx512::keccak_f1600_lanes(t[1]);
    EXPECT_EQ(0, std::memcmp(t[1], r[1], 200)) << "lanes";
    std::memcpy(t, s, sizeof(s));
    backend::avx512::keccak_f1600_pairs(t[2]);
    EXPECT_EQ(0, std::memcmp(t[2], r[2], 200)) << "pairs";
    std::memcpy(t, s, sizeof(s));
    backend::avx512::keccak_f1600_pairs_x2(t[3], t[1]);  // two states, one per 128-bit lane
    EXPECT_EQ(0, std::memcmp(t[3], r[3], 200)) << "pairs x2, first state";
    EXPECT_EQ(0, std::memcmp(t[1], r[1], 200)) << "pairs x2, second state";
    EXPECT_EQ(0, std::memcmp(t[0], s[0], 200)) << "pairs x2 touched a third state";
  }
}

// Side-by-side sponges give the bytes of sequential sponges, for every backend (also without x4).
TEST(Avx512, SpongeLanesEqualSequentialSponges) {
  std::mt19937_64 rng(3);
  std::vector<std::uint8_t> in(3000);
  for (auto& x : in) x = static_cast<std::uint8_t>(rng());
  for (const backend::Backend* b : backend::all_backends()) {
    if (!backend::is_supported(*b, backend::effective_cpu_features())) continue;
    for (std::size_t len : {0, 1, 7, 71, 72, 73, 135, 136, 137, 271, 272, 1000, 2999}) {
      std::uint8_t o[4][600], r[4][600];
      const std::size_t outs[4] = {32, 64, 600, 137};
      const std::size_t rates[4] = {136, 72, 136, 136};
      const std::uint8_t pads[4] = {0x06, 0x06, 0x1F, 0x1F};
      sym::SpongeLanes lanes(*b);
      const std::uint8_t dom = 0x03;
      lanes.start(0, sym::SpongeKind{rates[0], pads[0]}, {{in.data(), len}, {&dom, 1}}, o[0], outs[0]);
      lanes.start(1, sym::SpongeKind{rates[1], pads[1]}, {{in.data(), len / 2}, {in.data() + len / 2, len - len / 2}},
                  o[1], outs[1]);
      lanes.run_until_idle(1);
      lanes.start(1, sym::SpongeKind{rates[2], pads[2]}, {{in.data() + 5, len / 3}}, o[2], outs[2]);
      lanes.start(3, sym::SpongeKind{rates[3], pads[3]}, {{in.data(), 1}, {in.data() + 1, len / 4}, {&dom, 1}}, o[3],
                  outs[3]);
      lanes.run_all();
      {
        sym::Sponge s(b->keccak_f1600, rates[0], pads[0]);
        s.absorb(in.data(), len);
        s.absorb(&dom, 1);
        s.squeeze(r[0], outs[0]);
      }
      {
        sym::Sponge s(b->keccak_f1600, rates[1], pads[1]);
        s.absorb(in.data(), len);
        s.squeeze(r[1], outs[1]);
      }
      {
        sym::Sponge s(b->keccak_f1600, rates[2], pads[2]);
        s.absorb(in.data() + 5, len / 3);
        s.squeeze(r[2], outs[2]);
      }
      {
        sym::Sponge s(b->keccak_f1600, rates[3], pads[3]);
        s.absorb(in.data(), 1 + len / 4);
        s.absorb(&dom, 1);
        s.squeeze(r[3], outs[3]);
      }
      EXPECT_EQ(0, std::memcmp(o[0], r[0], outs[0])) << b->name << " len " << len;
      EXPECT_EQ(0, std::memcmp(o[1], r[1], outs[1])) << b->name << " len " << len;
      EXPECT_EQ(0, std::memcmp(o[2], r[2], outs[2])) << b->name << " len " << len;
      EXPECT_EQ(0, std::memcmp(o[3], r[3], outs[3])) << b->name << " len " << len;
    }
  }
}

// Cached key objects vs keys parsed from bytes for every operation, and avx512 vs portable.
template <class P>
void check_cached(const backend::Backend& be) {
  std::mt19937_64 rng(21 + P::kLevel);
  for (int iter = 0; iter < 4; iter++) {
    std::uint8_t seed[32], m[P::kK], salt[16];
    for (auto& x : seed) x = static_cast<std::uint8_t>(rng());
    for (auto& x : m) x = static_cast<std::uint8_t>(rng());
    for (auto& x : salt) x = static_cast<std::uint8_t>(rng());
    auto k1 = std::make_unique<kem::SecretKey<P>>();
    auto k2 = std::make_unique<kem::SecretKey<P>>();
    auto kp = std::make_unique<kem::SecretKey<P>>();
    kem::keypair<P>(be, *k1, seed);
    kem::keypair<P>(backend::portable(), *kp, seed);
    ASSERT_EQ(0, std::memcmp(k1->pub.pk, kp->pub.pk, P::kPublicKeyBytes));
    std::uint8_t sk[P::kSecretKeyBytes];
    k1->serialize(sk);
    ASSERT_EQ(kem::Status::kOk, kem::parse_secret_key<P>(be, *k2, sk));
    // Parsed key: the same derived values as the cached one (H(pk) and h via side-by-side sponges).
    ASSERT_EQ(0, std::memcmp(k1->pub.hpk, k2->pub.hpk, 32));
    ASSERT_EQ(0, std::memcmp(k1->pub.ek.h.w, k2->pub.ek.h.w, sizeof(k1->pub.ek.h.w)));
    ASSERT_EQ(0, std::memcmp(k1->y.w, k2->y.w, sizeof(k1->y.w)));
    std::uint8_t hpk[32];
    sym::oracle_h(backend::portable().keccak_f1600, hpk, sk, P::kPublicKeyBytes);
    ASSERT_EQ(0, std::memcmp(hpk, k2->pub.hpk, 32));
    std::uint8_t c1[P::kCiphertextBytes], c2[P::kCiphertextBytes], c3[P::kCiphertextBytes];
    std::uint8_t s1[32], s2[32], s3[32], d1[32], d2[32], d3[32];
    kem::encaps<P>(be, k1->pub, c1, s1, m, salt);
    kem::encaps<P>(be, k2->pub, c2, s2, m, salt);
    kem::encaps<P>(backend::portable(), kp->pub, c3, s3, m, salt);
    ASSERT_EQ(0, std::memcmp(c1, c2, sizeof(c1)));
    ASSERT_EQ(0, std::memcmp(c1, c3, sizeof(c1)));
    ASSERT_EQ(0, std::memcmp(s1, s3, 32));
    ASSERT_EQ(0, std::memcmp(s1, s2, 32));
    // Valid, then tampered ciphertexts (implicit rejection path), cached vs parsed vs portable.
    for (int t = 0; t < 3; t++) {
      if (t == 1) c1[rng() % P::kVecNBytes] ^= 1;
      if (t == 2) c1[P::kCiphertextBytes - 1] ^= 0x80;
      kem::decaps<P>(be, *k1, d1, c1);
      kem::decaps<P>(be, *k2, d2, c1);
      kem::decaps<P>(backend::portable(), *kp, d3, c1);
      ASSERT_EQ(0, std::memcmp(d1, d2, 32)) << "t " << t;
      ASSERT_EQ(0, std::memcmp(d1, d3, 32)) << "t " << t;
      if (t == 0) ASSERT_EQ(0, std::memcmp(d1, s1, 32));
      else ASSERT_NE(0, std::memcmp(d1, s1, 32));
    }
  }
}

TEST(Avx512, CachedAndUncachedKeysGiveIdenticalBytes) {
  REQUIRE_AVX512();
  check_cached<Hqc1>(be);
  check_cached<Hqc3>(be);
  check_cached<Hqc5>(be);
}

TEST(Avx512, RegisteredFirstAndRequiresItsFeatures) {
  const backend::Backend* b = backend::find_backend("avx512");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(backend::all_backends()[0], b);
  using namespace backend;
  const CpuFeatures need = kCpuAvx512F | kCpuAvx512BW | kCpuAvx512VL | kCpuVpclmul | kCpuGfni | kCpuPclmul | kCpuAvx2;
  EXPECT_EQ(b->required & need, need);
  EXPECT_NE(b->keccak_f1600_x4, nullptr);
  // Hiding GFNI or VPCLMULQDQ rules it out.
  EXPECT_FALSE(is_supported(*b, b->required & ~kCpuGfni));
  EXPECT_FALSE(is_supported(*b, b->required & ~kCpuVpclmul));
  EXPECT_TRUE(is_supported(*b, b->required));
}

}  // namespace
}  // namespace hqc
