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
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <limits.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
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

// A second provider that serves the TLS group hqc1 as well, under the same name and code point
// (0xFE33): stands in for oqs-provider, which is not installed here. Its KEM is a stand-in with no
// security at all (the "public key" is the 32-byte secret k; encapsulation draws r and gives
// ct = r, ss = k ^ r), enough for a TLS 1.3 handshake; it counts the work it does, and its 32-byte
// key share and ciphertext tell from the handshake's bytes which provider did the key exchange.
namespace rival {

int g_keygens = 0, g_encaps = 0, g_decaps = 0;
void reset() { g_keygens = g_encaps = g_decaps = 0; }

constexpr std::size_t kLen = 32;  // public key = ciphertext = shared secret length
struct Key {
  unsigned char k[kLen];
  bool set;
};
struct Gen {
  int selection;
};
struct Kem {
  Key* key;
};

template <class F>
void (*fn(F f))() {
  return reinterpret_cast<void (*)()>(f);
}

void* km_new(void* /*unused*/) { return OPENSSL_zalloc(sizeof(Key)); }
void km_free(void* k) { OPENSSL_clear_free(k, sizeof(Key)); }
void* km_dup(const void* k, int /*unused*/) { return OPENSSL_memdup(k, sizeof(Key)); }
int km_has(const void* k, int selection) {
  return (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0 || static_cast<const Key*>(k)->set ? 1 : 0;
}
void* gen_init(void* /*unused*/, int selection, const OSSL_PARAM* /*unused*/) {
  auto* g = static_cast<Gen*>(OPENSSL_zalloc(sizeof(Gen)));
  if (g != nullptr) g->selection = selection;
  return g;
}
int gen_set_params(void* /*unused*/, const OSSL_PARAM* /*unused*/) { return 1; }  // the group name TLS sets
const OSSL_PARAM* gen_settable_params(void* /*unused*/, void* /*unused*/) {
  static const OSSL_PARAM kP[] = {OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, nullptr, 0), OSSL_PARAM_END};
  return kP;
}
void* gen(void* genctx, OSSL_CALLBACK* /*unused*/, void* /*unused*/) {
  auto* key = static_cast<Key*>(OPENSSL_zalloc(sizeof(Key)));
  if (key == nullptr || (static_cast<Gen*>(genctx)->selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0) return key;
  if (RAND_bytes(key->k, kLen) != 1) {
    OPENSSL_free(key);
    return nullptr;
  }
  key->set = true;
  ++g_keygens;
  return key;
}
void gen_cleanup(void* genctx) { OPENSSL_free(genctx); }
int km_get_params(void* k, OSSL_PARAM params[]) {
  const auto* key = static_cast<const Key*>(k);
  OSSL_PARAM* p;
  if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_BITS)) != nullptr && OSSL_PARAM_set_int(p, 8 * kLen) != 1)
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_SECURITY_BITS)) != nullptr && OSSL_PARAM_set_int(p, 128) != 1)
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_MAX_SIZE)) != nullptr && OSSL_PARAM_set_int(p, kLen) != 1)
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY)) != nullptr &&
      (!key->set || OSSL_PARAM_set_octet_string(p, key->k, kLen) != 1))
    return 0;
  return 1;
}
const OSSL_PARAM* km_gettable_params(void* /*unused*/) {
  static const OSSL_PARAM kP[] = {
      OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, nullptr), OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, nullptr),
      OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, nullptr),
      OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, nullptr, 0), OSSL_PARAM_END};
  return kP;
}
int km_set_params(void* k, const OSSL_PARAM params[]) {
  auto* key = static_cast<Key*>(k);
  const OSSL_PARAM* p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY);
  if (p == nullptr) return 1;
  const void* data = nullptr;
  std::size_t len = 0;
  if (OSSL_PARAM_get_octet_string_ptr(p, &data, &len) != 1 || len != kLen) return 0;
  std::memcpy(key->k, data, kLen);
  key->set = true;
  return 1;
}
const OSSL_PARAM* km_settable_params(void* /*unused*/) {
  static const OSSL_PARAM kP[] = {OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, nullptr, 0),
                                  OSSL_PARAM_END};
  return kP;
}

void* kem_newctx(void* /*unused*/) { return OPENSSL_zalloc(sizeof(Kem)); }
void kem_freectx(void* c) { OPENSSL_free(c); }
int kem_init(void* c, void* k, const OSSL_PARAM* /*unused*/) {
  static_cast<Kem*>(c)->key = static_cast<Key*>(k);
  return static_cast<Key*>(k)->set ? 1 : 0;
}
int kem_encapsulate(void* c, unsigned char* out, std::size_t* outlen, unsigned char* secret, std::size_t* secretlen) {
  if (outlen != nullptr) *outlen = kLen;
  if (secretlen != nullptr) *secretlen = kLen;
  if (out == nullptr) return 1;
  if (secret == nullptr || RAND_bytes(out, kLen) != 1) return 0;
  for (std::size_t i = 0; i < kLen; ++i)
    secret[i] = static_cast<unsigned char>(static_cast<Kem*>(c)->key->k[i] ^ out[i]);
  ++g_encaps;
  return 1;
}
int kem_decapsulate(void* c, unsigned char* out, std::size_t* outlen, const unsigned char* in, std::size_t inlen) {
  if (outlen != nullptr) *outlen = kLen;
  if (out == nullptr) return 1;
  if (inlen != kLen) return 0;
  for (std::size_t i = 0; i < kLen; ++i) out[i] = static_cast<unsigned char>(static_cast<Kem*>(c)->key->k[i] ^ in[i]);
  ++g_decaps;
  return 1;
}

const OSSL_ALGORITHM* query(void* /*unused*/, int op, int* no_cache) {
  static const OSSL_DISPATCH kKm[] = {{OSSL_FUNC_KEYMGMT_NEW, fn(&km_new)},
                                      {OSSL_FUNC_KEYMGMT_FREE, fn(&km_free)},
                                      {OSSL_FUNC_KEYMGMT_DUP, fn(&km_dup)},
                                      {OSSL_FUNC_KEYMGMT_HAS, fn(&km_has)},
                                      {OSSL_FUNC_KEYMGMT_GEN_INIT, fn(&gen_init)},
                                      {OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS, fn(&gen_set_params)},
                                      {OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS, fn(&gen_settable_params)},
                                      {OSSL_FUNC_KEYMGMT_GEN, fn(&gen)},
                                      {OSSL_FUNC_KEYMGMT_GEN_CLEANUP, fn(&gen_cleanup)},
                                      {OSSL_FUNC_KEYMGMT_GET_PARAMS, fn(&km_get_params)},
                                      {OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS, fn(&km_gettable_params)},
                                      {OSSL_FUNC_KEYMGMT_SET_PARAMS, fn(&km_set_params)},
                                      {OSSL_FUNC_KEYMGMT_SETTABLE_PARAMS, fn(&km_settable_params)},
                                      {0, nullptr}};
  static const OSSL_DISPATCH kKem[] = {{OSSL_FUNC_KEM_NEWCTX, fn(&kem_newctx)},
                                       {OSSL_FUNC_KEM_FREECTX, fn(&kem_freectx)},
                                       {OSSL_FUNC_KEM_ENCAPSULATE_INIT, fn(&kem_init)},
                                       {OSSL_FUNC_KEM_ENCAPSULATE, fn(&kem_encapsulate)},
                                       {OSSL_FUNC_KEM_DECAPSULATE_INIT, fn(&kem_init)},
                                       {OSSL_FUNC_KEM_DECAPSULATE, fn(&kem_decapsulate)},
                                       {0, nullptr}};
  static const OSSL_ALGORITHM kKms[] = {{"hqc1", "provider=rival", kKm, nullptr}, {nullptr, nullptr, nullptr, nullptr}};
  static const OSSL_ALGORITHM kKems[] = {{"hqc1", "provider=rival", kKem, nullptr},
                                         {nullptr, nullptr, nullptr, nullptr}};
  *no_cache = 0;
  return op == OSSL_OP_KEYMGMT ? kKms : op == OSSL_OP_KEM ? kKems : nullptr;
}
int capabilities(void* /*unused*/, const char* capability, OSSL_CALLBACK* cb, void* arg) {
  if (OPENSSL_strcasecmp(capability, "TLS-GROUP") != 0) return 0;
  unsigned id = 0xFE33, secbits = 128, is_kem = 1;
  int min_tls = TLS1_3_VERSION, max_tls = 0, min_dtls = -1, max_dtls = -1;
  char name[] = "hqc1";
  const OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_CAPABILITY_TLS_GROUP_NAME, name, 0),
                               OSSL_PARAM_construct_utf8_string(OSSL_CAPABILITY_TLS_GROUP_NAME_INTERNAL, name, 0),
                               OSSL_PARAM_construct_utf8_string(OSSL_CAPABILITY_TLS_GROUP_ALG, name, 0),
                               OSSL_PARAM_construct_uint(OSSL_CAPABILITY_TLS_GROUP_ID, &id),
                               OSSL_PARAM_construct_uint(OSSL_CAPABILITY_TLS_GROUP_SECURITY_BITS, &secbits),
                               OSSL_PARAM_construct_int(OSSL_CAPABILITY_TLS_GROUP_MIN_TLS, &min_tls),
                               OSSL_PARAM_construct_int(OSSL_CAPABILITY_TLS_GROUP_MAX_TLS, &max_tls),
                               OSSL_PARAM_construct_int(OSSL_CAPABILITY_TLS_GROUP_MIN_DTLS, &min_dtls),
                               OSSL_PARAM_construct_int(OSSL_CAPABILITY_TLS_GROUP_MAX_DTLS, &max_dtls),
                               OSSL_PARAM_construct_uint(OSSL_CAPABILITY_TLS_GROUP_IS_KEM, &is_kem),
                               OSSL_PARAM_construct_end()};
  return cb(params, arg);
}
int init(const OSSL_CORE_HANDLE* /*unused*/, const OSSL_DISPATCH* /*unused*/, const OSSL_DISPATCH** out,
         void** provctx) {
  static const OSSL_DISPATCH kProv[] = {{OSSL_FUNC_PROVIDER_QUERY_OPERATION, fn(&query)},
                                        {OSSL_FUNC_PROVIDER_GET_CAPABILITIES, fn(&capabilities)},
                                        {0, nullptr}};
  *out = kProv;
  *provctx = nullptr;
  return 1;
}

}  // namespace rival

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

// --- provider of record in a TLS handshake ---

// What a TLS 1.3 handshake in `libctx` between two SSL objects (through a BIO pair, in this process)
// shows of the key exchange: the negotiated group, the size of the ClientHello and of the
// server's first flight (the key share and the ciphertext are most of them), and the provider
// whose key manager made the client's key share.
struct Handshake {
  bool ok = false;
  int group = 0;
  std::size_t client_hello = 0, server_flight = 0;
  std::string client_key_provider;
  std::string errors;
};

Handshake tls_handshake(OSSL_LIB_CTX* libctx, const char* groups) {
  Handshake h;
  EVP_PKEY* key = EVP_PKEY_Q_keygen(libctx, nullptr, "EC", "P-256");
  X509* cert = X509_new_ex(libctx, nullptr);
  SSL_CTX* sctx = SSL_CTX_new_ex(libctx, nullptr, TLS_server_method());
  SSL_CTX* cctx = SSL_CTX_new_ex(libctx, nullptr, TLS_client_method());
  SSL* server = nullptr;
  SSL* client = nullptr;
  X509_NAME* name = cert != nullptr ? X509_get_subject_name(cert) : nullptr;
  static const unsigned char kCn[] = "hqckit provider-of-record test";
  bool ok = key != nullptr && name != nullptr && sctx != nullptr && cctx != nullptr &&
            ASN1_INTEGER_set(X509_get_serialNumber(cert), 1) == 1 &&
            X509_gmtime_adj(X509_getm_notBefore(cert), -60) != nullptr &&
            X509_gmtime_adj(X509_getm_notAfter(cert), 3600) != nullptr && X509_set_pubkey(cert, key) == 1 &&
            X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, kCn, -1, -1, 0) == 1 &&
            X509_set_issuer_name(cert, name) == 1 && X509_sign(cert, key, EVP_sha256()) > 0 &&
            SSL_CTX_use_certificate(sctx, cert) == 1 && SSL_CTX_use_PrivateKey(sctx, key) == 1;
  for (SSL_CTX* c : {sctx, cctx})
    ok = ok && SSL_CTX_set_min_proto_version(c, TLS1_3_VERSION) == 1 && SSL_CTX_set1_groups_list(c, groups) == 1;
  BIO* sbio = nullptr;
  BIO* cbio = nullptr;
  if (ok) {
    server = SSL_new(sctx);
    client = SSL_new(cctx);
    ok = server != nullptr && client != nullptr && BIO_new_bio_pair(&sbio, 0, &cbio, 0) == 1;
  }
  if (ok) {
    SSL_set_bio(server, sbio, sbio);
    SSL_set_bio(client, cbio, cbio);
    SSL_set_accept_state(server);
    SSL_set_connect_state(client);
    bool client_done = false, server_done = false;
    for (int round = 0; round < 20 && !(client_done && server_done) && ok; ++round) {
      if (!client_done) {
        const int rc = SSL_do_handshake(client);
        client_done = rc == 1;
        ok = client_done || SSL_get_error(client, rc) == SSL_ERROR_WANT_READ;
        if (round == 0) h.client_hello = BIO_ctrl_pending(sbio);
      }
      if (ok && !server_done) {
        const int rc = SSL_do_handshake(server);
        server_done = rc == 1;
        ok = server_done || SSL_get_error(server, rc) == SSL_ERROR_WANT_READ;
        if (round == 0) h.server_flight = BIO_ctrl_pending(cbio);
      }
    }
    ok = ok && client_done && server_done;
  }
  if (ok) {
    // OpenSSL 3.0 marks a group it does not know itself with 0x1000000 (TLSEXT_nid_unknown).
    h.group = static_cast<int>(SSL_get_negotiated_group(client) & 0xFFFF);
    EVP_PKEY* share = nullptr;  // the client's own key share (OpenSSL 3.0: SSL_get_tmp_key on a client)
    if (SSL_get_tmp_key(client, &share) == 1 && share != nullptr) {
      h.client_key_provider = provider_of(share);
      EVP_PKEY_free(share);
    }
  }
  h.ok = ok;
  h.errors = drain_errors();
  SSL_free(client);
  SSL_free(server);
  SSL_CTX_free(cctx);
  SSL_CTX_free(sctx);
  X509_free(cert);
  EVP_PKEY_free(key);
  return h;
}

// --- provider of record ---

// The documented openssl.cnf for running hqckit beside another provider of the same names:
// `default_properties = ?provider=hqckit` in the algorithm section.
TEST(ProviderOfRecord, OpensslCnfDefaultPropertiesPickHqckit) {
  Configured c(
      "", "alg_section = algorithm_sect\n[algorithm_sect]\ndefault_properties = ?provider=hqckit\n",
      [](OSSL_LIB_CTX* l) {
        OSSL_PROVIDER_add_builtin(l, "rival", rival::init);
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
  // A TLS handshake on the TLS group both providers offer: hqckit's key share and ciphertext.
  rival::reset();
  const Handshake hs = tls_handshake(c.libctx, "hqc1");
  ASSERT_TRUE(hs.ok) << hs.errors;
  EXPECT_EQ(hs.client_key_provider, "hqckit");
  EXPECT_GT(hs.server_flight, 4433u);
  EXPECT_EQ(rival::g_keygens + rival::g_encaps + rival::g_decaps, 0);
}

TEST(ProviderOfRecord, DefaultPropertiesPickHqckit) {
  // The rival is loaded first, so without a property query OpenSSL may pick it.
  // "?provider=hqckit" (a preference): a mandatory "provider=hqckit" would also apply to every
  // other fetch, the DRBG's included, and break them.
  for (const char* props : {"?provider=hqckit"}) {
    OSSL_LIB_CTX* libctx = OSSL_LIB_CTX_new();
    ASSERT_EQ(OSSL_PROVIDER_add_builtin(libctx, "rival", rival::init), 1);
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
  ASSERT_EQ(OSSL_PROVIDER_add_builtin(libctx, "rival", rival::init), 1);
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

// hqckit beside a second provider that serves the same TLS group (hqc1, same name and code point)
// and can do the whole key exchange. With `?provider=hqckit` hqckit does the HQC work: the
// handshake carries hqckit's 2241-byte key share and 4433-byte ciphertext, and the rival does
// nothing. With `?provider=rival` the rival does it: 32-byte messages, and its counters show one
// key generation, encapsulation and decapsulation. So the first check would fail if the property
// did not decide which provider serves the group.
TEST(ProviderOfRecord, TlsHandshakeBesideAnotherProviderOfTheSameGroup) {
  struct Case {
    const char* props;
    bool hqckit;
  };
  for (const Case& c : {Case{"?provider=hqckit", true}, Case{"?provider=rival", false}}) {
    OSSL_LIB_CTX* libctx = OSSL_LIB_CTX_new();
    ASSERT_EQ(OSSL_PROVIDER_add_builtin(libctx, "rival", rival::init), 1);
    OSSL_PROVIDER* r = OSSL_PROVIDER_load(libctx, "rival");  // first: without a property it may serve
    OSSL_PROVIDER_set_default_search_path(libctx, module_dir().c_str());
    OSSL_PROVIDER* h = OSSL_PROVIDER_load(libctx, "hqckit");
    OSSL_PROVIDER* d = OSSL_PROVIDER_load(libctx, "default");
    ASSERT_TRUE(r != nullptr && h != nullptr && d != nullptr) << drain_errors();
    ASSERT_EQ(EVP_set_default_properties(libctx, c.props), 1);
    rival::reset();
    const Handshake hs = tls_handshake(libctx, "hqc1");
    ASSERT_TRUE(hs.ok) << c.props << ": " << hs.errors;
    EXPECT_EQ(hs.group, 0xFE33) << c.props;
    if (c.hqckit) {
      EXPECT_EQ(hs.client_key_provider, "hqckit");
      EXPECT_GT(hs.client_hello, 2241u);   // hqckit's HQC-1 public key
      EXPECT_GT(hs.server_flight, 4433u);  // hqckit's HQC-1 ciphertext
      EXPECT_EQ(rival::g_keygens + rival::g_encaps + rival::g_decaps, 0);
    } else {
      EXPECT_EQ(hs.client_key_provider, "rival");
      EXPECT_LT(hs.client_hello, 2241u);
      EXPECT_LT(hs.server_flight, 4433u);
      EXPECT_EQ(rival::g_keygens, 1);
      EXPECT_EQ(rival::g_encaps, 1);
      EXPECT_EQ(rival::g_decaps, 1);
    }
    OSSL_PROVIDER_unload(d);
    OSSL_PROVIDER_unload(h);
    OSSL_PROVIDER_unload(r);
    OSSL_LIB_CTX_free(libctx);
  }
}

}  // namespace
