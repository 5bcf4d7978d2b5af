// SPDX-License-Identifier: MIT
// KEYMGMT for the hqckit groups: key generation (honouring "parameters only" selections, which
// OpenSSL 3.0's TLS server uses before it sets the peer's key share), encoded public keys for
// TLS, raw import/export through OSSL_PARAMs.
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include <array>
#include <cstring>
#include <utility>

#include "dispatch.hpp"
#include "hqc/hqc.h"
#include "provider.hpp"

namespace hqckit::provider {
namespace {

struct GenCtx {
  ProvCtx* prov;
  const Group* group;
  int selection;
};

bool name_matches(const Group& g, const char* name) {
  return OPENSSL_strcasecmp(name, g.name) == 0 || (g.classical == nullptr && OPENSSL_strcasecmp(name, g.hqc_alg) == 0);
}

int gen_set_params(void* genctx, const OSSL_PARAM params[]) {
  auto* gctx = static_cast<GenCtx*>(genctx);
  if (gctx == nullptr) return 0;
  if (params == nullptr) return 1;
  if (const OSSL_PARAM* p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_GROUP_NAME); p != nullptr) {
    const char* name = nullptr;
    if (OSSL_PARAM_get_utf8_string_ptr(p, &name) != 1 || !name_matches(*gctx->group, name)) {
      HQCKIT_RAISE(gctx->prov, kErrBadParam, "group name '%s' does not name %s", name != nullptr ? name : "(invalid)",
                   gctx->group->name);
      return 0;
    }
  }
  return 1;
}

const OSSL_PARAM* gen_settable_params(void*, void*) {
  static const OSSL_PARAM kSettable[] = {OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, nullptr, 0),
                                         OSSL_PARAM_END};
  return kSettable;
}

template <std::size_t I>
void* gen_init(void* provctx, int selection, const OSSL_PARAM params[]) {
  auto* gctx = static_cast<GenCtx*>(OPENSSL_zalloc(sizeof(GenCtx)));
  if (gctx == nullptr) return nullptr;
  gctx->prov = static_cast<ProvCtx*>(provctx);
  gctx->group = &kGroups[I];
  gctx->selection = selection;
  if (gen_set_params(gctx, params) != 1) {
    OPENSSL_free(gctx);
    return nullptr;
  }
  return gctx;
}

// A "parameters only" request (EVP_PKEY_paramgen, as the TLS 1.3 server does for a KEM group)
// yields an empty key: HQC has no domain parameters beyond the algorithm, so nothing is generated.
void* gen(void* genctx, OSSL_CALLBACK*, void*) {
  auto* gctx = static_cast<GenCtx*>(genctx);
  if (gctx == nullptr) return nullptr;
  Key* key = key_new(gctx->prov, gctx->group);
  if (key == nullptr) return nullptr;
  if ((gctx->selection & OSSL_KEYMGMT_SELECT_KEYPAIR) != 0 && !key_generate(key)) {
    key_free(key);
    return nullptr;
  }
  return key;
}

void gen_cleanup(void* genctx) { OPENSSL_free(genctx); }

template <std::size_t I>
void* km_new(void* provctx) {
  return key_new(static_cast<ProvCtx*>(provctx), &kGroups[I]);
}

void km_free(void* keydata) { key_free(static_cast<Key*>(keydata)); }

void* km_dup(const void* keydata, int selection) {
  return keydata == nullptr ? nullptr : key_dup(static_cast<const Key*>(keydata), selection);
}

int km_has(const void* keydata, int selection) {
  const auto* key = static_cast<const Key*>(keydata);
  if (key == nullptr) return 0;
  if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0 && !key_has_public(key)) return 0;
  if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && !key_has_private(key)) return 0;
  return 1;
}

// EVP_PKEY_check / public_check / private_check / pairwise_check (`openssl pkey -check`,
// `-pubcheck`): the full checks of key_check, whatever check type is asked for.
int km_validate(const void* keydata, int selection, int) {
  const auto* key = static_cast<const Key*>(keydata);
  if (key == nullptr) return 0;
  if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0) return 1;  // domain parameters: none
  return key_check(key, selection) ? 1 : 0;
}

int km_match(const void* keydata1, const void* keydata2, int selection) {
  const auto* a = static_cast<const Key*>(keydata1);
  const auto* b = static_cast<const Key*>(keydata2);
  if (a == nullptr || b == nullptr || a->group != b->group) return 0;
  if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0) return 1;
  if (!key_has_public(a) || !key_has_public(b)) return 0;
  const Group& g = *a->group;
  const std::size_t coff = g.classical != nullptr ? g.classical->share_bytes : 0;
  return CRYPTO_memcmp(a->hqc_pub, b->hqc_pub, g.hqc_pk_bytes) == 0 &&
         CRYPTO_memcmp(a->classical_pub, b->classical_pub, coff) == 0;
}

int get_params(void* keydata, OSSL_PARAM params[]) {
  auto* key = static_cast<Key*>(keydata);
  if (key == nullptr) return 0;
  const Group& g = *key->group;
  OSSL_PARAM* p;
  if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_BITS)) != nullptr &&
      OSSL_PARAM_set_int(p, static_cast<int>(8 * g.share_bytes())) != 1)
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_SECURITY_BITS)) != nullptr &&
      OSSL_PARAM_set_int(p, static_cast<int>(g.security_bits)) != 1)
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_MAX_SIZE)) != nullptr &&
      OSSL_PARAM_set_int(p, static_cast<int>(g.ciphertext_bytes())) != 1)
    return 0;
  for (const char* name : {OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, OSSL_PKEY_PARAM_PUB_KEY}) {
    if ((p = OSSL_PARAM_locate(params, name)) == nullptr) continue;
    if (p->data_type != OSSL_PARAM_OCTET_STRING || !key_has_public(key)) return 0;
    p->return_size = g.share_bytes();
    if (p->data == nullptr) continue;
    if (!key_encoded_public(key, static_cast<unsigned char*>(p->data), p->data_size)) return 0;
  }
  if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_PRIV_KEY)) != nullptr) {
    if (p->data_type != OSSL_PARAM_OCTET_STRING || g.classical != nullptr || key->hqc_sk == nullptr) return 0;
    p->return_size = g.hqc_sk_bytes;
    if (p->data != nullptr) {
      if (p->data_size < g.hqc_sk_bytes) return 0;
      if (hqc_secret_key_bytes(key->hqc_sk, static_cast<unsigned char*>(p->data), g.hqc_sk_bytes) != HQC_OK) return 0;
    }
  }
  return 1;
}

const OSSL_PARAM* gettable_params(void*) {
  static const OSSL_PARAM kGettable[] = {OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, nullptr),
                                         OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, nullptr),
                                         OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, nullptr),
                                         OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, nullptr, 0),
                                         OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, nullptr, 0),
                                         OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, nullptr, 0),
                                         OSSL_PARAM_END};
  return kGettable;
}

// The TLS server's entry point: EVP_PKEY_set1_encoded_public_key with the client's key share.
int set_params(void* keydata, const OSSL_PARAM params[]) {
  auto* key = static_cast<Key*>(keydata);
  if (key == nullptr) return 0;
  if (params == nullptr) return 1;
  if (const OSSL_PARAM* p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY); p != nullptr) {
    const void* data = nullptr;
    std::size_t len = 0;
    if (OSSL_PARAM_get_octet_string_ptr(p, &data, &len) != 1) {
      HQCKIT_RAISE(key->prov, kErrBadParam, "encoded public key must be an octet string");
      return 0;
    }
    return key_set_encoded_public(key, static_cast<const unsigned char*>(data), len) ? 1 : 0;
  }
  return 1;
}

const OSSL_PARAM* settable_params(void*) {
  static const OSSL_PARAM kSettable[] = {OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, nullptr, 0),
                                         OSSL_PARAM_END};
  return kSettable;
}

// Raw import: OSSL_PKEY_PARAM_PRIV_KEY (HQC secret key, pure HQC only) and/or
// OSSL_PKEY_PARAM_PUB_KEY (the encoded public key: classical || HQC for hybrids).
int km_import(void* keydata, int selection, const OSSL_PARAM params[]) {
  auto* key = static_cast<Key*>(keydata);
  if (key == nullptr) return 0;
  if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0) return 1;
  const OSSL_PARAM* priv = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PRIV_KEY);
  const OSSL_PARAM* pub = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PUB_KEY);
  if (pub == nullptr) pub = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY);
  const void* pub_data = nullptr;
  std::size_t pub_len = 0;
  if (pub != nullptr && OSSL_PARAM_get_octet_string_ptr(pub, &pub_data, &pub_len) != 1) return 0;
  if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && priv != nullptr) {
    const void* data = nullptr;
    std::size_t len = 0;
    if (OSSL_PARAM_get_octet_string_ptr(priv, &data, &len) != 1) return 0;
    Key* tmp = key_new(key->prov, key->group);  // import into a scratch key: no change on error
    if (tmp == nullptr) return 0;
    bool ok = key_set_hqc_secret(tmp, static_cast<const unsigned char*>(data), len);
    if (ok && pub != nullptr &&
        (pub_len != key->group->hqc_pk_bytes || CRYPTO_memcmp(pub_data, tmp->hqc_pub, pub_len) != 0)) {
      HQCKIT_RAISE(key->prov, kErrMalformedKey, "%s public key does not match the private key", key->group->name);
      ok = false;
    }
    if (ok) {
      std::swap(tmp->hqc_sk, key->hqc_sk);
      std::swap(tmp->hqc_pub, key->hqc_pub);
      std::swap(tmp->hqc_pk, key->hqc_pk);
    }
    key_free(tmp);
    return ok ? 1 : 0;
  }
  if (pub == nullptr) {
    HQCKIT_RAISE(key->prov, kErrMissingKey, "no key material to import for %s", key->group->name);
    return 0;
  }
  return key_set_encoded_public(key, static_cast<const unsigned char*>(pub_data), pub_len) ? 1 : 0;
}

const OSSL_PARAM* key_types(int selection) {
  static const OSSL_PARAM kBoth[] = {OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, nullptr, 0),
                                     OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, nullptr, 0), OSSL_PARAM_END};
  static const OSSL_PARAM kPub[] = {OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, nullptr, 0), OSSL_PARAM_END};
  if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0) return kBoth;
  if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0) return kPub;
  return nullptr;
}

int km_export(void* keydata, int selection, OSSL_CALLBACK* cb, void* cbarg) {
  auto* key = static_cast<Key*>(keydata);
  if (key == nullptr || cb == nullptr) return 0;
  const Group& g = *key->group;
  OSSL_PARAM params[3];
  OSSL_PARAM* p = params;
  unsigned char* pub = nullptr;
  unsigned char* priv = nullptr;
  int ok = 1;
  if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) != 0 && key_has_public(key)) {
    pub = static_cast<unsigned char*>(OPENSSL_malloc(g.share_bytes()));
    ok = pub != nullptr && key_encoded_public(key, pub, g.share_bytes());
    *p++ = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, pub, g.share_bytes());
  }
  if (ok && (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && g.classical == nullptr && key->hqc_sk != nullptr) {
    priv = static_cast<unsigned char*>(OPENSSL_secure_malloc(g.hqc_sk_bytes));
    ok = priv != nullptr && hqc_secret_key_bytes(key->hqc_sk, priv, g.hqc_sk_bytes) == HQC_OK;
    *p++ = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, priv, g.hqc_sk_bytes);
  }
  *p = OSSL_PARAM_construct_end();
  if (ok) ok = cb(params, cbarg);
  OPENSSL_free(pub);
  OPENSSL_secure_clear_free(priv, g.hqc_sk_bytes);
  return ok;
}

// Takes a key object that this provider's decoder passed by reference (OSSL_OBJECT_PARAM_REFERENCE).
template <std::size_t I>
void* km_load(const void* reference, std::size_t reference_sz) {
  // NOLINTNEXTLINE(bugprone-sizeof-expression): the reference is a Key* (see codec.cpp)
  if (reference == nullptr || reference_sz != sizeof(Key*)) return nullptr;
  Key** slot = static_cast<Key**>(const_cast<void*>(reference));
  Key* key = *slot;
  if (key == nullptr || key->group != &kGroups[I]) return nullptr;
  *slot = nullptr;
  return key;
}

template <std::size_t I>
const OSSL_DISPATCH* keymgmt_dispatch() {
  static const OSSL_DISPATCH kTable[] = {
      HQCKIT_DISPATCH(OSSL_FUNC_KEYMGMT_NEW, OSSL_FUNC_keymgmt_new_fn, &km_new<I>),
      HQCKIT_DISPATCH(OSSL_FUNC_KEYMGMT_FREE, OSSL_FUNC_keymgmt_free_fn, &km_free),
      HQCKIT_DISPATCH(OSSL_FUNC_KEYMGMT_DUP, OSSL_FUNC_keymgmt_dup_fn, &km_dup),
      HQCKIT_DISPATCH(OSSL_FUNC_KEYMGMT_LOAD, OSSL_FUNC_keymgmt_load_fn, &km_load<I>),
      HQCKIT_DISPATCH(OSSL_FUNC_KEYMGMT_GEN_INIT, OSSL_FUNC_keymgmt_gen_init_fn, &gen_init<I>),
      HQCKIT_DISPATCH(OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS, OSSL_FUNC_keymgmt_gen_set_params_fn, &gen_set_params),
      HQCKIT_DISPATCH(OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS, OSSL_FUNC_keymgmt_gen_settable_params_fn,
                      &gen_settable_params),
      HQCKIT_DISPATCH(OSSL_FUNC_KEYMGMT_GEN, OSSL_FUNC_keymgmt_gen_fn, &gen),
      HQCKIT_DISPATCH(OSSL_FUNC_KEYMGMT_GEN_CLEANUP, OSSL_FUNC_keymgmt_gen_cleanup_fn, &gen_cleanup),
      HQCKIT_DISPATCH(OSSL_FUNC_KEYMGMT_GET_PARAMS, OSSL_FUNC_keymgmt_get_params_fn, &get_params),
      HQCKIT_DISPATCH(OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS, OSSL_FUNC_keymgmt_gettable_params_fn, &gettable_params),
      HQCKIT_DISPATCH(OSSL_FUNC_KEYMGMT_SET_PARAMS, OSSL_FUNC_keymgmt_set_params_fn, &set_params),
      HQCKIT_DISPATCH(OSSL_FUNC_KEYMGMT_SETTABLE_PARAMS, OSSL_FUNC_keymgmt_settable_params_fn, &settable_params),
      HQCKIT_DISPATCH(OSSL_FUNC_KEYMGMT_HAS, OSSL_FUNC_keymgmt_has_fn, &km_has),
      HQCKIT_DISPATCH(OSSL_FUNC_KEYMGMT_MATCH, OSSL_FUNC_keymgmt_match_fn, &km_match),
      HQCKIT_DISPATCH(OSSL_FUNC_KEYMGMT_VALIDATE, OSSL_FUNC_keymgmt_validate_fn, &km_validate),
      HQCKIT_DISPATCH(OSSL_FUNC_KEYMGMT_IMPORT, OSSL_FUNC_keymgmt_import_fn, &km_import),
      HQCKIT_DISPATCH(OSSL_FUNC_KEYMGMT_IMPORT_TYPES, OSSL_FUNC_keymgmt_import_types_fn, &key_types),
      HQCKIT_DISPATCH(OSSL_FUNC_KEYMGMT_EXPORT, OSSL_FUNC_keymgmt_export_fn, &km_export),
      HQCKIT_DISPATCH(OSSL_FUNC_KEYMGMT_EXPORT_TYPES, OSSL_FUNC_keymgmt_export_types_fn, &key_types),
      OSSL_DISPATCH{0, nullptr},
  };
  return kTable;
}

template <std::size_t... I>
std::array<OSSL_ALGORITHM, sizeof...(I) + 1> make_table(std::index_sequence<I...>) {
  return {{{kGroups[I].alg_names, kProperties, keymgmt_dispatch<I>(), "hqckit key management"}...,
           {nullptr, nullptr, nullptr, nullptr}}};
}

}  // namespace

const OSSL_ALGORITHM* keymgmt_algorithms() {
  static const auto kTable = make_table(std::make_index_sequence<kGroups.size()>{});
  return kTable.data();
}

}  // namespace hqckit::provider
