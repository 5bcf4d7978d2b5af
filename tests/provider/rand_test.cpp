// SPDX-License-Identifier: MIT
// The hqckit provider draws its randomness from the OpenSSL library context it is loaded into:
// with a fake deterministic RAND installed as that context's DRBG (RAND_set_DRBG_type, as
// OpenSSL's own tests do), key generation and encapsulation repeat exactly for the same stream,
// and fail with the provider's message when the RNG fails.
#include <gtest/gtest.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include <openssl/rand.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using Bytes = std::vector<unsigned char>;

// --- a fake EVP_RAND "FAKE-RAND": byte i of the stream is a function of (seed, i) ---

struct FakeState {
  std::uint64_t seed = 1;
  std::uint64_t pos = 0;
  bool fail = false;
};
FakeState g_fake;

struct FakeCtx {
  int state;
};

void* fake_newctx(void*, void*, const OSSL_DISPATCH*) {
  auto* c = static_cast<FakeCtx*>(OPENSSL_zalloc(sizeof(FakeCtx)));
  if (c != nullptr) c->state = EVP_RAND_STATE_UNINITIALISED;
  return c;
}
void fake_freectx(void* c) { OPENSSL_free(c); }
int fake_instantiate(void* c, unsigned int, int, const unsigned char*, size_t, const OSSL_PARAM[]) {
  static_cast<FakeCtx*>(c)->state = EVP_RAND_STATE_READY;
  return 1;
}
int fake_uninstantiate(void* c) {
  static_cast<FakeCtx*>(c)->state = EVP_RAND_STATE_UNINITIALISED;
  return 1;
}
int fake_generate(void*, unsigned char* out, size_t outlen, unsigned int, int, const unsigned char*, size_t) {
  if (g_fake.fail) return 0;
  for (size_t i = 0; i < outlen; ++i, ++g_fake.pos) {
    std::uint64_t x = g_fake.seed * 0x9E3779B97F4A7C15ull + g_fake.pos * 0xBF58476D1CE4E5B9ull;
    x ^= x >> 31;
    x *= 0x94D049BB133111EBull;
    out[i] = static_cast<unsigned char>(x >> 56);
  }
  return 1;
}
int fake_enable_locking(void*) { return 1; }
int fake_get_ctx_params(void* c, OSSL_PARAM params[]) {
  OSSL_PARAM* p;
  if ((p = OSSL_PARAM_locate(params, OSSL_RAND_PARAM_STATE)) != nullptr &&
      OSSL_PARAM_set_int(p, static_cast<FakeCtx*>(c)->state) != 1)
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_RAND_PARAM_STRENGTH)) != nullptr && OSSL_PARAM_set_uint(p, 256) != 1)
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_RAND_PARAM_MAX_REQUEST)) != nullptr &&
      OSSL_PARAM_set_size_t(p, 1u << 16) != 1)
    return 0;
  return 1;
}
const OSSL_PARAM* fake_gettable_ctx_params(void*, void*) {
  static const OSSL_PARAM kGettable[] = {OSSL_PARAM_int(OSSL_RAND_PARAM_STATE, nullptr),
                                         OSSL_PARAM_uint(OSSL_RAND_PARAM_STRENGTH, nullptr),
                                         OSSL_PARAM_size_t(OSSL_RAND_PARAM_MAX_REQUEST, nullptr), OSSL_PARAM_END};
  return kGettable;
}

template <class F>
void (*fn(F* f))(void) {
  return reinterpret_cast<void (*)()>(f);
}

const OSSL_DISPATCH kFakeRand[] = {
    {OSSL_FUNC_RAND_NEWCTX, fn(&fake_newctx)},
    {OSSL_FUNC_RAND_FREECTX, fn(&fake_freectx)},
    {OSSL_FUNC_RAND_INSTANTIATE, fn(&fake_instantiate)},
    {OSSL_FUNC_RAND_UNINSTANTIATE, fn(&fake_uninstantiate)},
    {OSSL_FUNC_RAND_GENERATE, fn(&fake_generate)},
    {OSSL_FUNC_RAND_ENABLE_LOCKING, fn(&fake_enable_locking)},
    {OSSL_FUNC_RAND_GET_CTX_PARAMS, fn(&fake_get_ctx_params)},
    {OSSL_FUNC_RAND_GETTABLE_CTX_PARAMS, fn(&fake_gettable_ctx_params)},
    {0, nullptr},
};
const OSSL_ALGORITHM kFakeAlgs[] = {{"FAKE-RAND", "provider=fake-rand", kFakeRand, nullptr},
                                    {nullptr, nullptr, nullptr, nullptr}};

const OSSL_ALGORITHM* fake_query(void*, int op, int* no_cache) {
  *no_cache = 0;
  return op == OSSL_OP_RAND ? kFakeAlgs : nullptr;
}
const OSSL_DISPATCH kFakeProvider[] = {{OSSL_FUNC_PROVIDER_QUERY_OPERATION, fn(&fake_query)}, {0, nullptr}};

int fake_provider_init(const OSSL_CORE_HANDLE*, const OSSL_DISPATCH*, const OSSL_DISPATCH** out, void** provctx) {
  *out = kFakeProvider;
  *provctx = nullptr;
  return 1;
}

// --- a library context with hqckit, default and the fake RAND as its DRBG ---

struct Env {
  OSSL_LIB_CTX* libctx = OSSL_LIB_CTX_new();
  OSSL_PROVIDER *fake = nullptr, *hqckit = nullptr, *deflt = nullptr;
  Env(const Env&) = delete;
  Env& operator=(const Env&) = delete;
  Env() {
    const char* dir = std::getenv("OPENSSL_MODULES");
    OSSL_PROVIDER_set_default_search_path(libctx, dir != nullptr ? dir : HQCKIT_MODULE_DIR);
    if (OSSL_PROVIDER_add_builtin(libctx, "fake-rand", fake_provider_init) != 1) return;
    fake = OSSL_PROVIDER_load(libctx, "fake-rand");
    deflt = OSSL_PROVIDER_load(libctx, "default");
    hqckit = OSSL_PROVIDER_load(libctx, "hqckit");
    if (fake == nullptr || deflt == nullptr || hqckit == nullptr) return;
    RAND_set_DRBG_type(libctx, "FAKE-RAND", "provider=fake-rand", nullptr, nullptr);
    RAND_set_seed_source_type(libctx, "FAKE-RAND", "provider=fake-rand");
  }
  ~Env() {
    OSSL_PROVIDER_unload(hqckit);
    OSSL_PROVIDER_unload(deflt);
    OSSL_PROVIDER_unload(fake);
    OSSL_LIB_CTX_free(libctx);
  }
};

// Created on first use and freed by the gtest environment's TearDown, before OpenSSL's own
// atexit cleanup runs.
Env* g_env = nullptr;
Env& env() {
  if (g_env == nullptr) g_env = new Env;
  return *g_env;
}
struct FreeEnv : ::testing::Environment {
  void TearDown() override {
    delete g_env;
    g_env = nullptr;
  }
};
const ::testing::Environment* const kFreeEnv = ::testing::AddGlobalTestEnvironment(new FreeEnv);

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

Bytes keygen_public(const char* alg) {
  EVP_PKEY* key = nullptr;
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_name(env().libctx, alg, "provider=hqckit");
  Bytes out;
  if (ctx != nullptr && EVP_PKEY_keygen_init(ctx) == 1 && EVP_PKEY_keygen(ctx, &key) == 1) {
    unsigned char* pub = nullptr;
    const size_t len = EVP_PKEY_get1_encoded_public_key(key, &pub);
    out.assign(pub, pub + len);
    OPENSSL_free(pub);
  }
  EVP_PKEY_free(key);
  EVP_PKEY_CTX_free(ctx);
  return out;
}

class FakeRand : public ::testing::Test {
 protected:
  void SetUp() override {
    if (env().hqckit == nullptr) FAIL() << "cannot load the providers from " << HQCKIT_MODULE_DIR;
    // The DRBG is really the fake one (OpenSSL's own callers see the same stream).
    g_fake = FakeState{42, 0, false};
    unsigned char a[16], b[16];
    ASSERT_EQ(RAND_priv_bytes_ex(env().libctx, a, sizeof(a), 0), 1);
    g_fake = FakeState{42, 0, false};
    ASSERT_EQ(RAND_priv_bytes_ex(env().libctx, b, sizeof(b), 0), 1);
    ASSERT_EQ(std::memcmp(a, b, sizeof(a)), 0);
  }
};

TEST_F(FakeRand, SameStreamSameKeys) {
  for (const char* alg : {"hqc1", "hqc3", "hqc5"}) {
    g_fake = FakeState{7, 0, false};
    const Bytes k1 = keygen_public(alg);
    g_fake = FakeState{7, 0, false};
    const Bytes k2 = keygen_public(alg);
    g_fake = FakeState{8, 0, false};
    const Bytes k3 = keygen_public(alg);
    ASSERT_FALSE(k1.empty()) << drain_errors();
    EXPECT_EQ(k1, k2) << alg << ": the same fake stream must give the same key";
    EXPECT_NE(k1, k3) << alg;
  }
}

TEST_F(FakeRand, SameStreamSameCiphertext) {
  g_fake = FakeState{9, 0, false};
  EVP_PKEY* key = nullptr;
  EVP_PKEY_CTX* gen = EVP_PKEY_CTX_new_from_name(env().libctx, "hqc1", nullptr);
  ASSERT_TRUE(gen != nullptr && EVP_PKEY_keygen_init(gen) == 1 && EVP_PKEY_keygen(gen, &key) == 1);
  EVP_PKEY_CTX_free(gen);
  Bytes ct[2], ss[2];
  for (int i = 0; i < 2; ++i) {
    g_fake = FakeState{10, 0, false};
    EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_pkey(env().libctx, key, nullptr);
    size_t ct_len = 0, ss_len = 0;
    ASSERT_EQ(EVP_PKEY_encapsulate_init(ctx, nullptr), 1);
    ASSERT_EQ(EVP_PKEY_encapsulate(ctx, nullptr, &ct_len, nullptr, &ss_len), 1);
    ct[i].resize(ct_len);
    ss[i].resize(ss_len);
    ASSERT_EQ(EVP_PKEY_encapsulate(ctx, ct[i].data(), &ct_len, ss[i].data(), &ss_len), 1);
    EVP_PKEY_CTX_free(ctx);
  }
  EVP_PKEY_free(key);
  EXPECT_EQ(ct[0], ct[1]);
  EXPECT_EQ(ss[0], ss[1]);
}

TEST_F(FakeRand, FailingRngFailsKeyGenerationWithTheReason) {
  g_fake = FakeState{11, 0, true};
  drain_errors();
  EXPECT_TRUE(keygen_public("hqc1").empty());
  g_fake.fail = false;
  const std::string e = drain_errors();
  EXPECT_NE(e.find("hqc1: the OpenSSL library context gave no random bytes"), std::string::npos) << e;
}

}  // namespace
