// The public APIs (C and C++): round trips, implicit rejection on hostile ciphertexts, malformed
// keys, wrong lengths and NULL pointers (outputs zeroed on every error), key objects.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>

#include "backend/registry.hpp"
#include "hqc/hqc.h"
#include "hqc/hqc.hpp"
#include "sym/oracles.hpp"
#include "test_util.hpp"

namespace {

using hqc::test::Bytes;

const hqc_kem_info* info(int level) { return hqc_kem_info_by_level(level); }

class Kem : public testing::TestWithParam<int> {};

// K_bar = J(H(pk), sigma, ct), computed here from the spec independently of decapsulation.
Bytes expected_rejection_key(const hqc_kem_info* in, const Bytes& sk, const Bytes& ct) {
  auto f = hqc::backend::portable().keccak_f1600;
  std::uint8_t hpk[32], kbar[32];
  hqc::sym::oracle_h(f, hpk, sk.data(), in->public_key_bytes);
  const std::uint8_t* sigma = sk.data() + in->public_key_bytes + 32;
  hqc::sym::oracle_j(f, kbar, hpk, sigma, in->encaps_coins_bytes - 16, ct.data(), ct.size());
  return {kbar, kbar + 32};
}

TEST_P(Kem, RoundTripsAgree) {
  const auto* in = info(GetParam());
  const int n = GetParam() == 1 ? 2000 : 1000;
  Bytes pk(in->public_key_bytes), sk(in->secret_key_bytes), ct(in->ciphertext_bytes), ss(32), ss2(32);
  for (int i = 0; i < n; i++) {
    ASSERT_EQ(hqc_kem_keypair(in->name, pk.data(), pk.size(), sk.data(), sk.size()), HQC_OK);
    ASSERT_EQ(hqc_kem_encaps(in->name, ct.data(), ct.size(), ss.data(), 32, pk.data(), pk.size()), HQC_OK);
    ASSERT_EQ(hqc_kem_decaps(in->name, ss2.data(), 32, ct.data(), ct.size(), sk.data(), sk.size()), HQC_OK);
    ASSERT_EQ(ss, ss2) << "round trip " << i;
  }
}

TEST_P(Kem, HostileCiphertextsYieldTheRejectionKey) {
  const auto* in = info(GetParam());
  const std::size_t un = (in->public_key_bytes - 32), vn = in->ciphertext_bytes - un - 16;
  Bytes pk(in->public_key_bytes), sk(in->secret_key_bytes), ct(in->ciphertext_bytes), ss(32), ss2(32);
  ASSERT_EQ(hqc_kem_keypair(in->name, pk.data(), pk.size(), sk.data(), sk.size()), HQC_OK);
  ASSERT_EQ(hqc_kem_encaps(in->name, ct.data(), ct.size(), ss.data(), 32, pk.data(), pk.size()), HQC_OK);
  std::mt19937_64 rng(5);
  // Tampered: bits of u, v, salt, and u's padding bits; plus entirely random ciphertexts.
  std::vector<std::pair<std::size_t, std::uint8_t>> flips = {
      {0, 0x01},           {un / 2, 0x80},      {un - 1, 0x01},  {un, 0x01},
      {un + vn / 2, 0x10}, {un + vn - 1, 0x80}, {un + vn, 0x01}, {in->ciphertext_bytes - 1, 0x80}};
  // Padding bits of u: the bits above n in u's last byte.
  const std::size_t n_bits = in->level == 1 ? 17669 : in->level == 3 ? 35851 : 57637;
  for (std::size_t b = n_bits % 8; b < 8; b++) flips.emplace_back(un - 1, static_cast<std::uint8_t>(1u << b));
  for (int i = 0; i < 40; i++) flips.emplace_back(rng() % ct.size(), static_cast<std::uint8_t>(1u << (rng() % 8)));
  for (auto [off, mask] : flips) {
    Bytes bad = ct;
    bad[off] ^= mask;
    ASSERT_EQ(hqc_kem_decaps(in->name, ss2.data(), 32, bad.data(), bad.size(), sk.data(), sk.size()), HQC_OK);
    EXPECT_EQ(ss2, expected_rejection_key(in, sk, bad)) << "offset " << off << " mask " << int(mask);
    EXPECT_NE(ss2, ss);
  }
  for (int i = 0; i < 20; i++) {
    Bytes bad(ct.size());
    for (auto& x : bad) x = static_cast<std::uint8_t>(rng());
    ASSERT_EQ(hqc_kem_decaps(in->name, ss2.data(), 32, bad.data(), bad.size(), sk.data(), sk.size()), HQC_OK);
    EXPECT_EQ(ss2, expected_rejection_key(in, sk, bad));
  }
  // The valid ciphertext still gives the real key.
  ASSERT_EQ(hqc_kem_decaps(in->name, ss2.data(), 32, ct.data(), ct.size(), sk.data(), sk.size()), HQC_OK);
  EXPECT_EQ(ss2, ss);
}

bool all_zero(const Bytes& b) {
  return std::ranges::all_of(b, [](std::uint8_t x) { return x == 0; });
}

TEST_P(Kem, WrongLengthsAndNullsAreErrorsWithZeroedOutputs) {
  const auto* in = info(GetParam());
  Bytes pk(in->public_key_bytes), sk(in->secret_key_bytes), ct(in->ciphertext_bytes), ss(32);
  ASSERT_EQ(hqc_kem_keypair(in->name, pk.data(), pk.size(), sk.data(), sk.size()), HQC_OK);
  ASSERT_EQ(hqc_kem_encaps(in->name, ct.data(), ct.size(), ss.data(), 32, pk.data(), pk.size()), HQC_OK);
  const Bytes pk0 = pk, sk0 = sk, ct0 = ct;
  auto poison = [](Bytes& b) { std::fill(b.begin(), b.end(), 0xAA); };
  // Buffers one byte larger than needed, so that a claimed length of size+1 is still in bounds;
  // every output must be zero over its claimed length afterwards.
  auto zero_prefix = [](const Bytes& b, std::size_t n) {
    return all_zero(Bytes(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(n)));
  };
  for (long d : {-1L, 1L}) {
    const std::size_t P = in->public_key_bytes, S = in->secret_key_bytes, C = in->ciphertext_bytes;
    Bytes o1(P + 1), o2(S + 1), o3(C + 1), o4(33);
    Bytes pkx = pk, skx = sk, ctx = ct;  // inputs one byte longer too
    pkx.push_back(0);
    skx.push_back(0);
    ctx.push_back(0);
    poison(o1), poison(o2);
    EXPECT_EQ(hqc_kem_keypair(in->name, o1.data(), P + d, o2.data(), S), HQC_ERR_LENGTH);
    EXPECT_TRUE(zero_prefix(o1, P + d) && zero_prefix(o2, S));
    poison(o3), poison(o4);
    EXPECT_EQ(hqc_kem_encaps(in->name, o3.data(), C, o4.data(), 32, pkx.data(), P + d), HQC_ERR_LENGTH);
    EXPECT_TRUE(zero_prefix(o3, C) && zero_prefix(o4, 32));
    poison(o3), poison(o4);
    EXPECT_EQ(hqc_kem_encaps(in->name, o3.data(), C + d, o4.data(), 32, pk.data(), P), HQC_ERR_LENGTH);
    EXPECT_TRUE(zero_prefix(o3, C + d) && zero_prefix(o4, 32));
    poison(o4);
    EXPECT_EQ(hqc_kem_decaps(in->name, o4.data(), 32, ctx.data(), C + d, sk.data(), S), HQC_ERR_LENGTH);
    EXPECT_TRUE(zero_prefix(o4, 32));
    poison(o4);
    EXPECT_EQ(hqc_kem_decaps(in->name, o4.data(), 32, ct.data(), C, skx.data(), S + d), HQC_ERR_LENGTH);
    EXPECT_TRUE(zero_prefix(o4, 32));
    poison(o4);
    EXPECT_EQ(hqc_kem_decaps(in->name, o4.data(), 32 + d, ct.data(), C, sk.data(), S), HQC_ERR_LENGTH);
    EXPECT_TRUE(zero_prefix(o4, 32 + d));
  }
  Bytes o4(32, 0xAA);
  EXPECT_EQ(hqc_kem_decaps(in->name, o4.data(), 32, nullptr, ct.size(), sk.data(), sk.size()), HQC_ERR_NULL_POINTER);
  EXPECT_TRUE(all_zero(o4));
  EXPECT_EQ(hqc_kem_encaps(in->name, nullptr, ct.size(), o4.data(), 32, pk.data(), pk.size()), HQC_ERR_NULL_POINTER);
  EXPECT_EQ(hqc_kem_decaps("HQC-2", o4.data(), 32, ct.data(), ct.size(), sk.data(), sk.size()),
            HQC_ERR_UNKNOWN_ALGORITHM);
  EXPECT_EQ(hqc_kem_decaps(nullptr, o4.data(), 32, ct.data(), ct.size(), sk.data(), sk.size()),
            HQC_ERR_UNKNOWN_ALGORITHM);
  // Inputs unchanged by all of this.
  EXPECT_EQ(pk, pk0);
  EXPECT_EQ(sk, sk0);
  EXPECT_EQ(ct, ct0);
}

TEST_P(Kem, PublicKeysWithPaddingBitsAreRejected) {
  const auto* in = info(GetParam());
  Bytes pk(in->public_key_bytes), sk(in->secret_key_bytes), ct(in->ciphertext_bytes, 0xAA), ss(32, 0xAA);
  ASSERT_EQ(hqc_kem_keypair(in->name, pk.data(), pk.size(), sk.data(), sk.size()), HQC_OK);
  EXPECT_EQ(hqc_kem_check_public_key(in->name, pk.data(), pk.size()), HQC_OK);
  const std::size_t n_bits = in->level == 1 ? 17669 : in->level == 3 ? 35851 : 57637;
  for (std::size_t b = n_bits % 8; b < 8; b++) {
    Bytes bad = pk;
    bad.back() |= static_cast<std::uint8_t>(1u << b);
    EXPECT_EQ(hqc_kem_check_public_key(in->name, bad.data(), bad.size()), HQC_ERR_MALFORMED_KEY);
    std::fill(ct.begin(), ct.end(), 0xAA);
    std::fill(ss.begin(), ss.end(), 0xAA);
    EXPECT_EQ(hqc_kem_encaps(in->name, ct.data(), ct.size(), ss.data(), 32, bad.data(), bad.size()),
              HQC_ERR_MALFORMED_KEY);
    EXPECT_TRUE(all_zero(ct) && all_zero(ss));
    hqc_public_key* key = reinterpret_cast<hqc_public_key*>(1);
    EXPECT_EQ(hqc_public_key_new(in->name, bad.data(), bad.size(), &key), HQC_ERR_MALFORMED_KEY);
    EXPECT_EQ(key, nullptr);
    // The same padding bit inside a secret key's pk copy makes the secret key malformed.
    Bytes badsk = sk;
    badsk[in->public_key_bytes - 1] |= static_cast<std::uint8_t>(1u << b);
    EXPECT_EQ(hqc_kem_decaps(in->name, ss.data(), 32, ct.data(), ct.size(), badsk.data(), badsk.size()),
              HQC_ERR_MALFORMED_KEY);
    EXPECT_TRUE(all_zero(ss));
  }
}

TEST_P(Kem, KeyObjectsGiveTheSameBytesAsTheStatelessApi) {
  const auto* in = info(GetParam());
  std::uint8_t seed[32];
  for (int i = 0; i < 32; i++) seed[i] = static_cast<std::uint8_t>(i * 7);
  Bytes pk(in->public_key_bytes), sk(in->secret_key_bytes), pk2(in->public_key_bytes), sk2(in->secret_key_bytes);
  ASSERT_EQ(hqc_kem_keypair_derand(in->name, pk.data(), pk.size(), sk.data(), sk.size(), seed, 32), HQC_OK);
  hqc_secret_key* skey = nullptr;
  ASSERT_EQ(hqc_secret_key_generate(in->name, seed, 32, &skey), HQC_OK);
  ASSERT_EQ(hqc_secret_key_public(skey, pk2.data(), pk2.size()), HQC_OK);
  ASSERT_EQ(hqc_secret_key_bytes(skey, sk2.data(), sk2.size()), HQC_OK);
  EXPECT_EQ(pk, pk2);
  EXPECT_EQ(sk, sk2);
  hqc_public_key* pkey = nullptr;
  ASSERT_EQ(hqc_public_key_new(in->name, pk.data(), pk.size(), &pkey), HQC_OK);
  EXPECT_EQ(hqc_public_key_info(pkey), in);
  Bytes coins(in->encaps_coins_bytes, 0x3c), ct(in->ciphertext_bytes), ct2(in->ciphertext_bytes), ss(32), ss2(32),
      ss3(32);
  for (int i = 0; i < 5; i++) {
    coins[0] = static_cast<std::uint8_t>(i);
    ASSERT_EQ(hqc_kem_encaps_derand(in->name, ct.data(), ct.size(), ss.data(), 32, pk.data(), pk.size(), coins.data(),
                                    coins.size()),
              HQC_OK);
    ASSERT_EQ(hqc_public_key_encaps_derand(pkey, ct2.data(), ct2.size(), ss2.data(), 32, coins.data(), coins.size()),
              HQC_OK);
    EXPECT_EQ(ct, ct2);
    EXPECT_EQ(ss, ss2);
    ASSERT_EQ(hqc_secret_key_decaps(skey, ss3.data(), 32, ct.data(), ct.size()), HQC_OK);
    EXPECT_EQ(ss3, ss);
  }
  // A parsed secret key behaves like the generated one.
  hqc_secret_key* skey2 = nullptr;
  ASSERT_EQ(hqc_secret_key_new(in->name, sk.data(), sk.size(), &skey2), HQC_OK);
  ASSERT_EQ(hqc_secret_key_decaps(skey2, ss3.data(), 32, ct.data(), ct.size()), HQC_OK);
  EXPECT_EQ(ss3, ss);
  // Prepared key objects (transforms kept where the multiplier has them; twice: idempotent) give
  // the same bytes, for valid and tampered ciphertexts.
  for (int round = 0; round < 2; round++) {
    int p1 = -1, p2 = -1;
    ASSERT_EQ(hqc_public_key_prepare(pkey, &p1), HQC_OK);
    ASSERT_EQ(hqc_secret_key_prepare(skey2, &p2), HQC_OK);
    EXPECT_TRUE(p1 == 0 || p1 == 1);
    EXPECT_EQ(p1, p2);
    ASSERT_EQ(hqc_public_key_encaps_derand(pkey, ct2.data(), ct2.size(), ss2.data(), 32, coins.data(), coins.size()),
              HQC_OK);
    EXPECT_EQ(ct, ct2);
    EXPECT_EQ(ss, ss2);
    ASSERT_EQ(hqc_secret_key_decaps(skey2, ss3.data(), 32, ct.data(), ct.size()), HQC_OK);
    EXPECT_EQ(ss3, ss);
    Bytes bad = ct;
    bad[round * 100] ^= 1;
    Bytes want(32);
    ASSERT_EQ(hqc_kem_decaps(in->name, want.data(), 32, bad.data(), bad.size(), sk.data(), sk.size()), HQC_OK);
    ASSERT_EQ(hqc_secret_key_decaps(skey2, ss3.data(), 32, bad.data(), bad.size()), HQC_OK);
    EXPECT_EQ(ss3, want);
  }
  // A key prepared as it is generated: the same key (pk and sk bytes) as the plain generation,
  // transforms kept exactly where hqc_secret_key_prepare keeps them, and the same shared secrets
  // for a valid and a tampered ciphertext.
  {
    hqc_secret_key* gp = nullptr;
    int pg = -1, pp = -1;
    ASSERT_EQ(hqc_secret_key_generate_prepared(in->name, seed, 32, &gp, &pg), HQC_OK);
    ASSERT_EQ(hqc_secret_key_prepare(skey2, &pp), HQC_OK);
    EXPECT_TRUE(pg == 0 || pp == 1);  // kept only where prepare keeps them too (and their by-products)
    Bytes pk3(in->public_key_bytes), sk3(in->secret_key_bytes);
    ASSERT_EQ(hqc_secret_key_public(gp, pk3.data(), pk3.size()), HQC_OK);
    ASSERT_EQ(hqc_secret_key_bytes(gp, sk3.data(), sk3.size()), HQC_OK);
    EXPECT_EQ(pk3, pk);
    EXPECT_EQ(sk3, sk);
    ASSERT_EQ(hqc_secret_key_decaps(gp, ss3.data(), 32, ct.data(), ct.size()), HQC_OK);
    EXPECT_EQ(ss3, ss);
    Bytes bad = ct, want(32);
    bad[in->ciphertext_bytes / 2] ^= 0x10;
    ASSERT_EQ(hqc_kem_decaps(in->name, want.data(), 32, bad.data(), bad.size(), sk.data(), sk.size()), HQC_OK);
    ASSERT_EQ(hqc_secret_key_decaps(gp, ss3.data(), 32, bad.data(), bad.size()), HQC_OK);
    EXPECT_EQ(ss3, want);
    hqc_secret_key_free(gp);
    // Its argument errors: nothing made, *prepared 0.
    hqc_secret_key* none = reinterpret_cast<hqc_secret_key*>(&pg);
    pg = 7;
    EXPECT_EQ(hqc_secret_key_generate_prepared(in->name, seed, 31, &none, &pg), HQC_ERR_LENGTH);
    EXPECT_EQ(none, nullptr);
    EXPECT_EQ(pg, 0);
    pg = 7;
    EXPECT_EQ(hqc_secret_key_generate_prepared("hqc-2", seed, 32, &none, &pg), HQC_ERR_UNKNOWN_ALGORITHM);
    EXPECT_EQ(pg, 0);
    EXPECT_EQ(hqc_secret_key_generate_prepared(in->name, seed, 32, nullptr, nullptr), HQC_ERR_NULL_POINTER);
    ASSERT_EQ(hqc_secret_key_generate_prepared(in->name, seed, 32, &gp, nullptr), HQC_OK);  // *prepared optional
    ASSERT_EQ(hqc_secret_key_decaps(gp, ss3.data(), 32, ct.data(), ct.size()), HQC_OK);
    EXPECT_EQ(ss3, ss);
    hqc_secret_key_free(gp);
  }
  int prepared = 7;
  EXPECT_EQ(hqc_public_key_prepare(nullptr, &prepared), HQC_ERR_NULL_POINTER);
  EXPECT_EQ(prepared, 0);
  EXPECT_EQ(hqc_secret_key_prepare(nullptr, nullptr), HQC_ERR_NULL_POINTER);
  // Wrong lengths on key objects.
  Bytes small(31, 0xAA);
  EXPECT_EQ(hqc_secret_key_decaps(skey2, small.data(), small.size(), ct.data(), ct.size()), HQC_ERR_LENGTH);
  EXPECT_TRUE(all_zero(small));
  EXPECT_EQ(hqc_secret_key_decaps(skey2, ss3.data(), 32, ct.data(), ct.size() - 1), HQC_ERR_LENGTH);
  EXPECT_EQ(hqc_public_key_encaps_derand(pkey, ct2.data(), ct2.size(), ss2.data(), 32, coins.data(), coins.size() - 1),
            HQC_ERR_LENGTH);
  hqc_secret_key_free(skey);
  hqc_secret_key_free(skey2);
  hqc_public_key_free(pkey);
  hqc_secret_key_free(nullptr);
  hqc_public_key_free(nullptr);
}

TEST_P(Kem, CppApiRoundTrip) {
  auto run = [&]<int L>() {
    using K = hqckit::Kem<L>;
    typename K::PublicKey pk;
    typename K::SecretKey sk;
    ASSERT_EQ(K::keypair(pk, sk), hqckit::Status::kOk);
    typename K::Ciphertext ct;
    hqckit::SharedSecret ss, ss2;
    ASSERT_EQ(K::encaps(ct, ss, pk), hqckit::Status::kOk);
    ASSERT_EQ(K::decaps(ss2, ct, sk), hqckit::Status::kOk);
    EXPECT_TRUE(ss.equals(ss2));
    typename K::DecapsulationKey dk;
    ASSERT_EQ(K::DecapsulationKey::parse(sk, &dk), hqckit::Status::kOk);
    typename K::EncapsulationKey ek;
    ASSERT_EQ(K::EncapsulationKey::parse(pk, &ek), hqckit::Status::kOk);
    for (int i = 0; i < 3; i++) {
      ASSERT_EQ(ek.encaps(ct, ss), hqckit::Status::kOk);
      ASSERT_EQ(dk.decaps(ss2, ct), hqckit::Status::kOk);
      EXPECT_TRUE(ss.equals(ss2));
    }
    pk.back() |= 0x80;
    EXPECT_EQ(K::encaps(ct, ss, pk), hqckit::Status::kMalformedKey);
  };
  switch (GetParam()) {
    case 1: run.template operator()<1>(); break;
    case 3: run.template operator()<3>(); break;
    default: run.template operator()<5>(); break;
  }
}

INSTANTIATE_TEST_SUITE_P(Levels, Kem, testing::Values(1, 3, 5),
                         [](const testing::TestParamInfo<int>& i) { return "HQC" + std::to_string(i.param); });

TEST(KemInfo, NamesAndSizes) {
  EXPECT_EQ(hqc_kem_info_by_name("HQC-1"), info(1));
  EXPECT_EQ(hqc_kem_info_by_name("hqc3"), info(3));
  EXPECT_EQ(hqc_kem_info_by_name("5"), info(5));
  EXPECT_EQ(hqc_kem_info_by_name("HQC-128"), nullptr);
  EXPECT_EQ(hqc_kem_info_by_name(""), nullptr);
  EXPECT_EQ(info(2), nullptr);
  EXPECT_EQ(info(5)->ciphertext_bytes, 14421u);
  EXPECT_STREQ(hqc_status_string(HQC_ERR_MALFORMED_KEY), "malformed key (padding bits beyond n are set)");
  EXPECT_NE(hqc_backend_name(), nullptr);
}

}  // namespace
