// Internal interfaces shared by the translation units of the TLS benchmark.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <sys/types.h>

using OSSL_LIB_CTX = struct ossl_lib_ctx_st;
using SSL_CTX = struct ssl_ctx_st;

namespace tlsb {

// ---------------------------------------------------------------- configuration
struct LinkConfig {
  bool enabled = false;   // client and server in their own namespaces behind the delay line
  double rtt_ms = 0;      // added round-trip time (half per direction)
  double rate_mbit = 0;   // bottleneck rate per direction, 0 = unlimited
  double loss_pct = 0;    // random loss per packet and direction
  int initcwnd = 0;       // server route initcwnd, 0 = kernel default (10)
  int queue_pkts = 1000;  // per-direction queue limit of the delay line (tail drop)
  std::string label;      // scenario name for reports
};

struct Options {
  std::vector<std::string> groups;  // as given: NAME, NAME@PROVIDER, or a client list A:B (key shares: *A:*B)
  std::string server_groups;        // server's group list (SSL_CTX_set1_groups_list); "" = the run's groups
  int handshakes = 20;
  int warmup = 2;
  int concurrency = 0;      // 0: no throughput phase
  double duration_s = 2.0;  // throughput phase length per group
  std::vector<std::string> providers;
  std::string provider_path;
  enum class Format { Table, Csv, Json } format = Format::Table;
  std::string preset;
  LinkConfig link;
  double timeout_s = 900;  // whole-run watchdog per scenario
  bool kem_micro = true;
  bool realtime = false;  // SCHED_FIFO for client and server (shields them from other load)
  bool verbose = false;
  int cpu_client = 0, cpu_server = 1;
  int server_flight_buffer = 0;  // > 0: the server's buffered write BIO of that size, flushed per flight
  std::string ciphersuites;      // TLS 1.3 suites of both sides (SSL_CTX_set_ciphersuites); "" = OpenSSL's default
};

// ---------------------------------------------------------------- records (shared memory)
constexpr int kNameLen = 48;

struct HsRecord {  // one side of one handshake; plain data, lives in shared memory
  int32_t group_idx;
  int32_t ok;
  double latency_ms;    // client: socket() .. SSL_connect done; server: accept .. SSL_accept done
  double connect_ms;    // client: TCP connect() time (one RTT)
  int64_t cpu_ns;       // thread CPU time spent in the handshake
  uint32_t bytes_sent;  // TLS bytes written through the socket BIO
  uint32_t bytes_recv;
  uint32_t first_flight;  // bytes sent before the first read (client: ClientHello)
  uint32_t segs_out;      // TCP_INFO tcpi_segs_out at handshake end (incl. SYN/ACKs)
  uint32_t segs_in;
  uint32_t rtt_us;       // TCP_INFO tcpi_rtt (smoothed)
  uint32_t round_trips;  // client: observed waits for the peer (incl. TCP connect)
  uint32_t retrans;      // TCP_INFO tcpi_total_retrans
  char negotiated[kNameLen];
  char cipher[kNameLen];  // the negotiated TLS 1.3 cipher suite (its IANA name)
};

constexpr int kMaxGroups = 32;
constexpr int kMaxContexts = 8;  // library contexts per run (one per NAME@PROVIDER provider, plus the main one)

struct Shared {  // control block at the head of the shared mapping
  std::atomic<uint32_t> server_count;
  std::atomic<int> server_ready;
  std::atomic<int> server_port;  // of library context 0
  std::atomic<int> server_ports[kMaxContexts];
  std::atomic<int> error_set;
  std::atomic<int> phase;  // 0 sequential, 1+g throughput for group g
  std::atomic<uint64_t> tput_count[kMaxGroups];
  std::atomic<uint64_t> tput_client_cpu_ns[kMaxGroups];
  std::atomic<uint64_t> tput_server_cpu_ns[kMaxGroups];
  double tput_seconds[kMaxGroups];
  char error[1024];
};
void set_shared_error(Shared* sh, const std::string& msg);

// ---------------------------------------------------------------- OpenSSL side
struct GroupInfo {
  std::string name;      // TLS group name as registered by the provider (a client list: as given, without @)
  std::string internal;  // provider's internal name
  std::string alg;       // key management algorithm
  std::string provider;
  unsigned id = 0;
  bool is_kem = false;
  // Set by the command line's resolution (bench.cpp):
  std::string spec;                // the --groups entry as given (the result's "group")
  int ctx = 0;                     // library context that serves it
  std::vector<GroupInfo> members;  // a client list A:B: each group in it; empty for one group
};

struct KemTiming {  // in-process micro timing of the group's key exchange primitives
  bool ok = false;
  double client_us = 0;  // keygen + decaps (KEM) or keygen + derive (DH)
  double server_us = 0;  // encaps (KEM) or keygen + derive (DH)
  double keygen_us = 0, encaps_us = 0, decaps_us = 0;
};

class Tls {
 public:
  Tls() = default;
  Tls(const Tls&) = delete;
  Tls& operator=(const Tls&) = delete;
  ~Tls();
  bool init(const Options& o, std::string* err);  // libctx, providers, certificate
  bool load_provider(const std::string& name, std::string* err);
  bool has_provider(const std::string& name) const;
  bool resolve_groups(const std::vector<std::string>& want, std::vector<GroupInfo>* out, std::string* err) const;
  // One group by name; with `provider` non-empty, only as offered by that provider.
  bool resolve_group(const std::string& want, const std::string& provider, GroupInfo* out, std::string* err) const;
  SSL_CTX* server_ctx(const std::string& group_list, std::string* err);
  SSL_CTX* client_ctx(std::string* err);
  KemTiming time_kem(const GroupInfo& g, double budget_s) const;
  const std::vector<GroupInfo>& all_groups() const { return all_; }
  std::string provider_list() const;

 private:
  OSSL_LIB_CTX* lib_ = nullptr;
  std::vector<void*> provs_;  // OSSL_PROVIDER*
  std::vector<std::string> prov_names_;
  std::string search_path_;
  std::string ciphersuites_;  // Options::ciphersuites
  void* key_ = nullptr;       // EVP_PKEY*
  void* cert_ = nullptr;      // X509*
  std::vector<GroupInfo> all_;
};

std::string ssl_errors();

struct Endpoint {
  std::string ip;  // dotted IPv4
  int port = 0;
};

// Client: one full handshake with `group`. Fills `rec`; false with *err on failure.
bool client_handshake(SSL_CTX* ctx, const Endpoint& ep, const std::string& group, double gap_threshold_ms,
                      HsRecord* rec, std::string* err);
// Server: serve connections on `listen_fd` until `stop_fd` becomes readable/hung up.
// Sequential mode: records go to recs[sh->server_count++] (bounded by max_recs). flight_buffer > 0:
// the server writes through a buffer of that many bytes, flushed once per flight (Options).
void server_loop(SSL_CTX* ctx, int listen_fd, int stop_fd, Shared* sh, HsRecord* recs, uint32_t max_recs, int threads,
                 int flight_buffer);

// ---------------------------------------------------------------- sockets
int64_t thread_cpu_ns();
double now_ms();
struct TcpStats {
  uint32_t segs_out = 0, segs_in = 0, rtt_us = 0, retrans = 0;
};
TcpStats tcp_stats(int fd);
void tcp_nodelay(int fd);
void sock_timeouts(int fd, int seconds);
void abort_close(int fd);  // SO_LINGER 0 close: no TIME_WAIT

// ---------------------------------------------------------------- link emulation
bool have_netns_privileges(std::string* why);

class Link {
 public:
  Link() = default;
  Link(const Link&) = delete;
  Link& operator=(const Link&) = delete;
  ~Link() { teardown(); }
  bool setup(const LinkConfig& cfg, std::string* err);
  void teardown();
  int client_ns() const { return ns_client_; }
  int server_ns() const { return ns_server_; }
  pid_t delay_pid() const { return delay_pid_; }
  static constexpr const char* kClientIp = "10.201.1.1";
  static constexpr const char* kServerIp = "10.201.1.2";

 private:
  int ns_client_ = -1, ns_server_ = -1;
  pid_t delay_pid_ = -1;
  int stop_w_ = -1;
};

// ---------------------------------------------------------------- statistics and output
struct GroupResult {
  std::string group, negotiated, scenario;
  std::string cipher;    // negotiated cipher suite (IANA name): it decides the transcript hash
  std::string provider;  // provider(s) whose TLS-GROUP capability offered the group (list: joined by '+')
  LinkConfig link;
  int n = 0;
  double median_ms = 0, p10_ms = 0, p90_ms = 0, p99_ms = 0, mean_ms = 0;
  double connect_ms = 0;
  double client_cpu_us = 0, server_cpu_us = 0;
  KemTiming kem;
  double bytes_c2s = 0, bytes_s2c = 0, client_hello = 0;
  double segs_c2s = 0, segs_s2c = 0, round_trips = 0, tcp_rtt_ms = 0, retrans = 0;
  double hs_per_s = -1, tput_client_util = 0, tput_server_util = 0;
  int concurrency = 0;
  double estimate_ms = -1;  // first-principles estimate (link runs only)
};

double percentile(std::vector<double> v, double p);
double estimate_latency_ms(const LinkConfig& l, double ch_bytes, double s2c_bytes, double cpu_ms);
void print_results(const std::vector<GroupResult>& rs, Options::Format f, bool link_cols);

}  // namespace tlsb
