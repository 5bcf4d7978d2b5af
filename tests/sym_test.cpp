// Keccak / SHA3 / SHAKE: FIPS 202 vectors, and agreement with OpenSSL's EVP implementation on
// random inputs with arbitrary absorb/squeeze splits (the XOF stream semantics of spec §3), for
// every backend's permutation.
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <random>

#include "backend/registry.hpp"
#include "sym/oracles.hpp"
#include "sym/sponge_lanes.hpp"
#include "test_util.hpp"

namespace hqc {
namespace {

using test::Bytes;
using test::to_hex;

Bytes evp(const EVP_MD* md, const Bytes& in, std::size_t outlen) {
  Bytes out(outlen);
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  EVP_DigestInit_ex(ctx, md, nullptr);
  EVP_DigestUpdate(ctx, in.data(), in.size());
  if (EVP_MD_flags(md) & EVP_MD_FLAG_XOF) EVP_DigestFinalXOF(ctx, out.data(), outlen);
  else EVP_DigestFinal_ex(ctx, out.data(), nullptr);
  EVP_MD_CTX_free(ctx);
  return out;
}

class Sym : public testing::TestWithParam<const backend::Backend*> {};

TEST_P(Sym, Fips202Vectors) {
  const sym::Permutation f(*GetParam());
  std::uint8_t h256[32], h512[64], x[32];
  sym::sha3_256(f, h256, nullptr, 0);
  EXPECT_EQ(to_hex(h256, 32), "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a");
  sym::sha3_512(f, h512, nullptr, 0);
  EXPECT_EQ(
      to_hex(h512, 64),
      "a69f73cca23a9ac5c8b567dc185a756e97c982164fe25859e0d1dcc1475c80a615b2123af1f5f94c11e3e9402c3ac558f500199d95b6"
      "d3e301758586281dcd26");
  sym::shake256(f, x, 32, nullptr, 0);
  EXPECT_EQ(to_hex(x, 32), "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762f");
  const std::uint8_t abc[3] = {'a', 'b', 'c'};
  sym::sha3_256(f, h256, abc, 3);
  EXPECT_EQ(to_hex(h256, 32), "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532");
  sym::sha3_512(f, h512, abc, 3);
  EXPECT_EQ(
      to_hex(h512, 64),
      "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e10e116e9192af3c91a7ec57647e3934057340b4cf408"
      "d5a56592f8274eec53f0");
}

TEST_P(Sym, AgreesWithOpenSslOnRandomSplits) {
  const sym::Permutation f(*GetParam());
  std::mt19937_64 rng(7);
  for (int iter = 0; iter < 300; iter++) {
    Bytes in(rng() % 1200);
    for (auto& b : in) b = static_cast<std::uint8_t>(rng());
    // Absorb in random pieces.
    sym::Sha3_256 a(f);
    sym::Sha3_512 b(f);
    sym::Shake256 c(f);
    std::size_t off = 0;
    while (off < in.size()) {
      std::size_t n = std::min<std::size_t>(in.size() - off, rng() % 200);
      a.absorb(in.data() + off, n);
      b.absorb(in.data() + off, n);
      c.absorb(in.data() + off, n);
      off += n;
    }
    std::uint8_t h256[32], h512[64];
    a.final(h256);
    b.final(h512);
    EXPECT_EQ(to_hex(h256, 32), to_hex(evp(EVP_sha3_256(), in, 32)));
    EXPECT_EQ(to_hex(h512, 64), to_hex(evp(EVP_sha3_512(), in, 64)));
    // Squeeze in random pieces: the stream must not depend on the split.
    const std::size_t outlen = rng() % 1000;
    Bytes out(outlen);
    off = 0;
    while (off < outlen) {
      std::size_t n = std::min<std::size_t>(outlen - off, 1 + rng() % 300);
      c.squeeze(out.data() + off, n);
      off += n;
    }
    EXPECT_EQ(to_hex(out), to_hex(evp(EVP_shake256(), in, outlen)));
  }
}

TEST_P(Sym, OraclesAppendDomainByte) {
  const sym::Permutation f(*GetParam());
  Bytes pk(2241, 0x5a);
  std::uint8_t h[32];
  sym::oracle_h(f, h, pk.data(), pk.size());
  Bytes pk1 = pk;
  pk1.push_back(0x01);
  EXPECT_EQ(to_hex(h, 32), to_hex(evp(EVP_sha3_256(), pk1, 32)));
  std::uint8_t seed[32] = {1, 2, 3};
  std::uint8_t x[100];
  sym::Xof xof(f, seed);
  xof.squeeze(x, sizeof(x));
  Bytes s(seed, seed + 32);
  s.push_back(0x01);
  EXPECT_EQ(to_hex(x, 100), to_hex(evp(EVP_shake256(), s, 100)));
}

// SpongeLanes (several sponges side by side, their inputs in parts): the same bytes as OpenSSL
// for parts of every length, empty ones and ones that end inside a lane included, for inputs
// that end anywhere in a block (so padding lands in every lane, and in the next block).
TEST_P(Sym, SpongeLanesAgreeWithOpenSsl) {
  std::mt19937_64 rng(11);
  for (int iter = 0; iter < 200; iter++) {
    sym::SpongeLanes lanes(*GetParam());
    Bytes in[sym::SpongeLanes::kLanes], out[sym::SpongeLanes::kLanes];
    std::size_t cut[sym::SpongeLanes::kLanes][2];
    const sym::SpongeKind kinds[] = {sym::kSha3_256, sym::kSha3_512, sym::kShake256, sym::kShake256};
    const EVP_MD* mds[] = {EVP_sha3_256(), EVP_sha3_512(), EVP_shake256(), EVP_shake256()};
    const std::size_t outlen[] = {32, 64, rng() % 700, 1 + rng() % 20};
    for (int i = 0; i < sym::SpongeLanes::kLanes; i++) {
      in[i].resize(iter < 136 ? static_cast<std::size_t>(iter) + 136 * static_cast<std::size_t>(i) : rng() % 900);
      for (auto& b : in[i]) b = static_cast<std::uint8_t>(rng());
      cut[i][0] = in[i].empty() ? 0 : rng() % (in[i].size() + 1);
      cut[i][1] = cut[i][0] + (in[i].size() == cut[i][0] ? 0 : rng() % (in[i].size() - cut[i][0] + 1));
      out[i].resize(outlen[i]);
      const std::uint8_t* p = in[i].data();
      lanes.start(i, kinds[i],
                  {{p, cut[i][0]}, {p + cut[i][0], cut[i][1] - cut[i][0]}, {p + cut[i][1], in[i].size() - cut[i][1]}},
                  out[i].data(), out[i].size());
    }
    lanes.run_all();
    for (int i = 0; i < sym::SpongeLanes::kLanes; i++)
      ASSERT_EQ(to_hex(out[i]), to_hex(evp(mds[i], in[i], outlen[i])))
          << "iteration " << iter << " lane " << i << " input " << in[i].size() << " cut at " << cut[i][0] << ", "
          << cut[i][1];
  }
}

// The lane form of the interleaved permutation: bit 2j of a lane at bit j of the even word, bit
// 2j + 1 at bit j of the odd word, and back.
TEST(SymInterleave, LaneFormIsEvenAndOddBits) {
  std::mt19937_64 rng(5);
  for (int it = 0; it < 2000; it++) {
    const std::uint64_t v = it < 64 ? std::uint64_t{1} << it : rng();
    std::uint32_t e = 0, o = 0, we = 0, wo = 0;
    sym::interleave_lane(v, e, o);
    for (unsigned j = 0; j < 32; j++) {
      we |= static_cast<std::uint32_t>((v >> (2 * j)) & 1) << j;
      wo |= static_cast<std::uint32_t>((v >> (2 * j + 1)) & 1) << j;
    }
    ASSERT_EQ(e, we) << std::hex << v;
    ASSERT_EQ(o, wo) << std::hex << v;
    ASSERT_EQ(sym::deinterleave_lane(e, o), v);
  }
}

// Portable with the optional interleaved permutation set to the portable reference: runs every
// test above through the sponges' interleaved path, which on hosts no backend takes (the m4 one
// does; tests/m4/m4_test.cpp checks it there).
backend::Backend portable_interleaved() {
  backend::Backend be = backend::portable();
  be.name = "portable-interleaved";
  be.keccak_f1600_interleaved = &sym::keccak_f1600_interleaved_portable;
  return be;
}
const backend::Backend kPortableInterleaved = portable_interleaved();

std::vector<const backend::Backend*> supported() {
  std::vector<const backend::Backend*> v;
  for (const auto* b : backend::all_backends())
    if (backend::is_supported(*b, backend::effective_cpu_features())) v.push_back(b);
  v.push_back(&kPortableInterleaved);
  return v;
}

INSTANTIATE_TEST_SUITE_P(Backends, Sym, testing::ValuesIn(supported()),
                         [](const testing::TestParamInfo<const backend::Backend*>& i) {
                           return test::param_name(i.param->name);
                         });

}  // namespace
}  // namespace hqc
