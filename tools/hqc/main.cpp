// The `hqc` command-line tool. Subcommands and flags are relied on by scripts: extend, never rename.
//   hqc info [--json]
//   hqc keygen --level {1,3,5} --pk FILE --sk FILE
//   hqc encaps --pk FILE --ct FILE --ss FILE
//   hqc decaps --sk FILE --ct FILE --ss FILE
//   hqc kat --level {1,3,5} [--count N]
//   hqc bench [--level N] [--json|--csv|--summary] [--backend NAME[,NAME..]|all] [--runs N] [--warmup N] [--no-kernels]
//   [--cpu N] hqc selftest hqc tls-bench ... (when built with the TLS benchmark; it parses its own options)
// Exit codes: 0 success, 1 failure, 2 usage error (the message names the problem).
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
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
    "usage: hqc <command> [options]   (hqc <command> --help: the command's options)\n"
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

// ---- Command-line values, checked while parsing (CLI11 reports "--flag: message", exit 2).

CLI::Validator number_in(const std::string& what, long lo, long hi) {
  return {[=](std::string& s) -> std::string {
            errno = 0;
            char* end = nullptr;
            const long v = std::strtol(s.c_str(), &end, 10);
            if (s.empty() || *end != '\0' || errno != 0 || v < lo || v > hi)
              return "invalid " + what + " '" + s + "' (expected " + std::to_string(lo) + ".." + std::to_string(hi) +
                     ")";
            return "";
          },
          std::to_string(lo) + ".." + std::to_string(hi)};
}

// Accepts 1, 3, 5 or an algorithm name (HQC-3) and leaves the digit.
const CLI::Validator kLevel(
    [](std::string& s) -> std::string {
      if (s == "1" || s == "3" || s == "5") return "";
      if (const hqc_kem_info* info = hqc_kem_info_by_name(s.c_str())) {
        s = std::to_string(info->level);
        return "";
      }
      return "invalid level '" + s + "' (expected 1, 3 or 5)";
    },
    "{1,3,5}");

// CLI11's own messages for the two value-count errors, in the words scripts and tests expect.
std::string usage_message(const CLI::ParseError& e) {
  std::string what = e.what();
  const std::size_t colon = what.find(':');
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr && colon != std::string::npos) {
    const std::string flag = what.substr(0, colon);
    if (what.find("missing") != std::string::npos) return "option " + flag + " needs a value";
    if (what.find("At Most") != std::string::npos) return "option " + flag + " given twice";
  }
  return what;
}

void require(const CLI::App& cmd, const std::string& flag) {
  if (cmd.get_option(flag)->count() == 0) usage_error("missing required option " + flag);
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
    case hqc::tools::PathCheck::kOk: return;
    case hqc::tools::PathCheck::kUsage: usage_error(err);
    case hqc::tools::PathCheck::kFailure: std::cerr << "hqc: " << err << "\n"; std::exit(kExitFailure);
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

// ---- Commands. Each gets its parsed options; usage problems found after parsing exit 2.

// The hqckit OpenSSL provider as the running OpenSSL sees it: "active" (loaded by the OpenSSL
// configuration into the default library context: what openssl(1), nginx and curl get), "found"
// (loadable from the module directory, not activated), "load failed" (there, but its initialisation
// failed, e.g. no usable HQC backend), or "not found"; with the active code
// points from its "tls-groups" parameter.
struct ProviderStatus {
  std::string status, version, tls_groups, modules_dir, error;
};

ProviderStatus provider_status() {
  ProviderStatus st;
  st.modules_dir = OpenSSL_version(OPENSSL_MODULES_DIR);  // MODULESDIR: "/usr/lib/..."
  if (const auto q = st.modules_dir.find('"'); q != std::string::npos && st.modules_dir.back() == '"')
    st.modules_dir = st.modules_dir.substr(q + 1, st.modules_dir.size() - q - 2);
  if (const char* env = std::getenv("OPENSSL_MODULES"); env != nullptr) st.modules_dir = env;
  OPENSSL_init_crypto(OPENSSL_INIT_LOAD_CONFIG, nullptr);
  auto query = [&st](OSSL_PROVIDER* p) {
    const char* ver = nullptr;
    const char* groups = nullptr;
    OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_VERSION, const_cast<char**>(&ver), 0),
                           OSSL_PARAM_construct_utf8_ptr("tls-groups", const_cast<char**>(&groups), 0),
                           OSSL_PARAM_construct_end()};
    if (OSSL_PROVIDER_get_params(p, params) == 1) {
      if (ver != nullptr) st.version = ver;
      if (groups != nullptr) st.tls_groups = groups;
    }
  };
  if (OSSL_PROVIDER_available(nullptr, "hqckit") == 1) {
    st.status = "active";
    OSSL_PROVIDER_do_all(
        nullptr,
        [](OSSL_PROVIDER* p, void* arg) {
          if (std::strcmp(OSSL_PROVIDER_get0_name(p), "hqckit") == 0) (*static_cast<decltype(query)*>(arg))(p);
          return 1;
        },
        &query);
  } else {  // in a library context of its own: the default one stays as configured
    OSSL_LIB_CTX* lib = OSSL_LIB_CTX_new();
    OSSL_PROVIDER* p = lib != nullptr ? OSSL_PROVIDER_load(lib, "hqckit") : nullptr;
    const std::string file = st.modules_dir + "/hqckit.so";
    st.status = p != nullptr ? "found" : std::ifstream(file).good() ? "load failed" : "not found";
    if (p != nullptr) query(p);
    if (p == nullptr && st.status == "load failed") {
      // The first error is the provider's own reason (its text), the later ones OpenSSL's "init fail".
      const char* data = nullptr;
      int flags = 0;
      char buf[256] = "";
      if (const unsigned long e = ERR_peek_error_data(&data, &flags); e != 0) ERR_error_string_n(e, buf, sizeof buf);
      st.error = data != nullptr && (flags & ERR_TXT_STRING) != 0 && *data != '\0' ? data : buf;
    }
    OSSL_PROVIDER_unload(p);
    OSSL_LIB_CTX_free(lib);
  }
  ERR_clear_error();
  return st;
}

int cmd_info(bool json) {
  using namespace hqc::backend;
  const auto detected = detect_cpu_features();
  const auto effective = effective_cpu_features();
  const Backend* selected = active();
  if (json) {
    // ordered_json keeps the fields in the documented order; dump() escapes control characters
    // and replaces invalid UTF-8 (an HQC_BACKEND value ends up in "error").
    using Json = nlohmann::ordered_json;
    auto features = [](CpuFeatures f) {
      Json list = Json::array();
      for (const auto& fn : kFeatureNames)
        if (f & fn.bit) list.push_back(fn.name);
      return list;
    };
    Json j;
    j["version"] = hqc_version();
    j["hqc_revision"] = hqc_revision();
    j["cpu_features"] = features(detected);
    j["cpu_features_effective"] = features(effective);
    j["backends"] = Json::array();
    for (const Backend* b : all_backends())
      j["backends"].push_back(
          {{"name", b->name},
           {"available", is_supported(*b, effective)},
           {"variant", b->variant},
           {"description", b->description},
           {"multipliers", {{"hqc1", b->hqc1.mul_name}, {"hqc3", b->hqc3.mul_name}, {"hqc5", b->hqc5.mul_name}}}});
    j["selected_backend"] = selected ? Json(selected->name) : Json(nullptr);
    if (!selected) j["error"] = active_error();
    j["algorithms"] = Json::array();
    for (int level : {1, 3, 5}) {
      const hqc_kem_info* i = hqc_kem_info_by_level(level);
      j["algorithms"].push_back({{"name", i->name},
                                 {"public_key_bytes", i->public_key_bytes},
                                 {"secret_key_bytes", i->secret_key_bytes},
                                 {"ciphertext_bytes", i->ciphertext_bytes},
                                 {"shared_secret_bytes", i->shared_secret_bytes}});
    }
    const ProviderStatus ps = provider_status();
    j["openssl"] = OpenSSL_version(OPENSSL_VERSION);
    j["openssl_provider"] = {{"name", "hqckit"},
                             {"status", ps.status},
                             {"version", ps.version.empty() ? Json(nullptr) : Json(ps.version)},
                             {"tls_groups", ps.tls_groups.empty() ? Json(nullptr) : Json(ps.tls_groups)},
                             {"modules_dir", ps.modules_dir},
                             {"error", ps.error.empty() ? Json(nullptr) : Json(ps.error)}};
    std::cout << j.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
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
    } else std::cout << "selected backend:  none\n";
    for (int level : {1, 3, 5}) {
      const hqc_kem_info* i = hqc_kem_info_by_level(level);
      std::cout << i->name << ": pk " << i->public_key_bytes << " B, sk " << i->secret_key_bytes << " B, ct "
                << i->ciphertext_bytes << " B, ss " << i->shared_secret_bytes << " B\n";
    }
    const ProviderStatus ps = provider_status();
    std::cout << "OpenSSL:           " << OpenSSL_version(OPENSSL_VERSION) << "\n";
    std::cout << "OpenSSL provider:  hqckit "
              << (ps.status == "active"  ? "active (loaded by the OpenSSL configuration)"
                  : ps.status == "found" ? "found in " + ps.modules_dir + ", not activated by the OpenSSL configuration"
                  : ps.status == "load failed" ? "in " + ps.modules_dir + " but failed to load: " + ps.error
                                               : "not found in " + ps.modules_dir)
              << "\n";
    if (!ps.tls_groups.empty()) std::cout << "TLS code points:   " << ps.tls_groups << "\n";
  }
  if (!selected) std::cerr << "hqc: " << active_error() << "\n";
  return selected ? 0 : kExitFailure;
}

struct KemFiles {
  int level = 0;
  std::string pk, sk, ct, ss;
};

int cmd_keygen(const KemFiles& f) {
  const std::vector<hqc::tools::OutputSpec> outs{{"--sk", f.sk, true}, {"--pk", f.pk, false}};
  check_files({}, outs);
  check_backend();
  hqc::tools::OutputSet out(outs);
  std::string err;
  if (!out.prepare(&err)) return report_failure(err);
  const hqc_kem_info* info = hqc_kem_info_by_level(f.level);
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

int cmd_encaps(const KemFiles& f) {
  const std::vector<hqc::tools::OutputSpec> outs{{"--ss", f.ss, true}, {"--ct", f.ct, false}};
  check_files({{"--pk", f.pk}}, outs);
  check_backend();
  auto pk = read_file(f.pk, 1 << 16);
  const hqc_kem_info* info = info_for_length(pk.size(), false);
  if (info == nullptr) {
    std::cerr << "hqc: '" << f.pk << "' is not an HQC public key: " << pk.size()
              << " bytes (expected 2241, 4514 or 7237)\n";
    return kExitFailure;
  }
  hqc::tools::OutputSet out(outs);
  std::string err;
  if (!out.prepare(&err)) return report_failure(err);
  std::vector<std::uint8_t> ct(info->ciphertext_bytes), ss(32);
  int rc = hqc_kem_encaps(info->name, ct.data(), ct.size(), ss.data(), ss.size(), pk.data(), pk.size());
  if (rc != HQC_OK) {
    std::cerr << "hqc: encaps failed: '" << f.pk << "': " << hqc_status_string(rc) << "\n";
    return kExitFailure;
  }
  const int status = out.commit({{ss.data(), ss.size()}, {ct.data(), ct.size()}}, &err) ? 0 : report_failure(err);
  std::fill(ss.begin(), ss.end(), 0);
  return status;
}

int cmd_decaps(const KemFiles& f) {
  const std::vector<hqc::tools::OutputSpec> outs{{"--ss", f.ss, true}};
  check_files({{"--sk", f.sk}, {"--ct", f.ct}}, outs);
  check_backend();
  auto sk = read_file(f.sk, 1 << 16);
  const hqc_kem_info* info = info_for_length(sk.size(), true);
  if (info == nullptr) {
    std::cerr << "hqc: '" << f.sk << "' is not an HQC secret key: " << sk.size()
              << " bytes (expected 2321, 4602 or 7333)\n";
    return kExitFailure;
  }
  auto ct = read_file(f.ct, 1 << 16);
  if (ct.size() != info->ciphertext_bytes) {
    std::fill(sk.begin(), sk.end(), 0);
    std::cerr << "hqc: '" << f.ct << "' is not an " << info->name << " ciphertext: " << ct.size() << " bytes (expected "
              << info->ciphertext_bytes << ")\n";
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
    std::cerr << "hqc: decaps failed: '" << f.sk << "': " << hqc_status_string(rc) << "\n";
    return kExitFailure;
  }
  const int status = out.commit({{ss.data(), ss.size()}}, &err) ? 0 : report_failure(err);
  std::fill(ss.begin(), ss.end(), 0);
  return status;
}

int cmd_kat(int level, long count) {
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

int cmd_selftest() {
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

struct BenchArgs {
  hqc::tools::BenchOptions opt;
  std::string backends;
  bool summary = false;
};

int cmd_bench(BenchArgs& a, const CLI::App& cmd) {
  hqc::tools::BenchOptions& opt = a.opt;
  if (cmd.get_option("--backend")->count()) {
    std::stringstream ss(a.backends);
    std::string item;
    while (std::getline(ss, item, ','))
      if (!item.empty()) opt.backends.push_back(item);
    if (opt.backends.empty()) usage_error("--backend needs a name");
  }
  if (cmd.get_option("--cpu")->count()) {
    const std::string why = hqc::tools::cpu_unavailable(opt.cpu);
    if (!why.empty()) usage_error("invalid cpu '" + std::to_string(opt.cpu) + "': " + why);
  }
  if (opt.json && opt.csv) usage_error("--json and --csv are exclusive");
  if (a.summary && (opt.json || opt.csv)) usage_error("--summary is a table: not with --json or --csv");
  if (a.summary) {
    opt.kernels = false;
    opt.ops = {"keygen", "encaps", "decaps"};
  }
  if (opt.backends.empty()) check_backend();
  std::vector<hqc::tools::BenchRow> rows;
  std::string note, err;
  if (!hqc::tools::run_bench(opt, &rows, &note, &err)) {
    std::cerr << "hqc: bench: " << err << "\n";
    return kExitFailure;
  }
  if (opt.json) hqc::tools::print_bench_json(rows);
  else if (opt.csv) hqc::tools::print_bench_csv(rows);
  else if (a.summary) hqc::tools::print_bench_summary(rows, note, hqc_backend_name() ? hqc_backend_name() : "");
  else hqc::tools::print_bench_table(rows, note);
  return 0;
}

}  // namespace

namespace {

int run_cli(int argc, char** argv) {
  if (argc < 2) usage_error("missing command");
  const std::string first = argv[1];
  if (first == "-h" || first == "--help" || first == "help") {
    std::cout << kUsage;
    return 0;
  }
#if defined(HQC_WITH_TLS_BENCH)
  if (first == "tls-bench") return tls_bench_main(argc - 1, argv + 1);  // its own options and --help
#endif

  CLI::App app{"hqc: the hqckit command-line tool", "hqc"};
  app.set_help_flag();  // the top-level help is kUsage (above)
  app.allow_extras();   // unknown commands and options are reported below, in our words
  auto add_command = [&](const char* name, const char* what) {
    CLI::App* c = app.add_subcommand(name, what);
    c->set_help_flag("-h,--help", "print this command's options");
    c->allow_extras();
    return c;
  };

  bool info_json = false;
  CLI::App* info = add_command("info", "CPU features, backends, version, HQC revision");
  info->add_flag("--json", info_json, "JSON output");

  KemFiles kf;
  CLI::App* keygen = add_command("keygen", "generate a key pair (raw bytes)");
  keygen->add_option("--level", kf.level, "1, 3 or 5 (or HQC-1, HQC-3, HQC-5)")->transform(kLevel);
  keygen->add_option("--pk", kf.pk, "public key file (written)");
  keygen->add_option("--sk", kf.sk, "secret key file (written, mode 0600)");
  CLI::App* encaps = add_command("encaps", "encapsulate to a public key");
  encaps->add_option("--pk", kf.pk, "public key file");
  encaps->add_option("--ct", kf.ct, "ciphertext file (written)");
  encaps->add_option("--ss", kf.ss, "shared secret file (written, mode 0600)");
  CLI::App* decaps = add_command("decaps", "decapsulate a ciphertext");
  decaps->add_option("--sk", kf.sk, "secret key file");
  decaps->add_option("--ct", kf.ct, "ciphertext file");
  decaps->add_option("--ss", kf.ss, "shared secret file (written, mode 0600)");

  int kat_level = 0;
  long kat_count = 100;
  CLI::App* kat = add_command("kat", "print the NIST KAT transcript");
  kat->add_option("--level", kat_level, "1, 3 or 5")->transform(kLevel);
  kat->add_option("--count", kat_count, "records, 1..100 (default 100)")->check(number_in("count", 1, 100));

  CLI::App* selftest = add_command("selftest", "check the KAT digests of all levels");

  BenchArgs ba;
  int bench_level = 0;
  long runs = 0, warmup = 0, cpu = 0;
  CLI::App* bench = add_command("bench", "KEM operations and kernels, backends side by side");
  bench->add_option("--level", bench_level, "one level (default: 1, 3 and 5)")->transform(kLevel);
  bench->add_option("--backend", ba.backends, "NAME[,NAME..] or all (default: the selected backend)");
  bench->add_option("--runs", runs, "timed runs per operation (default 1000)")->check(number_in("runs", 1, 10000000));
  bench->add_option("--warmup", warmup, "untimed runs first (default 100)")->check(number_in("warmup", 0, 10000000));
  bench->add_option("--cpu", cpu, "the CPU to pin to (default: the last allowed one)")
      ->check(number_in("cpu", 0, 4095));
  bench->add_flag("--json", ba.opt.json, "JSON output");
  bench->add_flag("--csv", ba.opt.csv, "CSV output");
  bench->add_flag("--summary", ba.summary, "KEM operations only, with speed-ups over the first backend");
  bool no_kernels = false;
  bench->add_flag("--no-kernels", no_kernels, "KEM operations only (every row)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    for (const CLI::App* c : app.get_subcommands()) std::cout << c->help();
    return 0;
  } catch (const CLI::ParseError& e) {
    usage_error(usage_message(e));
  }
  const std::vector<CLI::App*> chosen = app.get_subcommands();
  if (chosen.empty()) {
    const auto rest = app.remaining();
    usage_error("unknown command '" + (rest.empty() ? first : rest.front()) + "'");
  }
  CLI::App* cmd = chosen.front();
  if (!cmd->remaining().empty()) usage_error("unknown option '" + cmd->remaining().front() + "'");

  if (cmd == info) return cmd_info(info_json);
  if (cmd == keygen || cmd == encaps || cmd == decaps) {
    for (const char* flag : cmd == keygen   ? std::vector<const char*>{"--level", "--pk", "--sk"}
                            : cmd == encaps ? std::vector<const char*>{"--pk", "--ct", "--ss"}
                                            : std::vector<const char*>{"--sk", "--ct", "--ss"})
      require(*cmd, flag);
    return cmd == keygen ? cmd_keygen(kf) : cmd == encaps ? cmd_encaps(kf) : cmd_decaps(kf);
  }
  if (cmd == kat) {
    require(*kat, "--level");
    return cmd_kat(kat_level, kat_count);
  }
  if (cmd == selftest) return cmd_selftest();
  // bench
  if (bench->get_option("--level")->count()) ba.opt.levels = {bench_level};
  if (bench->get_option("--runs")->count()) ba.opt.runs = static_cast<std::size_t>(runs);
  if (bench->get_option("--warmup")->count()) ba.opt.warmup = static_cast<std::size_t>(warmup);
  if (bench->get_option("--cpu")->count()) ba.opt.cpu = static_cast<int>(cpu);
  ba.opt.kernels = !no_kernels;
  return cmd_bench(ba, *bench);
}

}  // namespace

int main(int argc, char** argv) {
  // Nothing below throws by design; an exception here is an internal error (out of memory, a
  // stream failure), reported in one line instead of std::terminate's abort.
  try {
    return run_cli(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "hqc: internal error: " << e.what() << "\n";
    return kExitFailure;
  }
}
