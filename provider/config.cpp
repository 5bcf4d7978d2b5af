// SPDX-License-Identifier: MIT
// Run-time TLS code points and enablement of the hqckit groups. Sources, later ones winning:
//  1. the built-in defaults of groups.hpp;
//  2. the provider's section of openssl.cnf: `hqc1_codepoint = 0xFE33`, `hqc1_enabled = no`
//     (every key is `<group>_codepoint` / `<group>_enabled`);
//  3. the environment: OQS_CODEPOINT_<GROUP> (e.g. OQS_CODEPOINT_X25519_HQC1=65077), the variables
//     oqs-provider reads, so that a setting made for oqs-provider applies unchanged.
// Code points are decimal or 0x-hex in 1..65535; two enabled groups may not share one. Any invalid
// value makes the provider refuse to load, with a message naming the setting.
#include <openssl/core_dispatch.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "provider.hpp"

namespace hqckit::provider {
namespace {

// Parses "65075" or "0xFE33" (whole string, no sign, no spaces) into 1..65535.
bool parse_codepoint(const char* s, unsigned& out) {
  int base = 10;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s += 2;
  }
  if (*s == '\0') return false;
  unsigned long v = 0;
  for (; *s != '\0'; ++s) {
    const int c = static_cast<unsigned char>(*s);
    int d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (base == 16 && std::isxdigit(c)) d = std::tolower(c) - 'a' + 10;
    else return false;
    v = v * static_cast<unsigned long>(base) + static_cast<unsigned long>(d);
    if (v > 0xFFFF) return false;
  }
  if (v == 0) return false;
  out = static_cast<unsigned>(v);
  return true;
}

bool parse_bool(const char* s, bool& out) {
  for (const char* t : {"yes", "true", "on", "1"})
    if (OPENSSL_strcasecmp(s, t) == 0) return (out = true, true);
  for (const char* f : {"no", "false", "off", "0"})
    if (OPENSSL_strcasecmp(s, f) == 0) return (out = false, true);
  return false;
}

std::string upper(const char* s) {
  std::string u(s);
  for (char& c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return u;
}

std::string hex4(unsigned v) {
  char buf[8];
  std::snprintf(buf, sizeof(buf), "0x%04X", v);
  return buf;
}

}  // namespace

bool load_group_config(ProvCtx* prov, const OSSL_DISPATCH* in) {
  OSSL_FUNC_core_get_params_fn* core_get_params = nullptr;
  for (const OSSL_DISPATCH* d = in; d != nullptr && d->function_id != 0; ++d)
    if (d->function_id == OSSL_FUNC_CORE_GET_PARAMS) core_get_params = OSSL_FUNC_core_get_params(d);
  constexpr std::size_t n = kGroups.size();
  for (std::size_t i = 0; i < n; ++i) {
    prov->tls_id[i] = kGroups[i].tls_id;
    prov->enabled[i] = true;
  }
  // 2. openssl.cnf: the core answers get_params with the provider section's name = value pairs.
  if (core_get_params != nullptr) {
    std::array<std::string, 2 * n> keys;
    std::array<const char*, 2 * n> values{};
    std::array<OSSL_PARAM, 2 * n + 1> params;
    for (std::size_t i = 0; i < n; ++i) {
      keys[2 * i] = std::string(kGroups[i].name) + "_codepoint";
      keys[2 * i + 1] = std::string(kGroups[i].name) + "_enabled";
    }
    for (std::size_t j = 0; j < 2 * n; ++j)
      params[j] = OSSL_PARAM_construct_utf8_ptr(keys[j].c_str(), const_cast<char**>(&values[j]), 0);
    params[2 * n] = OSSL_PARAM_construct_end();
    if (core_get_params(prov->handle, params.data()) != 1) {
      HQCKIT_RAISE(prov, kErrConfig, "hqckit: cannot read the provider's configuration section");
      return false;
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (const char* v = values[2 * i]; v != nullptr && !parse_codepoint(v, prov->tls_id[i])) {
        HQCKIT_RAISE(
            prov, kErrConfig,
            "hqckit: %s = '%s' in the provider configuration: not a TLS code point (decimal or 0x hex, 1..65535)",
            keys[2 * i].c_str(), v);
        return false;
      }
      if (const char* v = values[2 * i + 1]; v != nullptr && !parse_bool(v, prov->enabled[i])) {
        HQCKIT_RAISE(prov, kErrConfig, "hqckit: %s = '%s' in the provider configuration: use yes or no",
                     keys[2 * i + 1].c_str(), v);
        return false;
      }
    }
  }
  // 3. oqs-provider's environment variables.
  for (std::size_t i = 0; i < n; ++i) {
    const std::string var = "OQS_CODEPOINT_" + upper(kGroups[i].name);
    if (const char* v = std::getenv(var.c_str()); v != nullptr && !parse_codepoint(v, prov->tls_id[i])) {
      HQCKIT_RAISE(prov, kErrConfig,
                   "hqckit: %s='%s' in the environment: not a TLS code point (decimal or 0x hex, 1..65535)",
                   var.c_str(), v);
      return false;
    }
  }
  // No two enabled groups on one code point: a peer's choice would be ambiguous.
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      if (prov->enabled[i] && prov->enabled[j] && prov->tls_id[i] == prov->tls_id[j]) {
        HQCKIT_RAISE(prov, kErrConfig, "hqckit: %s and %s both have TLS code point %s", kGroups[i].name,
                     kGroups[j].name, hex4(prov->tls_id[i]).c_str());
        return false;
      }
  prov->tls_groups.clear();
  for (std::size_t i = 0; i < n; ++i) {
    if (i != 0) prov->tls_groups += ' ';
    prov->tls_groups +=
        std::string(kGroups[i].name) + '=' + hex4(prov->tls_id[i]) + (prov->enabled[i] ? "" : "(disabled)");
  }
  return true;
}

}  // namespace hqckit::provider
