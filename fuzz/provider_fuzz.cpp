// Fuzz target for the provider's KEM and key-import entry points (hardening issue): the provider
// code is linked in (coverage-instrumented) and registered as a built-in provider "hqckit".
// The first input byte picks the group (8 groups) and the operation:
//   0: TLS server path: "parameters only" key + EVP_PKEY_set1_encoded_public_key(data) +
//      encapsulate (size query, then real)
//   1: TLS client path: decapsulate data as a ciphertext with a fixed key of the group
//   2: raw import of data as OSSL_PKEY_PARAM_PUB_KEY (EVP_PKEY_fromdata), then export
//   3: raw import of data as OSSL_PKEY_PARAM_PRIV_KEY (+ PUB_KEY if long enough), then decapsulate
// Every call must fail cleanly or succeed; ASan/UBSan/LeakSanitizer report anything else.
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

extern "C" int OSSL_provider_init(const OSSL_CORE_HANDLE*, const OSSL_DISPATCH*, const OSSL_DISPATCH**, void**);

namespace {

constexpr const char* kGroups[] = {"hqc1",      "p256_hqc1", "x25519_hqc1", "hqc3",
                                   "p384_hqc3", "x448_hqc3", "hqc5",        "p521_hqc5"};
constexpr int kNumGroups = 8;

struct Env {
  OSSL_LIB_CTX* libctx = nullptr;
  EVP_PKEY* keys[kNumGroups] = {};
  Env() {
    libctx = OSSL_LIB_CTX_new();
    if (!OSSL_PROVIDER_add_builtin(libctx, "hqckit", &OSSL_provider_init) ||
        OSSL_PROVIDER_load(libctx, "default") == nullptr || OSSL_PROVIDER_load(libctx, "hqckit") == nullptr)
      std::abort();
    for (int i = 0; i < kNumGroups; i++) {
      EVP_PKEY_CTX* c = EVP_PKEY_CTX_new_from_name(libctx, kGroups[i], nullptr);
      if (!c || EVP_PKEY_keygen_init(c) <= 0 || EVP_PKEY_keygen(c, &keys[i]) <= 0) std::abort();
      EVP_PKEY_CTX_free(c);
    }
  }
};

Env& env() {
  static Env e;
  return e;
}

void encaps_with_share(const char* name, const std::uint8_t* d, std::size_t n) {
  EVP_PKEY* key = nullptr;
  EVP_PKEY_CTX* c = EVP_PKEY_CTX_new_from_name(env().libctx, name, nullptr);
  if (c && EVP_PKEY_paramgen_init(c) > 0 && EVP_PKEY_paramgen(c, &key) > 0 &&
      EVP_PKEY_set1_encoded_public_key(key, d, n) == 1) {
    EVP_PKEY_CTX* e = EVP_PKEY_CTX_new_from_pkey(env().libctx, key, nullptr);
    std::size_t ctlen = 0, sslen = 0;
    if (e && EVP_PKEY_encapsulate_init(e, nullptr) > 0 &&
        EVP_PKEY_encapsulate(e, nullptr, &ctlen, nullptr, &sslen) > 0) {
      std::vector<unsigned char> ct(ctlen), ss(sslen);
      EVP_PKEY_encapsulate(e, ct.data(), &ctlen, ss.data(), &sslen);
    }
    EVP_PKEY_CTX_free(e);
  }
  EVP_PKEY_free(key);
  EVP_PKEY_CTX_free(c);
}

void decaps_with(EVP_PKEY* key, const std::uint8_t* d, std::size_t n) {
  EVP_PKEY_CTX* c = EVP_PKEY_CTX_new_from_pkey(env().libctx, key, nullptr);
  std::size_t sslen = 0;
  if (c && EVP_PKEY_decapsulate_init(c, nullptr) > 0 && EVP_PKEY_decapsulate(c, nullptr, &sslen, d, n) > 0) {
    std::vector<unsigned char> ss(sslen ? sslen : 1);
    EVP_PKEY_decapsulate(c, ss.data(), &sslen, d, n);
  }
  EVP_PKEY_CTX_free(c);
}

void import_raw(const char* name, const std::uint8_t* d, std::size_t n, bool priv) {
  EVP_PKEY_CTX* c = EVP_PKEY_CTX_new_from_name(env().libctx, name, nullptr);
  EVP_PKEY* key = nullptr;
  OSSL_PARAM params[3];
  int np = 0;
  if (priv) {
    params[np++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, const_cast<std::uint8_t*>(d), n);
  } else {
    params[np++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, const_cast<std::uint8_t*>(d), n);
  }
  params[np] = OSSL_PARAM_construct_end();
  if (c && EVP_PKEY_fromdata_init(c) > 0 &&
      EVP_PKEY_fromdata(c, &key, priv ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, params) > 0) {
    OSSL_PARAM* out = nullptr;
    if (EVP_PKEY_todata(key, priv ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, &out) > 0) OSSL_PARAM_free(out);
    if (priv) decaps_with(key, d, n > 64 ? 64 : n);
  }
  EVP_PKEY_free(key);
  EVP_PKEY_CTX_free(c);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const int g = data[0] % kNumGroups;
  const int op = (data[0] / kNumGroups) % 4;
  const std::uint8_t* d = data + 1;
  const std::size_t n = size - 1;
  switch (op) {
    case 0: encaps_with_share(kGroups[g], d, n); break;
    case 1: decaps_with(env().keys[g], d, n); break;
    case 2: import_raw(kGroups[g], d, n, false); break;
    default: import_raw(kGroups[g], d, n, true); break;
  }
  ERR_clear_error();
  return 0;
}
