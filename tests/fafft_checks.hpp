// What the tests of the two FAFFT implementations (tests/avx512/fafft_test.cpp,
// tests/avx2/fafft_avx2_test.cpp) share: the operands (random, zero, all-ones, single-bit at 0, 63,
// 64, n-2, n-1, sparse) and the check of every entry point against the portable multiplier, with
// outputs prefilled with garbage whose padding must come back zero.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "backend/fafft/plan.hpp"
#include "backend/registry.hpp"
#include "pke/pke.hpp"

namespace hqc::test {

template <class P>
struct alignas(64) Transform {
  std::uint64_t w[backend::fafft::kTransformWords<P>];
};

// The entry points of one implementation (backend/avx512/fafft.hpp has their contracts).
template <class P>
struct FafftApi {
  using u64 = std::uint64_t;
  void (*forward)(u64* t, const u64* a);
  void (*mul_transformed)(u64* out, const u64* ta, const u64* tb);
  void (*mul_transformed_plain)(u64* out, const u64* ta, const u64* b);
  void (*mul2_transformed_plain)(u64* out1, u64* out2, const u64* ta1, const u64* ta2, const u64* b);
  void (*mul)(u64* out, const u64* a, const u64* b);
  void (*mul2)(u64* out1, u64* out2, const u64* a1, const u64* a2, const u64* b);
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
void check_entry_points(const FafftApi<P>& ff, unsigned seed) {
  const auto& ref = backend::portable().kernels<P>();
  std::mt19937_64 rng(seed + P::kLevel);
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
      ff.mul(o1.w, a.w, b.w);
      ASSERT_EQ(0, std::memcmp(expect.w, o1.w, sizeof(o1.w))) << "mul " << i << "," << j;
      expect_padding_zero<P>(o1);
      std::memset(o1.w, 0x5A, sizeof(o1.w));
      std::memset(o2.w, 0x5A, sizeof(o2.w));
      ff.mul2(o1.w, o2.w, a.w, a2.w, b.w);
      ASSERT_EQ(0, std::memcmp(expect.w, o1.w, sizeof(o1.w))) << "mul2 first " << i << "," << j;
      ASSERT_EQ(0, std::memcmp(expect2.w, o2.w, sizeof(o2.w))) << "mul2 second " << i << "," << j;
      expect_padding_zero<P>(o1);
      expect_padding_zero<P>(o2);
      ff.forward(ta->w, a.w);
      ff.forward(tb->w, b.w);
      std::memset(o1.w, 0xFF, sizeof(o1.w));
      ff.mul_transformed(o1.w, ta->w, tb->w);
      ASSERT_EQ(0, std::memcmp(expect.w, o1.w, sizeof(o1.w))) << "mul_transformed " << i << "," << j;
      expect_padding_zero<P>(o1);
      std::memset(o1.w, 0xFF, sizeof(o1.w));
      ff.mul_transformed_plain(o1.w, ta->w, b.w);
      ASSERT_EQ(0, std::memcmp(expect.w, o1.w, sizeof(o1.w))) << "mul_transformed_plain " << i << "," << j;
      expect_padding_zero<P>(o1);
      ff.forward(ta2->w, a2.w);
      std::memset(o1.w, 0xC3, sizeof(o1.w));
      std::memset(o2.w, 0xC3, sizeof(o2.w));
      ff.mul2_transformed_plain(o1.w, o2.w, ta->w, ta2->w, b.w);
      ASSERT_EQ(0, std::memcmp(expect.w, o1.w, sizeof(o1.w))) << "mul2_transformed_plain first " << i << "," << j;
      ASSERT_EQ(0, std::memcmp(expect2.w, o2.w, sizeof(o2.w))) << "mul2_transformed_plain second " << i << "," << j;
      expect_padding_zero<P>(o1);
      expect_padding_zero<P>(o2);
    }
  }
}

}  // namespace hqc::test
