// The `hqc` command-line tool. Subcommands and flags are relied on by scripts: extend, never rename.
//   hqc info [--json]
//   hqc keygen --level {1,3,5} --pk FILE --sk FILE
//   hqc encaps --pk FILE --ct FILE --ss FILE
//   hqc decaps --sk FILE --ct FILE --ss FILE
//   hqc kat --level {1,3,5} [--count N]
//   hqc bench [--level N] [--json|--csv|--summary] [--backend NAME[,NAME..]|all] [--runs N] [--warmup N] [--no-kernels] [--cpu N]
//   hqc selftest
//   hqc tls-bench ... (when built with the TLS benchmark)
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "backend/registry.hpp"
#include "bench.hpp"
#include "hqc/hqc.h"
#include "kat.hpp"
#include "output_files.hpp"
#include "params/params.hpp"
#if defined(HQC_WITH_TLS_BENCH)
#include "tls_bench.hpp"
#endif

namespace {

constexpr int kExitUsage = 2;
constexpr int kExitFailure = 1;

const char* kUsage =
    "usage: hqc <command> [options]\n"
    "commands:\n"
    "  info [--json]                                   CPU features, backends, version, HQC revision\n"
    "  keygen --level {1,3,5} --pk FILE --sk FILE      generate a key pair (raw bytes)\n"
    "  encaps --pk FILE --ct FILE --ss FILE            encapsulate to a public key\n"
    "  decaps --sk FILE --ct FILE --ss FILE            decapsulate a ciphertext\n"
    "  kat --level {1,3,5} [--count N]                 print the NIST KAT transcript (N <= 100 records)\n"
    "  selftest                                        check the KAT digests of all levels\n"
    "  bench [--level N] [--json|--csv|--summary] [--backend NAME,..|all] [--runs N] [--warmup N] [--no-kernels]\n"
    "        [--cpu N]                                 KEM operations and kernels, side by side (--summary: KEM\n"
    "                                                  operations only, speed-ups over the first backend)\n"
#if defined(HQC_WITH_TLS_BENCH)
    "  tls-bench --groups G1,G2,.. --handshakes N [--json] ...   TLS 1.3 handshake benchmark (see --help)\n"
#endif
    "environment: HQC_BACKEND=<name> forces a backend; HQC_CPU_MASK=<feature,..> hides CPU features\n";

[[noreturn]] void usage_error(const std::string& msg) {
  std::cerr << "hqc: " << msg << "\n" << kUsage;
  std::exit(kExitUsage);
}

// Parses "--flag value" pairs and bare "--switch"es; unknown flags are errors.
struct Args {
  std::map<std::string, std::string> values;
  std::map<std::string, bool> switches;
};

Args parse_args(int argc, char** argv, int first, const std::vector<std::string>& with_value,
                const std::vector<std::string>& bare) {
  Args a;
  for (int i = first; i < argc; i++) {
    std::string f = argv[i];
    auto in = [&](const std::vector<std::string>& v) { return std::find(v.begin(), v.end(), f) != v.end(); };
    if (in(with_value)) {
      if (i + 1 >= argc) usage_error("option " + f + " needs a value");
      if (a.values.count(f)) usage_error("option " + f + " given twice");
      a.values[f] = argv[++i];
    } else if (in(bare)) {
      a.switches[f] = true;
    } else {
      usage_error("unknown option '" + f + "'");
    }
  }
  return a;
}

std::string require(const Args& a, const std::string& flag) {
  auto it = a.values.find(flag);
  if (it == a.values.end()) usage_error("missing required option " + flag);
  return it->second;
}

long parse_number(const std::string& s, const std::string& what, long lo, long hi) {
  errno = 0;
  char* end = nullptr;
  const long v = std::strtol(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || errno != 0 || v < lo || v > hi)
    usage_error("invalid " + what + " '" + s + "' (expected " + std::to_string(lo) + ".." + std::to_string(hi) + ")");
  return v;
}

int parse_level(const std::string& s) {
  if (s == "1" || s == "3" || s == "5") return s[0] - '0';
  if (const hqc_kem_info* info = hqc_kem_info_by_name(s.c_str())) return info->level;
  usage_error("invalid level '" + s + "' (expected 1, 3 or 5)");
}

// Reads a whole file; exits with a message on failure or if larger than max_len.
std::vector<std::uint8_t> read_file(const std::string& path, std::size_t max_len) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << "hqc: cannot read '" << path << "': " << std::strerror(errno) << "\n";
    std::exit(kExitFailure);
  }
  std::vector<std::uint8_t> data;
  char buf[4096];
  while (in.read(buf, sizeof(buf)) || in.gcount() > 0) {
    data.insert(data.end(), buf, buf + in.gcount());
    if (data.size() > max_len) {
      std::cerr << "hqc: '" << path << "' is too large (" << data.size() << "+ bytes) to be an HQC key or ciphertext\n";
      std::exit(kExitFailure);
    }
  }
  return data;
}

// Step 1 of the output protocol (output_files.hpp), before any work: two arguments naming one
// file are a usage error, an output that cannot be created where asked is a failure.
void check_files(const std::vector<hqc::tools::PathArg>& inputs, const std::vector<hqc::tools::OutputSpec>& outputs) {
  std::string err;
  switch (hqc::tools::check_paths(inputs, outputs, &err)) {
    case hqc::tools::PathCheck::kOk:
      return;
    case hqc::tools::PathCheck::kUsage:
      usage_error(err);
    case hqc::tools::PathCheck::kFailure:
      std::cerr << "hqc: " << err << "\n";
      std::exit(kExitFailure);
  }
}

int report_failure(const std::string& err) {
  std::cerr << "hqc: " << err << "\n";
  return kExitFailure;
}

const hqc_kem_info* info_for_length(std::size_t len, bool secret) {
  for (int level : {1, 3, 5}) {
    const hqc_kem_info* i = hqc_kem_info_by_level(level);
    if ((secret ? i->secret_key_bytes : i->public_key_bytes) == len) return i;
  }
  return nullptr;
}

void check_backend() {
  if (hqc_backend_name() == nullptr) {
    std::cerr << "hqc: " << hqc_backend_error() << "\n";
    std::exit(kExitFailure);
  }
}

std::string json_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    o += c;
  }
  return o;
}

int cmd_info(int argc, char** argv) {
  Args a = parse_args(argc, argv, 2, {}, {"--json"});
  using namespace hqc::backend;
  const auto detected = detect_cpu_features();
  const auto effective = effective_cpu_features();
  const Backend* selected = active();
  if (a.switches.count("--json")) {
    std::cout << "{\n  \"version\": \"" << hqc_version() << "\",\n  \"hqc_revision\": \"" << json_escape(hqc_revision())
              << "\",\n  \"cpu_features\": [";
    bool first = true;
    for (const auto& fn : kFeatureNames)
      if (detected & fn.bit) {
        std::cout << (first ? "" : ", ") << "\"" << fn.name << "\"";
        first = false;
      }
    std::cout << "],\n  \"cpu_features_effective\": [";
    first = true;
    for (const auto& fn : kFeatureNames)
      if (effective & fn.bit) {
        std::cout << (first ? "" : ", ") << "\"" << fn.name << "\"";
        first = false;
      }
    std::cout << "],\n  \"backends\": [";
    first = true;
    for (const Backend* b : all_backends()) {
      std::cout << (first ? "" : ", ") << "{\"name\": \"" << b->name << "\", \"available\": "
                << (is_supported(*b, effective) ? "true" : "false") << ", \"variant\": "
                << (b->variant ? "true" : "false") << ", \"description\": \"" << json_escape(b->description)
                << "\", \"multipliers\": {\"hqc1\": \"" << json_escape(b->hqc1.mul_name) << "\", \"hqc3\": \""
                << json_escape(b->hqc3.mul_name) << "\", \"hqc5\": \"" << json_escape(b->hqc5.mul_name) << "\"}}";
      first = false;
    }
    std::cout << "],\n  \"selected_backend\": ";
    if (selected)
      std::cout << '"' << selected->name << '"';
    else
      std::cout << "null";
    if (!selected) std::cout << ",\n  \"error\": \"" << json_escape(active_error()) << "\"";
    std::cout << ",\n  \"algorithms\": [";
    for (int level : {1, 3, 5}) {
      const hqc_kem_info* i = hqc_kem_info_by_level(level);
      std::cout << (level == 1 ? "" : ", ") << "{\"name\": \"" << i->name << "\", \"public_key_bytes\": "
                << i->public_key_bytes << ", \"secret_key_bytes\": " << i->secret_key_bytes
                << ", \"ciphertext_bytes\": " << i->ciphertext_bytes << ", \"shared_secret_bytes\": "
                << i->shared_secret_bytes << "}";
    }
    std::cout << "]\n}\n";
  } else {
    std::cout << "hqckit " << hqc_version() << "\n";
    std::cout << "HQC revision:      " << hqc_revision() << "\n";
    std::cout << "CPU features:      " << feature_list_string(detected) << "\n";
    if (effective != detected) std::cout << "  after HQC_CPU_MASK: " << feature_list_string(effective) << "\n";
    std::cout << "backends:\n";
    for (const Backend* b : all_backends())
      std::cout << "  " << (b == selected ? "* " : "  ") << b->name
                << (is_supported(*b, effective) ? "" : " (unavailable on this CPU)")
                << (b->variant ? " (variant: only by HQC_BACKEND)" : "") << ": " << b->description << "\n";
    if (selected) {
      std::cout << "selected backend:  " << selected->name << "\n";
      std::cout << "multipliers:       HQC-1 " << selected->hqc1.mul_name << "\n"
                << "                   HQC-3 " << selected->hqc3.mul_name << "\n"
                << "                   HQC-5 " << selected->hqc5.mul_name << "\n";
    } else
      std::cout << "selected backend:  none\n";
    for (int level : {1, 3, 5}) {
      const hqc_kem_info* i = hqc_kem_info_by_level(level);
      std::cout << i->name << ": pk " << i->public_key_bytes << " B, sk " << i->secret_key_bytes << " B, ct "
                << i->ciphertext_bytes << " B, ss " << i->shared_secret_bytes << " B\n";
    }
  }
  if (!selected) std::cerr << "hqc: " << active_error() << "\n";
  return selected ? 0 : kExitFailure;
}

int cmd_keygen(int argc, char** argv) {
  Args a = parse_args(argc, argv, 2, {"--level", "--pk", "--sk"}, {});
  const int level = parse_level(require(a, "--level"));
  const std::string pk_path = require(a, "--pk"), sk_path = require(a, "--sk");
  const std::vector<hqc::tools::OutputSpec> outs{{"--sk", sk_path, true}, {"--pk", pk_path, false}};
  check_files({}, outs);
  check_backend();
  hqc::tools::OutputSet out(outs);
  std::string err;
  if (!out.prepare(&err)) return report_failure(err);
  const hqc_kem_info* info = hqc_kem_info_by_level(level);
  std::vector<std::uint8_t> pk(info->public_key_bytes), sk(info->secret_key_bytes);
  int rc = hqc_kem_keypair(info->name, pk.data(), pk.size(), sk.data(), sk.size());
  if (rc != HQC_OK) {
    std::fill(sk.begin(), sk.end(), 0);
    std::cerr << "hqc: keygen failed: " << hqc_status_string(rc) << "\n";
    return kExitFailure;
  }
  const int status = out.commit({{sk.data(), sk.size()}, {pk.data(), pk.size()}}, &err) ? 0 : report_failure(err);
  std::fill(sk.begin(), sk.end(), 0);
  return status;
}

int cmd_encaps(int argc, char** argv) {
  Args a = parse_args(argc, argv, 2, {"--pk", "--ct", "--ss"}, {});
  const std::string pk_path = require(a, "--pk"), ct_path = require(a, "--ct"), ss_path = require(a, "--ss");
  const std::vector<hqc::tools::OutputSpec> outs{{"--ss", ss_path, true}, {"--ct", ct_path, false}};
  check_files({{"--pk", pk_path}}, outs);
  check_backend();
  auto pk = read_file(pk_path, 1 << 16);
  const hqc_kem_info* info = info_for_length(pk.size(), false);
  if (info == nullptr) {
    std::cerr << "hqc: '" << pk_path << "' is not an HQC public key: " << pk.size()
              << " bytes (expected 2241, 4514 or 7237)\n";
    return kExitFailure;
  }
  hqc::tools::OutputSet out(outs);
  std::string err;
  if (!out.prepare(&err)) return report_failure(err);
  std::vector<std::uint8_t> ct(info->ciphertext_bytes), ss(32);
  int rc = hqc_kem_encaps(info->name, ct.data(), ct.size(), ss.data(), ss.size(), pk.data(), pk.size());
  if (rc != HQC_OK) {
    std::cerr << "hqc: encaps failed: '" << pk_path << "': " << hqc_status_string(rc) << "\n";
    return kExitFailure;
  }
  const int status = out.commit({{ss.data(), ss.size()}, {ct.data(), ct.size()}}, &err) ? 0 : report_failure(err);
  std::fill(ss.begin(), ss.end(), 0);
  return status;
}

int cmd_decaps(int argc, char** argv) {
  Args a = parse_args(argc, argv, 2, {"--sk", "--ct", "--ss"}, {});
  const std::string sk_path = require(a, "--sk"), ct_path = require(a, "--ct"), ss_path = require(a, "--ss");
  const std::vector<hqc::tools::OutputSpec> outs{{"--ss", ss_path, true}};
  check_files({{"--sk", sk_path}, {"--ct", ct_path}}, outs);
  check_backend();
  auto sk = read_file(sk_path, 1 << 16);
  const hqc_kem_info* info = info_for_length(sk.size(), true);
  if (info == nullptr) {
    std::cerr << "hqc: '" << sk_path << "' is not an HQC secret key: " << sk.size()
              << " bytes (expected 2321, 4602 or 7333)\n";
    return kExitFailure;
  }
  auto ct = read_file(ct_path, 1 << 16);
  if (ct.size() != info->ciphertext_bytes) {
    std::cerr << "hqc: '" << ct_path << "' is not an " << info->name << " ciphertext: " << ct.size()
              << " bytes (expected " << info->ciphertext_bytes << ")\n";
    return kExitFailure;
  }
  hqc::tools::OutputSet out(outs);
  std::string err;
  if (!out.prepare(&err)) {
    std::fill(sk.begin(), sk.end(), 0);
    return report_failure(err);
  }
  std::vector<std::uint8_t> ss(32);
  int rc = hqc_kem_decaps(info->name, ss.data(), ss.size(), ct.data(), ct.size(), sk.data(), sk.size());
  std::fill(sk.begin(), sk.end(), 0);
  if (rc != HQC_OK) {
    std::cerr << "hqc: decaps failed: '" << sk_path << "': " << hqc_status_string(rc) << "\n";
    return kExitFailure;
  }
  const int status = out.commit({{ss.data(), ss.size()}}, &err) ? 0 : report_failure(err);
  std::fill(ss.begin(), ss.end(), 0);
  return status;
}

int cmd_kat(int argc, char** argv) {
  Args a = parse_args(argc, argv, 2, {"--level", "--count"}, {});
  const int level = parse_level(require(a, "--level"));
  const long count = a.values.count("--count") ? parse_number(a.values["--count"], "count", 1, 100) : 100;
  check_backend();
  std::ostringstream out;
  std::string err;
  if (!hqc::tools::write_kat(out, level, static_cast<std::size_t>(count), &err)) {
    std::cerr << "hqc: kat: " << err << "\n";
    return kExitFailure;
  }
  std::cout << out.str();
  return 0;
}

int cmd_selftest(int argc, char** argv) {
  parse_args(argc, argv, 2, {}, {});
  check_backend();
  int failures = 0;
  for (int level : {1, 3, 5}) {
    std::ostringstream out;
    std::string err;
    if (!hqc::tools::write_kat(out, level, 100, &err)) {
      std::cout << "HQC-" << level << ": FAIL (" << err << ")\n";
      failures++;
      continue;
    }
    const std::string digest = hqc::tools::sha256_hex(out.str());
    const std::string expected = hqc::tools::expected_kat_digest(level);
    const bool ok = digest == expected;
    std::cout << "HQC-" << level << " KAT (100 records, backend " << hqc_backend_name() << "): " << (ok ? "OK" : "FAIL")
              << "  sha256 " << digest << "\n";
    failures += ok ? 0 : 1;
  }
  return failures == 0 ? 0 : kExitFailure;
}

int cmd_bench(int argc, char** argv) {
  Args a = parse_args(argc, argv, 2, {"--level", "--backend", "--runs", "--warmup", "--cpu"},
                      {"--json", "--csv", "--no-kernels", "--summary"});
  hqc::tools::BenchOptions opt;
  if (a.values.count("--level")) opt.levels = {parse_level(a.values["--level"])};
  if (a.values.count("--backend")) {
    std::stringstream ss(a.values["--backend"]);
    std::string item;
    while (std::getline(ss, item, ','))
      if (!item.empty()) opt.backends.push_back(item);
    if (opt.backends.empty()) usage_error("--backend needs a name");
  }
  if (a.values.count("--runs")) opt.runs = static_cast<std::size_t>(parse_number(a.values["--runs"], "runs", 1, 10000000));
  if (a.values.count("--warmup"))
    opt.warmup = static_cast<std::size_t>(parse_number(a.values["--warmup"], "warmup", 0, 10000000));
  if (a.values.count("--cpu")) {
    opt.cpu = static_cast<int>(parse_number(a.values["--cpu"], "cpu", 0, 4095));
    const std::string why = hqc::tools::cpu_unavailable(opt.cpu);
    if (!why.empty()) usage_error("invalid cpu '" + a.values["--cpu"] + "': " + why);
  }
  opt.json = a.switches.count("--json") > 0;
  opt.csv = a.switches.count("--csv") > 0;
  const bool summary = a.switches.count("--summary") > 0;
  if (opt.json && opt.csv) usage_error("--json and --csv are exclusive");
  if (summary && (opt.json || opt.csv)) usage_error("--summary is a table: not with --json or --csv");
  opt.kernels = a.switches.count("--no-kernels") == 0 && !summary;
  if (summary) opt.ops = {"keygen", "encaps", "decaps"};
  if (opt.backends.empty()) check_backend();
  std::vector<hqc::tools::BenchRow> rows;
  std::string note, err;
  if (!hqc::tools::run_bench(opt, &rows, &note, &err)) {
    std::cerr << "hqc: bench: " << err << "\n";
    return kExitFailure;
  }
  if (opt.json)
    hqc::tools::print_bench_json(rows);
  else if (opt.csv)
    hqc::tools::print_bench_csv(rows);
  else if (summary)
    hqc::tools::print_bench_summary(rows, note, hqc_backend_name() ? hqc_backend_name() : "");
  else
    hqc::tools::print_bench_table(rows, note);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) usage_error("missing command");
  const std::string cmd = argv[1];
  if (cmd == "-h" || cmd == "--help" || cmd == "help") {
    std::cout << kUsage;
    return 0;
  }
  if (cmd == "info") return cmd_info(argc, argv);
  if (cmd == "keygen") return cmd_keygen(argc, argv);
  if (cmd == "encaps") return cmd_encaps(argc, argv);
  if (cmd == "decaps") return cmd_decaps(argc, argv);
  if (cmd == "kat") return cmd_kat(argc, argv);
  if (cmd == "selftest") return cmd_selftest(argc, argv);
  if (cmd == "bench") return cmd_bench(argc, argv);
#if defined(HQC_WITH_TLS_BENCH)
  if (cmd == "tls-bench") return tls_bench_main(argc - 1, argv + 1);
#endif
  usage_error("unknown command '" + cmd + "'");
}
