// SPDX-License-Identifier: MIT
// Operator settings of the hqckit provider: code points and enablement from the provider's
// openssl.cnf section and from oqs-provider's OQS_CODEPOINT_<GROUP> variables, as seen in the
// TLS-GROUP capability and the provider parameters; invalid values stop the provider from
// loading with a message. Also: which provider serves HQC when another provider offers the
// same names (default_properties = ?provider=hqckit).
#include <gtest/gtest.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include <limits.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>

namespace {

// Absolute: OpenSSL resolves a relative `module =` path against the modules directory.
std::string module_dir() {
  const char* dir = std::getenv("OPENSSL_MODULES");
  char* abs = realpath(dir != nullptr ? dir : HQCKIT_MODULE_DIR, nullptr);
  std::string out = abs != nullptr ? abs : (dir != nullptr ? dir : HQCKIT_MODULE_DIR);
  std::free(abs);  // NOLINT(cppcoreguidelines-no-malloc): realpath allocates with malloc
  return out;
}

std::string drain_errors() {
  std::string out;
  unsigned long e;
  const char* data = nullptr;
  int flags = 0;
  char buf[256];
  while ((e = ERR_get_error_all(nullptr, nullptr, nullptr, &data, &flags)) != 0) {
    ERR_error_string_n(e, buf, sizeof(buf));
    out += buf;
    if (data != nullptr && (flags & ERR_TXT_STRING) != 0) (out += ": ") += data;
    out += '\n';
  }
  return out;
}

EVP_PKEY* keygen(OSSL_LIB_CTX* libctx, const char* alg) {
  EVP_PKEY* key = nullptr;
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_name(libctx, alg, nullptr);
  if (ctx == nullptr || EVP_PKEY_keygen_init(ctx) != 1 || EVP_PKEY_keygen(ctx, &key) != 1) key = nullptr;
  EVP_PKEY_CTX_free(ctx);
  return key;
}

// Which provider implements the key's key manager.
std::string provider_of(EVP_PKEY* key) {
  const OSSL_PROVIDER* p = EVP_PKEY_get0_provider(key);
  return p != nullptr ? OSSL_PROVIDER_get0_name(p) : "";
}

// A second provider offering "hqc1" (its key management refuses every key): stands in for
// oqs-provider, which is not installed here, so that the name is served twice.
const OSSL_ALGORITHM* rival_query(void*, int op, int* no_cache) {
  static const OSSL_DISPATCH kKm[] = {
      {OSSL_FUNC_KEYMGMT_NEW, reinterpret_cast<void (*)()>(+[](void*) -> void* { return nullptr; })},
      {OSSL_FUNC_KEYMGMT_FREE, reinterpret_cast<void (*)()>(+[](void*) {})},
      {OSSL_FUNC_KEYMGMT_HAS, reinterpret_cast<void (*)()>(+[](const void*, int) { return 0; })},
      {OSSL_FUNC_KEYMGMT_GEN_INIT,
       reinterpret_cast<void (*)()>(+[](void*, int, const OSSL_PARAM*) -> void* { return nullptr; })},
      {OSSL_FUNC_KEYMGMT_GEN,
       reinterpret_cast<void (*)()>(+[](void*, OSSL_CALLBACK*, void*) -> void* { return nullptr; })},
      {OSSL_FUNC_KEYMGMT_GEN_CLEANUP, reinterpret_cast<void (*)()>(+[](void*) {})},
      {0, nullptr}};
  static const OSSL_ALGORITHM kAlgs[] = {{"hqc1", "provider=rival", kKm, nullptr},
                                         {nullptr, nullptr, nullptr, nullptr}};
  *no_cache = 0;
  return op == OSSL_OP_KEYMGMT ? kAlgs : nullptr;
}
int rival_init(const OSSL_CORE_HANDLE*, const OSSL_DISPATCH*, const OSSL_DISPATCH** out, void** provctx) {
  static const OSSL_DISPATCH kProv[] = {
      {OSSL_FUNC_PROVIDER_QUERY_OPERATION, reinterpret_cast<void (*)()>(&rival_query)}, {0, nullptr}};
  *out = kProv;
  *provctx = nullptr;
  return 1;
}

// A library context configured from an openssl.cnf whose [hqckit_sect] holds `settings`. With
// `activate`, the configuration activates hqckit (what programs such as nginx use; OpenSSL 3.0's
// configuration loader then drops a provider whose initialisation fails without a message);
// otherwise the section only records the module and settings, and OSSL_PROVIDER_load applies
// them, so that the provider's error reaches the caller.
struct Configured {
  OSSL_LIB_CTX* libctx = OSSL_LIB_CTX_new();
  OSSL_PROVIDER* hqckit = nullptr;
  OSSL_PROVIDER* first = nullptr;  // loaded by `before`
  bool loaded = false;
  std::string errors;
  explicit Configured(const std::string& settings, const std::string& extra = "",
                      OSSL_PROVIDER* (*before)(OSSL_LIB_CTX*) = nullptr, bool activate = false) {
    if (before != nullptr) first = before(libctx);
    char path[] = "/tmp/hqckit-config-test-XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0) return;
    close(fd);
    std::ofstream(path) << "openssl_conf = openssl_init\n[openssl_init]\nproviders = provider_sect\n"
                        << extra << "[provider_sect]\ndefault = default_sect\nhqckit = hqckit_sect\n"
                        << "[default_sect]\nactivate = 1\n[hqckit_sect]\nmodule = " << module_dir() << "/hqckit.so\n"
                        << (activate ? "activate = 1\n" : "") << settings;
    drain_errors();
    loaded = OSSL_LIB_CTX_load_config(libctx, path) == 1;
    if (loaded && !activate) loaded = (hqckit = OSSL_PROVIDER_load(libctx, "hqckit")) != nullptr;
    loaded = loaded && OSSL_PROVIDER_available(libctx, "hqckit") == 1;
    errors = drain_errors();
    std::remove(path);
  }
  ~Configured() {
    OSSL_PROVIDER_unload(hqckit);
    OSSL_PROVIDER_unload(first);
    OSSL_LIB_CTX_free(libctx);
  }
  Configured(const Configured&) = delete;
  Configured& operator=(const Configured&) = delete;

  // name -> code point of the hqckit TLS-GROUP rows.
  std::map<std::string, unsigned> groups() const {
    std::map<std::string, unsigned> out;
    OSSL_PROVIDER* p = OSSL_PROVIDER_load(libctx, "hqckit");
    if (p == nullptr) return out;
    OSSL_PROVIDER_get_capabilities(
        p, "TLS-GROUP",
        [](const OSSL_PARAM params[], void* arg) {
          const char* name = nullptr;
          unsigned id = 0;
          OSSL_PARAM_get_utf8_string_ptr(OSSL_PARAM_locate_const(params, OSSL_CAPABILITY_TLS_GROUP_NAME), &name);
          OSSL_PARAM_get_uint(OSSL_PARAM_locate_const(params, OSSL_CAPABILITY_TLS_GROUP_ID), &id);
          (*static_cast<std::map<std::string, unsigned>*>(arg))[name != nullptr ? name : "?"] = id;
          return 1;
        },
        &out);
    OSSL_PROVIDER_unload(p);
    return out;
  }

  std::string param(const char* name) const {
    OSSL_PROVIDER* p = OSSL_PROVIDER_load(libctx, "hqckit");
    const char* v = nullptr;
    OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_ptr(name, const_cast<char**>(&v), 0), OSSL_PARAM_construct_end()};
    const bool ok = p != nullptr && OSSL_PROVIDER_get_params(p, params) == 1 && v != nullptr;
    OSSL_PROVIDER_unload(p);
    return ok ? v : "";
  }
  unsigned uint_param(const std::string& name) const {
    OSSL_PROVIDER* p = OSSL_PROVIDER_load(libctx, "hqckit");
    unsigned v = 0;
    OSSL_PARAM params[] = {OSSL_PARAM_construct_uint(name.c_str(), &v), OSSL_PARAM_construct_end()};
    if (p == nullptr || OSSL_PROVIDER_get_params(p, params) != 1) v = 0;
    OSSL_PROVIDER_unload(p);
    return v;
  }
};

// Sets an environment variable for the lifetime of the object.
struct ScopedEnv {
  std::string name;
  ScopedEnv(const char* n, const char* v) : name(n) { setenv(n, v, 1); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;
  ~ScopedEnv() { unsetenv(name.c_str()); }
};

const std::map<std::string, unsigned> kDefaults = {{"hqc1", 0xFE33}, {"p256_hqc1", 0xFE34}, {"x25519_hqc1", 0xFE35},
                                                   {"hqc3", 0xFE36}, {"p384_hqc3", 0xFE37}, {"x448_hqc3", 0xFE38},
                                                   {"hqc5", 0xFE39}, {"p521_hqc5", 0xFE3A}};

TEST(Config, DefaultsWithoutSettings) {
  Configured c("", "", nullptr, true);
  ASSERT_TRUE(c.loaded) << c.errors;
  EXPECT_EQ(c.groups(), kDefaults);
  EXPECT_EQ(c.param("tls-groups"),
            "hqc1=0xFE33 p256_hqc1=0xFE34 x25519_hqc1=0xFE35 hqc3=0xFE36 p384_hqc3=0xFE37 x448_hqc3=0xFE38 "
            "hqc5=0xFE39 p521_hqc5=0xFE3A");
  EXPECT_EQ(c.uint_param("hqc5_codepoint"), 0xFE39u);
}

TEST(Config, CodePointsAndEnablementFromOpensslCnf) {
  Configured c("hqc1_codepoint = 0x2F44\nx25519_hqc1_codepoint = 12205\nhqc5_enabled = no\np256_hqc1_enabled = Yes\n",
               "", nullptr, true);
  ASSERT_TRUE(c.loaded) << c.errors;
  auto want = kDefaults;
  want["hqc1"] = 0x2F44;
  want["x25519_hqc1"] = 12205;
  want.erase("hqc5");
  EXPECT_EQ(c.groups(), want);
  EXPECT_EQ(c.uint_param("hqc1_codepoint"), 0x2F44u);
  EXPECT_NE(c.param("tls-groups").find("hqc1=0x2F44 "), std::string::npos) << c.param("tls-groups");
  EXPECT_NE(c.param("tls-groups").find("hqc5=0xFE39(disabled)"), std::string::npos) << c.param("tls-groups");
  // A disabled group is only not offered to TLS: its KEM stays usable through the API.
  EVP_PKEY* key = keygen(c.libctx, "hqc5");
  EXPECT_NE(key, nullptr);
  EVP_PKEY_free(key);
}

TEST(Config, OqsProviderEnvironmentVariablesWin) {
  ScopedEnv a("OQS_CODEPOINT_HQC1", "12100");
  ScopedEnv b("OQS_CODEPOINT_P521_HQC5", "0x2f46");
  Configured c("hqc1_codepoint = 0x2F44\n");
  ASSERT_TRUE(c.loaded) << c.errors;
  auto want = kDefaults;
  want["hqc1"] = 12100;
  want["p521_hqc5"] = 0x2F46;
  EXPECT_EQ(c.groups(), want);
}

TEST(Config, InvalidValuesStopTheProviderWithAMessage) {
  struct Case {
    const char* settings;
    const char* env_name;
    const char* env_value;
    const char* message;
  } cases[] = {
      {"hqc1_codepoint = abc\n", nullptr, nullptr,
       "hqc1_codepoint = 'abc' in the provider configuration: not a TLS code point (decimal or 0x hex, 1..65535)"},
      {"hqc3_codepoint = 65536\n", nullptr, nullptr, "hqc3_codepoint = '65536' in the provider configuration"},
      {"hqc3_codepoint = 0\n", nullptr, nullptr, "hqc3_codepoint = '0' in the provider configuration"},
      {"hqc5_enabled = maybe\n", nullptr, nullptr,
       "hqc5_enabled = 'maybe' in the provider configuration: use yes or no"},
      {"", "OQS_CODEPOINT_X448_HQC3", "-1",
       "OQS_CODEPOINT_X448_HQC3='-1' in the environment: not a TLS code point (decimal or 0x hex, 1..65535)"},
      {"hqc3_codepoint = 0xFE33\n", nullptr, nullptr, "hqc1 and hqc3 both have TLS code point 0xFE33"},
  };
  for (const Case& t : cases) {
    if (t.env_name != nullptr) setenv(t.env_name, t.env_value, 1);
    Configured c(t.settings);
    if (t.env_name != nullptr) unsetenv(t.env_name);
    EXPECT_FALSE(c.loaded) << t.message;
    EXPECT_NE(c.errors.find(t.message), std::string::npos) << t.message << "\n" << c.errors;
  }
  // A duplicate is fine when one of the two groups is disabled.
  Configured ok("hqc3_codepoint = 0xFE33\nhqc1_enabled = no\n");
  EXPECT_TRUE(ok.loaded) << ok.errors;
}

// Randomness: with the module using the same libcrypto as the application, coins come from the
// library context that loaded it (see rand_test for the effect).
TEST(Config, RandomnessComesFromTheLoadingLibraryContext) {
  Configured c("");
  ASSERT_TRUE(c.loaded) << c.errors;
  EXPECT_EQ(c.param("rand-source"), "loader");
}

// --- provider of record ---

// The documented openssl.cnf for running hqckit beside another provider of the same names:
// `default_properties = ?provider=hqckit` in the algorithm section.
TEST(ProviderOfRecord, OpensslCnfDefaultPropertiesPickHqckit) {
  Configured c(
      "", "alg_section = algorithm_sect\n[algorithm_sect]\ndefault_properties = ?provider=hqckit\n",
      [](OSSL_LIB_CTX* l) {
        OSSL_PROVIDER_add_builtin(l, "rival", rival_init);
        return OSSL_PROVIDER_load(l, "rival");  // loaded before the configuration
      },
      true);
  ASSERT_TRUE(c.loaded) << c.errors;
  for (const char* alg : {"hqc1", "x25519_hqc1", "hqc5"}) {
    EVP_PKEY* key = keygen(c.libctx, alg);
    ASSERT_NE(key, nullptr) << alg << ": " << drain_errors();
    EXPECT_EQ(provider_of(key), "hqckit") << alg;
    EVP_PKEY_free(key);
  }
}

TEST(ProviderOfRecord, DefaultPropertiesPickHqckit) {
  // The rival is loaded first, so without a property query OpenSSL may pick it.
  // "?provider=hqckit" (a preference): a mandatory "provider=hqckit" would also apply to every
  // other fetch, the DRBG's included, and break them.
  for (const char* props : {"?provider=hqckit"}) {
    OSSL_LIB_CTX* libctx = OSSL_LIB_CTX_new();
    ASSERT_EQ(OSSL_PROVIDER_add_builtin(libctx, "rival", rival_init), 1);
    OSSL_PROVIDER* r = OSSL_PROVIDER_load(libctx, "rival");
    OSSL_PROVIDER_set_default_search_path(libctx, module_dir().c_str());
    OSSL_PROVIDER* h = OSSL_PROVIDER_load(libctx, "hqckit");
    OSSL_PROVIDER* d = OSSL_PROVIDER_load(libctx, "default");
    ASSERT_TRUE(r != nullptr && h != nullptr && d != nullptr);
    ASSERT_EQ(EVP_set_default_properties(libctx, props), 1);
    for (const char* alg : {"hqc1", "x25519_hqc1"}) {
      EVP_PKEY* key = keygen(libctx, alg);
      ASSERT_NE(key, nullptr) << props << " " << alg << ": " << drain_errors();
      EXPECT_EQ(provider_of(key), "hqckit") << props << " " << alg;
      // The KEM operation is hqckit's too.
      EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_pkey(libctx, key, nullptr);
      ASSERT_EQ(EVP_PKEY_encapsulate_init(ctx, nullptr), 1);
      EVP_KEM* kem = EVP_KEM_fetch(libctx, alg, nullptr);
      ASSERT_NE(kem, nullptr);
      EXPECT_STREQ(OSSL_PROVIDER_get0_name(EVP_KEM_get0_provider(kem)), "hqckit");
      EVP_KEM_free(kem);
      EVP_PKEY_CTX_free(ctx);
      EVP_PKEY_free(key);
    }
    // Classical algorithms still come from the default provider.
    EVP_PKEY* ec = EVP_PKEY_Q_keygen(libctx, nullptr, "EC", "P-256");
    ASSERT_NE(ec, nullptr);
    EXPECT_EQ(provider_of(ec), "default");
    EVP_PKEY_free(ec);
    OSSL_PROVIDER_unload(d);
    OSSL_PROVIDER_unload(h);
    OSSL_PROVIDER_unload(r);
    OSSL_LIB_CTX_free(libctx);
  }
}

// Without the property query the rival (loaded first) can take "hqc1": the test above is not
// vacuous.
TEST(ProviderOfRecord, WithoutThePropertyTheOtherProviderCanServe) {
  OSSL_LIB_CTX* libctx = OSSL_LIB_CTX_new();
  ASSERT_EQ(OSSL_PROVIDER_add_builtin(libctx, "rival", rival_init), 1);
  OSSL_PROVIDER* r = OSSL_PROVIDER_load(libctx, "rival");
  OSSL_PROVIDER_set_default_search_path(libctx, module_dir().c_str());
  OSSL_PROVIDER* h = OSSL_PROVIDER_load(libctx, "hqckit");
  ASSERT_TRUE(r != nullptr && h != nullptr);
  EVP_KEYMGMT* km = EVP_KEYMGMT_fetch(libctx, "hqc1", nullptr);
  ASSERT_NE(km, nullptr);
  EXPECT_STREQ(OSSL_PROVIDER_get0_name(EVP_KEYMGMT_get0_provider(km)), "rival");
  EVP_KEYMGMT_free(km);
  km = EVP_KEYMGMT_fetch(libctx, "hqc1", "?provider=hqckit");
  ASSERT_NE(km, nullptr);
  EXPECT_STREQ(OSSL_PROVIDER_get0_name(EVP_KEYMGMT_get0_provider(km)), "hqckit");
  EVP_KEYMGMT_free(km);
  OSSL_PROVIDER_unload(h);
  OSSL_PROVIDER_unload(r);
  OSSL_LIB_CTX_free(libctx);
}

}  // namespace
