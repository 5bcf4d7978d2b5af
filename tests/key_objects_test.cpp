// The C API's key objects in caller storage (hqcL_public_key_object, hqcL_secret_key_object) on
// the host, with the selected backend: the same bytes as the stateless functions, prepared
// transforms in the caller's buffer (kept where the multiplier has them: the FAFFT of avx512 at
// HQC-5), the buffer checks, the "holds no key" state and the wiping of secrets. The device build
// runs the same API in QEMU (tests/m4/m4_test.cpp).
#include <gtest/gtest.h>

#include <cstring>

#include "hqc/hqc.h"
#include "test_util.hpp"

namespace {

using hqc::test::Bytes;

bool all_zero(const void* p, std::size_t n) {
  const auto* b = static_cast<const std::uint8_t*>(p);
  for (std::size_t i = 0; i < n; i++)
    if (b[i] != 0) return false;
  return true;
}

// One level's sizes and functions.
template <int L>
struct Level;
#define HQC_LEVEL_TRAITS(L)                                                                             \
  template <>                                                                                           \
  struct Level<L> {                                                                                     \
    using Public = hqc##L##_public_key_object;                                                          \
    using Secret = hqc##L##_secret_key_object;                                                          \
    static constexpr std::size_t kPk = HQC##L##_PUBLIC_KEY_BYTES, kSk = HQC##L##_SECRET_KEY_BYTES;      \
    static constexpr std::size_t kCt = HQC##L##_CIPHERTEXT_BYTES, kCoins = HQC##L##_ENCAPS_COINS_BYTES; \
    static constexpr std::size_t kPkT = HQC##L##_PUBLIC_KEY_TRANSFORMS_BYTES;                           \
    static constexpr std::size_t kSkT = HQC##L##_SECRET_KEY_TRANSFORMS_BYTES;                           \
    static constexpr auto keypair_derand = &hqc##L##_keypair_derand;                                    \
    static constexpr auto encaps_derand = &hqc##L##_encaps_derand;                                      \
    static constexpr auto decaps = &hqc##L##_decaps;                                                    \
    static constexpr auto pk_parse = &hqc##L##_public_key_object_parse;                                 \
    static constexpr auto pk_prepare = &hqc##L##_public_key_object_prepare;                             \
    static constexpr auto pk_encaps_derand = &hqc##L##_public_key_object_encaps_derand;                 \
    static constexpr auto sk_generate = &hqc##L##_secret_key_object_generate;                           \
    static constexpr auto sk_parse = &hqc##L##_secret_key_object_parse;                                 \
    static constexpr auto sk_prepare = &hqc##L##_secret_key_object_prepare;                             \
    static constexpr auto sk_decaps = &hqc##L##_secret_key_object_decaps;                               \
    static constexpr auto sk_public = &hqc##L##_secret_key_object_public;                               \
    static constexpr auto sk_bytes = &hqc##L##_secret_key_object_bytes;                                 \
    static constexpr auto sk_wipe = &hqc##L##_secret_key_object_wipe;                                   \
  };
HQC_LEVEL_TRAITS(1)
HQC_LEVEL_TRAITS(3)
HQC_LEVEL_TRAITS(5)
#undef HQC_LEVEL_TRAITS

template <int L>
void same_bytes_as_the_stateless_api() {
  using T = Level<L>;
  static typename T::Public pko;
  static typename T::Secret sko;
  alignas(64) static std::uint8_t ptransforms[T::kPkT];
  alignas(64) static std::uint8_t transforms[T::kSkT];
  std::uint8_t seed[32];
  for (int i = 0; i < 32; i++) seed[i] = static_cast<std::uint8_t>(3 * i + L);
  Bytes pk(T::kPk), sk(T::kSk), pk2(T::kPk), sk2(T::kSk), ct(T::kCt), ct2(T::kCt), ss(32), ss2(32);
  Bytes coins(T::kCoins, 0x51);
  ASSERT_EQ(T::keypair_derand(pk.data(), sk.data(), seed), HQC_OK);
  ASSERT_EQ(T::sk_generate(&sko, seed), HQC_OK);
  ASSERT_EQ(T::sk_public(&sko, pk2.data()), HQC_OK);
  ASSERT_EQ(T::sk_bytes(&sko, sk2.data()), HQC_OK);
  EXPECT_EQ(pk, pk2);
  EXPECT_EQ(sk, sk2);
  ASSERT_EQ(T::encaps_derand(ct.data(), ss.data(), pk.data(), coins.data()), HQC_OK);
  ASSERT_EQ(T::pk_parse(&pko, pk.data()), HQC_OK);
  // Unprepared, then prepared (twice: idempotent): the same bytes, valid and tampered ciphertexts.
  for (int round = 0; round < 4; round++) {
    if (round >= 2) {
      int p1 = -1, p2 = -1;
      ASSERT_EQ(T::pk_prepare(&pko, ptransforms, sizeof(ptransforms), &p1), HQC_OK);
      ASSERT_EQ(T::sk_parse(&sko, sk.data()), HQC_OK);
      ASSERT_EQ(T::sk_prepare(&sko, transforms, sizeof(transforms), &p2), HQC_OK);
      EXPECT_TRUE(p1 == 0 || p1 == 1);
      EXPECT_EQ(p1, p2);
    }
    ASSERT_EQ(T::pk_encaps_derand(&pko, ct2.data(), ss2.data(), coins.data()), HQC_OK);
    EXPECT_EQ(ct, ct2);
    EXPECT_EQ(ss, ss2);
    ASSERT_EQ(T::sk_decaps(&sko, ss2.data(), ct.data()), HQC_OK);
    EXPECT_EQ(ss, ss2);
    Bytes bad = ct, want(32);
    bad[static_cast<std::size_t>(round) * 97] ^= 0x10;
    ASSERT_EQ(T::decaps(want.data(), bad.data(), sk.data()), HQC_OK);
    ASSERT_EQ(T::sk_decaps(&sko, ss2.data(), bad.data()), HQC_OK);
    EXPECT_EQ(ss2, want);
  }
  // Wiping the secret key clears the object and the transform buffer it prepared (y's is secret).
  T::sk_wipe(&sko);
  EXPECT_TRUE(all_zero(&sko, sizeof(sko)));
  EXPECT_TRUE(all_zero(transforms, sizeof(transforms)));
  std::memset(ss2.data(), 0xAA, 32);
  EXPECT_EQ(T::sk_decaps(&sko, ss2.data(), ct.data()), HQC_ERR_MALFORMED_KEY);
  EXPECT_TRUE(all_zero(ss2.data(), 32));
  EXPECT_EQ(T::sk_public(&sko, pk2.data()), HQC_ERR_MALFORMED_KEY);
  EXPECT_TRUE(all_zero(pk2.data(), pk2.size()));
}

template <int L>
void argument_errors() {
  using T = Level<L>;
  static typename T::Public pko;
  static typename T::Secret sko;
  alignas(64) static std::uint8_t buf[T::kPkT + 64];
  Bytes pk(T::kPk), sk(T::kSk), ct(T::kCt), ss(32);
  std::uint8_t seed[32] = {1};
  ASSERT_EQ(T::keypair_derand(pk.data(), sk.data(), seed), HQC_OK);
  EXPECT_EQ(T::pk_parse(nullptr, pk.data()), HQC_ERR_NULL_POINTER);
  EXPECT_EQ(T::pk_parse(&pko, nullptr), HQC_ERR_NULL_POINTER);
  // A never-parsed (zero) object holds no key.
  std::memset(ss.data(), 0xAA, 32);
  EXPECT_EQ(T::pk_encaps_derand(&pko, ct.data(), ss.data(), seed), HQC_ERR_MALFORMED_KEY);
  EXPECT_TRUE(all_zero(ss.data(), 32));
  Bytes padded = pk;
  padded.back() = static_cast<std::uint8_t>(padded.back() | 0x80);
  EXPECT_EQ(T::pk_parse(&pko, padded.data()), HQC_ERR_MALFORMED_KEY);
  EXPECT_TRUE(all_zero(&pko, sizeof(pko)));
  ASSERT_EQ(T::pk_parse(&pko, pk.data()), HQC_OK);
  int prepared = 7;
  EXPECT_EQ(T::pk_prepare(nullptr, nullptr, 0, &prepared), HQC_ERR_NULL_POINTER);
  EXPECT_EQ(prepared, 0);
  // Where transforms would be kept, a short, misaligned or missing buffer is refused.
  int p = -1;
  ASSERT_EQ(T::pk_prepare(&pko, buf, T::kPkT, &p), HQC_OK);
  if (p == 1) {
    ASSERT_EQ(T::pk_parse(&pko, pk.data()), HQC_OK);
    EXPECT_EQ(T::pk_prepare(&pko, buf, T::kPkT - 1, &p), HQC_ERR_LENGTH);
    EXPECT_EQ(T::pk_prepare(&pko, buf + 8, T::kPkT, &p), HQC_ERR_LENGTH);
    EXPECT_EQ(T::pk_prepare(&pko, nullptr, 0, &p), HQC_ERR_NULL_POINTER);
  }
  EXPECT_EQ(T::sk_parse(&sko, nullptr), HQC_ERR_NULL_POINTER);
  EXPECT_EQ(T::sk_decaps(&sko, nullptr, ct.data()), HQC_ERR_NULL_POINTER);
  Bytes bad_sk = sk;
  bad_sk[T::kPk - 1] = static_cast<std::uint8_t>(bad_sk[T::kPk - 1] | 0x80);  // padding bit of the embedded pk
  EXPECT_EQ(T::sk_parse(&sko, bad_sk.data()), HQC_ERR_MALFORMED_KEY);
  EXPECT_TRUE(all_zero(&sko, sizeof(sko)));
  T::sk_wipe(nullptr);
}

TEST(KeyObjects, Hqc1SameBytesAsTheStatelessApi) { same_bytes_as_the_stateless_api<1>(); }
TEST(KeyObjects, Hqc3SameBytesAsTheStatelessApi) { same_bytes_as_the_stateless_api<3>(); }
TEST(KeyObjects, Hqc5SameBytesAsTheStatelessApi) { same_bytes_as_the_stateless_api<5>(); }
TEST(KeyObjects, Hqc1ArgumentErrors) { argument_errors<1>(); }
TEST(KeyObjects, Hqc3ArgumentErrors) { argument_errors<3>(); }
TEST(KeyObjects, Hqc5ArgumentErrors) { argument_errors<5>(); }

}  // namespace
