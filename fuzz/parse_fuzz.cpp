// Key and ciphertext parsing. Input: [selector][bytes...]; selector % 3 picks the level,
// (selector / 3) % 3 the object, and selector / 9 the backends checked (two at most per input, so
// that an input costs two runs at most; across inputs every backend is checked):
//   0  public key: the C API (hqc_kem_check_public_key, hqc_public_key_new) and the internal
//      parser agree; a key is rejected exactly when padding bits beyond n are set; an accepted
//      key parses and encapsulates to the same bytes on both backends of a pair
//      (fuzz::any_pair_of: every pair of backends, portable among them).
//   1  secret key: hqc_secret_key_new accepts exactly what the internal parser accepts; an
//      accepted key serializes back to the input, and y and decapsulation agree on both backends
//      of a pair (as for public keys).
//   2  ciphertext: a ciphertext with padding bits set in u yields K_bar = J(H(pk), sigma, ct) on
//      one backend (fuzz::any_backend_of, portable included: the oracle is J, not portable).
#include "fuzz_common.hpp"
#include "hqc/hqc.h"
#include "sym/oracles.hpp"

namespace {

using namespace hqc;

template <class P>
bool padding_set(const std::uint8_t* vec_bytes) {
  constexpr std::size_t kLastByte = P::kVecNBytes - 1;
  constexpr unsigned kUsedBits = P::kN % 8;
  return kUsedBits != 0 && (vec_bytes[kLastByte] >> kUsedBits) != 0;
}

template <class P>
void public_key(fuzz::BackendPair pair, const std::uint8_t* data, std::size_t size) {
  const int check = hqc_kem_check_public_key(P::kName, data, size);
  hqc_public_key* obj = nullptr;
  const int rc = hqc_public_key_new(P::kName, data, size, &obj);
  hqc_public_key_free(obj);
  if (check != rc) fuzz::fail("check_public_key and public_key_new disagree", "active", P::kLevel);
  if (size != P::kPublicKeyBytes) {
    if (rc != HQC_ERR_LENGTH) fuzz::fail("wrong public key length accepted", "active", P::kLevel);
    return;
  }
  const bool bad = padding_set<P>(data + 32);
  if ((rc == HQC_ERR_MALFORMED_KEY) != bad || (rc == HQC_OK) == bad)
    fuzz::fail("public key acceptance != padding bits clear", "active", P::kLevel);
  auto ref = std::make_unique<kem::PublicKey<P>>();
  auto other = std::make_unique<kem::PublicKey<P>>();
  const backend::Backend& be = *pair.b;
  const auto st = kem::parse_public_key<P>(*pair.a, *ref, data);
  if ((st == kem::Status::kOk) == bad) fuzz::fail("internal parser disagrees", pair.a->name, P::kLevel);
  if (bad) return;
  std::uint8_t coins[P::kK + 16];
  for (std::size_t i = 0; i < sizeof(coins); i++) coins[i] = static_cast<std::uint8_t>(i);
  static std::uint8_t ct_ref[P::kCiphertextBytes], ct[P::kCiphertextBytes];
  std::uint8_t ss_ref[32], ss[32];
  kem::encaps<P>(*pair.a, *ref, ct_ref, ss_ref, coins, coins + P::kK);
  if (kem::parse_public_key<P>(be, *other, data) != kem::Status::kOk) fuzz::fail("parse differs", be.name, P::kLevel);
  if (std::memcmp(other->hpk, ref->hpk, 32) != 0 || std::memcmp(&other->ek, &ref->ek, sizeof(ref->ek)) != 0)
    fuzz::fail("parsed public key differs", be.name, P::kLevel);
  kem::encaps<P>(be, *other, ct, ss, coins, coins + P::kK);
  if (std::memcmp(ct, ct_ref, sizeof(ct)) != 0 || std::memcmp(ss, ss_ref, 32) != 0)
    fuzz::fail("encaps differs", be.name, P::kLevel);
}

template <class P>
void secret_key(fuzz::BackendPair pair, const std::uint8_t* data, std::size_t size) {
  hqc_secret_key* obj = nullptr;
  const int rc = hqc_secret_key_new(P::kName, data, size, &obj);
  if (size != P::kSecretKeyBytes) {
    if (rc != HQC_ERR_LENGTH || obj != nullptr) fuzz::fail("wrong secret key length accepted", "active", P::kLevel);
    return;
  }
  const bool bad = padding_set<P>(data + 32);
  if ((rc == HQC_OK) == bad) fuzz::fail("secret key acceptance != padding bits clear", "active", P::kLevel);
  if (rc == HQC_OK) {
    static std::uint8_t back[P::kSecretKeyBytes];
    if (hqc_secret_key_bytes(obj, back, sizeof(back)) != HQC_OK || std::memcmp(back, data, size) != 0)
      fuzz::fail("secret key does not serialize back to its input", "active", P::kLevel);
  }
  hqc_secret_key_free(obj);
  if (bad) return;
  auto ref = std::make_unique<kem::SecretKey<P>>();
  auto other = std::make_unique<kem::SecretKey<P>>();
  const backend::Backend& be = *pair.b;
  if (kem::parse_secret_key<P>(*pair.a, *ref, data) != kem::Status::kOk)
    fuzz::fail("internal parser rejects", pair.a->name, P::kLevel);
  static std::uint8_t ct[P::kCiphertextBytes];
  for (std::size_t i = 0; i < sizeof(ct); i++) ct[i] = static_cast<std::uint8_t>(data[i % size] ^ i);
  ct[P::kVecNBytes - 1] &= static_cast<std::uint8_t>((1u << (P::kN % 8)) - 1);
  std::uint8_t ss_ref[32], ss[32];
  kem::decaps<P>(*pair.a, *ref, ss_ref, ct);
  if (kem::parse_secret_key<P>(be, *other, data) != kem::Status::kOk) fuzz::fail("parse differs", be.name, P::kLevel);
  if (std::memcmp(other->y.w, ref->y.w, sizeof(ref->y.w)) != 0) fuzz::fail("expanded y differs", be.name, P::kLevel);
  kem::decaps<P>(be, *other, ss, ct);
  if (std::memcmp(ss, ss_ref, 32) != 0) fuzz::fail("decaps differs", be.name, P::kLevel);
}

template <class P>
void ciphertext(const backend::Backend& be, const std::uint8_t* data, std::size_t size) {
  static const auto key = [] {
    auto k = std::make_unique<kem::SecretKey<P>>();
    std::uint8_t seed[32];
    fuzz::fixed_seed(P::kLevel, seed);
    kem::keypair<P>(backend::portable(), *k, seed);
    return k;
  }();
  static std::uint8_t ct[P::kCiphertextBytes];
  fuzz::fill(ct, sizeof(ct), data, size, size > 0 ? data[0] : 0);
  if (!padding_set<P>(ct)) return;
  std::uint8_t kbar[32], ss[32];
  sym::oracle_j(backend::portable().keccak_f1600, kbar, key->pub.hpk, key->sigma, P::kK, ct, sizeof(ct));
  kem::decaps<P>(be, *key, ss, ct);
  if (std::memcmp(ss, kbar, 32) != 0) fuzz::fail("padding bits set but K_bar not returned", be.name, P::kLevel);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::uint8_t sel = data[0];
  with_params(fuzz::level_of(sel), [&]<class P>() {
    switch ((sel / 3) % 3) {
      case 0: public_key<P>(fuzz::any_pair_of(sel / 9u), data + 1, size - 1); break;
      case 1: secret_key<P>(fuzz::any_pair_of(sel / 9u), data + 1, size - 1); break;
      default: ciphertext<P>(fuzz::any_backend_of(sel / 9u), data + 1, size - 1); break;
    }
  });
  return 0;
}
