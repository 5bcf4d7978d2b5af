// Soak client: many sequential TLS 1.3 handshakes (full, no resumption) to a server, cycling
// through key-exchange groups, each followed by an HTTP GET; counts errors and checks that the
// negotiated group is the one asked for; reports its own resident memory as it goes.
//   soak_client --port P --groups hqc1,hqc3 --handshakes N [--host 127.0.0.1] [--report-every K]
// Prints "rss_kib <handshakes> <kib>" lines and a final "handshakes N errors E" line.
// The hqckit provider is loaded through OPENSSL_CONF (as for any OpenSSL program).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "arg_int.hpp"

namespace {

long rss_kib() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::strtol(line.c_str() + 6, nullptr, 10);  // "VmRSS:   1234 kB"
  return -1;
}

int connect_to(const char* host, int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  inet_pton(AF_INET, host, &a.sin_addr);
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

}  // namespace

int main(int argc, char** argv) {
  std::string host = "127.0.0.1", groups;
  int port = 0;
  long n = 0, every = 10000;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string f = argv[i];
    if (f == "--host") host = argv[i + 1];
    else if (f == "--port") port = static_cast<int>(hqc::tools::arg_int(argv[i + 1], "--port", 1, 65535));
    else if (f == "--groups") groups = argv[i + 1];
    else if (f == "--handshakes") n = hqc::tools::arg_int(argv[i + 1], "--handshakes", 0, 1L << 40);
    else if (f == "--report-every") every = hqc::tools::arg_int(argv[i + 1], "--report-every", 1, 1L << 40);
    else {
      std::fprintf(stderr, "soak_client: unknown option %s\n", f.c_str());
      return 2;
    }
  }
  if (port <= 0 || n <= 0 || groups.empty() || every <= 0) {
    std::fprintf(stderr, "usage: soak_client --port P --groups g1,g2 --handshakes N [--host H] [--report-every K]\n");
    return 2;
  }
  std::vector<std::string> gl;
  std::stringstream ss(groups);
  for (std::string g; std::getline(ss, g, ',');)
    if (!g.empty()) gl.push_back(g);

  SSL_CTX* ctx = SSL_CTX_new(TLS_client_method());
  SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION);
  SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, nullptr);
  SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
  long errors = 0;
  std::printf("rss_kib 0 %ld\n", rss_kib());
  for (long i = 1; i <= n; i++) {
    const std::string& g = gl[static_cast<std::size_t>(i) % gl.size()];
    bool ok = false;
    int fd = connect_to(host.c_str(), port);
    SSL* ssl = fd >= 0 ? SSL_new(ctx) : nullptr;
    if (ssl != nullptr && SSL_set1_groups_list(ssl, g.c_str()) == 1 && SSL_set_fd(ssl, fd) == 1 &&
        SSL_connect(ssl) == 1) {
      const char req[] = "GET / HTTP/1.0\r\nHost: localhost\r\n\r\n";
      char buf[512];
      int got = 0, r;
      if (SSL_write(ssl, req, sizeof(req) - 1) > 0) {
        while ((r = SSL_read(ssl, buf + got, static_cast<int>(sizeof(buf)) - 1 - got)) > 0) got += r;
        buf[got] = '\0';
        ok = std::strstr(buf, "200") != nullptr && std::strstr(buf, "group") != nullptr;
      }
      // The group actually negotiated must be the one asked for (the server reports it too).
      const int nid = static_cast<int>(SSL_get_negotiated_group(ssl));
      const char* name = SSL_group_to_name(ssl, nid);
      if (name == nullptr || strcasecmp(name, g.c_str()) != 0) ok = false;
      SSL_shutdown(ssl);
    }
    if (!ok) {
      errors++;
      if (errors <= 5) {
        std::fprintf(stderr, "soak_client: handshake %ld (%s) failed\n", i, g.c_str());
        ERR_print_errors_fp(stderr);
      }
      ERR_clear_error();
    }
    if (ssl) SSL_free(ssl);
    if (fd >= 0) close(fd);
    if (i % every == 0) {
      std::printf("rss_kib %ld %ld\n", i, rss_kib());
      std::fflush(stdout);
    }
  }
  SSL_CTX_free(ctx);
  std::printf("handshakes %ld errors %ld\n", n, errors);
  return errors == 0 ? 0 : 1;
}
