// HQC-KEM (spec §7): key objects that keep derived values, key generation, encapsulation and
// decapsulation with implicit rejection. One template on the parameter set, explicitly
// instantiated in kem.cpp for Hqc1, Hqc3 and Hqc5.
#pragma once

#include <cstddef>
#include <cstdint>

#include "backend/ops.hpp"
#include "pke/pke.hpp"

namespace hqc::kem {

enum class Status : int {
  kOk = 0,
  kMalformedKey = -3,
};

// A parsed public key with what encapsulation derives from it: H(pk) and the expanded h, s.
template <class P>
struct PublicKey {
  std::uint8_t pk[P::kPublicKeyBytes];
  std::uint8_t hpk[32];
  pke::EncryptionKey<P> ek;
};

// A parsed secret key with its public part and the secret vector y (spec §12 item 18
// allows caching y; the serialized format does not change). Wiped on destruction.
template <class P>
struct SecretKey {
  PublicKey<P> pub;
  std::uint8_t seed_dk[32];
  std::uint8_t sigma[P::kK];
  std::uint8_t seed_kem[32];
  pke::RingVec<P> y;
  pke::KeptTransforms<P> y_kept;  // y's transform once prepared (prepare_secret_key)
  // Fields from seed_dk up to y are secret and wiped by wipe() (tests/hardening/wipe_test).

  SecretKey() = default;
  SecretKey(const SecretKey&) = delete;
  SecretKey& operator=(const SecretKey&) = delete;
  ~SecretKey() { wipe(); }
  void wipe() {
    ct::wipe(seed_dk, sizeof(seed_dk));
    ct::wipe(sigma, sizeof(sigma));
    ct::wipe(seed_kem, sizeof(seed_kem));
    ct::wipe(y.w, sizeof(y.w));
    y_kept.release();
  }
  void serialize(std::uint8_t sk[P::kSecretKeyBytes]) const;
};

// kOk if pk's padding bits beyond n (the top bits of its last byte) are clear, else
// kMalformedKey (spec §13); the same test parse_public_key makes. pk is public.
template <class P>
Status check_public_key(const std::uint8_t pk[P::kPublicKeyBytes]) {
  constexpr unsigned kUsedBits = P::kN % 8;
  if constexpr (kUsedBits == 0) return Status::kOk;
  return (pk[P::kPublicKeyBytes - 1] >> kUsedBits) != 0 ? Status::kMalformedKey : Status::kOk;
}

// Parses pk (spec §7.1 layout). Rejects padding bits beyond n in s (spec §13).
template <class P>
Status parse_public_key(const backend::Backend& be, PublicKey<P>& out, const std::uint8_t pk[P::kPublicKeyBytes]);

// Parses sk = pk || seed_dk || sigma || seed_kem and expands y. Rejects an embedded pk with
// padding bits set.
template <class P>
Status parse_secret_key(const backend::Backend& be, SecretKey<P>& out, const std::uint8_t sk[P::kSecretKeyBytes]);

// Key generation from seed_kem (spec §7.1) into a key object, H(pk) included (the key is used
// next: a TLS client decapsulates with it). stateless_keypair skips H(pk).
template <class P>
void keypair(const backend::Backend& be, SecretKey<P>& out, const std::uint8_t seed_kem[32]);

// keypair, with the key prepared as it is generated (see prepare_secret_key below) where the
// table's one-shot product is its transform product (TransformMultiplier::mul_is_transform_product:
// avx512 at HQC-5): the forward transforms of h and y that h*y computes anyway are kept, and s's
// is added, so the key costs one transform more than keypair, not three as keypair +
// prepare_secret_key would, and a key used once (a TLS client's key share) gains: its
// decapsulation transforms only u and r2. Elsewhere (no transforms, transforms for prepared keys
// only, or no memory in `store`) it is keypair. Returns whether transforms were kept. The same
// key, byte for byte.
template <class P>
bool keypair_prepared(const backend::Backend& be, SecretKey<P>& out, const std::uint8_t seed_kem[32],
                      const pke::TransformStore<P>& store);

// Prepares a key object for many operations: keeps the transforms of h and s (and y) when the
// level's multiplier on `be` has transforms (the FAFFT of the avx512 backend), so that the public
// parts that cost most are computed once per key. Returns whether it kept any. Costs two
// (three) forward transforms once; parse/keypair alone never do this, so a one-shot use (a TLS
// key share) does not pay for it. Not thread-safe against concurrent use of the same key.
//
// The transforms live in memory from `store`, or in the caller's `storage` (which must outlive
// the key's use of it: kPublicKeyTransforms / kSecretKeyTransforms transforms, e.g. static RAM on
// a device). The two-argument forms use the heap (hosted builds only: pke/transform_heap.cpp).
inline constexpr std::size_t kPublicKeyTransforms = pke::kEncryptionKeyTransforms;
inline constexpr std::size_t kSecretKeyTransforms = pke::kEncryptionKeyTransforms + 1;
template <class P>
bool prepare_public_key(const backend::Backend& be, PublicKey<P>& key, const pke::TransformStore<P>& store);
template <class P>
bool prepare_public_key(const backend::Backend& be, PublicKey<P>& key, pke::Transform<P>* storage);
template <class P>
bool prepare_secret_key(const backend::Backend& be, SecretKey<P>& key, const pke::TransformStore<P>& store);
template <class P>
bool prepare_secret_key(const backend::Backend& be, SecretKey<P>& key, pke::Transform<P>* storage);
template <class P>
bool prepare_public_key(const backend::Backend& be, PublicKey<P>& key) {
  return prepare_public_key<P>(be, key, pke::heap_transform_store<P>());
}
template <class P>
bool prepare_secret_key(const backend::Backend& be, SecretKey<P>& key) {
  return prepare_secret_key<P>(be, key, pke::heap_transform_store<P>());
}

// Encapsulation with explicit m and salt (spec §7.2).
template <class P>
void encaps(const backend::Backend& be, const PublicKey<P>& pub, std::uint8_t ct[P::kCiphertextBytes],
            std::uint8_t ss[32], const std::uint8_t m[P::kK], const std::uint8_t salt[16]);

// Decapsulation (spec §7.3): always yields a key; K' or K_bar selected in constant time.
template <class P>
void decaps(const backend::Backend& be, const SecretKey<P>& key, std::uint8_t ss[32],
            const std::uint8_t ct[P::kCiphertextBytes]);

// ---- The stateless layer: serialized keys in, serialized results out. Every API that works on
// byte strings (the C and C++ APIs, benchmarks, the perf guard) goes through these three: they
// parse, operate and wipe, with the key objects on the stack (no heap), so they are what a device
// build calls as well. On error every output is zeroed.

// Key generation from seed_kem (spec §7.1) into serialized pk and sk. Does not compute H(pk):
// neither output holds it.
template <class P>
void stateless_keypair(const backend::Backend& be, std::uint8_t pk[P::kPublicKeyBytes],
                       std::uint8_t sk[P::kSecretKeyBytes], const std::uint8_t seed_kem[32]);

// Encapsulation (spec §7.2) to a serialized public key with explicit m and salt;
// kMalformedKey (ct and ss zeroed) if pk has padding bits set (spec §13).
template <class P>
Status stateless_encaps(const backend::Backend& be, std::uint8_t ct[P::kCiphertextBytes], std::uint8_t ss[32],
                        const std::uint8_t pk[P::kPublicKeyBytes], const std::uint8_t m[P::kK],
                        const std::uint8_t salt[16]);

// Decapsulation (spec §7.3) with a serialized secret key; kMalformedKey (ss zeroed) if its
// embedded public key has padding bits set. Any ciphertext yields a key (implicit rejection).
template <class P>
Status stateless_decaps(const backend::Backend& be, std::uint8_t ss[32], const std::uint8_t ct[P::kCiphertextBytes],
                        const std::uint8_t sk[P::kSecretKeyBytes]);

}  // namespace hqc::kem
