// The randomness hook (hqc_set_randombytes): a registered source feeds every call that needs
// randomness (and gives deterministic keys when it is deterministic); a failing source, or none
// on a freestanding build, gives HQC_ERR_RANDOMNESS with zeroed outputs and no key.
// Built twice: rng_hook_test (hosted: the default is the OS RNG) and rng_hook_freestanding_test
// (src/api/random.cpp compiled in with HQC_FREESTANDING=1: there is no default source).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "hqc/hqc.h"
#include "hqc/hqc.hpp"
#include "test_util.hpp"

namespace {

using hqc::test::Bytes;

bool all_zero(const Bytes& b) {
  return std::all_of(b.begin(), b.end(), [](std::uint8_t x) { return x == 0; });
}

// A deterministic source: byte i of the stream is (start + i) * 37 mod 256; counts its calls.
struct CountingRng {
  std::uint8_t next = 0;
  int calls = 0;
  static int fill(void* ctx, std::uint8_t* out, std::size_t len) {
    auto* self = static_cast<CountingRng*>(ctx);
    self->calls++;
    for (std::size_t i = 0; i < len; i++) out[i] = static_cast<std::uint8_t>(37 * self->next++);
    return 0;
  }
};
// Writes garbage (as a half-working TRNG might), then reports failure.
int failing_rng(void* /*ctx*/, std::uint8_t* out, std::size_t len) {
  std::memset(out, 0x5A, len);
  return -1;
}

// Restores the default source after each test.
class RngHook : public testing::TestWithParam<int> {
 protected:
  void TearDown() override { hqc_set_randombytes(nullptr, nullptr); }
};

TEST_P(RngHook, RegisteredSourceGivesDeterministicKeys) {
  const hqc_kem_info* in = hqc_kem_info_by_level(GetParam());
  CountingRng rng;
  hqc_set_randombytes(&CountingRng::fill, &rng);
  Bytes pk(in->public_key_bytes), sk(in->secret_key_bytes), pk2(pk.size()), sk2(sk.size());
  ASSERT_EQ(hqc_kem_keypair(in->name, pk.data(), pk.size(), sk.data(), sk.size()), HQC_OK);
  EXPECT_EQ(rng.calls, 1);
  // The same 32 bytes as explicit coins give the same key pair.
  Bytes seed(32);
  rng.next = 0;
  CountingRng::fill(&rng, seed.data(), seed.size());
  ASSERT_EQ(hqc_kem_keypair_derand(in->name, pk2.data(), pk2.size(), sk2.data(), sk2.size(), seed.data(), 32), HQC_OK);
  EXPECT_EQ(pk, pk2);
  EXPECT_EQ(sk, sk2);
  // Encapsulation draws m || salt from the hook.
  rng.next = 100;
  Bytes ct(in->ciphertext_bytes), ss(32), ct2(ct.size()), ss2(32), coins(in->encaps_coins_bytes);
  ASSERT_EQ(hqc_kem_encaps(in->name, ct.data(), ct.size(), ss.data(), 32, pk.data(), pk.size()), HQC_OK);
  rng.next = 100;
  CountingRng::fill(&rng, coins.data(), coins.size());
  ASSERT_EQ(hqc_kem_encaps_derand(in->name, ct2.data(), ct2.size(), ss2.data(), 32, pk.data(), pk.size(), coins.data(),
                                  coins.size()),
            HQC_OK);
  EXPECT_EQ(ct, ct2);
  EXPECT_EQ(ss, ss2);
  // Key objects draw from it too.
  rng.next = 0;
  hqc_secret_key* key = nullptr;
  ASSERT_EQ(hqc_secret_key_generate(in->name, nullptr, 0, &key), HQC_OK);
  ASSERT_EQ(hqc_secret_key_bytes(key, sk2.data(), sk2.size()), HQC_OK);
  EXPECT_EQ(sk, sk2);
  hqc_secret_key_free(key);
}

TEST_P(RngHook, FailingSourceGivesTheErrorAndZeroedOutputs) {
  const hqc_kem_info* in = hqc_kem_info_by_level(GetParam());
  // A key pair made with explicit coins (the *_derand functions never call the hook).
  hqc_set_randombytes(&failing_rng, nullptr);
  Bytes seed(32, 7), pk(in->public_key_bytes), sk(in->secret_key_bytes);
  ASSERT_EQ(hqc_kem_keypair_derand(in->name, pk.data(), pk.size(), sk.data(), sk.size(), seed.data(), 32), HQC_OK);

  Bytes opk(pk.size(), 0xAA), osk(sk.size(), 0xAA), ct(in->ciphertext_bytes, 0xAA), ss(32, 0xAA);
  EXPECT_EQ(hqc_kem_keypair(in->name, opk.data(), opk.size(), osk.data(), osk.size()), HQC_ERR_RANDOMNESS);
  EXPECT_TRUE(all_zero(opk) && all_zero(osk));
  EXPECT_EQ(hqc_kem_encaps(in->name, ct.data(), ct.size(), ss.data(), 32, pk.data(), pk.size()), HQC_ERR_RANDOMNESS);
  EXPECT_TRUE(all_zero(ct) && all_zero(ss));
  std::fill(opk.begin(), opk.end(), 0xAA), std::fill(osk.begin(), osk.end(), 0xAA);
  std::fill(ct.begin(), ct.end(), 0xAA), std::fill(ss.begin(), ss.end(), 0xAA);
  // The per-level functions.
  int rc_kp = 0, rc_enc = 0;
  switch (in->level) {
    case 1: rc_kp = hqc1_keypair(opk.data(), osk.data()), rc_enc = hqc1_encaps(ct.data(), ss.data(), pk.data()); break;
    case 3: rc_kp = hqc3_keypair(opk.data(), osk.data()), rc_enc = hqc3_encaps(ct.data(), ss.data(), pk.data()); break;
    default: rc_kp = hqc5_keypair(opk.data(), osk.data()), rc_enc = hqc5_encaps(ct.data(), ss.data(), pk.data()); break;
  }
  EXPECT_EQ(rc_kp, HQC_ERR_RANDOMNESS);
  EXPECT_EQ(rc_enc, HQC_ERR_RANDOMNESS);
  EXPECT_TRUE(all_zero(opk) && all_zero(osk) && all_zero(ct) && all_zero(ss));
  // Key objects: no key object, no ciphertext.
  hqc_secret_key* key = reinterpret_cast<hqc_secret_key*>(1);
  EXPECT_EQ(hqc_secret_key_generate(in->name, nullptr, 0, &key), HQC_ERR_RANDOMNESS);
  EXPECT_EQ(key, nullptr);
  hqc_public_key* pkey = nullptr;
  ASSERT_EQ(hqc_public_key_new(in->name, pk.data(), pk.size(), &pkey), HQC_OK);
  std::fill(ct.begin(), ct.end(), 0xAA), std::fill(ss.begin(), ss.end(), 0xAA);
  EXPECT_EQ(hqc_public_key_encaps(pkey, ct.data(), ct.size(), ss.data(), 32), HQC_ERR_RANDOMNESS);
  EXPECT_TRUE(all_zero(ct) && all_zero(ss));
  hqc_public_key_free(pkey);
  EXPECT_STREQ(hqc_status_string(HQC_ERR_RANDOMNESS), "no randomness: the random source failed or none is registered");
  // Decapsulation needs no randomness and still works.
  Bytes coins(in->encaps_coins_bytes, 3), ss2(32);
  ASSERT_EQ(hqc_kem_encaps_derand(in->name, ct.data(), ct.size(), ss.data(), 32, pk.data(), pk.size(), coins.data(),
                                  coins.size()),
            HQC_OK);
  ASSERT_EQ(hqc_kem_decaps(in->name, ss2.data(), 32, ct.data(), ct.size(), sk.data(), sk.size()), HQC_OK);
  EXPECT_EQ(ss, ss2);
}

TEST_P(RngHook, CppApiReportsTheFailure) {
  hqc_set_randombytes(&failing_rng, nullptr);
  hqckit::Hqc1::PublicKey pk;
  hqckit::Hqc1::SecretKey sk;
  pk.fill(0xAA);
  EXPECT_EQ(hqckit::Hqc1::keypair(pk, sk), hqckit::Status::kRandomness);
  EXPECT_TRUE(std::all_of(pk.begin(), pk.end(), [](std::uint8_t x) { return x == 0; }));
}

// Without a registered source: the hosted default (the OS RNG) works; on a freestanding build
// there is none, so every call that needs randomness fails until one is registered.
TEST_P(RngHook, DefaultSource) {
  const hqc_kem_info* in = hqc_kem_info_by_level(GetParam());
  hqc_set_randombytes(nullptr, nullptr);
  Bytes pk(in->public_key_bytes, 0xAA), sk(in->secret_key_bytes, 0xAA);
#if defined(HQC_FREESTANDING) && HQC_FREESTANDING
  EXPECT_EQ(hqc_kem_keypair(in->name, pk.data(), pk.size(), sk.data(), sk.size()), HQC_ERR_RANDOMNESS);
  EXPECT_TRUE(all_zero(pk) && all_zero(sk));
  hqc_secret_key* key = nullptr;
  EXPECT_EQ(hqc_secret_key_generate(in->name, nullptr, 0, &key), HQC_ERR_RANDOMNESS);
  EXPECT_EQ(key, nullptr);
  CountingRng rng;
  hqc_set_randombytes(&CountingRng::fill, &rng);
  EXPECT_EQ(hqc_kem_keypair(in->name, pk.data(), pk.size(), sk.data(), sk.size()), HQC_OK);
  EXPECT_EQ(rng.calls, 1);
#else
  EXPECT_EQ(hqc_kem_keypair(in->name, pk.data(), pk.size(), sk.data(), sk.size()), HQC_OK);
  Bytes pk2(pk.size()), sk2(sk.size());
  EXPECT_EQ(hqc_kem_keypair(in->name, pk2.data(), pk2.size(), sk2.data(), sk2.size()), HQC_OK);
  EXPECT_NE(pk, pk2);
#endif
}

INSTANTIATE_TEST_SUITE_P(Levels, RngHook, testing::Values(1, 3, 5),
                         [](const testing::TestParamInfo<int>& i) { return "HQC" + std::to_string(i.param); });

}  // namespace
