// OpenSSL side of the benchmark: library context, providers, in-memory certificate,
// client handshake, server loop, and micro timing of the group's primitives.
#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include "internal.hpp"

// Paths relative to the directory of the running executable (no absolute build or source path is
// compiled in): the build tree's root (both tools sit in <build>/tools/<name>/) and, installed, the
// module directory beside <prefix>/bin.
#ifndef HQC_TLS_BENCH_BUILD_ROOT_RELDIR
#define HQC_TLS_BENCH_BUILD_ROOT_RELDIR "../.."
#endif
#ifndef HQC_TLS_BENCH_INSTALL_MODULES_RELDIR
#define HQC_TLS_BENCH_INSTALL_MODULES_RELDIR "../lib/ossl-modules"
#endif

namespace tlsb {

namespace {

// The hqckit provider that belongs to this executable: <build>/provider when it runs from a CMake
// build tree (CMakeCache.txt at its root), else <prefix>/<libdir>/ossl-modules; "" if neither.
std::string bundled_provider_dir() {
  char exe[4096];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  if (n <= 0) return "";
  std::string dir(exe, static_cast<std::size_t>(n));
  dir.resize(dir.find_last_of('/') + 1);
  auto resolved = [](const std::string& path) {
    char real[PATH_MAX];
    return realpath(path.c_str(), real) != nullptr ? std::string(real) : std::string();
  };
  const std::string root = resolved(dir + HQC_TLS_BENCH_BUILD_ROOT_RELDIR);
  if (!root.empty() && access((root + "/CMakeCache.txt").c_str(), R_OK) == 0) return root + "/provider";
  std::string installed = resolved(dir + HQC_TLS_BENCH_INSTALL_MODULES_RELDIR);
  if (!installed.empty() && access(installed.c_str(), R_OK | X_OK) == 0) return installed;
  return "";
}

}  // namespace

std::string ssl_errors() {
  std::string s;
  unsigned long e;
  int n = 0;
  while ((e = ERR_get_error()) != 0 && n++ < 8) {
    char buf[256];
    ERR_error_string_n(e, buf, sizeof buf);
    if (!s.empty()) s += "; ";
    s += buf;
  }
  ERR_clear_error();
  return s.empty() ? std::string("no OpenSSL error recorded") : s;
}

void set_shared_error(Shared* sh, const std::string& msg) {
  if (sh->error_set.exchange(1) == 0) {
    std::size_t n = std::min(msg.size(), sizeof sh->error - 1);
    std::memcpy(sh->error, msg.data(), n);
    sh->error[n] = 0;
  }
}

static bool iequal(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// ---------------------------------------------------------------- Tls

Tls::~Tls() {
  if (cert_ != nullptr) X509_free(static_cast<X509*>(cert_));
  if (key_ != nullptr) EVP_PKEY_free(static_cast<EVP_PKEY*>(key_));
  for (void* p : provs_) OSSL_PROVIDER_unload(static_cast<OSSL_PROVIDER*>(p));
  if (lib_ != nullptr) OSSL_LIB_CTX_free(lib_);
}

namespace {
struct CapCollect {
  std::vector<GroupInfo>* out;
  std::string provider;
};

int cap_cb(const OSSL_PARAM params[], void* arg) {
  auto* cc = static_cast<CapCollect*>(arg);
  GroupInfo g;
  g.provider = cc->provider;
  const OSSL_PARAM* p;
  const char* s = nullptr;
  if ((p = OSSL_PARAM_locate_const(params, OSSL_CAPABILITY_TLS_GROUP_NAME)) != nullptr &&
      OSSL_PARAM_get_utf8_string_ptr(p, &s) && s != nullptr)
    g.name = s;
  if ((p = OSSL_PARAM_locate_const(params, OSSL_CAPABILITY_TLS_GROUP_NAME_INTERNAL)) != nullptr &&
      OSSL_PARAM_get_utf8_string_ptr(p, &s) && s != nullptr)
    g.internal = s;
  if ((p = OSSL_PARAM_locate_const(params, OSSL_CAPABILITY_TLS_GROUP_ALG)) != nullptr &&
      OSSL_PARAM_get_utf8_string_ptr(p, &s) && s != nullptr)
    g.alg = s;
  unsigned u = 0;
  if ((p = OSSL_PARAM_locate_const(params, OSSL_CAPABILITY_TLS_GROUP_ID)) != nullptr && OSSL_PARAM_get_uint(p, &u))
    g.id = u;
  if ((p = OSSL_PARAM_locate_const(params, OSSL_CAPABILITY_TLS_GROUP_IS_KEM)) != nullptr && OSSL_PARAM_get_uint(p, &u))
    g.is_kem = u != 0;
  int maxtls = 0;
  if ((p = OSSL_PARAM_locate_const(params, OSSL_CAPABILITY_TLS_GROUP_MAX_TLS)) != nullptr)
    OSSL_PARAM_get_int(p, &maxtls);
  bool tls13 = maxtls == 0 || maxtls == -1 || maxtls >= TLS1_3_VERSION;
  if (!g.name.empty() && tls13) cc->out->push_back(g);
  return 1;
}

int prov_cb(OSSL_PROVIDER* prov, void* arg) {
  // A provider loaded from a path ("/.../hqckit.so") is named by its file, as loaded by name.
  std::string name = OSSL_PROVIDER_get0_name(prov);
  if (const auto slash = name.rfind('/'); slash != std::string::npos) name.erase(0, slash + 1);
  if (name.size() > 3 && name.compare(name.size() - 3, 3, ".so") == 0) name.resize(name.size() - 3);
  CapCollect cc{static_cast<std::vector<GroupInfo>*>(arg), name};
  OSSL_PROVIDER_get_capabilities(prov, "TLS-GROUP", cap_cb, &cc);
  return 1;
}
}  // namespace

static SSL_CTX* base_ctx(OSSL_LIB_CTX* lib, const SSL_METHOD* m, const std::string& suites, std::string* err);

bool Tls::init(const Options& o, std::string* err) {
  ciphersuites_ = o.ciphersuites;
  lib_ = OSSL_LIB_CTX_new();
  if (lib_ == nullptr) {
    *err = "OSSL_LIB_CTX_new failed: " + ssl_errors();
    return false;
  }
  if (!o.provider_path.empty()) {
    struct stat st {};
    if (stat(o.provider_path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
      *err = "--provider-path '" + o.provider_path + "' is not a directory";
      return false;
    }
    OSSL_PROVIDER_set_default_search_path(lib_, o.provider_path.c_str());
  }
  search_path_ = o.provider_path;
  std::vector<std::string> want = o.providers;
  if (std::find(want.begin(), want.end(), "default") == want.end()) want.insert(want.begin(), "default");
  for (const auto& name : want)
    if (!load_provider(name, err)) return false;
  all_.clear();
  OSSL_PROVIDER_do_all(lib_, prov_cb, &all_);

  // ECDSA P-256 self-signed certificate, made in memory.
  EVP_PKEY* key = EVP_PKEY_Q_keygen(lib_, nullptr, "EC", "P-256");
  if (key == nullptr) {
    *err = "P-256 key generation failed: " + ssl_errors();
    return false;
  }
  key_ = key;
  X509* x = X509_new_ex(lib_, nullptr);
  cert_ = x;
  X509_NAME* nm = x != nullptr ? X509_get_subject_name(x) : nullptr;
  static const unsigned char cn[] = "hqckit tls-bench";
  bool ok = x != nullptr && nm != nullptr && X509_set_version(x, X509_VERSION_3) &&
            ASN1_INTEGER_set(X509_get_serialNumber(x), 1) &&
            X509_gmtime_adj(X509_getm_notBefore(x), -3600) != nullptr &&
            X509_gmtime_adj(X509_getm_notAfter(x), 30L * 86400) != nullptr && X509_set_pubkey(x, key) &&
            X509_NAME_add_entry_by_txt(nm, "CN", MBSTRING_ASC, cn, -1, -1, 0) && X509_set_issuer_name(x, nm) &&
            X509_sign(x, key, EVP_sha256()) > 0;
  if (!ok) {
    *err = "self-signed certificate creation failed: " + ssl_errors();
    return false;
  }
  if (!ciphersuites_.empty()) {  // a list OpenSSL rejects is an argument error, reported up front
    SSL_CTX* probe = base_ctx(lib_, TLS_method(), ciphersuites_, err);
    if (probe == nullptr) return false;
    SSL_CTX_free(probe);
  }
  return true;
}

bool Tls::load_provider(const std::string& name, std::string* err) {
  if (std::find(prov_names_.begin(), prov_names_.end(), name) != prov_names_.end()) return true;
  const char* env = getenv("OPENSSL_MODULES");
  std::string path = name;
  // Without an explicit search path, prefer the provider built next to this tool.
  bool builtin = name == "default" || name == "base" || name == "legacy" || name == "null";
  const std::string bundled = bundled_provider_dir();
  if (!builtin && name.find('/') == std::string::npos && search_path_.empty() && env == nullptr && !bundled.empty()) {
    std::string cand = bundled + "/" + name + ".so";
    if (access(cand.c_str(), R_OK) == 0) path = cand;
  }
  OSSL_PROVIDER* p = OSSL_PROVIDER_load(lib_, path.c_str());
  if (p == nullptr) {
    std::string where = !search_path_.empty() ? search_path_
                        : env != nullptr      ? std::string(env) + " (OPENSSL_MODULES)"
                                              : std::string("OpenSSL's module directory");
    if (!bundled.empty() && search_path_.empty() && env == nullptr) where += " and " + bundled;
    *err = "cannot load provider '" + name + "' (searched " + where + "; use --provider-path DIR): " + ssl_errors();
    return false;
  }
  provs_.push_back(p);
  prov_names_.push_back(name);
  all_.clear();
  OSSL_PROVIDER_do_all(lib_, prov_cb, &all_);
  return true;
}

bool Tls::has_provider(const std::string& name) const {
  return std::find(prov_names_.begin(), prov_names_.end(), name) != prov_names_.end();
}

std::string Tls::provider_list() const {
  std::string s;
  for (const auto& n : prov_names_) s += (s.empty() ? "" : ", ") + n;
  return s;
}

bool Tls::resolve_group(const std::string& w, const std::string& provider, GroupInfo* out, std::string* err) const {
  auto it = std::find_if(all_.begin(), all_.end(), [&](const GroupInfo& g) {
    return iequal(g.name, w) && (provider.empty() || g.provider == provider);
  });
  if (it != all_.end()) {
    *out = *it;
    return true;
  }
  std::string avail;
  for (const auto& g : all_)
    if (provider.empty() || g.provider == provider) avail += (avail.empty() ? "" : ",") + g.name;
  if (provider.empty())
    *err = "unknown TLS group '" + w + "': not offered by the loaded providers (" + provider_list() +
           "); available: " + avail;
  else *err = "TLS group '" + w + "' is not offered by provider '" + provider + "'; it offers: " + avail;
  return false;
}

bool Tls::resolve_groups(const std::vector<std::string>& want, std::vector<GroupInfo>* out, std::string* err) const {
  out->clear();
  for (const auto& w : want) {
    GroupInfo g;
    if (!resolve_group(w, "", &g, err)) return false;
    out->push_back(g);
  }
  return true;
}

static SSL_CTX* base_ctx(OSSL_LIB_CTX* lib, const SSL_METHOD* m, const std::string& suites, std::string* err) {
  SSL_CTX* c = SSL_CTX_new_ex(lib, nullptr, m);
  if (c == nullptr) {
    *err = "SSL_CTX_new_ex failed: " + ssl_errors();
    return nullptr;
  }
  if (!suites.empty() && SSL_CTX_set_ciphersuites(c, suites.c_str()) != 1) {
    *err = "--ciphersuites '" + suites + "': no TLS 1.3 cipher suite of this list is known to OpenSSL";
    SSL_CTX_free(c);
    return nullptr;
  }
  SSL_CTX_set_min_proto_version(c, TLS1_3_VERSION);
  SSL_CTX_set_max_proto_version(c, TLS1_3_VERSION);
  SSL_CTX_set_options(c, SSL_OP_NO_TICKET);
  SSL_CTX_set_num_tickets(c, 0);
  SSL_CTX_set_session_cache_mode(c, SSL_SESS_CACHE_OFF);
  return c;
}

SSL_CTX* Tls::server_ctx(const std::string& list, std::string* err) {
  SSL_CTX* c = base_ctx(lib_, TLS_server_method(), ciphersuites_, err);
  if (c == nullptr) return nullptr;
  if (SSL_CTX_use_certificate(c, static_cast<X509*>(cert_)) != 1 ||
      SSL_CTX_use_PrivateKey(c, static_cast<EVP_PKEY*>(key_)) != 1 || SSL_CTX_set1_groups_list(c, list.c_str()) != 1) {
    *err = "server SSL_CTX setup failed (groups " + list + "): " + ssl_errors();
    SSL_CTX_free(c);
    return nullptr;
  }
  return c;
}

SSL_CTX* Tls::client_ctx(std::string* err) {
  SSL_CTX* c = base_ctx(lib_, TLS_client_method(), ciphersuites_, err);
  if (c != nullptr) SSL_CTX_set_verify(c, SSL_VERIFY_NONE, nullptr);
  return c;
}

// ---------------------------------------------------------------- primitive timing

namespace {
struct PkeyCtx {
  EVP_PKEY_CTX* p;
  explicit PkeyCtx(EVP_PKEY_CTX* c) : p(c) {}
  PkeyCtx(const PkeyCtx&) = delete;
  PkeyCtx& operator=(const PkeyCtx&) = delete;
  ~PkeyCtx() { EVP_PKEY_CTX_free(p); }
};

EVP_PKEY* gen_key(OSSL_LIB_CTX* lib, const GroupInfo& g) {
  PkeyCtx c{EVP_PKEY_CTX_new_from_name(lib, g.alg.c_str(), nullptr)};
  if (c.p == nullptr || EVP_PKEY_keygen_init(c.p) <= 0) return nullptr;
  if (!g.internal.empty() && EVP_PKEY_CTX_set_group_name(c.p, g.internal.c_str()) <= 0) ERR_clear_error();
  EVP_PKEY* k = nullptr;
  if (EVP_PKEY_keygen(c.p, &k) <= 0) return nullptr;
  return k;
}

bool derive(OSSL_LIB_CTX* lib, EVP_PKEY* mine, EVP_PKEY* peer) {
  PkeyCtx c{EVP_PKEY_CTX_new_from_pkey(lib, mine, nullptr)};
  std::size_t len = 0;
  if (c.p == nullptr || EVP_PKEY_derive_init(c.p) <= 0 || EVP_PKEY_derive_set_peer(c.p, peer) <= 0 ||
      EVP_PKEY_derive(c.p, nullptr, &len) <= 0)
    return false;
  std::vector<unsigned char> s(len);
  return EVP_PKEY_derive(c.p, s.data(), &len) > 0;
}

bool encaps(OSSL_LIB_CTX* lib, EVP_PKEY* pub, std::vector<unsigned char>* ct) {
  PkeyCtx c{EVP_PKEY_CTX_new_from_pkey(lib, pub, nullptr)};
  std::size_t ctlen = 0, sslen = 0;
  if (c.p == nullptr || EVP_PKEY_encapsulate_init(c.p, nullptr) <= 0 ||
      EVP_PKEY_encapsulate(c.p, nullptr, &ctlen, nullptr, &sslen) <= 0)
    return false;
  ct->resize(ctlen);
  std::vector<unsigned char> ss(sslen);
  if (EVP_PKEY_encapsulate(c.p, ct->data(), &ctlen, ss.data(), &sslen) <= 0) return false;
  ct->resize(ctlen);
  return true;
}

bool decaps(OSSL_LIB_CTX* lib, EVP_PKEY* priv, const std::vector<unsigned char>& ct) {
  PkeyCtx c{EVP_PKEY_CTX_new_from_pkey(lib, priv, nullptr)};
  std::size_t sslen = 0;
  if (c.p == nullptr || EVP_PKEY_decapsulate_init(c.p, nullptr) <= 0 ||
      EVP_PKEY_decapsulate(c.p, nullptr, &sslen, ct.data(), ct.size()) <= 0)
    return false;
  std::vector<unsigned char> ss(sslen);
  return EVP_PKEY_decapsulate(c.p, ss.data(), &sslen, ct.data(), ct.size()) > 0;
}

double median_of(std::vector<double> v) { return percentile(std::move(v), 50); }
}  // namespace

KemTiming Tls::time_kem(const GroupInfo& g, double budget_s) const {
  KemTiming t;
  std::vector<double> kg, en, de, dh_server, dh_client_derive;
  double start = now_ms();
  for (int i = 0; i < 2000; ++i) {
    if (i >= 5 && now_ms() - start > budget_s * 1e3) break;
    int64_t c0 = thread_cpu_ns();
    EVP_PKEY* k = gen_key(lib_, g);
    int64_t c1 = thread_cpu_ns();
    if (k == nullptr) {
      ERR_clear_error();
      return t;
    }
    kg.push_back(static_cast<double>(c1 - c0) * 1e-3);
    bool ok;
    if (g.is_kem) {
      std::vector<unsigned char> ct;
      int64_t a = thread_cpu_ns();
      ok = encaps(lib_, k, &ct);
      int64_t b = thread_cpu_ns();
      ok = ok && decaps(lib_, k, ct);
      int64_t c = thread_cpu_ns();
      en.push_back(static_cast<double>(b - a) * 1e-3);
      de.push_back(static_cast<double>(c - b) * 1e-3);
    } else {
      int64_t a = thread_cpu_ns();
      EVP_PKEY* peer = gen_key(lib_, g);
      ok = peer != nullptr && derive(lib_, peer, k);
      int64_t b = thread_cpu_ns();
      ok = ok && derive(lib_, k, peer);
      int64_t c = thread_cpu_ns();
      EVP_PKEY_free(peer);
      en.push_back(static_cast<double>(b - a) * 1e-3);  // server: keygen + derive
      de.push_back(static_cast<double>(c - b) * 1e-3);  // client: derive
    }
    EVP_PKEY_free(k);
    if (!ok) {
      ERR_clear_error();
      return t;
    }
  }
  t.ok = true;
  t.keygen_us = median_of(kg);
  t.encaps_us = median_of(en);
  t.decaps_us = median_of(de);
  t.client_us = t.keygen_us + t.decaps_us;
  t.server_us = t.encaps_us;
  return t;
}

// ---------------------------------------------------------------- handshakes

namespace {
struct IoCount {
  uint64_t sent = 0, recv = 0;
  uint32_t first_flight = 0;
  bool any_read = false;
  int last_op = 0;  // 1 write, 2 read
  double last_read_ms = 0, last_write_ms = 0;
  // > 0 (link runs): a read counts as a wait when its data came more than gap_ms after our last
  // write, or after the previous read. Data already there when we read after a write (the dummy
  // ChangeCipherSpec that follows a HelloRetryRequest) is no wait. 0 (loopback): every read after
  // a write counts.
  double gap_ms = 0;
  uint32_t waits = 0;
};

// NOLINTNEXTLINE(readability-non-const-parameter): BIO_callback_fn_ex's signature
long bio_cb(BIO* b, int oper, const char*, std::size_t, int, long, int ret, std::size_t* processed) {
  auto* c = static_cast<IoCount*>(static_cast<void*>(BIO_get_callback_arg(b)));
  if (c == nullptr || ret <= 0 || processed == nullptr) return ret;
  if (oper == (BIO_CB_WRITE | BIO_CB_RETURN)) {
    c->sent += *processed;
    if (!c->any_read) c->first_flight += static_cast<uint32_t>(*processed);
    c->last_op = 1;
    c->last_write_ms = now_ms();
  } else if (oper == (BIO_CB_READ | BIO_CB_RETURN)) {
    double t = now_ms();
    // A read after our own write waits for the peer; reads in a row count when a gap splits them.
    const bool waited = c->last_op == 1 ? (c->gap_ms <= 0 || t - c->last_write_ms > c->gap_ms)
                                        : (c->gap_ms > 0 && c->any_read && t - c->last_read_ms > c->gap_ms);
    if (waited) ++c->waits;
    c->last_read_ms = t;
    c->last_op = 2;
    c->recv += *processed;
    c->any_read = true;
  }
  return ret;
}

void attach_counter(SSL* s, IoCount* c) {
  BIO* b = SSL_get_rbio(s);
  BIO_set_callback_ex(b, bio_cb);
  BIO_set_callback_arg(b, static_cast<char*>(static_cast<void*>(c)));
}

void copy_name(char* dst, const char* src) {
  std::size_t n = src != nullptr ? std::min(std::strlen(src), static_cast<std::size_t>(kNameLen - 1)) : 0;
  if (n > 0) std::memcpy(dst, src, n);
  dst[n] = 0;
}

std::string sys_err(const char* what) { return std::string(what) + ": " + std::strerror(errno); }
}  // namespace

bool client_handshake(SSL_CTX* ctx, const Endpoint& ep, const std::string& group, double gap_threshold_ms,
                      HsRecord* rec, std::string* err) {
  std::memset(rec, 0, sizeof *rec);
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_port = htons(static_cast<uint16_t>(ep.port));
  inet_pton(AF_INET, ep.ip.c_str(), &sa.sin_addr);

  double t0 = now_ms();
  int64_t c0 = thread_cpu_ns();
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    *err = sys_err("socket");
    return false;
  }
  tcp_nodelay(fd);
  sock_timeouts(fd, 20);
  if (connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0) {
    *err = sys_err(("connect to " + ep.ip + ":" + std::to_string(ep.port)).c_str());
    close(fd);
    return false;
  }
  double tc = now_ms();
  SSL* s = SSL_new(ctx);
  IoCount io;
  io.gap_ms = gap_threshold_ms;
  bool ok = s != nullptr && SSL_set1_groups_list(s, group.c_str()) == 1 && SSL_set_fd(s, fd) == 1;
  if (ok) {
    attach_counter(s, &io);
    ok = SSL_connect(s) == 1;
  }
  int64_t c1 = thread_cpu_ns();
  double t1 = now_ms();
  if (!ok) {
    *err = "client handshake with group " + group + " failed: " + ssl_errors();
    SSL_free(s);
    close(fd);
    return false;
  }
  TcpStats ts = tcp_stats(fd);
  rec->ok = 1;
  rec->latency_ms = t1 - t0;
  rec->connect_ms = tc - t0;
  rec->cpu_ns = c1 - c0;
  rec->bytes_sent = static_cast<uint32_t>(io.sent);
  rec->bytes_recv = static_cast<uint32_t>(io.recv);
  rec->first_flight = io.first_flight;
  rec->segs_out = ts.segs_out;
  rec->segs_in = ts.segs_in;
  rec->rtt_us = ts.rtt_us;
  rec->retrans = ts.retrans;
  rec->round_trips = 1 + io.waits;  // TCP connect + waits for the server inside TLS
  copy_name(rec->negotiated, SSL_group_to_name(s, static_cast<int>(SSL_get_negotiated_group(s))));
  copy_name(rec->cipher, SSL_CIPHER_standard_name(SSL_get_current_cipher(s)));
  // The server answers one byte once its side is complete; then close with RST.
  char b = 0;
  int r = SSL_read(s, &b, 1);
  if (r != 1) {
    *err = "client: no confirmation byte from server after handshake (" + group + "): " + ssl_errors();
    ok = false;
  }
  SSL_free(s);
  abort_close(fd);
  return ok;
}

namespace {
// The server's BIOs. By default (flight_buffer 0) one socket BIO for both directions, as
// SSL_set_fd makes: during the handshake OpenSSL writes through its own buffering BIO of 4 KiB, and
// a record that does not fit (a ServerHello with an HQC ciphertext of 4.4 to 14.4 kB) leaves in a
// write of its own, the rest of the flight in a second one. nginx and s_server write so on
// OpenSSL 3: nginx enlarges that buffer from its info callback when SSL_get_wbio differs from
// SSL_get_rbio, but SSL_get_wbio returns the BIO below OpenSSL's buffer, so the buffer keeps its
// 4 KiB (the same callback here changed nothing on OpenSSL 3.0). With flight_buffer > 0 the writes go through a
// buffering BIO of that size under OpenSSL's; the flush that ends each flight passes down to it, so a flight of up to
// flight_buffer bytes leaves in one write, as from a server whose output BIO collects a flight
// until the flush. The same for every group; flights below 4 KiB do not change.
bool set_server_bios(SSL* s, int fd, int flight_buffer) {
  BIO* sock = BIO_new_socket(fd, BIO_NOCLOSE);
  if (sock == nullptr) return false;
  if (flight_buffer <= 0) {
    SSL_set_bio(s, sock, sock);
    return true;
  }
  BIO* buf = BIO_new(BIO_f_buffer());
  if (buf == nullptr || BIO_set_write_buffer_size(buf, flight_buffer) != 1 || BIO_up_ref(sock) != 1) {
    BIO_free(buf);
    BIO_free(sock);
    return false;
  }
  SSL_set_bio(s, sock, BIO_push(buf, sock));  // the read side and the chain each own a reference
  return true;
}
}  // namespace

void server_loop(SSL_CTX* ctx, int listen_fd, int stop_fd, Shared* sh, HsRecord* recs, uint32_t max_recs, int threads,
                 int flight_buffer) {
  auto worker = [&]() {
    for (;;) {
      pollfd pf[2] = {{listen_fd, POLLIN, 0}, {stop_fd, POLLIN, 0}};
      int pr = poll(pf, 2, 1000);
      if (pr < 0 && errno != EINTR) return;
      if (pf[1].revents != 0) return;
      if (pr <= 0 || (pf[0].revents & POLLIN) == 0) continue;
      int fd = accept4(listen_fd, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd < 0) continue;  // another worker took it
      double t0 = now_ms();
      int64_t c0 = thread_cpu_ns();
      tcp_nodelay(fd);
      sock_timeouts(fd, 20);
      SSL* s = SSL_new(ctx);
      IoCount io;
      bool ok = s != nullptr && set_server_bios(s, fd, flight_buffer);
      if (ok) {
        attach_counter(s, &io);
        ok = SSL_accept(s) == 1;
      }
      int64_t c1 = thread_cpu_ns();
      double t1 = now_ms();
      int phase = sh->phase.load();
      if (!ok) {
        set_shared_error(sh, "server handshake failed: " + ssl_errors());
      } else if (phase == 0) {
        uint32_t idx = sh->server_count.fetch_add(1);
        if (idx < max_recs) {
          HsRecord& r = recs[idx];
          std::memset(&r, 0, sizeof r);
          TcpStats ts = tcp_stats(fd);
          r.ok = 1;
          r.latency_ms = t1 - t0;
          r.cpu_ns = c1 - c0;
          r.bytes_sent = static_cast<uint32_t>(io.sent);
          r.bytes_recv = static_cast<uint32_t>(io.recv);
          r.first_flight = io.first_flight;
          r.segs_out = ts.segs_out;
          r.segs_in = ts.segs_in;
          r.rtt_us = ts.rtt_us;
          r.retrans = ts.retrans;
          copy_name(r.negotiated, SSL_group_to_name(s, static_cast<int>(SSL_get_negotiated_group(s))));
          copy_name(r.cipher, SSL_CIPHER_standard_name(SSL_get_current_cipher(s)));
          r.group_idx = -1;  // matched by the parent (aliases share a code point)
        }
      } else if (phase - 1 < kMaxGroups) {
        sh->tput_server_cpu_ns[phase - 1].fetch_add(static_cast<uint64_t>(c1 - c0));
      }
      if (ok) {
        char b = 'k';
        if (SSL_write(s, &b, 1) == 1 && BIO_flush(SSL_get_wbio(s)) == 1) {
          char x;
          SSL_read(s, &x, 1);  // returns on the client's close
        }
      }
      ERR_clear_error();
      SSL_free(s);
      close(fd);
    }
  };
  std::vector<std::thread> ts;
  for (int i = 1; i < threads; ++i) ts.emplace_back(worker);
  worker();
  for (auto& t : ts) t.join();
}

}  // namespace tlsb
