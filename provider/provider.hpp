// SPDX-License-Identifier: MIT
// Internal declarations shared by the hqckit provider's translation units.
#pragma once

#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/evp.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "groups.hpp"

struct hqc_public_key;
struct hqc_secret_key;

namespace hqckit::provider {

// Provider context: the core handle (for errors), a child library context that sees the
// providers loaded by the application (the classical halves are fetched there), the library
// context randomness is drawn from, and the TLS code points and enablement of this instance.
struct ProvCtx {
  const OSSL_CORE_HANDLE* handle = nullptr;
  OSSL_LIB_CTX* libctx = nullptr;
  // The library context the provider was loaded into when it belongs to the libcrypto this module
  // is linked with (checked at load: the core's CRYPTO_malloc is ours), so that its DRBG (the
  // operator's [random] configuration, RAND_set_DRBG_type, test RNGs) serves the HQC coins as it
  // serves OpenSSL's own algorithms; otherwise `libctx`, whose DRBG OpenSSL seeds itself.
  OSSL_LIB_CTX* rand_libctx = nullptr;
  bool rand_from_loader = false;
  std::array<unsigned, kGroups.size()> tls_id{};  // active code points (configuration, environment)
  std::array<bool, kGroups.size()> enabled{};     // offered in the TLS-GROUP capability
  std::string tls_groups;                         // "hqc1=0xFE33 ...", the provider parameter
};

// Reason codes of the errors the provider raises (strings in prov.cpp).
enum Reason : int {
  kErrWrongLength = 1,
  kErrMalformedKey = 2,
  kErrMissingKey = 3,
  kErrHqc = 4,
  kErrClassical = 5,
  kErrBufferTooSmall = 6,
  kErrBadParam = 7,
  kErrAlloc = 8,
  kErrInvalidKey = 9,
  kErrUnsupported = 10,
  kErrConfig = 11,
};

// Raises an error on the OpenSSL error stack, attributed to this provider.
void raise(const ProvCtx* ctx, int reason, const char* fmt, ...) __attribute__((format(printf, 3, 4)));
#define HQCKIT_RAISE(ctx, reason, ...) ::hqckit::provider::raise((ctx), (reason), __VA_ARGS__)

// A key object. Every part is optional: a "parameters only" key (what OpenSSL's TLS server asks
// for before it sets the peer's share) has none. The structure lives in OpenSSL secure memory
// and is wiped on free; the HQC secret key is wiped by hqc_secret_key_free; the classical key is
// an EVP_PKEY from the default provider, which wipes its own secrets.
struct Key {
  const Group* group;
  ProvCtx* prov;
  hqc_secret_key* hqc_sk;  // from key generation or import: keeps H(pk) and the expanded vectors
  hqc_public_key* hqc_pk;  // parsed (validated) public key of a peer: keeps H(pk) and h
  unsigned char* hqc_pub;  // HQC public key bytes (hqc_pk_bytes), present whenever a public key is
  EVP_PKEY* classical;     // classical key pair (generated) or public key (peer), hybrids only
  bool classical_private;
  unsigned char classical_pub[133];  // encoded classical share
};

Key* key_new(ProvCtx* prov, const Group* group);
void key_free(Key* key);
bool key_has_public(const Key* key);
bool key_has_private(const Key* key);
// Generates a fresh key pair (both halves of a hybrid).
bool key_generate(Key* key);
// Replaces the key's contents by the public key `share` (the encoded public key of the group:
// classical || HQC). Validates everything first; on error the key is unchanged.
bool key_set_encoded_public(Key* key, const unsigned char* share, std::size_t len);
// Writes the encoded public key (classical || HQC), group->share_bytes() bytes.
bool key_encoded_public(const Key* key, unsigned char* out, std::size_t len);
// Pure HQC only: replaces the contents by the serialized secret key (and its public key).
bool key_set_hqc_secret(Key* key, const unsigned char* sk, std::size_t len);
Key* key_dup(const Key* src, int selection);

// Full check of a key for EVP_PKEY_check and friends (`openssl pkey -check`, `-pubcheck`):
// raises an error saying what is wrong and returns false. Public part: no padding bits, s != 0
// (see public_s_is_zero), for hybrids the classical key; private part: see check_secret_key.
bool key_check(const Key* key, int selection);

// keycheck.cpp. Result of recomputing a serialized HQC secret key (g.hqc_sk_bytes bytes).
enum class SecretKeyCheck { kOk, kPublicKeyMismatch, kSeedMismatch, kError };
SecretKeyCheck check_secret_key(const Group& g, const unsigned char* sk);
// True if the s part of an HQC public key (seed_ek || s) is all zero. No key generation yields
// it (it needs x = h*y), and every encapsulation to it is readable by anyone, since
// v = Encode(m) + Truncate(e) then; the provider refuses such keys everywhere.
bool public_s_is_zero(const Group& g, const unsigned char* hqc_pub);

// KEM operations on a key (outputs exactly group->ciphertext_bytes() / secret_bytes()).
bool key_encapsulate(const Key* key, unsigned char* ct, unsigned char* secret);
bool key_decapsulate(const Key* key, unsigned char* secret, const unsigned char* ct, std::size_t ct_len);

// config.cpp. Reads `<group>_codepoint` / `<group>_enabled` from the provider's configuration
// section (through the core's get_params) and OQS_CODEPOINT_<GROUP> from the environment (which
// wins, as a per-process override) into prov; false with an error raised on an invalid value.
bool load_group_config(ProvCtx* prov, const OSSL_DISPATCH* in);

// Dispatch tables, one algorithm per entry of kGroups (index order).
const OSSL_ALGORITHM* keymgmt_algorithms();
const OSSL_ALGORITHM* kem_algorithms();
const OSSL_ALGORITHM* encoder_algorithms();  // pure HQC keys: PEM/DER (SPKI, PKCS#8) and text
const OSSL_ALGORITHM* decoder_algorithms();  // pure HQC keys: DER (SPKI, PKCS#8)

inline constexpr const char* kProperties = "provider=hqckit";
inline constexpr const char* kClassicalPropq = "provider=default";

}  // namespace hqckit::provider
