// Statistics, the first-principles latency model, and table/CSV/JSON output.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "internal.hpp"

namespace tlsb {

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  double pos = p / 100.0 * static_cast<double>(v.size() - 1);
  auto lo = static_cast<std::size_t>(std::floor(pos));
  std::size_t hi = std::min(lo + 1, v.size() - 1);
  double f = pos - static_cast<double>(lo);
  return v[lo] * (1 - f) + v[hi] * f;
}

// Time from the first byte of a flight leaving the sender until its last byte arrives:
// MSS-sized segments (+52 bytes of IPv4/TCP headers with timestamps) serialised at the
// bottleneck rate, one-way delay, and TCP slow start from `iw` segments where every
// segment is acknowledged (Linux quick-ack at connection start), each ACK opening room
// for two more segments.
static double flight_ms(double bytes, int iw, double bits_per_ms, double one_way) {
  const double mss = 1448, hdr = 52;
  if (bytes <= 0) return one_way;
  auto n = static_cast<std::size_t>(std::ceil(bytes / mss));
  std::vector<double> arrive(n), ack(n);
  double link_free = 0;
  for (std::size_t j = 0; j < n; ++j) {
    double size = j + 1 == n ? bytes - mss * static_cast<double>(n - 1) : mss;
    auto w = static_cast<std::size_t>(iw);
    double ready = j < w ? 0 : ack[(j - w) / 2];
    double tx = bits_per_ms > 0 ? (size + hdr) * 8 / bits_per_ms : 0;
    double depart = std::max(ready, link_free) + tx;
    link_free = depart;
    arrive[j] = depart + one_way;
    ack[j] = arrive[j] + one_way + (bits_per_ms > 0 ? hdr * 8 / bits_per_ms : 0);
  }
  return arrive[n - 1];
}

double estimate_latency_ms(const LinkConfig& l, double ch_bytes, double s2c_bytes, double cpu_ms) {
  double one_way = l.rtt_ms / 2;
  double bpm = l.rate_mbit * 1e3;
  double syn = bpm > 0 ? 64 * 8 / bpm : 0;
  int iw = l.initcwnd > 0 ? l.initcwnd : 10;
  double t = 2 * (one_way + syn);               // TCP: SYN, SYN-ACK
  t += flight_ms(ch_bytes, 10, bpm, one_way);   // ClientHello
  t += flight_ms(s2c_bytes, iw, bpm, one_way);  // ServerHello .. Finished
  return t + cpu_ms;                            // client Finished needs no wait
}

// ---------------------------------------------------------------- output

namespace {
std::string num(double v, int prec) {
  if (v < 0) return "";
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", prec, v);
  return b;
}

nlohmann::ordered_json jnum(double v, int prec) {
  if (v < 0) return nullptr;
  if (prec == 0) return std::llround(v);
  const double scale = std::pow(10.0, prec);
  return std::round(v * scale) / scale;
}

struct Col {
  const char* name;
  int prec;
  double (*get)(const GroupResult&);
};

const Col kCols[] = {
    {"handshakes", 0, [](const GroupResult& r) { return static_cast<double>(r.n); }},
    {"median_ms", 3, [](const GroupResult& r) { return r.median_ms; }},
    {"p10_ms", 3, [](const GroupResult& r) { return r.p10_ms; }},
    {"p90_ms", 3, [](const GroupResult& r) { return r.p90_ms; }},
    {"p99_ms", 3, [](const GroupResult& r) { return r.p99_ms; }},
    {"mean_ms", 3, [](const GroupResult& r) { return r.mean_ms; }},
    {"connect_ms", 3, [](const GroupResult& r) { return r.connect_ms; }},
    {"tcp_rtt_ms", 3, [](const GroupResult& r) { return r.tcp_rtt_ms; }},
    {"client_cpu_us", 1, [](const GroupResult& r) { return r.client_cpu_us; }},
    {"server_cpu_us", 1, [](const GroupResult& r) { return r.server_cpu_us; }},
    {"kem_client_us", 1, [](const GroupResult& r) { return r.kem.ok ? r.kem.client_us : -1; }},
    {"kem_server_us", 1, [](const GroupResult& r) { return r.kem.ok ? r.kem.server_us : -1; }},
    {"rest_client_us", 1,
     [](const GroupResult& r) { return r.kem.ok ? std::max(0.0, r.client_cpu_us - r.kem.client_us) : -1; }},
    {"rest_server_us", 1,
     [](const GroupResult& r) { return r.kem.ok ? std::max(0.0, r.server_cpu_us - r.kem.server_us) : -1; }},
    {"kem_keygen_us", 1, [](const GroupResult& r) { return r.kem.ok ? r.kem.keygen_us : -1; }},
    {"kem_encaps_us", 1, [](const GroupResult& r) { return r.kem.ok ? r.kem.encaps_us : -1; }},
    {"kem_decaps_us", 1, [](const GroupResult& r) { return r.kem.ok ? r.kem.decaps_us : -1; }},
    {"bytes_c2s", 0, [](const GroupResult& r) { return r.bytes_c2s; }},
    {"bytes_s2c", 0, [](const GroupResult& r) { return r.bytes_s2c; }},
    {"client_hello_bytes", 0, [](const GroupResult& r) { return r.client_hello; }},
    {"segs_c2s", 0, [](const GroupResult& r) { return r.segs_c2s; }},
    {"segs_s2c", 0, [](const GroupResult& r) { return r.segs_s2c; }},
    {"round_trips", 0, [](const GroupResult& r) { return r.round_trips; }},
    {"retrans", 2, [](const GroupResult& r) { return r.retrans; }},
    {"concurrency", 0, [](const GroupResult& r) { return r.concurrency > 0 ? r.concurrency : -1.0; }},
    {"hs_per_s", 1, [](const GroupResult& r) { return r.hs_per_s; }},
    {"client_cpu_util", 2, [](const GroupResult& r) { return r.hs_per_s >= 0 ? r.tput_client_util : -1; }},
    {"server_cpu_util", 2, [](const GroupResult& r) { return r.hs_per_s >= 0 ? r.tput_server_util : -1; }},
    {"link_rtt_ms", 1, [](const GroupResult& r) { return r.link.enabled ? r.link.rtt_ms : -1; }},
    {"link_rate_mbit", 3, [](const GroupResult& r) { return r.link.enabled ? r.link.rate_mbit : -1; }},
    {"link_loss_pct", 2, [](const GroupResult& r) { return r.link.enabled ? r.link.loss_pct : -1; }},
    {"initcwnd", 0,
     [](const GroupResult& r) { return r.link.enabled ? (r.link.initcwnd > 0 ? r.link.initcwnd : 10) : -1.0; }},
    {"estimate_ms", 3, [](const GroupResult& r) { return r.estimate_ms; }},
};
}  // namespace

void print_results(const std::vector<GroupResult>& rs, Options::Format f, bool link_cols) {
  std::ostream& os = std::cout;
  if (f == Options::Format::Json) {
    // One object per line, fields in kCols order; strings escaped (control characters, invalid
    // UTF-8 replaced); numbers rounded to the column's precision, null when not measured.
    using Json = nlohmann::ordered_json;
    os << "[\n";
    for (std::size_t i = 0; i < rs.size(); ++i) {
      const auto& r = rs[i];
      Json j;
      j["group"] = r.group;
      j["provider"] = r.provider;
      j["negotiated"] = r.negotiated;
      j["scenario"] = r.scenario;
      j["cipher"] = r.cipher;
      j["link"] = r.link.enabled;
      for (const auto& c : kCols) j[c.name] = jnum(c.get(r), c.prec);
      os << "  " << j.dump(-1, ' ', false, Json::error_handler_t::replace) << (i + 1 < rs.size() ? "," : "") << "\n";
    }
    os << "]\n";
  } else if (f == Options::Format::Csv) {
    os << "group,negotiated,scenario,link";
    for (const auto& c : kCols) os << "," << c.name;
    os << ",provider\n";  // appended: the columns before it keep their positions
    for (const auto& r : rs) {
      os << r.group << "," << r.negotiated << "," << r.scenario << "," << (r.link.enabled ? 1 : 0);
      for (const auto& c : kCols) os << "," << num(c.get(r), c.prec);
      os << "," << r.provider << "\n";
    }
  } else {
    char line[768];
    std::string last;
    int gw = 12, pw = 8;  // column widths: the longest group label and provider name
    for (const auto& r : rs) {
      gw = std::max(gw, static_cast<int>(std::min<std::size_t>(r.group.size(), 64)));
      pw = std::max(pw, static_cast<int>(std::min<std::size_t>(r.provider.size(), 32)));
    }
    for (const auto& r : rs) {
      if (r.scenario != last || &r == &rs.front()) {
        last = r.scenario;
        os << "\n== " << (r.scenario.empty() ? "loopback" : r.scenario) << "\n";
        std::snprintf(line, sizeof line, "%-*s %-*s %5s %9s %9s %9s %9s %9s %9s %9s %9s %7s %7s %6s %4s %9s%s\n", gw,
                      "group", pw, "provider", "n", "median", "p10", "p90", "p99", "cli_cpu", "srv_cpu", "kem_cli",
                      "kem_srv", "B_c2s", "B_s2c", "seg_sc", "RTs", "hs/s", link_cols ? "  connect  estimate" : "");
        os << line;
        std::snprintf(line, sizeof line, "%-*s %-*s %5s %9s %9s %9s %9s %9s %9s %9s %9s %7s %7s %6s %4s %9s%s\n", gw,
                      "", pw, "", "", "ms", "ms", "ms", "ms", "us", "us", "us", "us", "", "", "", "", "",
                      link_cols ? "       ms        ms" : "");
        os << line;
      }
      std::string extra;
      if (link_cols) {
        char b[64];
        std::snprintf(b, sizeof b, " %8.2f %9s", r.connect_ms, num(r.estimate_ms, 2).c_str());
        extra = b;
      }
      std::snprintf(line, sizeof line,
                    "%-*s %-*s %5d %9.3f %9.3f %9.3f %9.3f %9.1f %9.1f %9s %9s %7.0f %7.0f %6.0f %4.0f %9s%s\n", gw,
                    r.group.c_str(), pw, r.provider.c_str(), r.n, r.median_ms, r.p10_ms, r.p90_ms, r.p99_ms,
                    r.client_cpu_us, r.server_cpu_us, r.kem.ok ? num(r.kem.client_us, 1).c_str() : "-",
                    r.kem.ok ? num(r.kem.server_us, 1).c_str() : "-", r.bytes_c2s, r.bytes_s2c, r.segs_s2c,
                    r.round_trips, r.hs_per_s >= 0 ? num(r.hs_per_s, 1).c_str() : "-", extra.c_str());
      os << line;
    }
  }
  os.flush();
}

}  // namespace tlsb
