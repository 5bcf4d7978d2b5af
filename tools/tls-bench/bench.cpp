// Command line, scenario list and the client/server process orchestration.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <new>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <openssl/ssl.h>
#include <CLI/CLI.hpp>

#include "internal.hpp"
#include "tls_bench.hpp"

namespace tlsb {
namespace {

volatile std::sig_atomic_t g_stop = 0;
void on_signal(int) { g_stop = 1; }

const char* kUsage =
    "usage: %s --groups G1,G2,... [options]\n"
    "\n"
    "Full TLS 1.3 handshakes (no resumption, ECDSA P-256 certificate made in memory) between a\n"
    "client and a server process pinned to separate cores; groups are interleaved round-robin.\n"
    "\n"
    "  --groups LIST        TLS groups to compare (any loaded provider), e.g. x25519,hqc1,hqc5;\n"
    "                       NAME@PROVIDER: the group as served by PROVIDER, in a library context\n"
    "                       of its own (e.g. hqc1@hqckit,hqc1@oqsprovider,x25519@default);\n"
    "                       A:B: the client offers a list (OpenSSL 3.5: *A:*B sends key shares\n"
    "                       for both, *A:B only for A), the server picks\n"
    "  --server-groups L    the server's group list, in its order of preference (OpenSSL 3.5:\n"
    "                       '/' separates tuples; default: every group of the run)\n"
    "  --handshakes N       measured handshakes per group (default 20, max 100000)\n"
    "  --warmup N           unmeasured handshakes per group first (default 2)\n"
    "  --concurrency C      also measure handshakes/s with C concurrent clients (default off)\n"
    "  --duration S         seconds per group for the concurrency phase (default 2)\n"
    "  --provider NAME      load an OpenSSL provider (repeatable or comma list; 'default' is\n"
    "                       always loaded; 'hqckit' is loaded automatically when a group needs it;\n"
    "                       e.g. --provider oqsprovider --groups x25519,hqc1,mlkem768)\n"
    "  --provider-path DIR  module directory for --provider (default: OPENSSL_MODULES, then the\n"
    "                       provider beside this tool: the build's provider/ folder, or installed\n"
    "                       <prefix>/lib/ossl-modules; then OpenSSL's module directory)\n"
    "  --json | --csv       output format (default: table)\n"
    "  --no-kem-micro       skip the in-process timing of keygen/encaps/decaps\n"
    "  --cpus C,S           cores for client and server (default 0,1)\n"
    "  --server-flight-buffer B\n"
    "                       the server writes through a buffer of B bytes that it flushes once\n"
    "                       per flight, so that a flight of up to B bytes leaves in one write\n"
    "                       (0, the default: OpenSSL's own 4 KiB handshake buffer, which sends a\n"
    "                       record that does not fit on its own, as nginx and s_server do)\n"
    "  --ciphersuites L     the TLS 1.3 cipher suites of both sides (SSL_CTX_set_ciphersuites,\n"
    "                       e.g. TLS_AES_128_GCM_SHA256; default: OpenSSL's, which negotiate\n"
    "                       TLS_AES_256_GCM_SHA384); the suite decides the transcript hash\n"
    "  --realtime           run client and server SCHED_FIFO (root), so that other load on the\n"
    "                       machine does not queue ahead of them; CPU times are unaffected\n"
    "  --timeout S          watchdog per scenario in seconds (default 900)\n"
    "  -v, --verbose        progress on stderr\n"
    "\n"
    "Link emulation (root: network namespaces + TUN + userspace delay line):\n"
    "  --netns              run through the emulated link even with no delay/limit\n"
    "  --rtt MS             added round-trip time in ms (split evenly per direction)\n"
    "  --rate MBIT          bottleneck rate per direction in Mbit/s (0 = unlimited)\n"
    "  --loss PCT           random packet loss per direction in percent\n"
    "  --initcwnd N         initial congestion window (ip route ... initcwnd N) on both ends\n"
    "  --queue PKTS         delay line queue limit per direction (default 1000)\n"
    "  --preset NAME        paper | rtt-sweep | bw-sweep | initcwnd | all\n"
    "                       paper: RTT {0,50} ms x rate {unlimited,1 Mbit/s}\n"
    "                       rtt-sweep: RTT 0,10,25,50,100,200 ms (rate from --rate)\n"
    "                       bw-sweep: 0.5,1,2,5,10,50 Mbit/s, unlimited (RTT from --rtt)\n"
    "                       initcwnd: default initcwnd vs --initcwnd (default 20), RTT --rtt\n"
    "                       (default 50 ms)\n";

bool parse_double(const std::string& s, double lo, double hi, double* out) {
  if (s.empty()) return false;
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(s.c_str(), &end);
  if (errno != 0 || end == nullptr || *end != 0 || !std::isfinite(v) || v < lo || v > hi) return false;
  *out = v;
  return true;
}

bool parse_int(const std::string& s, long lo, long hi, int* out) {
  if (s.empty()) return false;
  char* end = nullptr;
  errno = 0;
  long v = std::strtol(s.c_str(), &end, 10);
  if (errno != 0 || end == nullptr || *end != 0 || v < lo || v > hi) return false;
  *out = static_cast<int>(v);
  return true;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

struct Parsed {
  Options o;
  bool rtt_set = false, rate_set = false, iw_set = false, help = false;
};

// The command line as given: flags and the text of every value, before any check.
struct RawArgs {
  bool json = false, csv = false, no_kem_micro = false, netns = false;
  std::string groups, server_groups, handshakes, warmup, concurrency, duration, cpus, timeout, rtt, rate, loss,
      initcwnd, queue, flight_buffer, ciphersuites;
  std::vector<std::string> providers;
  std::vector<std::string> given;  // names of the value options present

  bool has(const char* flag) const { return std::find(given.begin(), given.end(), flag) != given.end(); }
};

// Reads argv with CLI11 (flags, values, --flag=value, repeated --provider); only the shape of the
// command line is checked here.
bool read_command_line(int argc, char** argv, RawArgs* raw, Parsed* p, std::string* err) {
  Options& o = p->o;
  CLI::App app{"TLS 1.3 handshake benchmark", "hqc-tls-bench"};
  app.set_help_flag();  // -h/--help prints kUsage
  app.allow_extras();   // reported as "unknown argument" below
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.add_flag("-h,--help", p->help);
  app.add_flag("--json", raw->json);
  app.add_flag("--csv", raw->csv);
  app.add_flag("--no-kem-micro", raw->no_kem_micro);
  app.add_flag("-v,--verbose", o.verbose);
  app.add_flag("--realtime", o.realtime);
  app.add_flag("--netns", raw->netns);
  const std::pair<const char*, std::string*> values[] = {{"--groups", &raw->groups},
                                                         {"--server-groups", &raw->server_groups},
                                                         {"--handshakes", &raw->handshakes},
                                                         {"--warmup", &raw->warmup},
                                                         {"--concurrency", &raw->concurrency},
                                                         {"--duration", &raw->duration},
                                                         {"--cpus", &raw->cpus},
                                                         {"--timeout", &raw->timeout},
                                                         {"--rtt", &raw->rtt},
                                                         {"--rate", &raw->rate},
                                                         {"--loss", &raw->loss},
                                                         {"--initcwnd", &raw->initcwnd},
                                                         {"--queue", &raw->queue},
                                                         {"--server-flight-buffer", &raw->flight_buffer},
                                                         {"--ciphersuites", &raw->ciphersuites},
                                                         {"--provider-path", &o.provider_path},
                                                         {"--preset", &o.preset}};
  for (const auto& [flag, target] : values) app.add_option(flag, *target);
  app.add_option("--provider", raw->providers)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const std::string what = e.what();
    const std::size_t colon = what.find(':');
    if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr && colon != std::string::npos &&
        what.find("missing") != std::string::npos)
      *err = "option " + what.substr(0, colon) + " needs a value";
    else *err = what;
    return false;
  }
  if (!app.remaining().empty()) {
    *err = "unknown argument '" + app.remaining().front() + "'";
    return false;
  }
  for (const auto& [flag, target] : values)
    if (app.get_option(flag)->count() > 0) raw->given.emplace_back(flag);
  return true;
}

// Converts and range-checks every value given, with the messages scripts and tests rely on.
bool convert_values(const RawArgs& raw, Parsed* p, std::string* err) {
  Options& o = p->o;
  if (raw.json && raw.csv) {
    *err = "--json and --csv are exclusive";
    return false;
  }
  o.format = raw.json ? Options::Format::Json : raw.csv ? Options::Format::Csv : Options::Format::Table;
  o.kem_micro = !raw.no_kem_micro;
  for (const auto& v : raw.providers)
    for (auto& n : split(v)) o.providers.push_back(n);
  if (raw.has("--groups")) {
    o.groups = split(raw.groups);
    if (o.groups.empty()) {
      *err = "--groups needs at least one group name";
      return false;
    }
  }
  if (raw.has("--ciphersuites")) {
    o.ciphersuites = raw.ciphersuites;
    if (o.ciphersuites.empty()) {
      *err = "--ciphersuites needs a list of TLS 1.3 cipher suites";
      return false;
    }
  }
  if (raw.has("--server-groups")) {
    o.server_groups = raw.server_groups;
    if (o.server_groups.empty()) {
      *err = "--server-groups needs a group list";
      return false;
    }
  }
  struct IntOpt {
    const char* flag;
    const std::string& text;
    long lo, hi;
    int* out;
    const char* expect;
  };
  const IntOpt ints[] = {
      {"--handshakes", raw.handshakes, 1, 100000, &o.handshakes, "an integer in 1..100000"},
      {"--warmup", raw.warmup, 0, 1000, &o.warmup, "an integer in 0..1000"},
      {"--concurrency", raw.concurrency, 0, 256, &o.concurrency, "an integer in 0..256"},
      {"--initcwnd", raw.initcwnd, 1, 1000, &o.link.initcwnd, "an integer in 1..1000"},
      {"--queue", raw.queue, 1, 100000, &o.link.queue_pkts, "an integer in 1..100000"},
      {"--server-flight-buffer", raw.flight_buffer, 0, 1 << 20, &o.server_flight_buffer,
       "a size in bytes in 0..1048576"},
  };
  struct RealOpt {
    const char* flag;
    const std::string& text;
    double lo, hi;
    double* out;
    const char* expect;
  };
  const RealOpt reals[] = {
      {"--duration", raw.duration, 0.1, 600, &o.duration_s, "seconds in 0.1..600"},
      {"--timeout", raw.timeout, 1, 86400, &o.timeout_s, "seconds in 1..86400"},
      {"--rtt", raw.rtt, 0, 10000, &o.link.rtt_ms, "milliseconds in 0..10000"},
      {"--loss", raw.loss, 0, 50, &o.link.loss_pct, "a percentage in 0..50"},
  };
  for (const auto& i : ints)
    if (raw.has(i.flag) && !parse_int(i.text, i.lo, i.hi, i.out)) {
      *err = std::string(i.flag) + " must be " + i.expect + ", got '" + i.text + "'";
      return false;
    }
  for (const auto& r : reals)
    if (raw.has(r.flag) && !parse_double(r.text, r.lo, r.hi, r.out)) {
      *err = std::string(r.flag) + " must be " + r.expect + ", got '" + r.text + "'";
      return false;
    }
  if (raw.has("--rate") &&
      (!parse_double(raw.rate, 0, 100000, &o.link.rate_mbit) || (o.link.rate_mbit > 0 && o.link.rate_mbit < 0.01))) {
    *err = "--rate must be Mbit/s in 0.01..100000 (0 = unlimited), got '" + raw.rate + "'";
    return false;
  }
  if (raw.has("--cpus")) {
    auto c = split(raw.cpus);
    if (c.size() != 2 || !parse_int(c[0], 0, 4095, &o.cpu_client) || !parse_int(c[1], 0, 4095, &o.cpu_server)) {
      *err = "--cpus needs two core numbers CLIENT,SERVER, got '" + raw.cpus + "'";
      return false;
    }
  }
  if (raw.has("--preset") && o.preset != "paper" && o.preset != "rtt-sweep" && o.preset != "bw-sweep" &&
      o.preset != "initcwnd" && o.preset != "all") {
    *err = "unknown preset '" + o.preset + "' (paper, rtt-sweep, bw-sweep, initcwnd, all)";
    return false;
  }
  p->rtt_set = raw.has("--rtt");
  p->rate_set = raw.has("--rate");
  p->iw_set = raw.has("--initcwnd");
  o.link.enabled = raw.netns || p->rtt_set || p->rate_set || p->iw_set || raw.has("--loss");
  return true;
}

// The options together: what a run needs and what it can afford.
bool check_run(const Options& o, std::string* err) {
  if (o.groups.empty()) {
    *err = "--groups is required (e.g. --groups x25519,hqc1)";
    return false;
  }
  if (o.groups.size() > static_cast<std::size_t>(kMaxGroups)) {
    *err = "at most " + std::to_string(kMaxGroups) + " groups per run";
    return false;
  }
  if (static_cast<long>(o.groups.size()) * (o.handshakes + o.warmup) > 200000) {
    *err = "too many handshakes: (handshakes + warmup) x groups must stay <= 200000";
    return false;
  }
  if (o.cpu_client == o.cpu_server) {
    *err = "--cpus: client and server need different cores";
    return false;
  }
  return true;
}

bool parse_args(int argc, char** argv, Parsed* p, std::string* err) {
  RawArgs raw;
  return read_command_line(argc, argv, &raw, p, err) && convert_values(raw, p, err) &&
         (p->help || check_run(p->o, err));
}

std::string fmt(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

std::string label_of(const LinkConfig& l) {
  if (!l.enabled) return "loopback";
  std::string s = "rtt" + fmt(l.rtt_ms) + "ms-" + (l.rate_mbit > 0 ? fmt(l.rate_mbit) + "mbit" : "unlimited");
  if (l.loss_pct > 0) s += "-loss" + fmt(l.loss_pct);
  if (l.initcwnd > 0) s += "-iw" + std::to_string(l.initcwnd);
  return s;
}

std::vector<LinkConfig> scenarios(const Parsed& p) {
  const Options& o = p.o;
  std::vector<LinkConfig> out;
  LinkConfig base = o.link;
  auto add = [&](double rtt, double rate, int iw, const std::string& preset) {
    LinkConfig l = base;
    l.enabled = true;
    l.rtt_ms = rtt;
    l.rate_mbit = rate;
    l.initcwnd = iw;
    l.label = preset + ":" + label_of(l);
    out.push_back(l);
  };
  bool all = o.preset == "all";
  if (o.preset == "paper" || all)
    for (double rtt : {0.0, 50.0})
      for (double rate : {0.0, 1.0}) add(rtt, rate, base.initcwnd, "paper");
  if (o.preset == "rtt-sweep" || all)
    for (double rtt : {0.0, 10.0, 25.0, 50.0, 100.0, 200.0}) add(rtt, base.rate_mbit, base.initcwnd, "rtt-sweep");
  if (o.preset == "bw-sweep" || all)
    for (double rate : {0.5, 1.0, 2.0, 5.0, 10.0, 50.0, 0.0}) add(base.rtt_ms, rate, base.initcwnd, "bw-sweep");
  if (o.preset == "initcwnd" || all) {
    double rtt = p.rtt_set ? base.rtt_ms : 50.0;
    add(rtt, base.rate_mbit, 0, "initcwnd");
    add(rtt, base.rate_mbit, p.iw_set ? base.initcwnd : 20, "initcwnd");
  }
  if (o.preset.empty()) {
    LinkConfig l = base;
    l.label = label_of(l);
    out.push_back(l);
  }
  return out;
}

// ---------------------------------------------------------------- processes

bool pin_possible(int a, int b) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return false;
  return a < CPU_SETSIZE && b < CPU_SETSIZE && CPU_ISSET(a, &set) && CPU_ISSET(b, &set);
}

void child_setup(pid_t parent, int cpu, bool pin, bool realtime) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(1);
  signal(SIGPIPE, SIG_IGN);
  signal(SIGINT, SIG_IGN);  // the parent coordinates shutdown
  signal(SIGTERM, SIG_DFL);
  if (pin) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    sched_setaffinity(0, sizeof set, &set);
  }
  if (realtime) {  // below the delay line's priority (link.cpp)
    sched_param sp{};
    sp.sched_priority = 20;
    sched_setscheduler(0, SCHED_FIFO, &sp);
  }
}

void kill_wait(pid_t pid, double grace_ms) {
  if (pid <= 0) return;
  int st = 0;
  double until = now_ms() + grace_ms;
  while (now_ms() < until) {
    if (waitpid(pid, &st, WNOHANG) == pid) return;
    usleep(2000);
  }
  kill(pid, SIGKILL);
  waitpid(pid, &st, 0);
}

struct Mapping {
  void* p = MAP_FAILED;
  std::size_t n = 0;
  Mapping() = default;
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;
  ~Mapping() {
    if (p != MAP_FAILED) munmap(p, n);
  }
};

// Names differ for aliases (P-256 is negotiated as secp256r1): compare code points too. A client
// list matches any of its members.
bool same_group(const Tls& tls, const char* negotiated, const GroupInfo& want) {
  if (std::ranges::any_of(want.members, [&](const GroupInfo& m) { return same_group(tls, negotiated, m); }))
    return true;
  if (!want.members.empty()) return false;
  if (strcasecmp(negotiated, want.name.c_str()) == 0) return true;
  return want.id != 0 && std::ranges::any_of(tls.all_groups(), [&](const GroupInfo& g) {
           return strcasecmp(g.name.c_str(), negotiated) == 0 && g.id == want.id;
         });
}

// ---------------------------------------------------------------- one scenario, in parts

// Shared memory of a scenario: the control block, then the client's and the server's record of
// every handshake (rounds x groups each), written by the child processes.
struct Records {
  Mapping map;
  Shared* sh = nullptr;
  HsRecord* client = nullptr;
  HsRecord* server = nullptr;

  bool allocate(uint32_t per, std::string* err) {
    const std::size_t head = (sizeof(Shared) + 63) / 64 * 64;
    map.n = head + 2 * static_cast<std::size_t>(per) * sizeof(HsRecord);
    map.p = mmap(nullptr, map.n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (map.p == MAP_FAILED) {
      *err = std::string("mmap: ") + std::strerror(errno);
      return false;
    }
    sh = new (map.p) Shared();
    client = static_cast<HsRecord*>(static_cast<void*>(static_cast<char*>(map.p) + head));
    server = client + per;
    return true;
  }
};

// The server and client TLS contexts of a scenario for one library context, freed together.
struct Contexts {
  SSL_CTX* server = nullptr;
  SSL_CTX* client = nullptr;
  Contexts() = default;
  Contexts(const Contexts&) = delete;
  Contexts& operator=(const Contexts&) = delete;
  ~Contexts() {
    SSL_CTX_free(server);
    SSL_CTX_free(client);
  }
  bool create(Tls& tls, const std::string& server_groups, std::string* err) {
    server = tls.server_ctx(server_groups, err);
    if (server == nullptr) return false;
    client = tls.client_ctx(err);
    return client != nullptr;
  }
};

using ContextSet = std::vector<std::unique_ptr<Contexts>>;  // index: library context (GroupInfo::ctx)

// Everything the two child processes of a scenario share (read-only after setup).
struct Scenario {
  const Options& o;
  const std::vector<GroupInfo>& groups;
  const LinkConfig& lc;
  Link& link;
  Records& rec;
  const ContextSet& ctx;
  uint32_t rounds;  // warm-up + measured handshakes per group
  uint32_t per;     // rounds x groups: records per side
  bool pin;         // both cores available
  std::string ip;   // server address
  double gap;       // client: a read waiting longer than this counts as a round trip
};

// Server child: listens on the scenario's address (inside the server namespace with a link) and
// serves until the stop pipe closes.
// Server child: one listening socket per library context on the scenario's address (inside the
// server namespace with a link), each served by its own thread until the stop pipe closes.
[[noreturn]] void server_child(const Scenario& sc, pid_t parent, int stop_r) {
  child_setup(parent, sc.o.cpu_server, sc.pin, sc.o.realtime);
  Shared* sh = sc.rec.sh;
  if (sc.lc.enabled && setns(sc.link.server_ns(), CLONE_NEWNET) != 0) {
    set_shared_error(sh, std::string("server setns: ") + std::strerror(errno));
    _exit(1);
  }
  std::vector<int> lfds;
  for (std::size_t i = 0; i < sc.ctx.size(); ++i) {
    int lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    int one = 1;
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    inet_pton(AF_INET, sc.ip.c_str(), &sa.sin_addr);
    socklen_t sl = sizeof sa;
    if (lfd < 0 || setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
        bind(lfd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0 || listen(lfd, 1024) != 0 ||
        getsockname(lfd, reinterpret_cast<sockaddr*>(&sa), &sl) != 0) {
      set_shared_error(sh, "server socket on " + sc.ip + ": " + std::strerror(errno));
      _exit(1);
    }
    sh->server_ports[i].store(ntohs(sa.sin_port));
    lfds.push_back(lfd);
  }
  sh->server_port.store(sh->server_ports[0].load());
  sh->server_ready.store(1);
  const int threads = std::max(1, sc.o.concurrency);
  std::vector<std::thread> others;
  others.reserve(lfds.size());
  for (std::size_t i = 1; i < lfds.size(); ++i)
    others.emplace_back([&, i]() {
      server_loop(sc.ctx[i]->server, lfds[i], stop_r, sh, sc.rec.server, sc.per, threads, sc.o.server_flight_buffer);
    });
  server_loop(sc.ctx[0]->server, lfds[0], stop_r, sh, sc.rec.server, sc.per, threads, sc.o.server_flight_buffer);
  for (auto& t : others) t.join();
  _exit(0);
}

// Where and with which client context group g is handshaked.
Endpoint endpoint_of(const Scenario& sc, const GroupInfo& g) {
  return Endpoint{sc.ip, sc.rec.sh->server_ports[g.ctx].load()};
}

// Client, throughput phase: for each group, o.concurrency threads handshake for o.duration_s.
void client_throughput(const Scenario& sc) {
  Shared* sh = sc.rec.sh;
  for (uint32_t g = 0; g < sc.groups.size() && sc.o.concurrency > 0; ++g) {
    sh->phase.store(static_cast<int>(g) + 1);
    const double t0 = now_ms();
    const double deadline = t0 + sc.o.duration_s * 1e3;
    std::vector<std::thread> th;
    th.reserve(static_cast<std::size_t>(sc.o.concurrency));
    for (int c = 0; c < sc.o.concurrency; ++c)
      th.emplace_back([&, g]() {
        HsRecord rec;
        std::string te;
        for (int i = 0; i < 1000000 && now_ms() < deadline && sh->error_set.load() == 0; ++i) {
          const GroupInfo& gi = sc.groups[g];
          if (!client_handshake(sc.ctx[gi.ctx]->client, endpoint_of(sc, gi), gi.name, 0, &rec, &te)) {
            set_shared_error(sh, "concurrency phase: " + te);
            break;
          }
          sh->tput_count[g].fetch_add(1);
          sh->tput_client_cpu_ns[g].fetch_add(static_cast<uint64_t>(rec.cpu_ns));
        }
      });
    for (auto& t : th) t.join();
    sh->tput_seconds[g] = (now_ms() - t0) / 1e3;
    if (sh->error_set.load() != 0) _exit(1);
  }
}

// Client child: the sequential handshakes, groups interleaved round-robin, then the throughput
// phase.
[[noreturn]] void client_child(const Scenario& sc, pid_t parent, int stop_w) {
  child_setup(parent, sc.o.cpu_client, sc.pin, sc.o.realtime);
  close(stop_w);
  Shared* sh = sc.rec.sh;
  if (sc.lc.enabled && setns(sc.link.client_ns(), CLONE_NEWNET) != 0) {
    set_shared_error(sh, std::string("client setns: ") + std::strerror(errno));
    _exit(1);
  }
  std::string e;
  const auto G = static_cast<uint32_t>(sc.groups.size());
  uint32_t k = 0;
  for (uint32_t r = 0; r < sc.rounds; ++r)
    for (uint32_t g = 0; g < G; ++g, ++k) {
      const GroupInfo& gi = sc.groups[g];
      if (!client_handshake(sc.ctx[gi.ctx]->client, endpoint_of(sc, gi), gi.name, sc.gap, &sc.rec.client[k], &e)) {
        set_shared_error(sh, e);
        _exit(1);
      }
      sc.rec.client[k].group_idx = static_cast<int32_t>(g);
    }
  client_throughput(sc);
  _exit(0);
}

// Forks the server (a child of `parent`) and waits (bounded) until it listens. Returns its pid (> 0) with the write
// end of its stop pipe in *stop_w, or -1 with *err (nothing left running).
pid_t start_server(const Scenario& sc, pid_t parent, int* stop_w, std::string* err) {
  int stop[2];
  if (pipe2(stop, O_CLOEXEC) != 0) {
    *err = std::string("pipe: ") + std::strerror(errno);
    return -1;
  }
  std::cout.flush();
  std::cerr.flush();
  pid_t srv = fork();
  if (srv < 0) {
    *err = std::string("fork: ") + std::strerror(errno);
    close(stop[0]);
    close(stop[1]);
    return -1;
  }
  if (srv == 0) {
    close(stop[1]);
    server_child(sc, parent, stop[0]);
  }
  close(stop[0]);
  *stop_w = stop[1];
  Shared* sh = sc.rec.sh;
  const double until = now_ms() + 10000;
  while (sh->server_ready.load() == 0 && sh->error_set.load() == 0 && now_ms() < until && !g_stop) {
    int st;
    if (waitpid(srv, &st, WNOHANG) == srv) {
      srv = -1;
      break;
    }
    usleep(2000);
  }
  if (sh->server_ready.load() == 0) {
    *err = sh->error_set.load() ? std::string(sh->error) : std::string("server did not start");
    close(*stop_w);
    kill_wait(srv, 0);
    return -1;
  }
  return srv;
}

// Waits until the client finishes, or the server or delay line dies, a signal arrives or the
// watchdog fires. Returns "" or why it stopped early; *client_status holds the client's status.
std::string supervise(const Scenario& sc, pid_t cli, pid_t* srv, int* client_status, bool* client_done) {
  const double deadline = now_ms() + sc.o.timeout_s * 1e3;
  while (true) {
    if (waitpid(cli, client_status, WNOHANG) == cli) {
      *client_done = true;
      return "";
    }
    int sst;
    if (waitpid(*srv, &sst, WNOHANG) == *srv) {
      *srv = -1;
      return "server process ended unexpectedly";
    }
    if (sc.lc.enabled && sc.link.delay_pid() > 0 && kill(sc.link.delay_pid(), 0) != 0)
      return "delay line process ended unexpectedly";
    if (g_stop) return "interrupted";
    if (now_ms() > deadline) return "timed out after " + fmt(sc.o.timeout_s) + " s (--timeout)";
    usleep(5000);
  }
}

// After both children are gone: the first reason the scenario failed, or "" if it did not.
std::string outcome(const Scenario& sc, const std::string& why, int client_status) {
  const Shared* sh = sc.rec.sh;
  if (!why.empty()) {  // interrupt/watchdog first: a half-done handshake error is only a symptom
    if (why.find("unexpectedly") != std::string::npos && sh->error_set.load() != 0) return why + ": " + sh->error;
    return why;
  }
  if (sh->error_set.load() != 0) return sh->error;
  if (!WIFEXITED(client_status) || WEXITSTATUS(client_status) != 0) return "client process failed";
  const uint32_t scount = sh->server_count.load();
  if (scount != sc.per)
    return "server recorded " + std::to_string(scount) + " of " + std::to_string(sc.per) + " handshakes";
  return "";
}

// The measured handshakes of group g: medians (and the other statistics) of both sides' records.
bool summarize_group(const Scenario& sc, const std::vector<Tls*>& tls_of, uint32_t g, const KemTiming& kem,
                     GroupResult* out, std::string* err) {
  const auto G = static_cast<uint32_t>(sc.groups.size());
  std::vector<double> lat, con, ccpu, scpu, c2s, s2c, ch, seg_c, seg_s, rt, trtt, rtx;
  GroupResult r;
  const Tls& tls = *tls_of[static_cast<std::size_t>(sc.groups[g].ctx)];
  r.group = sc.groups[g].spec;
  r.provider = sc.groups[g].provider;
  r.link = sc.lc;
  r.scenario = sc.lc.label;
  for (uint32_t k = static_cast<uint32_t>(sc.o.warmup) * G; k < sc.per; ++k) {
    const HsRecord& c = sc.rec.client[k];
    const HsRecord& s = sc.rec.server[k];
    if (c.group_idx != static_cast<int32_t>(g)) continue;
    if (!same_group(tls, s.negotiated, sc.groups[g])) {
      *err = "server side of handshake " + std::to_string(k) + " negotiated '" + s.negotiated + "', expected '" +
             r.group + "'";
      return false;
    }
    if (!same_group(tls, c.negotiated, sc.groups[g])) {
      *err = "negotiated group '" + std::string(c.negotiated) + "' differs from the requested '" + r.group + "'";
      return false;
    }
    r.negotiated = c.negotiated;
    r.cipher = c.cipher;
    lat.push_back(c.latency_ms);
    con.push_back(c.connect_ms);
    ccpu.push_back(static_cast<double>(c.cpu_ns) * 1e-3);
    scpu.push_back(static_cast<double>(s.cpu_ns) * 1e-3);
    c2s.push_back(c.bytes_sent);
    s2c.push_back(s.bytes_sent);
    ch.push_back(c.first_flight);
    seg_c.push_back(c.segs_out);
    seg_s.push_back(s.segs_out);
    rt.push_back(c.round_trips);
    trtt.push_back(c.rtt_us * 1e-3);
    rtx.push_back(c.retrans + s.retrans);
  }
  auto mean = [](const std::vector<double>& v) {
    double sum = 0;
    for (double x : v) sum += x;
    return v.empty() ? 0 : sum / static_cast<double>(v.size());
  };
  r.n = static_cast<int>(lat.size());
  r.median_ms = percentile(lat, 50);
  r.p10_ms = percentile(lat, 10);
  r.p90_ms = percentile(lat, 90);
  r.p99_ms = percentile(lat, 99);
  r.mean_ms = mean(lat);
  r.connect_ms = percentile(con, 50);
  r.client_cpu_us = percentile(ccpu, 50);
  r.server_cpu_us = percentile(scpu, 50);
  r.bytes_c2s = percentile(c2s, 50);
  r.bytes_s2c = percentile(s2c, 50);
  r.client_hello = percentile(ch, 50);
  r.segs_c2s = percentile(seg_c, 50);
  r.segs_s2c = percentile(seg_s, 50);
  r.round_trips = percentile(rt, 50);
  r.tcp_rtt_ms = percentile(trtt, 50);
  r.retrans = mean(rtx);
  r.kem = kem;
  if (sc.o.concurrency > 0) {
    const Shared* sh = sc.rec.sh;
    r.concurrency = sc.o.concurrency;
    const double secs = sh->tput_seconds[g];
    const auto cnt = static_cast<double>(sh->tput_count[g].load());
    r.hs_per_s = secs > 0 ? cnt / secs : 0;
    r.tput_client_util = secs > 0 ? static_cast<double>(sh->tput_client_cpu_ns[g].load()) * 1e-9 / secs : 0;
    r.tput_server_util = secs > 0 ? static_cast<double>(sh->tput_server_cpu_ns[g].load()) * 1e-9 / secs : 0;
  }
  if (sc.lc.enabled)
    r.estimate_ms = estimate_latency_ms(sc.lc, r.client_hello, r.bytes_s2c, (r.client_cpu_us + r.server_cpu_us) * 1e-3);
  *out = r;
  return true;
}

// One scenario: link, shared records and TLS contexts; server and client processes; supervision
// and cleanup; then one result per group.
int run_scenario(const Options& o, const std::vector<Tls*>& tls_of, const std::vector<std::string>& server_groups,
                 const std::vector<GroupInfo>& groups, const std::vector<KemTiming>& kem, const LinkConfig& lc,
                 std::vector<GroupResult>* results, std::string* err) {
  Link link;
  if (lc.enabled && !link.setup(lc, err)) return 1;
  const auto rounds = static_cast<uint32_t>(o.warmup + o.handshakes);
  const uint32_t per = rounds * static_cast<uint32_t>(groups.size());
  Records rec;
  if (!rec.allocate(per, err)) return 1;
  ContextSet ctx;
  for (std::size_t i = 0; i < tls_of.size(); ++i) {
    ctx.push_back(std::make_unique<Contexts>());
    if (!ctx.back()->create(*tls_of[i], server_groups[i], err)) return 1;
  }

  const bool pin = pin_possible(o.cpu_client, o.cpu_server);
  if (!pin && o.verbose)
    std::cerr << "tls-bench: cores " << o.cpu_client << "," << o.cpu_server << " not both available; not pinning\n";
  double gap = 0;
  if (lc.enabled && lc.rtt_ms > 0) gap = lc.rtt_ms * 0.5 + (lc.rate_mbit > 0 ? 2 * 1500 * 8 / (lc.rate_mbit * 1e3) : 0);
  const Scenario sc{o, groups, lc, link, rec, ctx, rounds, per, pin, lc.enabled ? Link::kServerIp : "127.0.0.1", gap};

  const pid_t parent = getpid();
  int stop_w = -1;
  pid_t srv = start_server(sc, parent, &stop_w, err);
  if (srv < 0) return 1;
  const pid_t cli = fork();
  if (cli < 0) {
    *err = std::string("fork: ") + std::strerror(errno);
    close(stop_w);
    kill_wait(srv, 1000);
    return 1;
  }
  if (cli == 0) client_child(sc, parent, stop_w);

  int client_status = 0;
  bool client_done = false;
  const std::string why = supervise(sc, cli, &srv, &client_status, &client_done);
  if (!client_done) kill_wait(cli, 0);
  close(stop_w);
  kill_wait(srv, 3000);
  link.teardown();
  *err = outcome(sc, why, client_status);
  if (!err->empty()) return 1;

  for (uint32_t g = 0; g < groups.size(); ++g) {
    GroupResult r;
    if (!summarize_group(sc, tls_of, g, kem[g], &r, err)) return 1;
    results->push_back(r);
  }
  return 0;
}

// The --groups entries resolved to groups and library contexts. Context 0 is the main one (the
// --provider list, hqckit loaded on demand); NAME@PROVIDER gets a context of its own with only
// PROVIDER (and the default provider for the certificate), so that the same group name can come
// from two providers in one run and each is served by the one named.
struct Resolver {
  const Options& o;
  std::vector<Tls*> ctxs;                   // [0]: the main context
  std::vector<std::unique_ptr<Tls>> owned;  // the others
  std::vector<std::string> ctx_provider;    // "" for context 0

  Resolver(const Options& opts, Tls& main) : o(opts), ctxs{&main}, ctx_provider{""} {}

  int context_for(const std::string& provider, std::string* err) {
    for (std::size_t i = 1; i < ctx_provider.size(); ++i)
      if (ctx_provider[i] == provider) return static_cast<int>(i);
    if (ctxs.size() >= static_cast<std::size_t>(kMaxContexts)) {
      *err = "at most " + std::to_string(kMaxContexts - 1) + " providers named with NAME@PROVIDER per run";
      return -1;
    }
    Options po = o;
    po.providers = {provider};
    auto t = std::make_unique<Tls>();
    if (!t->init(po, err)) return -1;
    ctxs.push_back(t.get());
    owned.push_back(std::move(t));
    ctx_provider.push_back(provider);
    return static_cast<int>(ctxs.size() - 1);
  }

  bool member(int ctx, const std::string& name, GroupInfo* out, std::string* err) {
    Tls& t = *ctxs[static_cast<std::size_t>(ctx)];
    const std::string& prov = ctx_provider[static_cast<std::size_t>(ctx)];
    if (t.resolve_group(name, prov, out, err)) return true;
    // Groups not offered by the providers of the main context: hqckit is loaded on demand.
    if (ctx != 0 || t.has_provider("hqckit")) return false;
    std::string e2;
    if (!t.load_provider("hqckit", &e2)) {
      *err += "\n  (and " + e2 + ")";
      return false;
    }
    return t.resolve_group(name, prov, out, err);
  }

  // NAME, NAME@PROVIDER, or a client list "A:B" / "*A:*B" (OpenSSL 3.5: '*' marks the groups that
  // get a key share in the ClientHello; '/' separates tuples), optionally @PROVIDER as a whole.
  bool resolve(const std::string& spec, GroupInfo* out, std::string* err) {
    std::string list = spec, provider;
    if (const auto at = spec.rfind('@'); at != std::string::npos) {
      list = spec.substr(0, at);
      provider = spec.substr(at + 1);
      if (list.empty() || provider.empty()) {
        *err = "group '" + spec + "': use NAME or NAME@PROVIDER";
        return false;
      }
    }
    const int ctx = provider.empty() ? 0 : context_for(provider, err);
    if (ctx < 0) return false;
    std::vector<GroupInfo> members;
    std::string cur;
    for (std::size_t i = 0; i <= list.size(); ++i) {
      if (i < list.size() && list[i] != ':' && list[i] != '/') {
        cur += list[i];
        continue;
      }
      std::string name = cur;
      cur.clear();
      while (!name.empty() && (name[0] == '*' || name[0] == '?')) name.erase(0, 1);
      if (name.empty()) {
        *err = "group list '" + spec + "' has an empty entry";
        return false;
      }
      GroupInfo m;
      if (!member(ctx, name, &m, err)) return false;
      m.ctx = ctx;
      members.push_back(m);
    }
    if (members.size() == 1 && list.find_first_of("*?") == std::string::npos) {
      *out = members.front();
    } else {
      *out = GroupInfo{};
      out->name = list;
      out->members = members;
      for (const auto& m : members)
        if (out->provider.find(m.provider) == std::string::npos)
          out->provider += (out->provider.empty() ? "" : "+") + m.provider;
    }
    out->spec = spec;
    out->ctx = ctx;
    return true;
  }

  // Per context: --server-groups, or every group the run uses there (in order, once each).
  std::vector<std::string> server_lists(const std::vector<GroupInfo>& groups) const {
    std::vector<std::string> lists(ctxs.size());
    for (std::size_t i = 0; i < ctxs.size(); ++i) {
      if (!o.server_groups.empty()) {
        lists[i] = o.server_groups;
        continue;
      }
      std::vector<std::string> names;
      for (const auto& g : groups) {
        if (g.ctx != static_cast<int>(i)) continue;
        std::vector<GroupInfo> one{g};
        for (const auto& m : g.members.empty() ? one : g.members)
          if (std::find(names.begin(), names.end(), m.name) == names.end()) names.push_back(m.name);
      }
      for (const auto& n : names) lists[i] += (lists[i].empty() ? "" : ":") + n;
      if (lists[i].empty()) lists[i] = "x25519";  // the main context when every group names its provider
    }
    return lists;
  }
};

}  // namespace
}  // namespace tlsb

int tls_bench_main(int argc, char** argv) {
  using namespace tlsb;
  const char* prog = argc > 0 && argv[0] != nullptr ? argv[0] : "hqc-tls-bench";
  Parsed p;
  std::string err;
  if (!parse_args(argc, argv, &p, &err)) {
    std::fprintf(stderr, "%s: error: %s\n(see %s --help)\n", prog, err.c_str(), prog);
    return 2;
  }
  if (p.help) {
    std::printf(kUsage, prog);
    return 0;
  }
  Options& o = p.o;
  std::vector<LinkConfig> scen = scenarios(p);
  bool need_link = std::any_of(scen.begin(), scen.end(), [](const LinkConfig& l) { return l.enabled; });
  if (need_link && !have_netns_privileges(&err)) {
    std::fprintf(stderr, "%s: error: %s\n", prog, err.c_str());
    return 2;
  }

  if (o.realtime) {  // check up front: the children cannot report it cleanly
    sched_param sp{};
    sp.sched_priority = 1;
    int old_policy = sched_getscheduler(0);
    sched_param old_sp{};
    sched_getparam(0, &old_sp);
    if (sched_setscheduler(0, SCHED_FIFO, &sp) != 0) {
      std::fprintf(stderr, "%s: error: --realtime needs root (CAP_SYS_NICE): %s\n", prog, std::strerror(errno));
      return 2;
    }
    sched_setscheduler(0, old_policy, &old_sp);
  }

  Tls tls;
  if (!tls.init(o, &err)) {
    std::fprintf(stderr, "%s: error: %s\n", prog, err.c_str());
    return 2;
  }
  Resolver res{o, tls};
  std::vector<GroupInfo> groups;
  for (const auto& spec : o.groups) {
    GroupInfo g;
    if (!res.resolve(spec, &g, &err)) {
      std::fprintf(stderr, "%s: error: %s\n", prog, err.c_str());
      return 2;
    }
    groups.push_back(g);
  }
  for (std::size_t i = 0; i < groups.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (groups[i].spec == groups[j].spec ||
          (groups[i].ctx == groups[j].ctx && strcasecmp(groups[i].name.c_str(), groups[j].name.c_str()) == 0)) {
        std::fprintf(
            stderr, "%s: error: group '%s' listed twice (use NAME@PROVIDER for the same group from another provider)\n",
            prog, groups[i].spec.c_str());
        return 2;
      }
  const std::vector<Tls*>& tls_of = res.ctxs;
  const std::vector<std::string> server_groups = res.server_lists(groups);

  std::vector<KemTiming> kem(groups.size());
  if (o.kem_micro) {
    // Same conditions as the client: its core and, with --realtime, its scheduling class.
    cpu_set_t old_set;
    bool have_set = sched_getaffinity(0, sizeof old_set, &old_set) == 0;
    int old_policy = sched_getscheduler(0);
    sched_param old_sp{};
    sched_getparam(0, &old_sp);
    if (have_set && pin_possible(o.cpu_client, o.cpu_server)) {
      cpu_set_t one;
      CPU_ZERO(&one);
      CPU_SET(o.cpu_client, &one);
      sched_setaffinity(0, sizeof one, &one);
    }
    if (o.realtime) {
      sched_param sp{};
      sp.sched_priority = 20;
      sched_setscheduler(0, SCHED_FIFO, &sp);
    }
    for (std::size_t g = 0; g < groups.size(); ++g)
      if (groups[g].members.empty())
        kem[g] = tls_of[static_cast<std::size_t>(groups[g].ctx)]->time_kem(groups[g], 0.25);
    if (o.realtime) sched_setscheduler(0, old_policy, &old_sp);
    if (have_set) sched_setaffinity(0, sizeof old_set, &old_set);
  }

  struct sigaction sa {
  }, old_int{}, old_term{}, old_hup{};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);
  sigaction(SIGHUP, &sa, &old_hup);
  g_stop = 0;

  std::vector<GroupResult> results;
  int rc = 0;
  for (const auto& lc : scen) {
    if (o.verbose || scen.size() > 1)
      std::fprintf(stderr, "%s: %s: %d handshakes x %zu groups\n", prog, lc.label.c_str(), o.handshakes, groups.size());
    rc = run_scenario(o, tls_of, server_groups, groups, kem, lc, &results, &err);
    if (rc != 0) {
      std::fprintf(stderr, "%s: error (%s): %s\n", prog, lc.label.c_str(), err.c_str());
      break;
    }
  }
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);
  sigaction(SIGHUP, &old_hup, nullptr);
  if (rc != 0) return rc;
  print_results(results, o.format, need_link);
  return 0;
}
