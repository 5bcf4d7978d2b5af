// SPDX-License-Identifier: MIT
// Tests of the hqckit OpenSSL provider through the public OpenSSL API: the TLS-GROUP table, an
// in-process TLS 1.3 handshake per group (memory BIOs), the KEM and KEYMGMT entry points with
// crafted inputs, and hostile peers inside a handshake.
#include <gtest/gtest.h>
#include <openssl/core_names.h>
#include <openssl/decoder.h>
#include <openssl/encoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/pem.h>
#include <openssl/provider.h>
#include <openssl/tls1.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>

#include "groups.hpp"
#include "tls_harness.hpp"

namespace {

using hqckit::provider::Group;
using hqckit::provider::kGroups;
using hqckit_test::Bytes;
using hqckit_test::Env;
using hqckit_test::HandshakeResult;
using hqckit_test::Pair;

Env& env() {
  static Env e;
  return e;
}

struct PkeyDel {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
struct CtxDel {
  void operator()(EVP_PKEY_CTX* c) const { EVP_PKEY_CTX_free(c); }
};
using PkeyPtr = std::unique_ptr<EVP_PKEY, PkeyDel>;
using CtxPtr = std::unique_ptr<EVP_PKEY_CTX, CtxDel>;

// Skips when HQC_BACKEND names a backend that this build or CPU does not have (the provider
// then refuses to load); otherwise checks that the provider runs on the requested backend.
void require_provider() {
  const char* forced = std::getenv("HQC_BACKEND");
  if (!env().ok()) {
    if (forced != nullptr) {
      GTEST_SKIP() << "backend '" << forced << "' not compiled in or not supported by this CPU";
    }
    FAIL() << "cannot load the hqckit and default providers from " << HQCKIT_MODULE_DIR;
  }
  if (forced != nullptr) {
    // The alias "avx2" runs the first avx2-* row this CPU supports (src/backend/registry.cpp).
    const std::string got = env().backend();
    if (std::string(forced) == "avx2") ASSERT_EQ(got.rfind("avx2-", 0), 0u) << got;
    else ASSERT_EQ(got, forced);
  }
}

std::string drain_errors() {
  std::string out;
  char buf[256];
  unsigned long e;
  const char* data = nullptr;
  int flags = 0;
  while ((e = ERR_get_error_all(nullptr, nullptr, nullptr, &data, &flags)) != 0) {
    ERR_error_string_n(e, buf, sizeof(buf));
    out += buf;
    if (data != nullptr && (flags & ERR_TXT_STRING) != 0) (out += ": ") += data;
    out += '\n';
  }
  return out;
}

PkeyPtr keygen(const Group& g) {
  EVP_PKEY* key = nullptr;
  CtxPtr ctx(EVP_PKEY_CTX_new_from_name(env().libctx(), g.name, nullptr));
  if (!ctx || EVP_PKEY_keygen_init(ctx.get()) <= 0 || EVP_PKEY_keygen(ctx.get(), &key) <= 0) return nullptr;
  return PkeyPtr(key);
}

// The TLS server's path: a "parameters only" key, then the peer's share.
PkeyPtr peer_key(const Group& g, const Bytes& share) {
  EVP_PKEY* key = nullptr;
  CtxPtr ctx(EVP_PKEY_CTX_new_from_name(env().libctx(), g.name, nullptr));
  if (!ctx || EVP_PKEY_paramgen_init(ctx.get()) <= 0 || EVP_PKEY_CTX_set_group_name(ctx.get(), g.name) <= 0 ||
      EVP_PKEY_paramgen(ctx.get(), &key) <= 0)
    return nullptr;
  PkeyPtr p(key);
  if (EVP_PKEY_set1_encoded_public_key(p.get(), share.data(), share.size()) != 1) return nullptr;
  return p;
}

Bytes encoded_public(EVP_PKEY* key) {
  unsigned char* buf = nullptr;
  const std::size_t len = EVP_PKEY_get1_encoded_public_key(key, &buf);
  Bytes out(buf, buf + len);
  OPENSSL_free(buf);
  return out;
}

bool encapsulate(EVP_PKEY* key, Bytes& ct, Bytes& ss) {
  CtxPtr ctx(EVP_PKEY_CTX_new_from_pkey(env().libctx(), key, nullptr));
  std::size_t ct_len = 0, ss_len = 0;
  if (!ctx || EVP_PKEY_encapsulate_init(ctx.get(), nullptr) <= 0 ||
      EVP_PKEY_encapsulate(ctx.get(), nullptr, &ct_len, nullptr, &ss_len) <= 0)
    return false;
  ct.assign(ct_len, 0);
  ss.assign(ss_len, 0);
  return EVP_PKEY_encapsulate(ctx.get(), ct.data(), &ct_len, ss.data(), &ss_len) == 1 && ct_len == ct.size() &&
         ss_len == ss.size();
}

bool decapsulate(EVP_PKEY* key, const Bytes& ct, Bytes& ss) {
  CtxPtr ctx(EVP_PKEY_CTX_new_from_pkey(env().libctx(), key, nullptr));
  std::size_t ss_len = 0;
  if (!ctx || EVP_PKEY_decapsulate_init(ctx.get(), nullptr) <= 0 ||
      EVP_PKEY_decapsulate(ctx.get(), nullptr, &ss_len, ct.data(), ct.size()) <= 0)
    return false;
  ss.assign(ss_len, 0);
  return EVP_PKEY_decapsulate(ctx.get(), ss.data(), &ss_len, ct.data(), ct.size()) == 1 && ss_len == ss.size();
}

// --- the TLS-GROUP capability ---

struct SeenGroup {
  std::string name, internal, alg;
  unsigned id = 0, secbits = 0, is_kem = 0;
  int min_tls = 0, max_tls = 0, min_dtls = 0, max_dtls = 0;
};

int collect_group(const OSSL_PARAM params[], void* arg) {
  SeenGroup g;
  const char* s = nullptr;
  const OSSL_PARAM* p;
  if ((p = OSSL_PARAM_locate_const(params, OSSL_CAPABILITY_TLS_GROUP_NAME)) && OSSL_PARAM_get_utf8_string_ptr(p, &s))
    g.name = s;
  if ((p = OSSL_PARAM_locate_const(params, OSSL_CAPABILITY_TLS_GROUP_NAME_INTERNAL)) &&
      OSSL_PARAM_get_utf8_string_ptr(p, &s))
    g.internal = s;
  if ((p = OSSL_PARAM_locate_const(params, OSSL_CAPABILITY_TLS_GROUP_ALG)) && OSSL_PARAM_get_utf8_string_ptr(p, &s))
    g.alg = s;
  OSSL_PARAM_get_uint(OSSL_PARAM_locate_const(params, OSSL_CAPABILITY_TLS_GROUP_ID), &g.id);
  OSSL_PARAM_get_uint(OSSL_PARAM_locate_const(params, OSSL_CAPABILITY_TLS_GROUP_SECURITY_BITS), &g.secbits);
  OSSL_PARAM_get_uint(OSSL_PARAM_locate_const(params, OSSL_CAPABILITY_TLS_GROUP_IS_KEM), &g.is_kem);
  OSSL_PARAM_get_int(OSSL_PARAM_locate_const(params, OSSL_CAPABILITY_TLS_GROUP_MIN_TLS), &g.min_tls);
  OSSL_PARAM_get_int(OSSL_PARAM_locate_const(params, OSSL_CAPABILITY_TLS_GROUP_MAX_TLS), &g.max_tls);
  OSSL_PARAM_get_int(OSSL_PARAM_locate_const(params, OSSL_CAPABILITY_TLS_GROUP_MIN_DTLS), &g.min_dtls);
  OSSL_PARAM_get_int(OSSL_PARAM_locate_const(params, OSSL_CAPABILITY_TLS_GROUP_MAX_DTLS), &g.max_dtls);
  static_cast<std::vector<SeenGroup>*>(arg)->push_back(g);
  return 1;
}

TEST(ProviderCapabilities, TlsGroupTableMatchesOqsProviderCodePoints) {
  require_provider();
  if (IsSkipped()) return;
  std::vector<SeenGroup> seen;
  ASSERT_EQ(OSSL_PROVIDER_get_capabilities(env().hqckit(), "TLS-GROUP", collect_group, &seen), 1);
  struct Expected {
    const char* name;
    unsigned id, bits;
  };
  // oqs-provider's code points for the HQC groups (the interop contract, written out here
  // independently of the provider's own table).
  const Expected expected[] = {{"hqc1", 0xFE33, 128}, {"p256_hqc1", 0xFE34, 128}, {"x25519_hqc1", 0xFE35, 128},
                               {"hqc3", 0xFE36, 192}, {"p384_hqc3", 0xFE37, 192}, {"x448_hqc3", 0xFE38, 192},
                               {"hqc5", 0xFE39, 256}, {"p521_hqc5", 0xFE3A, 256}};
  ASSERT_EQ(seen.size(), std::size(expected));
  for (std::size_t i = 0; i < seen.size(); ++i) {
    EXPECT_EQ(seen[i].name, expected[i].name);
    EXPECT_EQ(seen[i].internal, expected[i].name);
    EXPECT_EQ(seen[i].alg, expected[i].name);
    EXPECT_EQ(seen[i].id, expected[i].id);
    EXPECT_EQ(seen[i].secbits, expected[i].bits);
    EXPECT_EQ(seen[i].is_kem, 1u);
    EXPECT_EQ(seen[i].min_tls, TLS1_3_VERSION);
    EXPECT_EQ(seen[i].max_tls, 0);
    EXPECT_EQ(seen[i].min_dtls, -1);
    EXPECT_EQ(seen[i].max_dtls, -1);
  }
}

class PerGroup : public ::testing::TestWithParam<std::size_t> {
 protected:
  void SetUp() override { require_provider(); }
  static const Group& group() { return kGroups[GetParam()]; }
};

std::string group_name(const ::testing::TestParamInfo<std::size_t>& info) { return kGroups[info.param].name; }

// --- handshakes ---

TEST_P(PerGroup, InProcessHandshakeNegotiatesTheGroup) {
  Pair pair(env(), group().name, group().name);
  ASSERT_TRUE(pair.ok()) << drain_errors();
  for (int i = 0; i < 2; ++i) {
    HandshakeResult r = pair.run();
    ASSERT_TRUE(r.ok) << "client: " << r.client_error << "server: " << r.server_error;
    EXPECT_EQ(r.client_group, static_cast<int>(group().tls_id));
    EXPECT_EQ(r.server_group, static_cast<int>(group().tls_id));
    EXPECT_TRUE(r.data_ok);
  }
}

// Handshakes on two threads at once sharing one client and one server SSL_CTX (and so the
// provider's contexts and the cached algorithm objects).
TEST_P(PerGroup, ConcurrentHandshakes) {
  Pair pair(env(), group().name, group().name);
  ASSERT_TRUE(pair.ok());
  int ok[2] = {0, 0};
  auto worker = [&](int t) {
    for (int i = 0; i < 4; ++i) {
      HandshakeResult r = pair.run();
      ok[t] += (r.ok && r.client_group == static_cast<int>(group().tls_id) && r.data_ok) ? 1 : 0;
    }
  };
  std::thread a(worker, 0), b(worker, 1);
  a.join();
  b.join();
  EXPECT_EQ(ok[0] + ok[1], 8);
}

TEST_P(PerGroup, ServerPrefersTheGroupAmongClassicalOnes) {
  // The client offers X25519 first with a key share for it; the server only accepts this group,
  // so it answers with a HelloRetryRequest and the client sends an HQC share.
  Pair pair(env(), std::string("X25519:") + group().name, group().name);
  ASSERT_TRUE(pair.ok()) << drain_errors();
  HandshakeResult r = pair.run();
  ASSERT_TRUE(r.ok) << "client: " << r.client_error << "server: " << r.server_error;
  EXPECT_EQ(r.server_group, static_cast<int>(group().tls_id));
}

// Client key share with padding bits set beyond n in the HQC public key: the server must reject
// it with illegal_parameter.
TEST_P(PerGroup, HostileClientShareWithPaddingBitsIsRejected) {
  Pair pair(env(), group().name, group().name);
  ASSERT_TRUE(pair.ok());
  bool mutated = false;
  HandshakeResult r = pair.run([&](Bytes& b) {
    hqckit_test::ShareLocation loc;
    if (!hqckit_test::find_key_share(b, true, loc) || loc.len != group().share_bytes()) return;
    b[loc.data + loc.len - 1] |= 0xE0;  // the top bits of the last byte lie beyond n
    mutated = true;
  });
  ASSERT_TRUE(mutated);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.server_alerts.sent, SSL_AD_ILLEGAL_PARAMETER);
  EXPECT_EQ(r.client_alerts.received, SSL_AD_ILLEGAL_PARAMETER);
  EXPECT_NE(r.server_error.find("malformed key"), std::string::npos) << r.server_error;
}

TEST_P(PerGroup, HostileClientShareOfWrongLengthIsRejected) {
  for (long delta : {-1L, +1L, -static_cast<long>(group().share_bytes()) + 1}) {
    Pair pair(env(), group().name, group().name);
    ASSERT_TRUE(pair.ok());
    bool mutated = false;
    HandshakeResult r = pair.run([&](Bytes& b) { mutated = hqckit_test::resize_key_share(b, true, delta); });
    ASSERT_TRUE(mutated);
    EXPECT_FALSE(r.ok) << "delta " << delta;
    EXPECT_EQ(r.server_alerts.sent, SSL_AD_ILLEGAL_PARAMETER) << "delta " << delta;
    EXPECT_NE(r.server_error.find("wrong length"), std::string::npos) << r.server_error;
  }
}

// Hybrids: an EC share that is not an uncompressed point on the curve, from either side.
TEST_P(PerGroup, HostileClassicalSharesAreRejected) {
  if (group().classical == nullptr || group().classical->group == nullptr) GTEST_SKIP() << "no EC half";
  {
    Pair pair(env(), group().name, group().name);
    ASSERT_TRUE(pair.ok());
    bool mutated = false;
    HandshakeResult r = pair.run([&](Bytes& b) {
      hqckit_test::ShareLocation loc;
      if (!hqckit_test::find_key_share(b, true, loc) || loc.len != group().share_bytes()) return;
      b[loc.data + group().classical->share_bytes - 1] ^= 0x01;  // y no longer on the curve
      mutated = true;
    });
    ASSERT_TRUE(mutated);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.server_alerts.sent, SSL_AD_ILLEGAL_PARAMETER);
    EXPECT_NE(r.server_error.find("invalid P-"), std::string::npos) << r.server_error;
  }
  {
    Pair pair(env(), group().name, group().name);
    ASSERT_TRUE(pair.ok());
    bool mutated = false;
    HandshakeResult r = pair.run(nullptr, [&](Bytes& b) {
      hqckit_test::ShareLocation loc;
      if (!hqckit_test::find_key_share(b, false, loc) || loc.len != group().ciphertext_bytes()) return;
      b[loc.data] = 0x02;  // compressed-point prefix
      mutated = true;
    });
    ASSERT_TRUE(mutated);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.client_alerts.sent, -1);
    EXPECT_NE(r.client_error.find("not an uncompressed point"), std::string::npos) << r.client_error;
  }
}

TEST_P(PerGroup, HostileServerCiphertextOfWrongLengthIsRejected) {
  for (long delta : {-1L, +1L}) {
    Pair pair(env(), group().name, group().name);
    ASSERT_TRUE(pair.ok());
    bool mutated = false;
    HandshakeResult r = pair.run(nullptr, [&](Bytes& b) { mutated = hqckit_test::resize_key_share(b, false, delta); });
    ASSERT_TRUE(mutated);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.client_alerts.sent, -1) << "client sent no alert";
    EXPECT_NE(r.client_error.find("wrong length"), std::string::npos) << r.client_error;
  }
}

// A ciphertext of the right length that was tampered with decapsulates (implicit rejection) to
// a different secret: the handshake fails at the first encrypted record, with an alert.
TEST_P(PerGroup, TamperedServerCiphertextFailsTheHandshake) {
  Pair pair(env(), group().name, group().name);
  ASSERT_TRUE(pair.ok());
  bool mutated = false;
  HandshakeResult r = pair.run(nullptr, [&](Bytes& b) {
    hqckit_test::ShareLocation loc;
    if (!hqckit_test::find_key_share(b, false, loc) || loc.len != group().ciphertext_bytes()) return;
    b[loc.data + loc.len - 100] ^= 0x01;  // inside the HQC ciphertext
    mutated = true;
  });
  ASSERT_TRUE(mutated);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.client_alerts.sent, -1);
}

// --- KEM and KEYMGMT entry points with crafted inputs ---

TEST_P(PerGroup, KemRoundTripAndSizes) {
  PkeyPtr key = keygen(group());
  ASSERT_TRUE(key) << drain_errors();
  EXPECT_EQ(EVP_PKEY_get_security_bits(key.get()), static_cast<int>(group().security_bits));
  Bytes share = encoded_public(key.get());
  ASSERT_EQ(share.size(), group().share_bytes());
  PkeyPtr peer = peer_key(group(), share);
  ASSERT_TRUE(peer) << drain_errors();
  Bytes ct, ss1, ss2;
  ASSERT_TRUE(encapsulate(peer.get(), ct, ss1)) << drain_errors();
  EXPECT_EQ(ct.size(), group().ciphertext_bytes());
  EXPECT_EQ(ss1.size(), group().secret_bytes());
  ASSERT_TRUE(decapsulate(key.get(), ct, ss2)) << drain_errors();
  EXPECT_EQ(ss1, ss2);
  // Encapsulating to the generated key itself also works.
  ASSERT_TRUE(encapsulate(key.get(), ct, ss1)) << drain_errors();
  ASSERT_TRUE(decapsulate(key.get(), ct, ss2));
  EXPECT_EQ(ss1, ss2);
}

TEST_P(PerGroup, ParametersOnlyKeyHasNoKeyMaterial) {
  EVP_PKEY* raw = nullptr;
  CtxPtr ctx(EVP_PKEY_CTX_new_from_name(env().libctx(), group().name, nullptr));
  ASSERT_TRUE(ctx && EVP_PKEY_paramgen_init(ctx.get()) > 0 && EVP_PKEY_paramgen(ctx.get(), &raw) > 0);
  PkeyPtr key(raw);
  unsigned char* buf = nullptr;
  EXPECT_EQ(EVP_PKEY_get1_encoded_public_key(key.get(), &buf), 0u);  // nothing was generated
  OPENSSL_free(buf);
  CtxPtr enc(EVP_PKEY_CTX_new_from_pkey(env().libctx(), key.get(), nullptr));
  EXPECT_LE(EVP_PKEY_encapsulate_init(enc.get(), nullptr), 0);
  drain_errors();
}

TEST_P(PerGroup, WrongLengthSharesAndCiphertextsAreRejectedWithoutChange) {
  PkeyPtr key = keygen(group());
  ASSERT_TRUE(key);
  Bytes share = encoded_public(key.get());
  PkeyPtr peer = peer_key(group(), share);
  ASSERT_TRUE(peer);
  for (std::size_t len : {std::size_t{0}, share.size() - 1, share.size() + 1}) {
    Bytes bad(share);
    bad.resize(len, 0);
    EXPECT_NE(EVP_PKEY_set1_encoded_public_key(peer.get(), bad.data(), bad.size()), 1) << len;
    EXPECT_NE(drain_errors().find("wrong length"), std::string::npos);
  }
  EXPECT_EQ(encoded_public(peer.get()), share);  // unchanged
  Bytes ct, ss, ss2;
  ASSERT_TRUE(encapsulate(peer.get(), ct, ss));
  for (std::size_t len : {std::size_t{0}, ct.size() - 1, ct.size() + 1}) {
    Bytes bad(ct);
    bad.resize(len, 0);
    EXPECT_FALSE(decapsulate(key.get(), bad, ss2)) << len;
    const std::string errors = drain_errors();
    if (len != 0) {  // EVP refuses an empty ciphertext itself
      EXPECT_NE(errors.find("wrong length"), std::string::npos) << errors;
    }
  }
  // Tampered HQC part: implicit rejection, a different secret, no error.
  Bytes tampered(ct);
  tampered[tampered.size() - 1] ^= 0x80;
  ASSERT_TRUE(decapsulate(key.get(), tampered, ss2));
  EXPECT_NE(ss, ss2);
  ASSERT_TRUE(decapsulate(key.get(), ct, ss2));
  EXPECT_EQ(ss, ss2);
}

TEST_P(PerGroup, ShortOutputBuffersAreRejected) {
  PkeyPtr key = keygen(group());
  ASSERT_TRUE(key);
  Bytes ct(group().ciphertext_bytes()), ss(group().secret_bytes());
  CtxPtr enc(EVP_PKEY_CTX_new_from_pkey(env().libctx(), key.get(), nullptr));
  ASSERT_EQ(EVP_PKEY_encapsulate_init(enc.get(), nullptr), 1);
  std::size_t ct_len = ct.size() - 1, ss_len = ss.size();
  EXPECT_NE(EVP_PKEY_encapsulate(enc.get(), ct.data(), &ct_len, ss.data(), &ss_len), 1);
  EXPECT_NE(drain_errors().find("buffer too small"), std::string::npos);
  ct_len = ct.size();
  ss_len = ss.size() - 1;
  EXPECT_NE(EVP_PKEY_encapsulate(enc.get(), ct.data(), &ct_len, ss.data(), &ss_len), 1);
  EXPECT_NE(drain_errors().find("buffer too small"), std::string::npos);
  ss_len = ss.size();
  ASSERT_EQ(EVP_PKEY_encapsulate(enc.get(), ct.data(), &ct_len, ss.data(), &ss_len), 1);
  CtxPtr dec(EVP_PKEY_CTX_new_from_pkey(env().libctx(), key.get(), nullptr));
  ASSERT_EQ(EVP_PKEY_decapsulate_init(dec.get(), nullptr), 1);
  ss_len = ss.size() - 1;
  EXPECT_NE(EVP_PKEY_decapsulate(dec.get(), ss.data(), &ss_len, ct.data(), ct.size()), 1);
  EXPECT_NE(drain_errors().find("buffer too small"), std::string::npos);
}

TEST_P(PerGroup, PublicKeyWithPaddingBitsIsRejected) {
  PkeyPtr key = keygen(group());
  ASSERT_TRUE(key);
  Bytes share = encoded_public(key.get());
  Bytes bad(share);
  bad.back() |= 0xE0;
  EXPECT_FALSE(peer_key(group(), bad));
  EXPECT_NE(drain_errors().find("malformed key"), std::string::npos);
}

TEST_P(PerGroup, ClassicalShareMustBeValid) {
  if (group().classical == nullptr) GTEST_SKIP() << "pure HQC";
  PkeyPtr key = keygen(group());
  ASSERT_TRUE(key);
  Bytes share = encoded_public(key.get());
  if (group().classical->group != nullptr) {  // EC: compressed prefix, then a point off the curve
    Bytes bad(share);
    bad[0] = 0x02;
    EXPECT_FALSE(peer_key(group(), bad));
    bad = share;
    bad[group().classical->share_bytes - 1] ^= 0x01;
    EXPECT_FALSE(peer_key(group(), bad));
    const std::string errors = drain_errors();
    EXPECT_NE(errors.find("invalid P-"), std::string::npos) << errors;
  } else {  // X25519/X448: the all-zero point gives an all-zero secret, which OpenSSL refuses
    Bytes bad(share);
    std::fill(bad.begin(), bad.begin() + static_cast<long>(group().classical->share_bytes), 0);
    PkeyPtr peer = peer_key(group(), bad);
    ASSERT_TRUE(peer);
    Bytes ct, ss;
    EXPECT_FALSE(encapsulate(peer.get(), ct, ss));
    const std::string errors = drain_errors();
    EXPECT_NE(errors.find("key agreement failed"), std::string::npos) << errors;
  }
}

TEST_P(PerGroup, RawImportExportRoundTrip) {
  PkeyPtr key = keygen(group());
  ASSERT_TRUE(key);
  Bytes share = encoded_public(key.get());
  // Public key: export and import through OSSL_PARAMs (EVP_PKEY_todata / EVP_PKEY_fromdata).
  OSSL_PARAM* params = nullptr;
  ASSERT_EQ(EVP_PKEY_todata(key.get(), EVP_PKEY_PUBLIC_KEY, &params), 1);
  const OSSL_PARAM* pub = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PUB_KEY);
  ASSERT_NE(pub, nullptr);
  EXPECT_EQ(pub->data_size, share.size());
  CtxPtr ctx(EVP_PKEY_CTX_new_from_name(env().libctx(), group().name, nullptr));
  EVP_PKEY* raw = nullptr;
  ASSERT_EQ(EVP_PKEY_fromdata_init(ctx.get()), 1);
  ASSERT_EQ(EVP_PKEY_fromdata(ctx.get(), &raw, EVP_PKEY_PUBLIC_KEY, params), 1) << drain_errors();
  PkeyPtr imported(raw);
  OSSL_PARAM_free(params);
  EXPECT_EQ(encoded_public(imported.get()), share);
  EXPECT_EQ(EVP_PKEY_eq(key.get(), imported.get()), 1);
  if (group().classical != nullptr) return;
  // Private key (pure HQC): the serialized HQC secret key.
  ASSERT_EQ(EVP_PKEY_todata(key.get(), EVP_PKEY_KEYPAIR, &params), 1);
  const OSSL_PARAM* priv = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PRIV_KEY);
  ASSERT_NE(priv, nullptr);
  EXPECT_EQ(priv->data_size, group().hqc_sk_bytes);
  raw = nullptr;
  ASSERT_EQ(EVP_PKEY_fromdata(ctx.get(), &raw, EVP_PKEY_KEYPAIR, params), 1) << drain_errors();
  PkeyPtr imported_sk(raw);
  OPENSSL_cleanse(priv->data, priv->data_size);
  OSSL_PARAM_free(params);
  Bytes ct, ss1, ss2;
  ASSERT_TRUE(encapsulate(key.get(), ct, ss1));
  ASSERT_TRUE(decapsulate(imported_sk.get(), ct, ss2));
  EXPECT_EQ(ss1, ss2);
  // A private key of the wrong length is refused.
  unsigned char junk[16] = {};
  OSSL_PARAM bad[] = {OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, junk, sizeof(junk)),
                      OSSL_PARAM_construct_end()};
  raw = nullptr;
  EXPECT_NE(EVP_PKEY_fromdata(ctx.get(), &raw, EVP_PKEY_KEYPAIR, bad), 1);
  EVP_PKEY_free(raw);
  EXPECT_NE(drain_errors().find("wrong length"), std::string::npos);
}

TEST_P(PerGroup, PemRoundTrip) {
  if (group().classical != nullptr) GTEST_SKIP() << "hybrid keys have no file format";
  PkeyPtr key = keygen(group());
  ASSERT_TRUE(key);
  BIO* priv = BIO_new(BIO_s_mem());
  BIO* pub = BIO_new(BIO_s_mem());
  ASSERT_EQ(PEM_write_bio_PrivateKey(priv, key.get(), nullptr, nullptr, 0, nullptr, nullptr), 1) << drain_errors();
  ASSERT_EQ(PEM_write_bio_PUBKEY(pub, key.get()), 1) << drain_errors();
  PkeyPtr sk(PEM_read_bio_PrivateKey_ex(priv, nullptr, nullptr, nullptr, env().libctx(), nullptr));
  PkeyPtr pk(PEM_read_bio_PUBKEY_ex(pub, nullptr, nullptr, nullptr, env().libctx(), nullptr));
  BIO_free(priv);
  BIO_free(pub);
  ASSERT_TRUE(sk) << drain_errors();
  ASSERT_TRUE(pk) << drain_errors();
  EXPECT_EQ(EVP_PKEY_eq(key.get(), sk.get()), 1);
  EXPECT_EQ(EVP_PKEY_eq(key.get(), pk.get()), 1);
  Bytes ct, ss1, ss2;
  ASSERT_TRUE(encapsulate(pk.get(), ct, ss1));
  ASSERT_TRUE(decapsulate(sk.get(), ct, ss2));
  EXPECT_EQ(ss1, ss2);
}

// --- key checks (EVP_PKEY_check = `openssl pkey -check`) and strict decoding ---

Bytes private_bytes(EVP_PKEY* key, std::size_t n) {
  Bytes out(n);
  std::size_t len = 0;
  if (EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_PRIV_KEY, out.data(), out.size(), &len) != 1 || len != n)
    return {};
  return out;
}

// Raw import (EVP_PKEY_fromdata) of a serialized HQC secret key: structural checks only.
PkeyPtr import_private(const Group& g, Bytes sk) {
  OSSL_PARAM params[] = {OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, sk.data(), sk.size()),
                         OSSL_PARAM_construct_end()};
  CtxPtr ctx(EVP_PKEY_CTX_new_from_name(env().libctx(), g.name, nullptr));
  EVP_PKEY* raw = nullptr;
  if (!ctx || EVP_PKEY_fromdata_init(ctx.get()) != 1 ||
      EVP_PKEY_fromdata(ctx.get(), &raw, EVP_PKEY_KEYPAIR, params) != 1)
    return nullptr;
  return PkeyPtr(raw);
}

PkeyPtr import_public(const Group& g, Bytes pk) {
  OSSL_PARAM params[] = {OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, pk.data(), pk.size()),
                         OSSL_PARAM_construct_end()};
  CtxPtr ctx(EVP_PKEY_CTX_new_from_name(env().libctx(), g.name, nullptr));
  EVP_PKEY* raw = nullptr;
  if (!ctx || EVP_PKEY_fromdata_init(ctx.get()) != 1 ||
      EVP_PKEY_fromdata(ctx.get(), &raw, EVP_PKEY_PUBLIC_KEY, params) != 1)
    return nullptr;
  return PkeyPtr(raw);
}

// EVP_PKEY_check (what `openssl pkey -check` calls); "" if valid, else the error text.
std::string check_errors(EVP_PKEY* key, int (*check)(EVP_PKEY_CTX*) = EVP_PKEY_check) {
  drain_errors();
  CtxPtr ctx(EVP_PKEY_CTX_new_from_pkey(env().libctx(), key, nullptr));
  if (!ctx) return "no context";
  if (check(ctx.get()) == 1) return "";
  std::string e = drain_errors();
  return e.empty() ? "failed without an error" : e;
}

Bytes encode_der(EVP_PKEY* key, int selection, const char* structure) {
  OSSL_ENCODER_CTX* ctx = OSSL_ENCODER_CTX_new_for_pkey(key, selection, "DER", structure, nullptr);
  unsigned char* data = nullptr;
  std::size_t len = 0;
  Bytes out;
  if (ctx != nullptr && OSSL_ENCODER_to_data(ctx, &data, &len) == 1) out.assign(data, data + len);
  OPENSSL_clear_free(data, len);
  OSSL_ENCODER_CTX_free(ctx);
  return out;
}

PkeyPtr decode_der(const Bytes& der, int selection, const char* structure) {
  EVP_PKEY* key = nullptr;
  OSSL_DECODER_CTX* ctx =
      OSSL_DECODER_CTX_new_for_pkey(&key, "DER", structure, nullptr, selection, env().libctx(), nullptr);
  const unsigned char* p = der.data();
  std::size_t len = der.size();
  if (ctx == nullptr || OSSL_DECODER_from_data(ctx, &p, &len) != 1) {
    EVP_PKEY_free(key);
    key = nullptr;
  }
  OSSL_DECODER_CTX_free(ctx);
  return PkeyPtr(key);
}

// DER TLV with a two-byte long-form length (every HQC key structure is 256..65535 bytes long).
Bytes tlv82(unsigned char tag, const Bytes& body) {
  Bytes out(4 + body.size());
  out[0] = tag;
  out[1] = 0x82;
  out[2] = static_cast<unsigned char>(body.size() >> 8);
  out[3] = static_cast<unsigned char>(body.size());
  std::copy(body.begin(), body.end(), out.begin() + 4);
  return out;
}

class PureGroup : public PerGroup {
 protected:
  void SetUp() override {
    PerGroup::SetUp();
    if (!IsSkipped() && group().classical != nullptr) GTEST_SKIP() << "hybrid keys have no private key import or files";
  }
};

TEST_P(PerGroup, CheckAcceptsGeneratedKeys) {
  PkeyPtr key = keygen(group());
  ASSERT_TRUE(key);
  EXPECT_EQ(check_errors(key.get()), "");
  EXPECT_EQ(check_errors(key.get(), EVP_PKEY_public_check), "");
  EXPECT_EQ(check_errors(key.get(), EVP_PKEY_private_check), "");
  EXPECT_EQ(check_errors(key.get(), EVP_PKEY_pairwise_check), "");
  PkeyPtr peer = peer_key(group(), encoded_public(key.get()));
  ASSERT_TRUE(peer);
  EXPECT_EQ(check_errors(peer.get(), EVP_PKEY_public_check), "");
  EXPECT_NE(check_errors(peer.get()).find("has no private key to check"), std::string::npos);
}

// A secret key whose embedded public key belongs to another key: accepted by a structural
// import, refused by -check with the reason.
TEST_P(PureGroup, CheckRecomputesThePublicKeyFromSeedDk) {
  const Group& g = group();
  PkeyPtr a = keygen(g), b = keygen(g);
  ASSERT_TRUE(a && b);
  Bytes sk = private_bytes(a.get(), g.hqc_sk_bytes);
  const Bytes pk_b = encoded_public(b.get());
  ASSERT_EQ(sk.size(), g.hqc_sk_bytes);
  ASSERT_EQ(pk_b.size(), g.hqc_pk_bytes);
  std::copy(pk_b.begin(), pk_b.end(), sk.begin());
  PkeyPtr mixed = import_private(g, sk);
  ASSERT_TRUE(mixed) << drain_errors();
  for (auto* check : {EVP_PKEY_check, EVP_PKEY_private_check, EVP_PKEY_pairwise_check}) {
    const std::string e = check_errors(mixed.get(), check);
    EXPECT_NE(e.find(std::string(g.name) + " private key: the embedded public key does not belong to seed_dk"),
              std::string::npos)
        << e;
  }
  EXPECT_EQ(check_errors(mixed.get(), EVP_PKEY_public_check), "");  // the public key alone is fine
  // Only s replaced (seed_ek kept): the recomputation from seed_dk still catches it.
  sk = private_bytes(a.get(), g.hqc_sk_bytes);
  std::copy(pk_b.begin() + 32, pk_b.end(), sk.begin() + 32);
  PkeyPtr mixed_s = import_private(g, sk);
  ASSERT_TRUE(mixed_s);
  EXPECT_NE(check_errors(mixed_s.get()).find("does not belong to seed_dk"), std::string::npos);
  // seed_dk changed: y, x and so s no longer match.
  sk = private_bytes(a.get(), g.hqc_sk_bytes);
  sk[g.hqc_pk_bytes] ^= 1;
  PkeyPtr bad_dk = import_private(g, sk);
  ASSERT_TRUE(bad_dk);
  EXPECT_NE(check_errors(bad_dk.get()).find("does not belong to seed_dk"), std::string::npos);
}

// sigma or seed_kem changed: the public key still belongs to seed_dk, but the key is not what
// key generation makes from seed_kem.
TEST_P(PureGroup, CheckRegeneratesTheKeyFromSeedKem) {
  const Group& g = group();
  PkeyPtr a = keygen(g);
  ASSERT_TRUE(a);
  for (std::size_t at : {g.hqc_pk_bytes + 32, g.hqc_sk_bytes - 1}) {  // sigma, seed_kem
    Bytes sk = private_bytes(a.get(), g.hqc_sk_bytes);
    sk[at] ^= 0x80;
    PkeyPtr k = import_private(g, sk);
    ASSERT_TRUE(k);
    const std::string e = check_errors(k.get());
    EXPECT_NE(e.find("is not what key generation derives from seed_kem"), std::string::npos) << at << ": " << e;
  }
}

// s = 0 (an all-zero public key, or seed_ek || 0) is refused wherever a public key enters.
TEST_P(PerGroup, AllZeroSIsRejected) {
  const Group& g = group();
  PkeyPtr key = keygen(g);
  ASSERT_TRUE(key);
  const std::size_t off = g.share_bytes() - g.hqc_pk_bytes;
  const std::string reason = std::string(g.name) + " public key has s = 0";
  Bytes share = encoded_public(key.get());
  std::fill(share.begin() + static_cast<long>(off + 32), share.end(), 0);  // seed_ek || 0
  drain_errors();
  EXPECT_FALSE(peer_key(g, share));  // TLS key share
  EXPECT_NE(drain_errors().find(reason), std::string::npos);
  EXPECT_FALSE(import_public(g, share));
  EXPECT_NE(drain_errors().find(reason), std::string::npos);
  std::fill(share.begin() + static_cast<long>(off), share.end(), 0);  // all-zero HQC public key
  EXPECT_FALSE(import_public(g, share));
  EXPECT_NE(drain_errors().find(reason), std::string::npos);
  if (g.classical != nullptr) return;
  Bytes sk = private_bytes(key.get(), g.hqc_sk_bytes);  // a secret key embedding s = 0
  std::fill(sk.begin() + 32, sk.begin() + static_cast<long>(g.hqc_pk_bytes), 0);
  EXPECT_FALSE(import_private(g, sk));
  EXPECT_NE(drain_errors().find(reason), std::string::npos);
  Bytes spki = encode_der(key.get(), EVP_PKEY_PUBLIC_KEY, "SubjectPublicKeyInfo");
  ASSERT_GT(spki.size(), g.hqc_pk_bytes);
  std::fill(spki.end() - static_cast<long>(g.hqc_pk_bytes), spki.end(), 0);
  EXPECT_FALSE(decode_der(spki, EVP_PKEY_PUBLIC_KEY, "SubjectPublicKeyInfo"));
  EXPECT_NE(drain_errors().find(reason), std::string::npos);
}

TEST_P(PureGroup, DecodersRejectTrailingBytesAndNonDer) {
  const Group& g = group();
  PkeyPtr key = keygen(g);
  ASSERT_TRUE(key);
  const Bytes p8 = encode_der(key.get(), EVP_PKEY_KEYPAIR, "PrivateKeyInfo");
  const Bytes spki = encode_der(key.get(), EVP_PKEY_PUBLIC_KEY, "SubjectPublicKeyInfo");
  ASSERT_EQ(p8.size(), 4 + 3 + 15 + 4 + g.hqc_sk_bytes);  // SEQ{ INTEGER 0, AlgId, OCTET STRING sk }
  ASSERT_EQ(spki.size(), 4 + 15 + 5 + g.hqc_pk_bytes);    // SEQ{ AlgId, BIT STRING pk }
  ASSERT_TRUE(decode_der(p8, EVP_PKEY_KEYPAIR, "PrivateKeyInfo")) << drain_errors();
  ASSERT_TRUE(decode_der(spki, EVP_PKEY_PUBLIC_KEY, "SubjectPublicKeyInfo")) << drain_errors();
  const Bytes head(p8.begin() + 4, p8.begin() + 22);  // version and AlgorithmIdentifier
  const Bytes sk(p8.begin() + 26, p8.end());
  const Bytes junk(50, 0);
  auto cat = [](Bytes a, const Bytes& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };
  struct Case {
    const char* what;
    Bytes der;
    const char* reason;
  };
  const std::string name = g.name;
  const Case priv_cases[] = {
      {"50 bytes inside the OCTET STRING", tlv82(0x30, cat(head, tlv82(0x04, cat(sk, junk)))), "private key must be"},
      {"50 bytes after the OCTET STRING", tlv82(0x30, cat(cat(head, tlv82(0x04, sk)), junk)),
       "PKCS#8 private key: trailing data after the private key (DER required)"},
      {"50 bytes after the SEQUENCE", cat(p8, junk), "PKCS#8 private key: trailing data after the key structure"},
      {"version 1",
       tlv82(0x30, cat(Bytes{0x02, 0x01, 0x01}, cat(Bytes(head.begin() + 3, head.end()), tlv82(0x04, sk)))),
       "PKCS#8 private key: version is not 0"},
  };
  for (const Case& c : priv_cases) {
    drain_errors();
    EXPECT_FALSE(decode_der(c.der, EVP_PKEY_KEYPAIR, "PrivateKeyInfo")) << c.what;
    const std::string e = drain_errors();
    EXPECT_NE(e.find(name + " " + c.reason), std::string::npos) << c.what << ": " << e;
  }
  // Not DER: a length in more octets than needed (BER allows it), an indefinite length.
  const Bytes p8_body(p8.begin() + 4, p8.end());
  const Bytes padded_len = cat(Bytes{0x30, 0x83, 0x00, p8[2], p8[3]}, p8_body);
  const Bytes indefinite = cat(cat(Bytes{0x30, 0x80}, p8_body), Bytes(2, 0));
  const Bytes padded_octets = cat(
      Bytes{0x04, 0x83, 0x00, static_cast<unsigned char>(sk.size() >> 8), static_cast<unsigned char>(sk.size())}, sk);
  const Bytes inner_padded = tlv82(0x30, cat(head, padded_octets));
  for (const Bytes* der : {&padded_len, &indefinite, &inner_padded})
    EXPECT_FALSE(decode_der(*der, EVP_PKEY_KEYPAIR, "PrivateKeyInfo"));
  EXPECT_NE(drain_errors().find(name + " PKCS#8 private key: no privateKey OCTET STRING"), std::string::npos);
  // SubjectPublicKeyInfo with data after the BIT STRING. (Data after the whole SEQUENCE never
  // reaches the provider: OpenSSL's SubjectPublicKeyInfo pre-decoder reads one DER object, as
  // for every key type.)
  const Bytes alg(spki.begin() + 4, spki.begin() + 19);
  const Bytes bits(spki.begin() + 19, spki.end());
  const Case pub_cases[] = {
      {"50 bytes after the BIT STRING", tlv82(0x30, cat(cat(alg, bits), junk)),
       "SubjectPublicKeyInfo: trailing data inside the key structure"},
  };
  for (const Case& c : pub_cases) {
    drain_errors();
    EXPECT_FALSE(decode_der(c.der, EVP_PKEY_PUBLIC_KEY, "SubjectPublicKeyInfo")) << c.what;
    const std::string e = drain_errors();
    EXPECT_NE(e.find(name + " " + c.reason), std::string::npos) << c.what << ": " << e;
  }
}

TEST_P(PerGroup, HybridKeysSayTheyHaveNoFileFormat) {
  if (group().classical == nullptr) GTEST_SKIP() << "pure HQC keys have files (PemRoundTrip)";
  PkeyPtr key = keygen(group());
  ASSERT_TRUE(key);
  const std::string reason = std::string(group().name) + ": key files are not supported for hybrid groups";
  BIO* out = BIO_new(BIO_s_mem());
  drain_errors();
  EXPECT_NE(PEM_write_bio_PrivateKey(out, key.get(), nullptr, nullptr, 0, nullptr, nullptr), 1);
  EXPECT_NE(drain_errors().find(reason), std::string::npos);
  EXPECT_NE(PEM_write_bio_PUBKEY(out, key.get()), 1);
  EXPECT_NE(drain_errors().find(reason), std::string::npos);
  EXPECT_EQ(BIO_pending(out), 0);
  BIO_free(out);
}

INSTANTIATE_TEST_SUITE_P(Groups, PureGroup, ::testing::Range<std::size_t>(0, kGroups.size()), group_name);

INSTANTIATE_TEST_SUITE_P(Groups, PerGroup, ::testing::Range<std::size_t>(0, kGroups.size()), group_name);

}  // namespace

// Exit code 77 (ctest SKIP_RETURN_CODE) when HQC_BACKEND forces a backend that this build or CPU
// does not have: the provider then refuses to load.
int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (const char* forced = std::getenv("HQC_BACKEND"); forced != nullptr && !env().ok()) {
    std::printf("SKIP: backend '%s' not compiled in or not supported by this CPU\n", forced);
    return 77;
  }
  return RUN_ALL_TESTS();
}
