// Building blocks of the portable backend against naive definitions (carry-less multiplication,
// Karatsuba, Barrett reduction) and the key-generation XOF prefix. Every kernel of every backend
// against portable, and the ring identities, are in the conformance suite (conformance_test.cpp).
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "backend/registry.hpp"
#include "gf2x/gf2x_portable.hpp"
#include "kem/kem.hpp"
#include "sampling/sampling.hpp"
#include "sym/sponge_lanes.hpp"
#include "test_util.hpp"

namespace hqc {
namespace {

// ---- Portable building blocks against naive definitions.

void naive_clmul(std::uint64_t a, std::uint64_t b, std::uint64_t* lo, std::uint64_t* hi) {
  *lo = *hi = 0;
  for (int i = 0; i < 64; i++)
    if ((b >> i) & 1) {
      *lo ^= a << i;
      if (i) *hi ^= a >> (64 - i);
    }
}

TEST(Gf2xPortable, Clmul64MatchesNaive) {
  std::mt19937_64 rng(1);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> cases = {{0, 0},
                                                                {~0ull, ~0ull},
                                                                {1, ~0ull},
                                                                {~0ull, 1},
                                                                {0x8000000000000000ull, 0x8000000000000000ull},
                                                                {0x1111111111111111ull, ~0ull},
                                                                {0x8421084210842108ull, 0x8421084210842108ull}};
  for (int i = 0; i < 20000; i++) cases.emplace_back(rng(), rng());
  auto dense = [&] {  // about 7/8 of the bits set
    std::uint64_t v = rng();
    v |= rng();
    return v | rng();
  };
  for (int i = 0; i < 2000; i++) {
    const std::uint64_t a = dense();
    cases.emplace_back(a, dense());
  }
  for (auto [a, b] : cases) {
    std::uint64_t l1, h1, l2, h2;
    gf2x::clmul64(a, b, &l1, &h1);
    naive_clmul(a, b, &l2, &h2);
    ASSERT_EQ(l1, l2) << std::hex << a << " " << b;
    ASSERT_EQ(h1, h2) << std::hex << a << " " << b;
  }
}

TEST(Gf2xPortable, KaratsubaMatchesSchoolbook) {
  std::mt19937_64 rng(2);
  for (std::size_t n : {1, 2, 3, 4, 5, 7, 8, 13, 31, 64, 100, 277}) {
    std::vector<std::uint64_t> a(n), b(n), out(2 * n), ref(2 * n, 0), scratch(gf2x::karatsuba_scratch_words(n));
    for (auto& x : a) x = rng();
    for (auto& x : b) x = rng();
    gf2x::karatsuba(out.data(), a.data(), b.data(), n, scratch.data());
    for (std::size_t i = 0; i < n; i++)
      for (std::size_t j = 0; j < n; j++) {
        std::uint64_t lo, hi;
        naive_clmul(a[i], b[j], &lo, &hi);
        ref[i + j] ^= lo;
        ref[i + j + 1] ^= hi;
      }
    EXPECT_EQ(out, ref) << "n=" << n;
  }
}

// XofWithPrefix (key generation squeezes the start of XOF(seed_dk) beside h): the same stream as
// one XOF for every prefix length (including ones shorter than what the reader takes, so the
// restart path runs) and read pattern; and the sampler gives the same positions from both.
TEST(Sampling, XofWithPrefixIsTheSameStream) {
  const auto f = backend::portable().keccak_f1600;
  std::uint8_t seed[32];
  for (int i = 0; i < 32; i++) seed[i] = static_cast<std::uint8_t>(7 * i + 1);
  std::vector<std::uint8_t> want(1000);
  {
    sym::Xof xof(f, seed);
    xof.squeeze(want.data(), want.size());
  }
  for (std::size_t len : {std::size_t{0}, std::size_t{1}, std::size_t{135}, std::size_t{136}, std::size_t{137},
                          std::size_t{300}, std::size_t{1000}}) {
    for (std::size_t chunk : {std::size_t{1}, std::size_t{3}, std::size_t{64}, std::size_t{198}, std::size_t{1000}}) {
      sym::XofWithPrefix src(f, seed, want.data(), len);
      std::vector<std::uint8_t> got(want.size());
      for (std::size_t off = 0; off < got.size(); off += chunk)
        src.squeeze(got.data() + off, std::min(chunk, got.size() - off));
      ASSERT_EQ(want, got) << "prefix " << len << " chunk " << chunk;
      ASSERT_EQ(len < want.size(), src.used_rest());
    }
  }
  // The sampler from a short prefix (restart after 5 bytes) equals the sampler from one XOF.
  std::uint32_t p1[Hqc1::kW], p2[Hqc1::kW];
  sym::Xof xof(f, seed);
  sym::XofWithPrefix src(f, seed, want.data(), 5);
  for (int draw = 0; draw < 2; draw++) {
    const std::size_t u1 = sampling::sample_keygen_positions<Hqc1>(p1, xof);
    const std::size_t u2 = sampling::sample_keygen_positions<Hqc1>(p2, src);
    ASSERT_EQ(u1, u2);
    ASSERT_EQ(0, std::memcmp(p1, p2, sizeof(p1)));
  }
}

TEST(Sampling, BarrettReductionIsExactBelowThreshold) {
  auto check = [&]<class P>() {
    for (std::uint32_t c = 0; c < (1u << 24); c += 1 + (c & 7)) ASSERT_EQ(sampling::reduce_mod_n<P>(c), c % P::kN) << c;
    ASSERT_EQ(sampling::reduce_mod_n<P>((1u << 24) - 1), ((1u << 24) - 1) % P::kN);
  };
  check.template operator()<Hqc1>();
  check.template operator()<Hqc3>();
  check.template operator()<Hqc5>();
}

}  // namespace
}  // namespace hqc
