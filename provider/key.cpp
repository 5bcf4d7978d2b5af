// SPDX-License-Identifier: MIT
// Key objects of the hqckit provider: HQC key objects of the hqckit C API plus, for hybrids, a
// classical key from OpenSSL's default provider.
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include <openssl/rand.h>

#include <cstring>

#include "hqc/hqc.h"
#include "provider.hpp"

namespace hqckit::provider {
namespace {

static_assert(kGroups[0].hqc_pk_bytes == HQC1_PUBLIC_KEY_BYTES && kGroups[0].hqc_sk_bytes == HQC1_SECRET_KEY_BYTES &&
              kGroups[0].hqc_ct_bytes == HQC1_CIPHERTEXT_BYTES);
static_assert(kGroups[3].hqc_pk_bytes == HQC3_PUBLIC_KEY_BYTES && kGroups[3].hqc_sk_bytes == HQC3_SECRET_KEY_BYTES &&
              kGroups[3].hqc_ct_bytes == HQC3_CIPHERTEXT_BYTES);
static_assert(kGroups[6].hqc_pk_bytes == HQC5_PUBLIC_KEY_BYTES && kGroups[6].hqc_sk_bytes == HQC5_SECRET_KEY_BYTES &&
              kGroups[6].hqc_ct_bytes == HQC5_CIPHERTEXT_BYTES);
static_assert(HQC_SHARED_SECRET_BYTES == 32);
static_assert(sizeof(Key::classical_pub) >= kP521.share_bytes);

// Owning handles for the temporaries of a multi-step operation.
struct PkeyCtxDel {
  void operator()(EVP_PKEY_CTX* c) const { EVP_PKEY_CTX_free(c); }
};
struct PkeyDel {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
template <class T, class D>
struct Owned {
  T* p = nullptr;
  Owned() = default;
  explicit Owned(T* v) : p(v) {}
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  ~Owned() {
    if (p != nullptr) D{}(p);
  }
  T* release() {
    T* v = p;
    p = nullptr;
    return v;
  }
};
using CtxPtr = Owned<EVP_PKEY_CTX, PkeyCtxDel>;
using PkeyPtr = Owned<EVP_PKEY, PkeyDel>;
struct SkDel {
  void operator()(hqc_secret_key* k) const { hqc_secret_key_free(k); }
};
struct PkDel {
  void operator()(hqc_public_key* k) const { hqc_public_key_free(k); }
};
struct BufDel {
  void operator()(unsigned char* b) const { OPENSSL_free(b); }
};
using SkPtr = Owned<hqc_secret_key, SkDel>;
using PkPtr = Owned<hqc_public_key, PkDel>;
using BufPtr = Owned<unsigned char, BufDel>;

// --- classical half (default provider) ---

EVP_PKEY* classical_generate(const ProvCtx* prov, const Classical& c) {
  CtxPtr ctx(EVP_PKEY_CTX_new_from_name(prov->libctx, c.keytype, kClassicalPropq));
  EVP_PKEY* key = nullptr;
  if (ctx.p == nullptr || EVP_PKEY_keygen_init(ctx.p) <= 0 ||
      (c.group != nullptr && EVP_PKEY_CTX_set_group_name(ctx.p, c.group) <= 0) || EVP_PKEY_keygen(ctx.p, &key) <= 0) {
    HQCKIT_RAISE(prov, kErrClassical, "%s key generation failed (is the default provider loaded?)", c.keytype);
    return nullptr;
  }
  return key;
}

bool classical_encode(const ProvCtx* prov, const Classical& c, EVP_PKEY* key, unsigned char* out) {
  std::size_t len = 0;
  if (EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, out, c.share_bytes, &len) != 1 ||
      len != c.share_bytes) {
    HQCKIT_RAISE(prov, kErrClassical, "cannot encode the %s public key", c.keytype);
    return false;
  }
  return true;
}

// Parses a peer's classical share (uncompressed point for EC, as TLS 1.3 requires); the default
// provider checks that an EC point is on the curve.
EVP_PKEY* classical_decode(const ProvCtx* prov, const Classical& c, const unsigned char* in) {
  if (c.group != nullptr && in[0] != 0x04) {
    HQCKIT_RAISE(prov, kErrMalformedKey, "%s share is not an uncompressed point", c.group);
    return nullptr;
  }
  OSSL_PARAM params[3];
  OSSL_PARAM* p = params;
  if (c.group != nullptr)
    *p++ = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, const_cast<char*>(c.group), 0);
  *p++ = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, const_cast<unsigned char*>(in), c.share_bytes);
  *p = OSSL_PARAM_construct_end();
  CtxPtr ctx(EVP_PKEY_CTX_new_from_name(prov->libctx, c.keytype, kClassicalPropq));
  EVP_PKEY* key = nullptr;
  if (ctx.p == nullptr || EVP_PKEY_fromdata_init(ctx.p) <= 0 ||
      EVP_PKEY_fromdata(ctx.p, &key, EVP_PKEY_PUBLIC_KEY, params) <= 0) {
    HQCKIT_RAISE(prov, kErrMalformedKey, "invalid %s share", c.group != nullptr ? c.group : c.keytype);
    return nullptr;
  }
  return key;
}

bool classical_derive(const ProvCtx* prov, const Classical& c, EVP_PKEY* priv, EVP_PKEY* peer, unsigned char* out) {
  CtxPtr ctx(EVP_PKEY_CTX_new_from_pkey(prov->libctx, priv, kClassicalPropq));
  std::size_t len = c.secret_bytes;
  if (ctx.p == nullptr || EVP_PKEY_derive_init(ctx.p) <= 0 || EVP_PKEY_derive_set_peer(ctx.p, peer) <= 0 ||
      EVP_PKEY_derive(ctx.p, out, &len) <= 0 || len != c.secret_bytes) {
    OPENSSL_cleanse(out, c.secret_bytes);
    HQCKIT_RAISE(prov, kErrClassical, "%s key agreement failed", c.group != nullptr ? c.group : c.keytype);
    return false;
  }
  return true;
}

void clear_contents(Key* key) {
  hqc_secret_key_free(key->hqc_sk);
  hqc_public_key_free(key->hqc_pk);
  OPENSSL_free(key->hqc_pub);
  EVP_PKEY_free(key->classical);
  key->hqc_sk = nullptr;
  key->hqc_pk = nullptr;
  key->hqc_pub = nullptr;
  key->classical = nullptr;
  key->classical_private = false;
  OPENSSL_cleanse(key->classical_pub, sizeof(key->classical_pub));
}

bool hqc_fail(const ProvCtx* prov, int rc, const char* what) {
  HQCKIT_RAISE(prov,
               rc == HQC_ERR_MALFORMED_KEY ? kErrMalformedKey
               : rc == HQC_ERR_LENGTH      ? kErrWrongLength
                                           : kErrHqc,
               "%s: %s", what, hqc_status_string(rc));
  return false;
}

// Randomness comes from the library context the provider is loaded into (ProvCtx::rand_libctx),
// never from the OS directly: the operator's DRBG configuration and OpenSSL's test RNGs apply.
// The HQC library then runs its deterministic variants on these coins (seed_kem, m || salt).
bool draw_coins(const ProvCtx* prov, const Group& g, unsigned char* out, std::size_t len) {
  if (RAND_priv_bytes_ex(prov->rand_libctx, out, len, g.security_bits) != 1) {
    OPENSSL_cleanse(out, len);
    HQCKIT_RAISE(prov, kErrHqc, "%s: the OpenSSL library context gave no random bytes", g.name);
    return false;
  }
  return true;
}

bool zero_s_fail(const ProvCtx* prov, const Group& g) {
  HQCKIT_RAISE(prov, kErrMalformedKey,
               "%s public key has s = 0 (no key generation yields it; encapsulations to it are readable by anyone)",
               g.name);
  return false;
}

bool classical_check(const ProvCtx* prov, const Classical& c, EVP_PKEY* k, bool priv) {
  CtxPtr ctx(EVP_PKEY_CTX_new_from_pkey(prov->libctx, k, kClassicalPropq));
  if (ctx.p == nullptr || (priv ? EVP_PKEY_check(ctx.p) : EVP_PKEY_public_check(ctx.p)) != 1) {
    HQCKIT_RAISE(prov, kErrInvalidKey, "the %s half of the key is invalid", c.group != nullptr ? c.group : c.keytype);
    return false;
  }
  return true;
}

}  // namespace

bool key_check(const Key* key, int selection) {
  const Group& g = *key->group;
  const bool want_pub = (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0;
  const bool want_priv = (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0;
  if ((want_pub || want_priv) && !key_has_public(key)) {
    HQCKIT_RAISE(key->prov, kErrMissingKey, "%s key has no public key to check", g.name);
    return false;
  }
  if (want_priv && !key_has_private(key)) {
    HQCKIT_RAISE(key->prov, kErrMissingKey, "%s key has no private key to check", g.name);
    return false;
  }
  if (want_pub || want_priv) {
    if (int rc = hqc_kem_check_public_key(g.hqc_alg, key->hqc_pub, g.hqc_pk_bytes); rc != HQC_OK)
      return hqc_fail(key->prov, rc, "HQC public key");
    if (public_s_is_zero(g, key->hqc_pub)) return zero_s_fail(key->prov, g);
    if (g.classical != nullptr && !classical_check(key->prov, *g.classical, key->classical, want_priv)) return false;
  }
  if (!want_priv) return true;
  auto* sk = static_cast<unsigned char*>(OPENSSL_secure_malloc(g.hqc_sk_bytes));
  const SecretKeyCheck rc = sk != nullptr && hqc_secret_key_bytes(key->hqc_sk, sk, g.hqc_sk_bytes) == HQC_OK
                                ? check_secret_key(g, sk)
                                : SecretKeyCheck::kError;
  OPENSSL_secure_clear_free(sk, g.hqc_sk_bytes);
  switch (rc) {
    case SecretKeyCheck::kOk: return true;
    case SecretKeyCheck::kPublicKeyMismatch:
      HQCKIT_RAISE(key->prov, kErrInvalidKey, "%s private key: the embedded public key does not belong to seed_dk",
                   g.name);
      return false;
    case SecretKeyCheck::kSeedMismatch:
      HQCKIT_RAISE(key->prov, kErrInvalidKey,
                   "%s private key: seed_dk, sigma or the public key is not what key generation derives from seed_kem",
                   g.name);
      return false;
    case SecretKeyCheck::kError: break;
  }
  HQCKIT_RAISE(key->prov, kErrHqc, "%s private key: the check could not run", g.name);
  return false;
}

Key* key_new(ProvCtx* prov, const Group* group) {
  auto* key = static_cast<Key*>(OPENSSL_secure_zalloc(sizeof(Key)));
  if (key == nullptr) {
    HQCKIT_RAISE(prov, kErrAlloc, "out of memory");
    return nullptr;
  }
  key->group = group;
  key->prov = prov;
  return key;
}

void key_free(Key* key) {
  if (key == nullptr) return;
  clear_contents(key);
  OPENSSL_secure_clear_free(key, sizeof(Key));
}

bool key_has_public(const Key* key) { return key->hqc_pub != nullptr; }

bool key_has_private(const Key* key) {
  return key->hqc_sk != nullptr && (key->group->classical == nullptr || key->classical_private);
}

bool key_generate(Key* key) {
  const Group& g = *key->group;
  SkPtr sk;
  unsigned char seed_kem[HQC_KEYPAIR_COINS_BYTES];
  if (!draw_coins(key->prov, g, seed_kem, sizeof(seed_kem))) return false;
  // Prepared as it is generated: where the backend's multiplier keeps transforms (HQC-5 on
  // avx512), the key costs one transform more and its decapsulation three fewer, so even a TLS
  // client's key share, decapsulated once, is done sooner.
  const int gen_rc = hqc_secret_key_generate_prepared(g.hqc_alg, seed_kem, sizeof(seed_kem), &sk.p, nullptr);
  OPENSSL_cleanse(seed_kem, sizeof(seed_kem));
  if (gen_rc != HQC_OK) return hqc_fail(key->prov, gen_rc, "HQC key generation");
  BufPtr pub(static_cast<unsigned char*>(OPENSSL_malloc(g.hqc_pk_bytes)));
  if (pub.p == nullptr) {
    HQCKIT_RAISE(key->prov, kErrAlloc, "out of memory");
    return false;
  }
  if (int rc = hqc_secret_key_public(sk.p, pub.p, g.hqc_pk_bytes); rc != HQC_OK)
    return hqc_fail(key->prov, rc, "HQC public key");
  PkeyPtr classical;
  unsigned char share[sizeof(Key::classical_pub)] = {};
  if (g.classical != nullptr) {
    classical.p = classical_generate(key->prov, *g.classical);
    if (classical.p == nullptr || !classical_encode(key->prov, *g.classical, classical.p, share)) return false;
  }
  clear_contents(key);
  key->hqc_sk = sk.release();
  key->hqc_pub = pub.release();
  key->classical = classical.release();
  key->classical_private = key->classical != nullptr;
  std::memcpy(key->classical_pub, share, sizeof(share));
  return true;
}

bool key_set_encoded_public(Key* key, const unsigned char* share, std::size_t len) {
  const Group& g = *key->group;
  if (share == nullptr || len != g.share_bytes()) {
    HQCKIT_RAISE(key->prov, kErrWrongLength, "%s public key must be %zu bytes, got %zu", g.name, g.share_bytes(), len);
    return false;
  }
  const std::size_t off = g.classical != nullptr ? g.classical->share_bytes : 0;
  PkeyPtr classical;
  if (g.classical != nullptr) {
    classical.p = classical_decode(key->prov, *g.classical, share);
    if (classical.p == nullptr) return false;
  }
  PkPtr pk;
  if (int rc = hqc_public_key_new(g.hqc_alg, share + off, g.hqc_pk_bytes, &pk.p); rc != HQC_OK)
    return hqc_fail(key->prov, rc, "HQC public key");
  if (public_s_is_zero(g, share + off)) return zero_s_fail(key->prov, g);
  BufPtr pub(static_cast<unsigned char*>(OPENSSL_malloc(g.hqc_pk_bytes)));
  if (pub.p == nullptr) {
    HQCKIT_RAISE(key->prov, kErrAlloc, "out of memory");
    return false;
  }
  std::memcpy(pub.p, share + off, g.hqc_pk_bytes);
  clear_contents(key);
  key->hqc_pk = pk.release();
  key->hqc_pub = pub.release();
  key->classical = classical.release();
  std::memcpy(key->classical_pub, share, off);
  return true;
}

bool key_encoded_public(const Key* key, unsigned char* out, std::size_t len) {
  const Group& g = *key->group;
  if (!key_has_public(key)) {
    HQCKIT_RAISE(key->prov, kErrMissingKey, "%s key has no public key", g.name);
    return false;
  }
  if (len < g.share_bytes()) {
    HQCKIT_RAISE(key->prov, kErrBufferTooSmall, "buffer for the %s public key too small", g.name);
    return false;
  }
  const std::size_t off = g.classical != nullptr ? g.classical->share_bytes : 0;
  std::memcpy(out, key->classical_pub, off);
  std::memcpy(out + off, key->hqc_pub, g.hqc_pk_bytes);
  return true;
}

bool key_set_hqc_secret(Key* key, const unsigned char* sk_bytes, std::size_t len) {
  const Group& g = *key->group;
  if (g.classical != nullptr) {
    HQCKIT_RAISE(key->prov, kErrBadParam, "%s: private key import is supported for pure HQC keys only", g.name);
    return false;
  }
  if (len != g.hqc_sk_bytes) {
    HQCKIT_RAISE(key->prov, kErrWrongLength, "%s private key must be %zu bytes, got %zu", g.name, g.hqc_sk_bytes, len);
    return false;
  }
  SkPtr sk;
  if (int rc = hqc_secret_key_new(g.hqc_alg, sk_bytes, len, &sk.p); rc != HQC_OK)
    return hqc_fail(key->prov, rc, "HQC private key");
  BufPtr pub(static_cast<unsigned char*>(OPENSSL_malloc(g.hqc_pk_bytes)));
  if (pub.p == nullptr) {
    HQCKIT_RAISE(key->prov, kErrAlloc, "out of memory");
    return false;
  }
  if (int rc = hqc_secret_key_public(sk.p, pub.p, g.hqc_pk_bytes); rc != HQC_OK)
    return hqc_fail(key->prov, rc, "HQC public key");
  if (public_s_is_zero(g, pub.p)) return zero_s_fail(key->prov, g);
  clear_contents(key);
  key->hqc_sk = sk.release();
  key->hqc_pub = pub.release();
  return true;
}

Key* key_dup(const Key* src, int selection) {
  const Group& g = *src->group;
  Key* key = key_new(src->prov, src->group);
  if (key == nullptr) return nullptr;
  const bool want_pub = (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) != 0;
  const bool want_priv = (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0;
  bool ok = true;
  if (want_pub && src->hqc_pub != nullptr) {
    key->hqc_pub = static_cast<unsigned char*>(OPENSSL_memdup(src->hqc_pub, g.hqc_pk_bytes));
    ok = key->hqc_pub != nullptr;
    std::memcpy(key->classical_pub, src->classical_pub, sizeof(key->classical_pub));
    if (ok && src->hqc_pk != nullptr)
      ok = hqc_public_key_new(g.hqc_alg, src->hqc_pub, g.hqc_pk_bytes, &key->hqc_pk) == HQC_OK;
    if (ok && src->classical != nullptr) {
      ok = EVP_PKEY_up_ref(src->classical) == 1;
      if (ok) {
        key->classical = src->classical;
        key->classical_private = src->classical_private && want_priv;
      }
    }
  }
  if (ok && want_priv && src->hqc_sk != nullptr) {
    auto* buf = static_cast<unsigned char*>(OPENSSL_secure_malloc(g.hqc_sk_bytes));
    ok = buf != nullptr && hqc_secret_key_bytes(src->hqc_sk, buf, g.hqc_sk_bytes) == HQC_OK &&
         hqc_secret_key_new(g.hqc_alg, buf, g.hqc_sk_bytes, &key->hqc_sk) == HQC_OK;
    OPENSSL_secure_clear_free(buf, g.hqc_sk_bytes);
  }
  if (!ok) {
    HQCKIT_RAISE(src->prov, kErrAlloc, "cannot duplicate the %s key", g.name);
    key_free(key);
    return nullptr;
  }
  return key;
}

bool key_encapsulate(const Key* key, unsigned char* ct, unsigned char* secret) {
  const Group& g = *key->group;
  if (!key_has_public(key)) {
    HQCKIT_RAISE(key->prov, kErrMissingKey, "%s: no public key to encapsulate to", g.name);
    return false;
  }
  std::size_t off = 0, soff = 0;
  if (g.classical != nullptr) {
    const Classical& c = *g.classical;
    PkeyPtr eph(classical_generate(key->prov, c));
    if (eph.p == nullptr || !classical_encode(key->prov, c, eph.p, ct) ||
        !classical_derive(key->prov, c, eph.p, key->classical, secret)) {
      OPENSSL_cleanse(secret, g.secret_bytes());
      return false;
    }
    off = c.share_bytes;
    soff = c.secret_bytes;
  }
  PkPtr tmp;
  const hqc_public_key* pk = key->hqc_pk;
  if (pk == nullptr) {  // a generated or imported key: parse its public half once for this call
    if (int rc = hqc_public_key_new(g.hqc_alg, key->hqc_pub, g.hqc_pk_bytes, &tmp.p); rc != HQC_OK) {
      OPENSSL_cleanse(secret, g.secret_bytes());
      return hqc_fail(key->prov, rc, "HQC public key");
    }
    pk = tmp.p;
  }
  unsigned char coins[HQC_MAX_ENCAPS_COINS_BYTES];  // m || salt (spec §7.2)
  const std::size_t coins_len = hqc_public_key_info(pk)->encaps_coins_bytes;
  if (!draw_coins(key->prov, g, coins, coins_len)) {
    OPENSSL_cleanse(secret, g.secret_bytes());
    return false;
  }
  const int rc = hqc_public_key_encaps_derand(pk, ct + off, g.hqc_ct_bytes, secret + soff, HQC_SHARED_SECRET_BYTES,
                                              coins, coins_len);
  OPENSSL_cleanse(coins, sizeof(coins));
  if (rc != HQC_OK) {
    OPENSSL_cleanse(secret, g.secret_bytes());
    return hqc_fail(key->prov, rc, "HQC encapsulation");
  }
  return true;
}

bool key_decapsulate(const Key* key, unsigned char* secret, const unsigned char* ct, std::size_t ct_len) {
  const Group& g = *key->group;
  if (!key_has_private(key)) {
    HQCKIT_RAISE(key->prov, kErrMissingKey, "%s: no private key to decapsulate with", g.name);
    return false;
  }
  if (ct == nullptr || ct_len != g.ciphertext_bytes()) {
    HQCKIT_RAISE(key->prov, kErrWrongLength, "%s ciphertext must be %zu bytes, got %zu", g.name, g.ciphertext_bytes(),
                 ct_len);
    return false;
  }
  std::size_t off = 0, soff = 0;
  if (g.classical != nullptr) {
    const Classical& c = *g.classical;
    PkeyPtr peer(classical_decode(key->prov, c, ct));
    if (peer.p == nullptr || !classical_derive(key->prov, c, key->classical, peer.p, secret)) return false;
    off = c.share_bytes;
    soff = c.secret_bytes;
  }
  if (int rc = hqc_secret_key_decaps(key->hqc_sk, secret + soff, HQC_SHARED_SECRET_BYTES, ct + off, g.hqc_ct_bytes);
      rc != HQC_OK) {
    OPENSSL_cleanse(secret, g.secret_bytes());
    return hqc_fail(key->prov, rc, "HQC decapsulation");
  }
  return true;
}

}  // namespace hqckit::provider
