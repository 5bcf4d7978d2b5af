// Link emulation: two anonymous network namespaces (client, server), each with a TUN
// device, joined by a userspace delay line that holds every IP packet for the one-way
// delay (after a per-direction serialisation at the configured rate, optional random
// loss) and releases packets in order. The kernels' TCP stacks on both ends are untouched,
// so initial congestion window, MSS and ACK clocking are real.
//
// Lifetime: the namespaces are referenced only by file descriptors of this process and
// its children, and the TUN devices only by the delay line's descriptors, so everything
// disappears when the processes end, even on SIGKILL. Nothing is named in /run/netns.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/if_tun.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.hpp"

namespace tlsb {

bool have_netns_privileges(std::string* why) {
  __user_cap_header_struct hdr{};
  hdr.version = _LINUX_CAPABILITY_VERSION_3;
  hdr.pid = 0;
  __user_cap_data_struct data[2]{};
  if (syscall(SYS_capget, &hdr, data) != 0) {
    *why = std::string("capget failed: ") + std::strerror(errno);
    return false;
  }
  auto has = [&](int cap) { return (data[cap / 32].effective & (1u << (cap % 32))) != 0; };
  std::string missing;
  if (!has(CAP_SYS_ADMIN)) missing += "CAP_SYS_ADMIN";
  if (!has(CAP_NET_ADMIN)) missing += missing.empty() ? "CAP_NET_ADMIN" : " and CAP_NET_ADMIN";
  if (!missing.empty()) {
    *why = "link emulation creates network namespaces and TUN devices and needs " + missing +
           " (run as root); refusing to run";
    return false;
  }
  if (access("/dev/net/tun", R_OK | W_OK) != 0) {
    *why = std::string("link emulation needs /dev/net/tun: ") + std::strerror(errno);
    return false;
  }
  return true;
}

namespace {

std::string sys_err(const std::string& what) { return what + ": " + std::strerror(errno); }

bool set_addr(int s, const char* ifname, unsigned long req, const char* ip, std::string* err) {
  ifreq ifr{};
  std::strncpy(ifr.ifr_name, ifname, IFNAMSIZ - 1);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  inet_pton(AF_INET, ip, &a.sin_addr);
  std::memcpy(&ifr.ifr_addr, &a, sizeof a);
  if (ioctl(s, req, &ifr) != 0) {
    *err = sys_err(std::string("configuring ") + ifname + " with " + ip);
    return false;
  }
  return true;
}

bool set_up(int s, const char* ifname, std::string* err) {
  ifreq ifr{};
  std::strncpy(ifr.ifr_name, ifname, IFNAMSIZ - 1);
  if (ioctl(s, SIOCGIFFLAGS, &ifr) != 0) {
    *err = sys_err(std::string("SIOCGIFFLAGS ") + ifname);
    return false;
  }
  ifr.ifr_flags = static_cast<short>(ifr.ifr_flags | IFF_UP | IFF_RUNNING);
  if (ioctl(s, SIOCSIFFLAGS, &ifr) != 0) {
    *err = sys_err(std::string("bringing up ") + ifname);
    return false;
  }
  return true;
}

// In a fresh namespace (the caller has just unshared into it): lo up, TUN device with a
// point-to-point address. Returns the TUN fd (or -1).
int make_side(const char* ifname, const char* local, const char* peer, std::string* err) {
  int tun = open("/dev/net/tun", O_RDWR | O_CLOEXEC | O_NONBLOCK);
  if (tun < 0) {
    *err = sys_err("open /dev/net/tun");
    return -1;
  }
  ifreq ifr{};
  ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
  std::strncpy(ifr.ifr_name, ifname, IFNAMSIZ - 1);
  if (ioctl(tun, TUNSETIFF, &ifr) != 0) {
    *err = sys_err("TUNSETIFF");
    close(tun);
    return -1;
  }
  int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  bool ok = s >= 0 && set_up(s, "lo", err) && set_addr(s, ifname, SIOCSIFADDR, local, err) &&
            set_addr(s, ifname, SIOCSIFDSTADDR, peer, err) &&
            set_addr(s, ifname, SIOCSIFNETMASK, "255.255.255.255", err) && set_up(s, ifname, err);
  if (s < 0) *err = sys_err("socket");
  if (s >= 0) close(s);
  if (!ok) {
    close(tun);
    return -1;
  }
  return tun;
}

// Runs a command (iproute2) inside the namespace `ns`, bounded to 10 s.
bool run_in_ns(int ns, const std::vector<std::string>& argv, std::string* err) {
  pid_t pid = fork();
  if (pid < 0) {
    *err = sys_err("fork");
    return false;
  }
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (setns(ns, CLONE_NEWNET) != 0) _exit(126);
    int dn = open("/dev/null", O_WRONLY);
    if (dn >= 0) dup2(dn, STDOUT_FILENO);
    std::vector<char*> a;
    a.reserve(argv.size() + 1);
    for (const auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
    a.push_back(nullptr);
    execvp(a[0], a.data());
    _exit(127);
  }
  int st = 0;
  for (int i = 0; i < 1000; ++i) {
    pid_t r = waitpid(pid, &st, WNOHANG);
    if (r == pid) {
      if (WIFEXITED(st) && WEXITSTATUS(st) == 0) return true;
      std::string cmd;
      for (const auto& s : argv) cmd += (cmd.empty() ? "" : " ") + s;
      *err = "'" + cmd + "' failed" +
             (WIFEXITED(st) && WEXITSTATUS(st) == 127 ? std::string(" (not found: install iproute2)") : std::string());
      return false;
    }
    usleep(10000);
  }
  kill(pid, SIGKILL);
  waitpid(pid, &st, 0);
  *err = "ip command timed out";
  return false;
}

// ---------------------------------------------------------------- the delay line

struct Pkt {
  double release_ms;
  std::vector<uint8_t> data;
};

timespec to_ts(double ms) {
  timespec ts{};
  double s = std::floor(ms / 1e3);
  ts.tv_sec = static_cast<time_t>(s);
  ts.tv_nsec = static_cast<long>((ms - s * 1e3) * 1e6);
  if (ts.tv_nsec >= 1000000000L) ts.tv_nsec = 999999999L;
  if (ts.tv_nsec < 0) ts.tv_nsec = 0;
  return ts;
}

[[noreturn]] void delay_line(int tun_c, int tun_s, int stop_r, const LinkConfig& cfg) {
  prctl(PR_SET_TIMERSLACK, 1UL);
  // The link must not be slowed by other load on the machine: real-time priority when allowed
  // (root). The loop only ever blocks in epoll_wait, so it cannot hog a core.
  sched_param sp{};
  sp.sched_priority = 30;  // above --realtime's client and server (20)
  sched_setscheduler(0, SCHED_FIFO, &sp);
  const int fds[2] = {tun_c, tun_s};  // direction d: read fds[d], write fds[1 - d]
  const double one_way = cfg.rtt_ms / 2;
  const double bits_per_ms = cfg.rate_mbit * 1e3;
  const double loss = cfg.loss_pct / 100.0;
  std::mt19937_64 rng(0x68716b6974ULL);
  std::uniform_real_distribution<double> uni(0.0, 1.0);
  std::deque<Pkt> q[2];
  double busy[2] = {0, 0};
  int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
  int ep = epoll_create1(EPOLL_CLOEXEC);
  if (tfd < 0 || ep < 0) _exit(3);
  const int watch[4] = {tun_c, tun_s, tfd, stop_r};
  for (int i = 0; i < 4; ++i) {
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u32 = static_cast<uint32_t>(i);
    if (epoll_ctl(ep, EPOLL_CTL_ADD, watch[i], &ev) != 0) _exit(3);
  }
  std::vector<uint8_t> buf(65536);
  for (;;) {
    epoll_event evs[4];
    int n = epoll_wait(ep, evs, 4, 1000);
    if (n < 0 && errno != EINTR) _exit(4);
    for (int i = 0; i < n; ++i) {
      uint32_t w = evs[i].data.u32;
      if (w == 3) _exit(0);  // stop pipe readable or closed
      if (w == 2) {
        uint64_t ticks;
        ssize_t r = read(tfd, &ticks, sizeof ticks);
        (void)r;
        continue;
      }
      int d = static_cast<int>(w);
      for (int k = 0; k < 512; ++k) {  // drain, bounded per wake-up
        ssize_t len = read(fds[d], buf.data(), buf.size());
        if (len <= 0) break;
        if (loss > 0 && uni(rng) < loss) continue;
        if (q[d].size() >= static_cast<std::size_t>(cfg.queue_pkts)) continue;  // tail drop
        double now = now_ms();
        double tx = bits_per_ms > 0 ? static_cast<double>(len) * 8.0 / bits_per_ms : 0.0;
        double depart = std::max(now, busy[d]) + tx;
        busy[d] = depart;
        q[d].push_back(Pkt{depart + one_way, std::vector<uint8_t>(buf.begin(), buf.begin() + len)});
      }
    }
    double now = now_ms();
    double next = -1;
    for (int d = 0; d < 2; ++d) {
      while (!q[d].empty() && q[d].front().release_ms <= now) {
        const auto& p = q[d].front().data;
        ssize_t wr = write(fds[1 - d], p.data(), p.size());
        (void)wr;  // a full receive queue drops the packet, like a real link
        q[d].pop_front();
      }
      if (!q[d].empty() && (next < 0 || q[d].front().release_ms < next)) next = q[d].front().release_ms;
    }
    itimerspec its{};
    if (next >= 0) its.it_value = to_ts(next);
    if (next >= 0 && its.it_value.tv_sec == 0 && its.it_value.tv_nsec == 0) its.it_value.tv_nsec = 1;
    timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, nullptr);
  }
}

}  // namespace

bool Link::setup(const LinkConfig& cfg, std::string* err) {
  teardown();
  std::string why;
  if (!have_netns_privileges(&why)) {
    *err = why;
    return false;
  }
  int orig = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
  if (orig < 0) {
    *err = sys_err("open /proc/self/ns/net");
    return false;
  }
  int tun_c = -1, tun_s = -1;
  bool ok = true;
  // Client namespace.
  if (unshare(CLONE_NEWNET) != 0) {
    *err = sys_err("unshare(CLONE_NEWNET)");
    ok = false;
  }
  if (ok) {
    ns_client_ = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
    tun_c = make_side("tlsb-c", kClientIp, kServerIp, err);
    ok = ns_client_ >= 0 && tun_c >= 0;
  }
  if (setns(orig, CLONE_NEWNET) != 0) {  // back home before anything else
    *err = sys_err("setns back to the original namespace");
    ok = false;
  }
  // Server namespace.
  if (ok && unshare(CLONE_NEWNET) != 0) {
    *err = sys_err("unshare(CLONE_NEWNET)");
    ok = false;
  }
  if (ok) {
    ns_server_ = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
    tun_s = make_side("tlsb-s", kServerIp, kClientIp, err);
    ok = ns_server_ >= 0 && tun_s >= 0;
    if (setns(orig, CLONE_NEWNET) != 0) {
      *err = sys_err("setns back to the original namespace");
      ok = false;
    }
  }
  close(orig);
  if (ok && cfg.initcwnd > 0) {
    std::string iw = std::to_string(cfg.initcwnd);
    ok = run_in_ns(ns_server_,
                   {"ip", "-4", "route", "replace", std::string(kClientIp) + "/32", "dev", "tlsb-s", "proto", "kernel",
                    "scope", "link", "src", kServerIp, "initcwnd", iw},
                   err) &&
         run_in_ns(ns_client_,
                   {"ip", "-4", "route", "replace", std::string(kServerIp) + "/32", "dev", "tlsb-c", "proto", "kernel",
                    "scope", "link", "src", kClientIp, "initcwnd", iw},
                   err);
  }
  int pp[2] = {-1, -1};
  if (ok && pipe2(pp, O_CLOEXEC) != 0) {
    *err = sys_err("pipe");
    ok = false;
  }
  if (ok) {
    pid_t parent = getpid();
    delay_pid_ = fork();
    if (delay_pid_ < 0) {
      *err = sys_err("fork");
      ok = false;
    } else if (delay_pid_ == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (getppid() != parent) _exit(1);
      signal(SIGINT, SIG_IGN);  // the parent decides when the line stops
      close(pp[1]);
      delay_line(tun_c, tun_s, pp[0], cfg);
    }
    close(pp[0]);
    stop_w_ = pp[1];
  } else {
    if (pp[0] >= 0) close(pp[0]);
    if (pp[1] >= 0) close(pp[1]);
  }
  // Only the delay line holds the TUN devices.
  if (tun_c >= 0) close(tun_c);
  if (tun_s >= 0) close(tun_s);
  if (!ok) teardown();
  return ok;
}

void Link::teardown() {
  if (stop_w_ >= 0) {
    close(stop_w_);
    stop_w_ = -1;
  }
  if (delay_pid_ > 0) {
    int st = 0;
    bool gone = false;
    for (int i = 0; i < 200 && !gone; ++i) {
      if (waitpid(delay_pid_, &st, WNOHANG) == delay_pid_) gone = true;
      else usleep(5000);
    }
    if (!gone) {
      kill(delay_pid_, SIGKILL);
      waitpid(delay_pid_, &st, 0);
    }
    delay_pid_ = -1;
  }
  if (ns_client_ >= 0) close(ns_client_);
  if (ns_server_ >= 0) close(ns_server_);
  ns_client_ = ns_server_ = -1;
}

}  // namespace tlsb
