// SPDX-License-Identifier: MIT
// Lists the TLS-GROUP capability of OpenSSL providers, what `openssl list -tls-groups` shows in
// OpenSSL releases after 3.0 (3.0's `openssl list` has no such option).
// Usage: hqckit_tls_groups [provider ...]   (default: hqckit; module path from OPENSSL_MODULES,
// else the build tree)
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include <cstdio>
#include <cstdlib>

namespace {

int print_group(const OSSL_PARAM params[], void* arg) {
  const char* name = "?";
  const char* alg = "?";
  unsigned id = 0, secbits = 0, is_kem = 0;
  int min_tls = 0;
  OSSL_PARAM_get_utf8_string_ptr(OSSL_PARAM_locate_const(params, OSSL_CAPABILITY_TLS_GROUP_NAME), &name);
  OSSL_PARAM_get_utf8_string_ptr(OSSL_PARAM_locate_const(params, OSSL_CAPABILITY_TLS_GROUP_ALG), &alg);
  OSSL_PARAM_get_uint(OSSL_PARAM_locate_const(params, OSSL_CAPABILITY_TLS_GROUP_ID), &id);
  OSSL_PARAM_get_uint(OSSL_PARAM_locate_const(params, OSSL_CAPABILITY_TLS_GROUP_SECURITY_BITS), &secbits);
  OSSL_PARAM_get_uint(OSSL_PARAM_locate_const(params, OSSL_CAPABILITY_TLS_GROUP_IS_KEM), &is_kem);
  OSSL_PARAM_get_int(OSSL_PARAM_locate_const(params, OSSL_CAPABILITY_TLS_GROUP_MIN_TLS), &min_tls);
  std::printf("  %-14s 0x%04X (%5u)  %3u bits  alg %-12s %s%s @ %s\n", name, id, id, secbits, alg,
              is_kem != 0 ? "KEM" : "key agreement", min_tls == 0x0304 ? ", TLS 1.3 only" : "",
              static_cast<const char*>(arg));
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  const char* dir = std::getenv("OPENSSL_MODULES");
  OSSL_PROVIDER_set_default_search_path(nullptr, dir != nullptr ? dir : HQCKIT_MODULE_DIR);
  if (OSSL_PROVIDER_load(nullptr, "default") == nullptr) return 1;
  const char* fallback[] = {"hqckit"};
  char** names = argc > 1 ? argv + 1 : const_cast<char**>(fallback);
  const int count = argc > 1 ? argc - 1 : 1;
  std::printf("TLS groups:\n");
  for (int i = 0; i < count; ++i) {
    OSSL_PROVIDER* prov = OSSL_PROVIDER_load(nullptr, names[i]);
    if (prov == nullptr) {
      std::fprintf(stderr, "cannot load provider %s\n", names[i]);
      return 1;
    }
    OSSL_PROVIDER_get_capabilities(prov, "TLS-GROUP", print_group, names[i]);
  }
  return 0;
}
