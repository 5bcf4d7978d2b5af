// SPDX-License-Identifier: MIT
// KEM operations for the hqckit groups (EVP_PKEY_encapsulate / EVP_PKEY_decapsulate).
// Shape of the OpenSSL provider KEM interface: a NULL output asks for the sizes; a buffer that is
// too small is an error; a ciphertext of the wrong length is an error (nothing is computed);
// a well-formed but tampered HQC ciphertext decapsulates to the implicit-rejection key.
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include <array>
#include <utility>

#include "dispatch.hpp"
#include "provider.hpp"

namespace hqckit::provider {
namespace {

struct KemCtx {
  ProvCtx* prov;
  Key* key;  // borrowed: OpenSSL keeps the key alive while the operation context exists
  int op;
};

void* newctx(void* provctx) {
  auto* ctx = static_cast<KemCtx*>(OPENSSL_zalloc(sizeof(KemCtx)));
  if (ctx != nullptr) ctx->prov = static_cast<ProvCtx*>(provctx);
  return ctx;
}

void freectx(void* vctx) { OPENSSL_free(vctx); }

void* dupctx(void* vctx) {
  const auto* src = static_cast<const KemCtx*>(vctx);
  return src == nullptr ? nullptr : OPENSSL_memdup(src, sizeof(KemCtx));
}

int set_ctx_params(void*, const OSSL_PARAM[]) { return 1; }
const OSSL_PARAM* settable_ctx_params(void*, void*) {
  static const OSSL_PARAM kNone[] = {OSSL_PARAM_END};
  return kNone;
}

int init(void* vctx, void* provkey, const OSSL_PARAM params[], int op) {
  auto* ctx = static_cast<KemCtx*>(vctx);
  auto* key = static_cast<Key*>(provkey);
  if (ctx == nullptr || key == nullptr) return 0;
  if (op == EVP_PKEY_OP_ENCAPSULATE ? !key_has_public(key) : !key_has_private(key)) {
    HQCKIT_RAISE(ctx->prov, kErrMissingKey, "%s key has no %s key", key->group->name,
                 op == EVP_PKEY_OP_ENCAPSULATE ? "public" : "private");
    return 0;
  }
  ctx->key = key;
  ctx->op = op;
  return set_ctx_params(ctx, params);
}

int encapsulate_init(void* vctx, void* provkey, const OSSL_PARAM params[]) {
  return init(vctx, provkey, params, EVP_PKEY_OP_ENCAPSULATE);
}
int decapsulate_init(void* vctx, void* provkey, const OSSL_PARAM params[]) {
  return init(vctx, provkey, params, EVP_PKEY_OP_DECAPSULATE);
}

int encapsulate(void* vctx, unsigned char* out, size_t* outlen, unsigned char* secret, size_t* secretlen) {
  auto* ctx = static_cast<KemCtx*>(vctx);
  if (ctx == nullptr || ctx->key == nullptr || ctx->op != EVP_PKEY_OP_ENCAPSULATE) return 0;
  const Group& g = *ctx->key->group;
  if (out == nullptr) {  // size query
    if (outlen == nullptr && secretlen == nullptr) return 0;
    if (outlen != nullptr) *outlen = g.ciphertext_bytes();
    if (secretlen != nullptr) *secretlen = g.secret_bytes();
    return 1;
  }
  if (secret == nullptr) {
    HQCKIT_RAISE(ctx->prov, kErrBadParam, "no buffer for the shared secret");
    return 0;
  }
  if ((outlen != nullptr && *outlen < g.ciphertext_bytes()) ||
      (secretlen != nullptr && *secretlen < g.secret_bytes())) {
    HQCKIT_RAISE(ctx->prov, kErrBufferTooSmall, "%s needs %zu bytes of ciphertext and %zu of secret", g.name,
                 g.ciphertext_bytes(), g.secret_bytes());
    return 0;
  }
  if (!key_encapsulate(ctx->key, out, secret)) return 0;
  if (outlen != nullptr) *outlen = g.ciphertext_bytes();
  if (secretlen != nullptr) *secretlen = g.secret_bytes();
  return 1;
}

int decapsulate(void* vctx, unsigned char* out, size_t* outlen, const unsigned char* in, size_t inlen) {
  auto* ctx = static_cast<KemCtx*>(vctx);
  if (ctx == nullptr || ctx->key == nullptr || ctx->op != EVP_PKEY_OP_DECAPSULATE) return 0;
  const Group& g = *ctx->key->group;
  if (out == nullptr) {  // size query
    if (outlen == nullptr) return 0;
    *outlen = g.secret_bytes();
    return 1;
  }
  if (outlen != nullptr && *outlen < g.secret_bytes()) {
    HQCKIT_RAISE(ctx->prov, kErrBufferTooSmall, "%s needs %zu bytes of secret", g.name, g.secret_bytes());
    return 0;
  }
  if (!key_decapsulate(ctx->key, out, in, inlen)) return 0;
  if (outlen != nullptr) *outlen = g.secret_bytes();
  return 1;
}

const OSSL_DISPATCH kKemDispatch[] = {
    HQCKIT_DISPATCH(OSSL_FUNC_KEM_NEWCTX, OSSL_FUNC_kem_newctx_fn, &newctx),
    HQCKIT_DISPATCH(OSSL_FUNC_KEM_FREECTX, OSSL_FUNC_kem_freectx_fn, &freectx),
    HQCKIT_DISPATCH(OSSL_FUNC_KEM_DUPCTX, OSSL_FUNC_kem_dupctx_fn, &dupctx),
    HQCKIT_DISPATCH(OSSL_FUNC_KEM_ENCAPSULATE_INIT, OSSL_FUNC_kem_encapsulate_init_fn, &encapsulate_init),
    HQCKIT_DISPATCH(OSSL_FUNC_KEM_ENCAPSULATE, OSSL_FUNC_kem_encapsulate_fn, &encapsulate),
    HQCKIT_DISPATCH(OSSL_FUNC_KEM_DECAPSULATE_INIT, OSSL_FUNC_kem_decapsulate_init_fn, &decapsulate_init),
    HQCKIT_DISPATCH(OSSL_FUNC_KEM_DECAPSULATE, OSSL_FUNC_kem_decapsulate_fn, &decapsulate),
    HQCKIT_DISPATCH(OSSL_FUNC_KEM_SET_CTX_PARAMS, OSSL_FUNC_kem_set_ctx_params_fn, &set_ctx_params),
    HQCKIT_DISPATCH(OSSL_FUNC_KEM_SETTABLE_CTX_PARAMS, OSSL_FUNC_kem_settable_ctx_params_fn, &settable_ctx_params),
    OSSL_DISPATCH{0, nullptr},
};

template <std::size_t... I>
std::array<OSSL_ALGORITHM, sizeof...(I) + 1> make_table(std::index_sequence<I...>) {
  return {{{kGroups[I].alg_names, kProperties, kKemDispatch, "hqckit KEM"}..., {nullptr, nullptr, nullptr, nullptr}}};
}

}  // namespace

const OSSL_ALGORITHM* kem_algorithms() {
  static const auto kTable = make_table(std::make_index_sequence<kGroups.size()>{});
  return kTable.data();
}

}  // namespace hqckit::provider
