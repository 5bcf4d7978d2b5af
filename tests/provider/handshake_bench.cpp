// SPDX-License-Identifier: MIT
// In-process TLS 1.3 handshake benchmark for the hqckit groups against X25519 (memory BIOs, one
// thread; each side's cost is the thread CPU time spent inside its SSL_do_handshake calls). Groups are
// interleaved round by round so that they see the same machine state. It also times, outside
// the handshake, the provider calls each side makes for its key share (client: keygen + encoded
// public key + decapsulate; server: "parameters only" key + set peer share + encapsulate), which
// splits each side's handshake time into KEM work and the rest.
// With --loopback it instead measures the wall-clock time of whole handshakes over TCP on
// 127.0.0.1 (server in a second thread, a new connection per handshake), like `openssl s_time`.
// Usage: hqckit_handshake_bench [--loopback] [rounds=20] [handshakes-per-round=10] [group ...]
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/evp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "arg_int.hpp"
#include "groups.hpp"
#include "tls_harness.hpp"

namespace {

using hqckit_test::thread_cpu_seconds;

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct KemTimes {
  std::vector<double> client, server;
};

// One client + server key-share exchange through the EVP API; returns false on failure.
bool kem_exchange(OSSL_LIB_CTX* libctx, const char* alg, double& client_s, double& server_s) {
  const double t0 = thread_cpu_seconds();
  EVP_PKEY* ckey = nullptr;
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_name(libctx, alg, nullptr);
  bool ok = ctx != nullptr && EVP_PKEY_keygen_init(ctx) > 0 && EVP_PKEY_keygen(ctx, &ckey) > 0;
  EVP_PKEY_CTX_free(ctx);
  unsigned char* share = nullptr;
  std::size_t share_len = ok ? EVP_PKEY_get1_encoded_public_key(ckey, &share) : 0;
  const double t1 = thread_cpu_seconds();
  EVP_PKEY* skey = nullptr;
  ctx = EVP_PKEY_CTX_new_from_name(libctx, alg, nullptr);
  ok = ok && share_len > 0 && ctx != nullptr && EVP_PKEY_paramgen_init(ctx) > 0 && EVP_PKEY_paramgen(ctx, &skey) > 0 &&
       EVP_PKEY_set1_encoded_public_key(skey, share, share_len) == 1;
  EVP_PKEY_CTX_free(ctx);
  std::vector<unsigned char> ct, ss, ss2;
  std::size_t ct_len = 0, ss_len = 0;
  ctx = ok ? EVP_PKEY_CTX_new_from_pkey(libctx, skey, nullptr) : nullptr;
  ok = ok && ctx != nullptr && EVP_PKEY_encapsulate_init(ctx, nullptr) > 0 &&
       EVP_PKEY_encapsulate(ctx, nullptr, &ct_len, nullptr, &ss_len) > 0;
  if (ok) {
    ct.resize(ct_len);
    ss.resize(ss_len);
    ok = EVP_PKEY_encapsulate(ctx, ct.data(), &ct_len, ss.data(), &ss_len) == 1;
  }
  EVP_PKEY_CTX_free(ctx);
  const double t2 = thread_cpu_seconds();
  ctx = ok ? EVP_PKEY_CTX_new_from_pkey(libctx, ckey, nullptr) : nullptr;
  std::size_t ss2_len = 0;
  ok = ok && ctx != nullptr && EVP_PKEY_decapsulate_init(ctx, nullptr) > 0 &&
       EVP_PKEY_decapsulate(ctx, nullptr, &ss2_len, ct.data(), ct.size()) > 0;
  if (ok) {
    ss2.resize(ss2_len);
    ok = EVP_PKEY_decapsulate(ctx, ss2.data(), &ss2_len, ct.data(), ct.size()) == 1 && ss2 == ss;
  }
  EVP_PKEY_CTX_free(ctx);
  const double t3 = thread_cpu_seconds();
  OPENSSL_free(share);
  EVP_PKEY_free(ckey);
  EVP_PKEY_free(skey);
  client_s = (t1 - t0) + (t3 - t2);
  server_s = t2 - t1;
  return ok;
}

// A TLS server on 127.0.0.1 (ephemeral port) that completes handshakes until stopped.
class LoopbackServer {
 public:
  explicit LoopbackServer(SSL_CTX* ctx) : ctx_(ctx), fd_(socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof(addr);
    if (fd_ < 0 || bind(fd_, reinterpret_cast<sockaddr*>(&addr), len) != 0 || listen(fd_, 16) != 0 ||
        getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
      return;
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] { serve(); });
  }
  ~LoopbackServer() {
    stop_ = true;
    const int c = connect_client(port_);  // wake up accept()
    if (c >= 0) close(c);
    if (thread_.joinable()) thread_.join();
    if (fd_ >= 0) close(fd_);
  }
  LoopbackServer(const LoopbackServer&) = delete;
  LoopbackServer& operator=(const LoopbackServer&) = delete;
  int port() const { return port_; }

  static int connect_client(int port) {
    const int c = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(port));
    const int one = 1;
    setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    if (c >= 0 && connect(c, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
      close(c);
      return -1;
    }
    return c;
  }

 private:
  void serve() {
    while (!stop_) {
      const int c = accept(fd_, nullptr, nullptr);
      if (c < 0 || stop_) {
        if (c >= 0) close(c);
        continue;
      }
      const int one = 1;
      setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
      SSL* ssl = SSL_new(ctx_);
      SSL_set_fd(ssl, c);
      if (SSL_accept(ssl) == 1) {
        char b;
        SSL_read(ssl, &b, 1);  // the client's one byte: the handshake is complete on both sides
        SSL_shutdown(ssl);
      }
      SSL_free(ssl);
      close(c);
    }
  }
  SSL_CTX* ctx_;
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// Wall-clock milliseconds for connect + full handshake + one byte of application data.
double loopback_handshake_ms(SSL_CTX* cctx, int port) {
  const auto t0 = std::chrono::steady_clock::now();
  const int c = LoopbackServer::connect_client(port);
  if (c < 0) return -1;
  SSL* ssl = SSL_new(cctx);
  SSL_set_fd(ssl, c);
  const bool ok = SSL_connect(ssl) == 1 && SSL_write(ssl, "x", 1) == 1;
  const auto t1 = std::chrono::steady_clock::now();
  SSL_shutdown(ssl);
  SSL_free(ssl);
  close(c);
  return ok ? std::chrono::duration<double, std::milli>(t1 - t0).count() : -1;
}

int run_loopback(const hqckit_test::Env& env, const std::vector<std::string>& groups, int rounds, int per_round) {
  std::vector<hqckit_test::Pair*> pairs;
  std::vector<LoopbackServer*> servers;
  pairs.reserve(groups.size());
  servers.reserve(groups.size());
  for (const auto& g : groups) {
    pairs.push_back(new hqckit_test::Pair(env, g, g));
    servers.push_back(new LoopbackServer(pairs.back()->server_ctx()));
  }
  std::vector<std::vector<double>> ms(groups.size());
  for (int round = -1; round < rounds; ++round) {
    for (std::size_t i = 0; i < groups.size(); ++i) {
      for (int k = 0; k < per_round; ++k) {
        const double t = loopback_handshake_ms(pairs[i]->client_ctx(), servers[i]->port());
        if (t < 0) {
          std::fprintf(stderr, "%s: loopback handshake failed\n", groups[i].c_str());
          return 1;
        }
        if (round >= 0) ms[i].push_back(t);
      }
    }
  }
  std::printf("backend: %s; %d loopback handshakes per group (TCP 127.0.0.1, new connection each), wall ms\n",
              env.backend().c_str(), rounds * per_round);
  std::printf("%-12s %9s %8s %9s\n", "group", "median", "hs/s", "vs first");
  const double base = median(ms[0]);
  for (std::size_t i = 0; i < groups.size(); ++i) {
    const double m = median(ms[i]);
    std::printf("%-12s %9.3f %8.0f %8.2fx\n", groups[i].c_str(), m, 1e3 / m, m / base);
  }
  for (auto* s : servers) delete s;
  for (auto* p : pairs) delete p;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  bool loopback = false;
  if (argc > 1 && std::strcmp(argv[1], "--loopback") == 0) {
    loopback = true;
    --argc;
    ++argv;
  }
  const int rounds = argc > 1 ? static_cast<int>(hqc::tools::arg_int(argv[1], "rounds", 1, 1000000)) : 20;
  const int per_round = argc > 2 ? static_cast<int>(hqc::tools::arg_int(argv[2], "per_round", 1, 1000000)) : 10;
  std::vector<std::string> groups;
  for (int i = 3; i < argc; ++i) groups.emplace_back(argv[i]);
  if (groups.empty()) {
    groups.emplace_back("X25519");
    for (const auto& g : hqckit::provider::kGroups) groups.emplace_back(g.name);
  }
  hqckit_test::Env env;
  if (!env.ok()) {
    std::fprintf(stderr, "cannot load the hqckit provider from %s\n", HQCKIT_MODULE_DIR);
    return 1;
  }
  if (loopback) return run_loopback(env, groups, rounds, per_round);
  std::vector<hqckit_test::Pair*> pairs;
  pairs.reserve(groups.size());
  for (const auto& g : groups) pairs.push_back(new hqckit_test::Pair(env, g, g));
  const std::size_t n = groups.size();
  std::vector<std::vector<double>> total(n), client(n), server(n);
  std::vector<KemTimes> kem(n);
  for (int round = -1; round < rounds; ++round) {  // round -1 warms up
    for (std::size_t i = 0; i < n; ++i) {
      for (int k = 0; k < per_round; ++k) {
        hqckit_test::HandshakeResult r = pairs[i]->run();
        if (!r.ok) {
          std::fprintf(stderr, "%s: handshake failed\n%s%s", groups[i].c_str(), r.client_error.c_str(),
                       r.server_error.c_str());
          return 1;
        }
        if (round < 0) continue;
        total[i].push_back(r.client_seconds + r.server_seconds);
        client[i].push_back(r.client_seconds);
        server[i].push_back(r.server_seconds);
      }
      if (groups[i] == "X25519") continue;
      for (int k = 0; k < per_round; ++k) {
        double c = 0, s = 0;
        if (!kem_exchange(env.libctx(), groups[i].c_str(), c, s)) {
          std::fprintf(stderr, "%s: KEM exchange failed\n", groups[i].c_str());
          return 1;
        }
        if (round < 0) continue;
        kem[i].client.push_back(c);
        kem[i].server.push_back(s);
      }
    }
  }
  const double base = median(total[0]);
  std::printf("backend: %s; %d handshakes per group (median), ms of thread CPU time inside SSL_do_handshake\n",
              env.backend().c_str(), rounds * per_round);
  std::printf("%-12s %9s %8s %9s | %8s %8s %8s | %8s %8s %8s\n", "group", "handshake", "hs/s", "vs X25519", "client",
              "KEM", "rest", "server", "KEM", "rest");
  for (std::size_t i = 0; i < n; ++i) {
    const double t = median(total[i]) * 1e3, c = median(client[i]) * 1e3, s = median(server[i]) * 1e3;
    const double kc = median(kem[i].client) * 1e3, ks = median(kem[i].server) * 1e3;
    std::printf("%-12s %9.3f %8.0f %8.2fx | %8.3f %8.3f %8.3f | %8.3f %8.3f %8.3f\n", groups[i].c_str(), t, 1e3 / t,
                t / (base * 1e3), c, kc, c - kc, s, ks, s - ks);
  }
  for (auto* p : pairs) delete p;
  return 0;
}
