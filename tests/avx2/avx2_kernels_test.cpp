// Every kernel of the avx2 backend against the portable oracle, for every level, on random and
// edge inputs; both multipliers (PCLMULQDQ, VPCLMULQDQ) and both Reed-Solomon decoders (PSHUFB,
// GFNI) are called directly where the CPU has them, and the registry's avx2 rows and the alias
// "avx2" are checked against HQC_CPU_MASK. Compiled without ISA flags: the avx2 kernels are
// reached only through the declarations of backend/avx2/kernels.hpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <cstring>
#include <random>
#include <vector>

#include "backend/avx2/kernels.hpp"
#include "backend/cpu.hpp"
#include "backend/registry.hpp"
#include "code/reed_muller.hpp"
#include "code/reed_solomon.hpp"
#include "sym/keccak.hpp"

namespace hqc {
namespace {

namespace av = backend::avx2;

bool have_avx2() {
  const auto base = backend::kCpuAvx2 | backend::kCpuPclmul | backend::kCpuBmi2;
  return (backend::effective_cpu_features() & base) == base;
}
// The CPU's GFNI, regardless of HQC_CPU_MASK: the direct calls below may use it in both runs.
bool have_gfni_hw() {
  const auto f = backend::detect_cpu_features();
  return have_avx2() && (f & backend::kCpuGfni) != 0;
}

bool have_vpclmul_hw() {
  const auto f = backend::detect_cpu_features();
  return have_avx2() && (f & backend::kCpuVpclmul) != 0;
}

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
class Avx2Kernels : public testing::Test {
 protected:
  std::mt19937_64 rng{0x48514332 + P::kLevel};

  void random_dense(Vec<P>& v) {
    for (std::size_t i = 0; i < P::kNWords; i++) v.w[i] = rng();
    v.w[P::kNWords - 1] &= P::kLastWordMask;
  }
  void all_ones(Vec<P>& v) {
    for (std::size_t i = 0; i < P::kNWords; i++) v.w[i] = ~std::uint64_t{0};
    v.w[P::kNWords - 1] = P::kLastWordMask;
  }
  std::vector<std::uint32_t> random_support(std::size_t w) {
    std::vector<std::uint32_t> pos;
    while (pos.size() < w) {
      const auto p = static_cast<std::uint32_t>(rng() % P::kN);
      if (std::find(pos.begin(), pos.end(), p) == pos.end()) pos.push_back(p);
    }
    return pos;
  }
  void sparse(Vec<P>& v, const std::vector<std::uint32_t>& pos) {
    std::memset(v.w, 0, sizeof(v.w));
    for (auto p : pos) v.w[p / 64] |= std::uint64_t{1} << (p % 64);
  }
  std::uint8_t byte() { return static_cast<std::uint8_t>(rng()); }
};

using Levels = testing::Types<Hqc1, Hqc3, Hqc5>;
TYPED_TEST_SUITE(Avx2Kernels, Levels);

template <class P>
void expect_mul_equal(const Vec<P>& a, const Vec<P>& b, const char* what) {
  Vec<P> ref, got, got2, ref2;
  portable<P>().mul(ref.w, a.w, b.w);
  for (int v = 0; v < static_cast<int>(av::MulVariant::kCount); v++) {
    if (!have_vpclmul_hw() && (v == static_cast<int>(av::MulVariant::kVpclmulKaratsuba) ||
                               v == static_cast<int>(av::MulVariant::kVpclmulToom3)))
      continue;  // these two need VPCLMULQDQ
    std::memset(got.w, 0xA5, sizeof(got.w));
    av::mul_variant<P>(static_cast<av::MulVariant>(v), got.w, a.w, b.w);
    ASSERT_EQ(0, std::memcmp(ref.w, got.w, sizeof(ref.w))) << what << " variant " << v;
  }
  // Both production multipliers directly.
  av::mul_pclmul<P>(got.w, a.w, b.w);
  ASSERT_EQ(0, std::memcmp(ref.w, got.w, sizeof(ref.w))) << what << " mul_pclmul";
  if (have_vpclmul_hw()) {
    std::memset(got.w, 0xA5, sizeof(got.w));
    av::mul_vpclmul<P>(got.w, a.w, b.w);
    ASSERT_EQ(0, std::memcmp(ref.w, got.w, sizeof(ref.w))) << what << " mul_vpclmul";
    for (int toom = 0; toom <= 1; toom++) {
      std::memset(got.w, 0xA5, sizeof(got.w));
      av::mul_vpclmul_toom<P>(got.w, a.w, b.w, toom);
      ASSERT_EQ(0, std::memcmp(ref.w, got.w, sizeof(ref.w))) << what << " mul_vpclmul toom " << toom;
    }
  }
  // mul2: (a, b) * b, and aliasing of the two inputs.
  portable<P>().mul(ref2.w, b.w, b.w);
  av::mul2_pclmul<P>(got.w, got2.w, a.w, b.w, b.w);
  ASSERT_EQ(0, std::memcmp(ref.w, got.w, sizeof(ref.w))) << what << " mul2_pclmul first";
  ASSERT_EQ(0, std::memcmp(ref2.w, got2.w, sizeof(ref2.w))) << what << " mul2_pclmul second";
  if (have_vpclmul_hw()) {
    std::memset(got.w, 0, sizeof(got.w));
    std::memset(got2.w, 0, sizeof(got2.w));
    av::mul2_vpclmul<P>(got.w, got2.w, a.w, b.w, b.w);
    ASSERT_EQ(0, std::memcmp(ref.w, got.w, sizeof(ref.w))) << what << " mul2_vpclmul first";
    ASSERT_EQ(0, std::memcmp(ref2.w, got2.w, sizeof(ref2.w))) << what << " mul2_vpclmul second";
  }
}

TYPED_TEST(Avx2Kernels, MulMatchesPortable) {
  REQUIRE_AVX2();
  using P = TypeParam;
  Vec<P> a, b, zero, ones, one, top;
  this->all_ones(ones);
  one.w[0] = 1;
  top.w[(P::kN - 1) / 64] = std::uint64_t{1} << ((P::kN - 1) % 64);
  expect_mul_equal<P>(zero, zero, "0*0");
  expect_mul_equal<P>(ones, ones, "ones*ones");
  expect_mul_equal<P>(ones, one, "ones*1");
  expect_mul_equal<P>(top, top, "x^(n-1)^2");
  expect_mul_equal<P>(ones, top, "ones*x^(n-1)");
  for (int it = 0; it < 20; it++) {
    this->random_dense(a);
    this->random_dense(b);
    expect_mul_equal<P>(a, b, "dense*dense");
    this->sparse(b, this->random_support(P::kWr));
    expect_mul_equal<P>(a, b, "dense*sparse");
    expect_mul_equal<P>(b, ones, "sparse*ones");
  }
  // Maximum-weight support: the w_r highest positions.
  std::vector<std::uint32_t> hi;
  for (std::size_t i = 0; i < P::kWr; i++) hi.push_back(static_cast<std::uint32_t>(P::kN - 1 - i));
  this->sparse(b, hi);
  expect_mul_equal<P>(ones, b, "ones*top-support");
}

TYPED_TEST(Avx2Kernels, SupportToVectorMatchesPortable) {
  REQUIRE_AVX2();
  using P = TypeParam;
  auto check = [&](const std::vector<std::uint32_t>& pos) {
    Vec<P> ref, got;
    std::memset(got.w, 0x5A, sizeof(got.w));
    portable<P>().support_to_vector(ref.w, pos.data(), pos.size());
    av::support_to_vector<P>(got.w, pos.data(), pos.size());
    ASSERT_EQ(0, std::memcmp(ref.w, got.w, sizeof(ref.w)));
  };
  for (std::size_t w : {std::size_t{1}, P::kW, P::kWr, P::kWe}) {
    for (int it = 0; it < 20; it++) check(this->random_support(w));
    std::vector<std::uint32_t> lo, hi, edges;
    for (std::size_t i = 0; i < w; i++) {
      lo.push_back(static_cast<std::uint32_t>(i));
      hi.push_back(static_cast<std::uint32_t>(P::kN - 1 - i));
      edges.push_back(static_cast<std::uint32_t>((64 * i + (i & 1) * 63) % P::kN));  // word boundaries
    }
    check(lo);
    check(hi);
    std::sort(edges.begin(), edges.end());
    edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
    check(edges);
  }
}

TYPED_TEST(Avx2Kernels, EncPositionsMatchesPortable) {
  REQUIRE_AVX2();
  using P = TypeParam;
  auto check = [&](const std::vector<std::uint8_t>& rnd, std::size_t w) {
    std::vector<std::uint32_t> ref(w), got(w, 0xDEADBEEF);
    portable<P>().enc_positions(ref.data(), rnd.data(), w);
    av::enc_positions<P>(got.data(), rnd.data(), w);
    ASSERT_EQ(ref, got);
  };
  for (std::size_t w : {P::kWr, P::kWe, std::size_t{1}, std::size_t{2}, std::size_t{9}}) {
    std::vector<std::uint8_t> rnd(4 * w);
    for (int it = 0; it < 50; it++) {
      for (auto& x : rnd) x = this->byte();
      check(rnd, w);
    }
    std::fill(rnd.begin(), rnd.end(), 0x00);  // p_i = i
    check(rnd, w);
    std::fill(rnd.begin(), rnd.end(), 0xFF);  // every p_i = n - 1: a chain of replacements
    check(rnd, w);
    // Few distinct values: many duplicates, replaced entries colliding with later ones.
    for (int it = 0; it < 20; it++) {
      for (std::size_t i = 0; i < w; i++) {
        const std::uint32_t r = static_cast<std::uint32_t>(this->rng() % 3) << 30;
        std::memcpy(&rnd[4 * i], &r, 4);
      }
      check(rnd, w);
    }
  }
}

template <class P>
void expect_rm_equal(const std::uint64_t* in, const char* what) {
  std::uint8_t ref[P::kN1], got[P::kN1];
  portable<P>().rm_decode(ref, in);
  av::rm_decode<P>(got, in);
  ASSERT_EQ(0, std::memcmp(ref, got, P::kN1)) << what;
}

TYPED_TEST(Avx2Kernels, RmDecodeMatchesPortable) {
  REQUIRE_AVX2();
  using P = TypeParam;
  alignas(64) std::uint64_t in[P::kN1N2Words];
  std::memset(in, 0, sizeof(in));
  expect_rm_equal<P>(in, "all zero");
  std::memset(in, 0xFF, sizeof(in));
  expect_rm_equal<P>(in, "all one");
  for (int it = 0; it < 30; it++) {
    for (auto& w : in) w = this->rng();
    expect_rm_equal<P>(in, "random");
    // Codewords of random bytes with a random number of flipped bits.
    std::uint8_t cw[P::kN1];
    for (auto& b : cw) b = this->byte();
    code::rm_encode<P>(in, cw);
    const std::size_t flips = this->rng() % (P::kN1N2 / 3);
    for (std::size_t f = 0; f < flips; f++) {
      const std::size_t bit = this->rng() % P::kN1N2;
      in[bit / 64] ^= std::uint64_t{1} << (bit % 64);
    }
    expect_rm_equal<P>(in, "noisy codeword");
  }
  // Ties: each block is half one codeword, half another (every copy alike), so several |F| peak
  // at the same height and the smallest index must win, with its own sign.
  for (int it = 0; it < 30; it++) {
    for (std::size_t j = 0; j < P::kN1; j++) {
      std::uint64_t c1[2], c2[2];
      code::rm_encode_byte(this->byte(), c1);
      code::rm_encode_byte(this->byte(), c2);
      const std::uint64_t m0 = this->rng(), m1 = this->rng();
      const std::uint64_t blk[2] = {(c1[0] & m0) | (c2[0] & ~m0), (c1[1] & m1) | (c2[1] & ~m1)};
      for (std::size_t t = 0; t < P::kMult; t++) {
        in[j * (P::kN2 / 64) + 2 * t] = blk[0];
        in[j * (P::kN2 / 64) + 2 * t + 1] = blk[1];
      }
    }
    expect_rm_equal<P>(in, "half/half blocks");
    // Exact halves: copies split evenly between a codeword and its complement (F = 0 everywhere
    // when mult is even; otherwise one peak), and blocks of alternating patterns.
    for (std::size_t j = 0; j < P::kN1; j++) {
      std::uint64_t c1[2];
      code::rm_encode_byte(this->byte(), c1);
      for (std::size_t t = 0; t < P::kMult; t++) {
        const std::uint64_t flip = (t & 1) ? ~std::uint64_t{0} : 0;
        in[j * (P::kN2 / 64) + 2 * t] = c1[0] ^ flip;
        in[j * (P::kN2 / 64) + 2 * t + 1] = c1[1] ^ flip;
      }
    }
    expect_rm_equal<P>(in, "codeword/complement copies");
  }
}

template <class P>
void expect_rs_equal(const std::uint8_t* cw, const char* what) {
  std::uint8_t ref[P::kK], got[P::kK];
  portable<P>().rs_decode(ref, cw);
  std::memset(got, 0xEE, sizeof(got));
  av::rs_decode_avx2<P>(got, cw);
  ASSERT_EQ(0, std::memcmp(ref, got, P::kK)) << what << " (avx2 variant)";
  if (have_gfni_hw()) {
    std::memset(got, 0xEE, sizeof(got));
    av::rs_decode_gfni<P>(got, cw);
    ASSERT_EQ(0, std::memcmp(ref, got, P::kK)) << what << " (gfni variant)";
  }
}

TYPED_TEST(Avx2Kernels, RsDecodeMatchesPortable) {
  REQUIRE_AVX2();
  using P = TypeParam;
  std::uint8_t msg[P::kK], cw[P::kN1], r[P::kN1];
  std::memset(r, 0, sizeof(r));
  expect_rs_equal<P>(r, "zero word");
  std::memset(r, 0xFF, sizeof(r));
  expect_rs_equal<P>(r, "all-0xFF word");
  for (std::size_t errors : {std::size_t{0}, std::size_t{1}, P::kDelta - 1, P::kDelta, P::kDelta + 1,
                             P::kDelta + 2, 2 * P::kDelta, P::kN1}) {
    for (int it = 0; it < 40; it++) {
      for (auto& b : msg) b = this->byte();
      code::rs_encode<P>(cw, msg);
      std::memcpy(r, cw, P::kN1);
      std::vector<std::size_t> where(P::kN1);
      for (std::size_t i = 0; i < P::kN1; i++) where[i] = i;
      std::shuffle(where.begin(), where.end(), this->rng);
      for (std::size_t e = 0; e < errors; e++) r[where[e]] ^= static_cast<std::uint8_t>(1 + this->rng() % 255);
      expect_rs_equal<P>(r, "errors");
      if (errors <= P::kDelta) {
        std::uint8_t got[P::kK];
        av::rs_decode_avx2<P>(got, r);
        ASSERT_EQ(0, std::memcmp(got, msg, P::kK)) << errors << " errors not corrected";
      }
    }
  }
  // Errors at the first and last positions, and burst patterns.
  for (int it = 0; it < 20; it++) {
    for (auto& b : msg) b = this->byte();
    code::rs_encode<P>(cw, msg);
    std::memcpy(r, cw, P::kN1);
    for (std::size_t e = 0; e < P::kDelta; e++) r[e < P::kDelta / 2 ? e : P::kN1 - 1 - e] ^= this->byte();
    expect_rs_equal<P>(r, "edge errors");
    for (auto& b : r) b = this->byte();
    expect_rs_equal<P>(r, "random word");
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
    EXPECT_EQ(k.mul, r.vpclmul ? &av::mul_vpclmul<P> : &av::mul_pclmul<P>) << r.name;
    EXPECT_EQ(k.mul2, r.vpclmul ? &av::mul2_vpclmul<P> : &av::mul2_pclmul<P>) << r.name;
    EXPECT_EQ(k.rs_decode, r.gfni ? &av::rs_decode_gfni<P> : &av::rs_decode_avx2<P>) << r.name;
    EXPECT_EQ(k.rm_decode, &av::rm_decode<P>) << r.name;
    EXPECT_EQ((be->required & backend::kCpuVpclmul) != 0, r.vpclmul) << r.name;
    EXPECT_EQ((be->required & backend::kCpuGfni) != 0, r.gfni) << r.name;
  }
}

TEST(Avx2Backend, KeccakMatchesPortable) {
  REQUIRE_AVX2();
  std::mt19937_64 rng(99);
  for (int it = 0; it < 200; it++) {
    std::uint64_t a[25], b[25];
    for (int i = 0; i < 25; i++) a[i] = b[i] = it == 0 ? 0 : rng();
    sym::keccak_f1600_portable(a);
    av::keccak_f1600(b);
    ASSERT_EQ(0, std::memcmp(a, b, sizeof(a)));
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
