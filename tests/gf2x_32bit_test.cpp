// The portable carry-less product built for targets without unsigned __int128 (32-bit, e.g.
// Cortex-M4): src/gf2x/gf2x_portable.cpp compiled into this test with HQC_GF2X_NO_INT128 gives
// the same products as a bit-by-bit reference, for single words and Karatsuba on several words.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "gf2x/gf2x_portable.hpp"

namespace {

void ref_mul(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b, std::size_t n) {
  for (std::size_t i = 0; i < 2 * n; i++) out[i] = 0;
  for (std::size_t i = 0; i < 64 * n; i++) {
    if (((b[i / 64] >> (i % 64)) & 1) == 0) continue;
    for (std::size_t j = 0; j < 64 * n; j++)
      if ((a[j / 64] >> (j % 64)) & 1) out[(i + j) / 64] ^= std::uint64_t{1} << ((i + j) % 64);
  }
}

TEST(Gf2x32Bit, Clmul64MatchesReference) {
  std::mt19937_64 rng(11);
  for (int t = 0; t < 200000; t++) {
    std::uint64_t a = rng(), b = rng();
    if (t < 64) a = ~std::uint64_t{0}, b = ~std::uint64_t{0} >> t;  // the densest columns
    std::uint64_t lo, hi, want[2];
    hqc::gf2x::clmul64(a, b, &lo, &hi);
    ref_mul(want, &a, &b, 1);
    ASSERT_EQ(lo, want[0]) << t;
    ASSERT_EQ(hi, want[1]) << t;
  }
}

TEST(Gf2x32Bit, KaratsubaMatchesReference) {
  std::mt19937_64 rng(12);
  for (std::size_t n : {1, 2, 3, 5, 8, 13}) {
    std::vector<std::uint64_t> a(n), b(n), got(2 * n), want(2 * n), scratch(hqc::gf2x::karatsuba_scratch_words(n));
    for (int t = 0; t < 20; t++) {
      for (auto& x : a) x = rng();
      for (auto& x : b) x = rng();
      hqc::gf2x::karatsuba(got.data(), a.data(), b.data(), n, scratch.data());
      ref_mul(want.data(), a.data(), b.data(), n);
      ASSERT_EQ(got, want) << "n = " << n;
    }
  }
}

}  // namespace
