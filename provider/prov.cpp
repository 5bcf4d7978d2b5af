// SPDX-License-Identifier: MIT
// Entry point of the hqckit OpenSSL 3 provider: algorithm tables, errors, and the TLS-GROUP
// capability (one OSSL_PARAM list per entry of kGroups).
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include <openssl/prov_ssl.h>

#include <array>
#include <cstdarg>
#include <cstring>
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

// TLS-GROUP capability rows. The constants live in static storage because OSSL_PARAM holds
// pointers to them.
struct GroupConsts {
  unsigned id, secbits, is_kem;
  int min_tls, max_tls, min_dtls, max_dtls;
};

template <std::size_t I>
const OSSL_PARAM* group_params() {
  static GroupConsts c{kGroups[I].tls_id, kGroups[I].security_bits, 1, TLS1_3_VERSION, 0, -1, -1};
  static const OSSL_PARAM kParams[] = {
      OSSL_PARAM_utf8_string(OSSL_CAPABILITY_TLS_GROUP_NAME, const_cast<char*>(kGroups[I].name),
                             std::char_traits<char>::length(kGroups[I].name)),
      OSSL_PARAM_utf8_string(OSSL_CAPABILITY_TLS_GROUP_NAME_INTERNAL, const_cast<char*>(kGroups[I].name),
                             std::char_traits<char>::length(kGroups[I].name)),
      OSSL_PARAM_utf8_string(OSSL_CAPABILITY_TLS_GROUP_ALG, const_cast<char*>(kGroups[I].name),
                             std::char_traits<char>::length(kGroups[I].name)),
      OSSL_PARAM_uint(OSSL_CAPABILITY_TLS_GROUP_ID, &c.id),
      OSSL_PARAM_uint(OSSL_CAPABILITY_TLS_GROUP_SECURITY_BITS, &c.secbits),
      OSSL_PARAM_int(OSSL_CAPABILITY_TLS_GROUP_MIN_TLS, &c.min_tls),
      OSSL_PARAM_int(OSSL_CAPABILITY_TLS_GROUP_MAX_TLS, &c.max_tls),
      OSSL_PARAM_int(OSSL_CAPABILITY_TLS_GROUP_MIN_DTLS, &c.min_dtls),
      OSSL_PARAM_int(OSSL_CAPABILITY_TLS_GROUP_MAX_DTLS, &c.max_dtls),
      OSSL_PARAM_uint(OSSL_CAPABILITY_TLS_GROUP_IS_KEM, &c.is_kem),
      OSSL_PARAM_END,
  };
  return kParams;
}

template <std::size_t... I>
std::array<const OSSL_PARAM*, sizeof...(I)> make_group_table(std::index_sequence<I...>) {
  return {group_params<I>()...};
}

int get_capabilities(void*, const char* capability, OSSL_CALLBACK* cb, void* arg) {
  if (capability == nullptr || OPENSSL_strcasecmp(capability, "TLS-GROUP") != 0) return 0;
  static const auto kTable = make_group_table(std::make_index_sequence<kGroups.size()>{});
  for (const OSSL_PARAM* params : kTable)
    if (cb(params, arg) != 1) return 0;
  return 1;
}

const OSSL_ALGORITHM* query_operation(void*, int operation_id, int* no_cache) {
  *no_cache = 0;
  switch (operation_id) {
    case OSSL_OP_KEYMGMT:
      return keymgmt_algorithms();
    case OSSL_OP_KEM:
      return kem_algorithms();
    case OSSL_OP_ENCODER:
      return encoder_algorithms();
    case OSSL_OP_DECODER:
      return decoder_algorithms();
    default:
      return nullptr;
  }
}

const OSSL_PARAM* gettable_params(void*) {
  static const OSSL_PARAM kGettable[] = {OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_NAME, nullptr, 0),
                                         OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_VERSION, nullptr, 0),
                                         OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, nullptr, 0),
                                         OSSL_PARAM_int(OSSL_PROV_PARAM_STATUS, nullptr), OSSL_PARAM_END};
  return kGettable;
}

int get_params(void*, OSSL_PARAM params[]) {
  OSSL_PARAM* p;
  if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_NAME)) != nullptr &&
      OSSL_PARAM_set_utf8_ptr(p, "hqckit HQC provider") != 1)
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_VERSION)) != nullptr && OSSL_PARAM_set_utf8_ptr(p, hqc_version()) != 1)
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_BUILDINFO)) != nullptr) {
    const char* backend = hqc_backend_name();
    if (OSSL_PARAM_set_utf8_ptr(p, backend != nullptr ? backend : "no backend") != 1) return 0;
  }
  if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_STATUS)) != nullptr &&
      OSSL_PARAM_set_int(p, hqc_backend_name() != nullptr ? 1 : 0) != 1)
    return 0;
  return 1;
}

const OSSL_ITEM* get_reason_strings(void*) { return kReasons; }

void teardown(void* provctx) {
  auto* prov = static_cast<ProvCtx*>(provctx);
  if (prov == nullptr) return;
  OSSL_LIB_CTX_free(prov->libctx);
  OPENSSL_free(prov);
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
  for (const OSSL_DISPATCH* d = in; d != nullptr && d->function_id != 0; ++d) {
    switch (d->function_id) {
      case OSSL_FUNC_CORE_NEW_ERROR:
        g_new_error = OSSL_FUNC_core_new_error(d);
        break;
      case OSSL_FUNC_CORE_SET_ERROR_DEBUG:
        g_set_error_debug = OSSL_FUNC_core_set_error_debug(d);
        break;
      case OSSL_FUNC_CORE_VSET_ERROR:
        g_vset_error = OSSL_FUNC_core_vset_error(d);
        break;
      default:
        break;
    }
  }
  if (hqc_backend_name() == nullptr) {  // HQC_BACKEND / HQC_CPU_MASK invalid for this CPU
    const ProvCtx tmp{handle, nullptr};
    HQCKIT_RAISE(&tmp, kErrHqc, "no usable HQC backend: %s", hqc_backend_error());
    return 0;
  }
  auto* prov = static_cast<ProvCtx*>(OPENSSL_zalloc(sizeof(ProvCtx)));
  if (prov == nullptr) return 0;
  prov->handle = handle;
  prov->libctx = OSSL_LIB_CTX_new_child(handle, in);
  if (prov->libctx == nullptr) {
    OPENSSL_free(prov);
    return 0;
  }
  *out = kProviderDispatch;
  *provctx = prov;
  return 1;
}
