// SPDX-License-Identifier: MIT
// Entry point of the hqckit OpenSSL 3 provider: algorithm tables, errors, provider parameters and
// the TLS-GROUP capability (one row per enabled entry of kGroups, code points from config.cpp).
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include <openssl/prov_ssl.h>

#include <array>
#include <cstdarg>
#include <cstring>
#include <new>
#include <string>
#include <utility>

#include "dispatch.hpp"
#include "hqc/hqc.h"
#include "provider.hpp"

namespace hqckit::provider {
namespace {

OSSL_FUNC_core_new_error_fn* g_new_error = nullptr;
OSSL_FUNC_core_set_error_debug_fn* g_set_error_debug = nullptr;
OSSL_FUNC_core_vset_error_fn* g_vset_error = nullptr;

const OSSL_ITEM kReasons[] = {
    {kErrWrongLength, const_cast<char*>("wrong length")},
    {kErrMalformedKey, const_cast<char*>("malformed key")},
    {kErrMissingKey, const_cast<char*>("missing key")},
    {kErrHqc, const_cast<char*>("HQC operation failed")},
    {kErrClassical, const_cast<char*>("classical operation failed")},
    {kErrBufferTooSmall, const_cast<char*>("buffer too small")},
    {kErrBadParam, const_cast<char*>("bad parameter")},
    {kErrAlloc, const_cast<char*>("allocation failed")},
    {kErrInvalidKey, const_cast<char*>("invalid key")},
    {kErrUnsupported, const_cast<char*>("operation not supported")},
    {kErrConfig, const_cast<char*>("bad configuration")},
    {0, nullptr},
};

// One TLS-GROUP capability row per enabled group, with this instance's code point. OpenSSL copies
// the values during the callback, so the row lives on the stack.
int get_capabilities(void* provctx, const char* capability, OSSL_CALLBACK* cb, void* arg) {
  const auto* prov = static_cast<const ProvCtx*>(provctx);
  if (prov == nullptr || capability == nullptr || OPENSSL_strcasecmp(capability, "TLS-GROUP") != 0) return 0;
  for (std::size_t i = 0; i < kGroups.size(); ++i) {
    if (!prov->enabled[i]) continue;
    const Group& g = kGroups[i];
    unsigned id = prov->tls_id[i], secbits = g.security_bits, is_kem = 1;
    int min_tls = TLS1_3_VERSION, max_tls = 0, min_dtls = -1, max_dtls = -1;
    char* name = const_cast<char*>(g.name);
    const OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_CAPABILITY_TLS_GROUP_NAME, name, 0),
        OSSL_PARAM_construct_utf8_string(OSSL_CAPABILITY_TLS_GROUP_NAME_INTERNAL, name, 0),
        OSSL_PARAM_construct_utf8_string(OSSL_CAPABILITY_TLS_GROUP_ALG, name, 0),
        OSSL_PARAM_construct_uint(OSSL_CAPABILITY_TLS_GROUP_ID, &id),
        OSSL_PARAM_construct_uint(OSSL_CAPABILITY_TLS_GROUP_SECURITY_BITS, &secbits),
        OSSL_PARAM_construct_int(OSSL_CAPABILITY_TLS_GROUP_MIN_TLS, &min_tls),
        OSSL_PARAM_construct_int(OSSL_CAPABILITY_TLS_GROUP_MAX_TLS, &max_tls),
        OSSL_PARAM_construct_int(OSSL_CAPABILITY_TLS_GROUP_MIN_DTLS, &min_dtls),
        OSSL_PARAM_construct_int(OSSL_CAPABILITY_TLS_GROUP_MAX_DTLS, &max_dtls),
        OSSL_PARAM_construct_uint(OSSL_CAPABILITY_TLS_GROUP_IS_KEM, &is_kem),
        OSSL_PARAM_construct_end(),
    };
    if (cb(params, arg) != 1) return 0;
  }
  return 1;
}

// Provider parameters beyond OpenSSL's standard four: "tls-groups" (all groups with their active
// code points, disabled ones marked), "<group>_codepoint" (unsigned) and "<group>_enabled" (int),
// and "rand-source" ("loader" or "child": which library context's DRBG serves the coins).
constexpr const char* kParamTlsGroups = "tls-groups";
constexpr const char* kParamRandSource = "rand-source";

struct GroupParamNames {
  std::array<std::string, kGroups.size()> codepoint, enabled;
  GroupParamNames() {
    for (std::size_t i = 0; i < kGroups.size(); ++i) {
      codepoint[i] = std::string(kGroups[i].name) + "_codepoint";
      enabled[i] = std::string(kGroups[i].name) + "_enabled";
    }
  }
};
const GroupParamNames& group_param_names() {
  static const GroupParamNames kNames;
  return kNames;
}

const OSSL_ALGORITHM* query_operation(void*, int operation_id, int* no_cache) {
  *no_cache = 0;
  switch (operation_id) {
    case OSSL_OP_KEYMGMT: return keymgmt_algorithms();
    case OSSL_OP_KEM: return kem_algorithms();
    case OSSL_OP_ENCODER: return encoder_algorithms();
    case OSSL_OP_DECODER: return decoder_algorithms();
    default: return nullptr;
  }
}

const OSSL_PARAM* gettable_params(void*) {
  static const auto kGettable = [] {
    std::array<OSSL_PARAM, 6 + 2 * kGroups.size() + 1> t{};
    std::size_t k = 0;
    t[k++] = OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_NAME, nullptr, 0);
    t[k++] = OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_VERSION, nullptr, 0);
    t[k++] = OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, nullptr, 0);
    t[k++] = OSSL_PARAM_int(OSSL_PROV_PARAM_STATUS, nullptr);
    t[k++] = OSSL_PARAM_utf8_ptr(kParamTlsGroups, nullptr, 0);
    t[k++] = OSSL_PARAM_utf8_ptr(kParamRandSource, nullptr, 0);
    for (std::size_t i = 0; i < kGroups.size(); ++i) {
      t[k++] = OSSL_PARAM_uint(group_param_names().codepoint[i].c_str(), nullptr);
      t[k++] = OSSL_PARAM_int(group_param_names().enabled[i].c_str(), nullptr);
    }
    t[k] = OSSL_PARAM_END;
    return t;
  }();
  return kGettable.data();
}

int get_params(void* provctx, OSSL_PARAM params[]) {
  const auto* prov = static_cast<const ProvCtx*>(provctx);
  OSSL_PARAM* p;
  if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_NAME)) != nullptr &&
      OSSL_PARAM_set_utf8_ptr(p, "hqckit HQC provider") != 1)
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_VERSION)) != nullptr &&
      OSSL_PARAM_set_utf8_ptr(p, hqc_version()) != 1)
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_BUILDINFO)) != nullptr) {
    const char* backend = hqc_backend_name();
    if (OSSL_PARAM_set_utf8_ptr(p, backend != nullptr ? backend : "no backend") != 1) return 0;
  }
  if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_STATUS)) != nullptr &&
      OSSL_PARAM_set_int(p, hqc_backend_name() != nullptr ? 1 : 0) != 1)
    return 0;
  if (prov == nullptr) return 1;
  if ((p = OSSL_PARAM_locate(params, kParamTlsGroups)) != nullptr &&
      OSSL_PARAM_set_utf8_ptr(p, prov->tls_groups.c_str()) != 1)
    return 0;
  if ((p = OSSL_PARAM_locate(params, kParamRandSource)) != nullptr &&
      OSSL_PARAM_set_utf8_ptr(p, prov->rand_from_loader ? "loader" : "child") != 1)
    return 0;
  for (std::size_t i = 0; i < kGroups.size(); ++i) {
    if ((p = OSSL_PARAM_locate(params, group_param_names().codepoint[i].c_str())) != nullptr &&
        OSSL_PARAM_set_uint(p, prov->tls_id[i]) != 1)
      return 0;
    if ((p = OSSL_PARAM_locate(params, group_param_names().enabled[i].c_str())) != nullptr &&
        OSSL_PARAM_set_int(p, prov->enabled[i] ? 1 : 0) != 1)
      return 0;
  }
  return 1;
}

const OSSL_ITEM* get_reason_strings(void*) { return kReasons; }

void teardown(void* provctx) {
  auto* prov = static_cast<ProvCtx*>(provctx);
  if (prov == nullptr) return;
  OSSL_LIB_CTX_free(prov->libctx);
  delete prov;
}

const OSSL_DISPATCH kProviderDispatch[] = {
    HQCKIT_DISPATCH(OSSL_FUNC_PROVIDER_TEARDOWN, OSSL_FUNC_provider_teardown_fn, &teardown),
    HQCKIT_DISPATCH(OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, OSSL_FUNC_provider_gettable_params_fn, &gettable_params),
    HQCKIT_DISPATCH(OSSL_FUNC_PROVIDER_GET_PARAMS, OSSL_FUNC_provider_get_params_fn, &get_params),
    HQCKIT_DISPATCH(OSSL_FUNC_PROVIDER_QUERY_OPERATION, OSSL_FUNC_provider_query_operation_fn, &query_operation),
    HQCKIT_DISPATCH(OSSL_FUNC_PROVIDER_GET_CAPABILITIES, OSSL_FUNC_provider_get_capabilities_fn, &get_capabilities),
    HQCKIT_DISPATCH(OSSL_FUNC_PROVIDER_GET_REASON_STRINGS, OSSL_FUNC_provider_get_reason_strings_fn,
                    &get_reason_strings),
    OSSL_DISPATCH{0, nullptr},
};

}  // namespace

// NOLINTNEXTLINE(cert-dcl50-cpp): printf-style, forwarded to the core's vset_error (a C callback)
void raise(const ProvCtx* ctx, int reason, const char* fmt, ...) {
  if (ctx == nullptr || g_new_error == nullptr || g_vset_error == nullptr) return;
  g_new_error(ctx->handle);
  if (g_set_error_debug != nullptr) g_set_error_debug(ctx->handle, nullptr, 0, nullptr);
  va_list ap;
  va_start(ap, fmt);
  g_vset_error(ctx->handle, static_cast<uint32_t>(reason), fmt, ap);
  va_end(ap);
}

}  // namespace hqckit::provider

extern "C" __attribute__((visibility("default"))) int OSSL_provider_init(const OSSL_CORE_HANDLE* handle,
                                                                         const OSSL_DISPATCH* in,
                                                                         const OSSL_DISPATCH** out, void** provctx) {
  using namespace hqckit::provider;
  OSSL_FUNC_core_get_libctx_fn* get_libctx = nullptr;
  OSSL_FUNC_CRYPTO_malloc_fn* core_malloc = nullptr;
  for (const OSSL_DISPATCH* d = in; d != nullptr && d->function_id != 0; ++d) {
    switch (d->function_id) {
      case OSSL_FUNC_CORE_NEW_ERROR: g_new_error = OSSL_FUNC_core_new_error(d); break;
      case OSSL_FUNC_CORE_SET_ERROR_DEBUG: g_set_error_debug = OSSL_FUNC_core_set_error_debug(d); break;
      case OSSL_FUNC_CORE_VSET_ERROR: g_vset_error = OSSL_FUNC_core_vset_error(d); break;
      case OSSL_FUNC_CORE_GET_LIBCTX: get_libctx = OSSL_FUNC_core_get_libctx(d); break;
      case OSSL_FUNC_CRYPTO_MALLOC: core_malloc = OSSL_FUNC_CRYPTO_malloc(d); break;
      default: break;
    }
  }
  if (hqc_backend_name() == nullptr) {  // HQC_BACKEND / HQC_CPU_MASK invalid for this CPU
    ProvCtx tmp;
    tmp.handle = handle;
    HQCKIT_RAISE(&tmp, kErrHqc, "no usable HQC backend: %s", hqc_backend_error());
    return 0;
  }
  auto* prov = new (std::nothrow) ProvCtx;
  if (prov == nullptr) return 0;
  prov->handle = handle;
  if (!load_group_config(prov, in)) {
    delete prov;
    return 0;
  }
  prov->libctx = OSSL_LIB_CTX_new_child(handle, in);
  if (prov->libctx == nullptr) {
    delete prov;
    return 0;
  }
  // The core's library context may be used as an OSSL_LIB_CTX only if it belongs to the libcrypto
  // this module calls: then the core hands out this very libcrypto's CRYPTO_malloc.
  prov->rand_from_loader = get_libctx != nullptr && core_malloc == &CRYPTO_malloc;
  prov->rand_libctx = prov->rand_from_loader ? reinterpret_cast<OSSL_LIB_CTX*>(get_libctx(handle)) : prov->libctx;
  *out = kProviderDispatch;
  *provctx = prov;
  return 1;
}
