// SPDX-License-Identifier: MIT
// In-process TLS 1.3 between an OpenSSL client and server over memory BIOs, with the hqckit
// provider loaded into a private library context. Shared by the provider tests and the
// handshake benchmark. Flights can be rewritten in transit to play a hostile peer.
#pragma once

#include <openssl/bio.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <time.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace hqckit_test {

using Bytes = std::vector<unsigned char>;

// A library context with the hqckit provider (from HQCKIT_MODULE_DIR, or OPENSSL_MODULES when
// set) and the default provider, plus a self-signed P-256 server certificate.
class Env {
 public:
  Env() : libctx_(OSSL_LIB_CTX_new()) {
    if (libctx_ == nullptr) return;
    const char* dir = std::getenv("OPENSSL_MODULES");
    OSSL_PROVIDER_set_default_search_path(libctx_, dir != nullptr ? dir : HQCKIT_MODULE_DIR);
    hqckit_ = OSSL_PROVIDER_load(libctx_, "hqckit");
    default_ = OSSL_PROVIDER_load(libctx_, "default");
    if (hqckit_ == nullptr || default_ == nullptr) return;
    key_ = EVP_PKEY_Q_keygen(libctx_, nullptr, "EC", "P-256");
    cert_ = X509_new_ex(libctx_, nullptr);
    if (key_ == nullptr || cert_ == nullptr) return;
    X509_set_version(cert_, 2);
    ASN1_INTEGER_set(X509_get_serialNumber(cert_), 1);
    X509_gmtime_adj(X509_getm_notBefore(cert_), 0);
    X509_gmtime_adj(X509_getm_notAfter(cert_), 3600);
    X509_set_pubkey(cert_, key_);
    X509_NAME* name = X509_get_subject_name(cert_);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("localhost"), -1, -1,
                               0);
    X509_set_issuer_name(cert_, name);
    ok_ = X509_sign(cert_, key_, EVP_sha256()) > 0;
  }
  ~Env() {
    X509_free(cert_);
    EVP_PKEY_free(key_);
    OSSL_PROVIDER_unload(hqckit_);
    OSSL_PROVIDER_unload(default_);
    OSSL_LIB_CTX_free(libctx_);
  }
  Env(const Env&) = delete;
  Env& operator=(const Env&) = delete;

  bool ok() const { return ok_; }
  OSSL_LIB_CTX* libctx() const { return libctx_; }
  OSSL_PROVIDER* hqckit() const { return hqckit_; }
  X509* cert() const { return cert_; }
  EVP_PKEY* key() const { return key_; }

  // The backend the provider runs on (its OSSL_PROV_PARAM_BUILDINFO).
  std::string backend() const {
    const char* info = nullptr;
    OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, const_cast<char**>(&info), 0),
                           OSSL_PARAM_construct_end()};
    if (hqckit_ == nullptr || OSSL_PROVIDER_get_params(hqckit_, params) != 1 || info == nullptr) return "";
    return info;
  }

 private:
  OSSL_LIB_CTX* libctx_ = nullptr;
  OSSL_PROVIDER* hqckit_ = nullptr;
  OSSL_PROVIDER* default_ = nullptr;
  EVP_PKEY* key_ = nullptr;
  X509* cert_ = nullptr;
  bool ok_ = false;
};

// Alerts seen by one endpoint.
struct AlertLog {
  int sent = -1;      // last alert description sent, -1 if none
  int received = -1;  // last alert description received
};

inline void record_alerts(const SSL* ssl, int where, int value) {
  if ((where & SSL_CB_ALERT) == 0) return;
  auto* log = static_cast<AlertLog*>(SSL_get_app_data(ssl));
  if (log == nullptr) return;
  if ((where & SSL_CB_WRITE) != 0) log->sent = value & 0xff;
  else log->received = value & 0xff;
}

struct HandshakeResult {
  bool ok = false;
  int client_group = 0;  // SSL_get_negotiated_group() & 0xffff on each side
  int server_group = 0;
  AlertLog client_alerts, server_alerts;
  std::string client_error, server_error;
  double client_seconds = 0, server_seconds = 0;  // thread CPU time inside SSL_do_handshake per side
  bool data_ok = false;                           // application data round trip
};

// CPU time of the calling thread, in seconds (immune to preemption on a shared machine).
inline double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Rewrites one flight in transit (the bytes one side wrote since its last turn).
using Mutator = std::function<void(Bytes&)>;

class Pair {
 public:
  Pair(const Env& env, const std::string& groups_client, const std::string& groups_server)
      : cctx_(SSL_CTX_new_ex(env.libctx(), nullptr, TLS_client_method())),
        sctx_(SSL_CTX_new_ex(env.libctx(), nullptr, TLS_server_method())) {
    if (cctx_ == nullptr || sctx_ == nullptr) return;
    for (SSL_CTX* c : {cctx_, sctx_}) {
      SSL_CTX_set_min_proto_version(c, TLS1_3_VERSION);
      SSL_CTX_set_max_proto_version(c, TLS1_3_VERSION);
      SSL_CTX_set_info_callback(c, record_alerts);
      SSL_CTX_set_session_cache_mode(c, SSL_SESS_CACHE_OFF);
    }
    SSL_CTX_set_num_tickets(sctx_, 0);
    ok_ = SSL_CTX_set1_groups_list(cctx_, groups_client.c_str()) == 1 &&
          SSL_CTX_set1_groups_list(sctx_, groups_server.c_str()) == 1 &&
          SSL_CTX_use_certificate(sctx_, env.cert()) == 1 && SSL_CTX_use_PrivateKey(sctx_, env.key()) == 1;
  }
  ~Pair() {
    SSL_CTX_free(cctx_);
    SSL_CTX_free(sctx_);
  }
  Pair(const Pair&) = delete;
  Pair& operator=(const Pair&) = delete;
  bool ok() const { return ok_; }
  SSL_CTX* client_ctx() const { return cctx_; }
  SSL_CTX* server_ctx() const { return sctx_; }

  // One full handshake (and a short data exchange); to_server/to_client rewrite the first
  // flight in each direction when given.
  HandshakeResult run(const Mutator& to_server = nullptr, const Mutator& to_client = nullptr) const {
    HandshakeResult r;
    SSL* c = SSL_new(cctx_);
    SSL* s = SSL_new(sctx_);
    BIO* c_in = BIO_new(BIO_s_mem());
    BIO* c_out = BIO_new(BIO_s_mem());
    BIO* s_in = BIO_new(BIO_s_mem());
    BIO* s_out = BIO_new(BIO_s_mem());
    SSL_set_bio(c, c_in, c_out);
    SSL_set_bio(s, s_in, s_out);
    SSL_set_app_data(c, &r.client_alerts);
    SSL_set_app_data(s, &r.server_alerts);
    SSL_set_connect_state(c);
    SSL_set_accept_state(s);
    bool c_done = false, s_done = false, c_failed = false, s_failed = false;
    bool first_c = true, first_s = true;
    for (int round = 0; round < 32 && !(c_done && s_done) && !c_failed && !s_failed; ++round) {
      if (!c_done) step(c, r.client_seconds, c_done, c_failed, r.client_error);
      transfer(c_out, s_in, first_c ? to_server : nullptr, first_c);
      if (!s_done && !c_failed) step(s, r.server_seconds, s_done, s_failed, r.server_error);
      transfer(s_out, c_in, first_s ? to_client : nullptr, first_s);
    }
    if (c_failed || s_failed) {  // let the peer read the alert
      if (!c_failed) step(c, r.client_seconds, c_done, c_failed, r.client_error);
      if (!s_failed) {
        transfer(c_out, s_in, nullptr, first_c);
        step(s, r.server_seconds, s_done, s_failed, r.server_error);
      }
    }
    r.ok = c_done && s_done && !c_failed && !s_failed;
    if (r.ok) {
      r.client_group = SSL_get_negotiated_group(c) & 0xffff;
      r.server_group = SSL_get_negotiated_group(s) & 0xffff;
      static const char kMsg[] = "GET / HTTP/1.0\r\n\r\n";
      char buf[64] = {};
      r.data_ok = SSL_write(c, kMsg, sizeof(kMsg)) == static_cast<int>(sizeof(kMsg));
      transfer(c_out, s_in, nullptr, first_c);
      r.data_ok =
          r.data_ok && SSL_read(s, buf, sizeof(buf)) == static_cast<int>(sizeof(kMsg)) && std::string(buf) == kMsg;
    }
    SSL_free(c);
    SSL_free(s);
    return r;
  }

 private:
  static void step(SSL* ssl, double& seconds, bool& done, bool& failed, std::string& error) {
    const double t0 = thread_cpu_seconds();
    const int rc = SSL_do_handshake(ssl);
    seconds += thread_cpu_seconds() - t0;
    if (rc == 1) {
      done = true;
      return;
    }
    const int err = SSL_get_error(ssl, rc);
    if (err == SSL_ERROR_WANT_READ || err == SSL_ERROR_WANT_WRITE) return;
    failed = true;
    char buf[256];
    unsigned long e;
    const char* data = nullptr;
    int flags = 0;
    while ((e = ERR_get_error_all(nullptr, nullptr, nullptr, &data, &flags)) != 0) {
      ERR_error_string_n(e, buf, sizeof(buf));
      error += buf;
      if (data != nullptr && (flags & ERR_TXT_STRING) != 0) (error += ": ") += data;
      error += '\n';
    }
  }

  static void transfer(BIO* from, BIO* to, const Mutator& mutate, bool& first) {
    const int pending = static_cast<int>(BIO_ctrl_pending(from));
    if (pending <= 0) return;
    Bytes data(static_cast<std::size_t>(pending));
    BIO_read(from, data.data(), pending);
    if (mutate) mutate(data);
    first = false;
    if (!data.empty()) BIO_write(to, data.data(), static_cast<int>(data.size()));
  }

  SSL_CTX* cctx_ = nullptr;
  SSL_CTX* sctx_ = nullptr;
  bool ok_ = false;
};

// Locates the key_share entry of the first handshake message in `flight` (ClientHello or
// ServerHello, unencrypted, in the first record). Returns the offset of the entry's key_exchange
// bytes and its length, or false. Offsets of the enclosing length fields are returned so that a
// caller can resize the share consistently.
struct ShareLocation {
  std::size_t data = 0, len = 0;
  std::vector<std::size_t> len16;  // offsets of 16-bit lengths that enclose the share
  std::size_t hs_len24 = 0;        // offset of the handshake message's 24-bit length
};

inline unsigned get16(const Bytes& b, std::size_t o) { return (unsigned{b[o]} << 8) | b[o + 1]; }

inline bool find_key_share(const Bytes& b, bool client_hello, ShareLocation& loc) {
  if (b.size() < 5 + 4 + 2 + 32 + 1 || b[0] != 22) return false;
  std::size_t o = 5;
  loc.len16 = {3};  // record length
  loc.hs_len24 = o + 1;
  o += 4 + 2 + 32;
  o += 1 + b[o];  // session id
  if (client_hello) {
    o += 2 + get16(b, o);  // cipher suites
    o += 1 + b[o];         // compression methods
  } else {
    o += 2 + 1;  // cipher suite, compression method
  }
  loc.len16.push_back(o);  // extensions length
  const std::size_t end = o + 2 + get16(b, o);
  o += 2;
  while (o + 4 <= end && o + 4 <= b.size()) {
    const unsigned type = get16(b, o), len = get16(b, o + 2);
    if (type == 51) {
      loc.len16.push_back(o + 2);
      std::size_t e = o + 4;
      if (client_hello) {
        loc.len16.push_back(e);  // client_shares length
        e += 2;
      }
      loc.len16.push_back(e + 2);  // key_exchange length
      loc.len = get16(b, e + 2);
      loc.data = e + 4;
      return loc.data + loc.len <= b.size();
    }
    o += 4 + len;
  }
  return false;
}

// Shortens (delta < 0) or lengthens (delta > 0) the key share in place, fixing every length.
inline bool resize_key_share(Bytes& b, bool client_hello, long delta) {
  ShareLocation loc;
  if (!find_key_share(b, client_hello, loc)) return false;
  for (std::size_t off : loc.len16) {
    const long v = static_cast<long>(get16(b, off)) + delta;
    b[off] = static_cast<unsigned char>(v >> 8);
    b[off + 1] = static_cast<unsigned char>(v);
  }
  const long hs = static_cast<long>((unsigned{b[loc.hs_len24]} << 16) | get16(b, loc.hs_len24 + 1)) + delta;
  b[loc.hs_len24] = static_cast<unsigned char>(hs >> 16);
  b[loc.hs_len24 + 1] = static_cast<unsigned char>(hs >> 8);
  b[loc.hs_len24 + 2] = static_cast<unsigned char>(hs);
  const auto at = b.begin() + static_cast<long>(loc.data + loc.len);
  if (delta < 0) b.erase(at + delta, at);
  else b.insert(at, static_cast<std::size_t>(delta), 0x5a);
  return true;
}

}  // namespace hqckit_test
