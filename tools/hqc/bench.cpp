#include "bench.hpp"

#include <sched.h>
#include <time.h>
#include <x86intrin.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>

#include "backend/registry.hpp"
#include "kem/kem.hpp"
#include "perf_baseline.hpp"
#include "sym/oracles.hpp"
#include "tsc.hpp"

namespace hqc::tools {

namespace {

using timing::tsc_begin;
using timing::tsc_end;
inline std::uint64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}

double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  if (v.empty()) return 0;
  const double idx = p * static_cast<double>(v.size() - 1);
  const std::size_t lo = static_cast<std::size_t>(idx);
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  const double frac = idx - static_cast<double>(lo);
  return v[lo] * (1 - frac) + v[hi] * frac;
}

// One benchmarked operation on one backend.
// Every backend gets the same list of operations (the runs alternate by index); an operation
// that means nothing for one backend (preparing a key where nothing is kept) is `skip`ped there:
// not timed, no row.
struct Bench {
  std::string op;
  std::string kind;
  std::function<void()> fn;
  bool skip = false;
};

// Per-level, per-backend state: keys and inputs made from a fixed seed, so runs are repeatable.
template <class P>
struct Ctx {
  const backend::Backend* be;
  std::uint8_t seed_kem[32];
  std::uint8_t coins[P::kK + 16];
  std::uint8_t pk[P::kPublicKeyBytes];
  std::uint8_t sk[P::kSecretKeyBytes];
  std::uint8_t ct[P::kCiphertextBytes];
  std::uint8_t ss[32];
  kem::SecretKey<P> key;
  kem::SecretKey<P> ephemeral;  // the client_once rows' key: generated and used once
  kem::PublicKey<P> pub;
  pke::RingVec<P> a, b, out1, out2;
  pke::CodeVec<P> noisy;
  std::uint8_t rs_word[P::kN1];
  std::uint8_t rs_cw[P::kN1];
  std::uint8_t msg[P::kK];
  std::uint32_t pos[P::kWr > P::kW ? P::kWr : P::kW];
  std::uint8_t rnd[4 * P::kWr];
  std::uint64_t keccak_state[25];
};

template <class P>
std::vector<Bench> make_benches(Ctx<P>& c, const backend::Backend& be, bool kernels) {
  c.be = &be;
  std::mt19937_64 rng(0x68716b6974ULL + P::kLevel);
  auto fill = [&](std::uint8_t* p, std::size_t n) {
    for (std::size_t i = 0; i < n; i++) p[i] = static_cast<std::uint8_t>(rng());
  };
  fill(c.seed_kem, sizeof(c.seed_kem));
  fill(c.coins, sizeof(c.coins));
  kem::keypair<P>(be, c.key, c.seed_kem);
  std::memcpy(c.pk, c.key.pub.pk, sizeof(c.pk));
  c.key.serialize(c.sk);
  kem::parse_public_key<P>(be, c.pub, c.pk);
  // The *_cached rows use key objects prepared for many operations (H(pk), h, s, y and, where the
  // multiplier has them, the transforms of h, s, y); prepare_pk / prepare_sk time that step.
  kem::prepare_public_key<P>(be, c.pub);
  kem::prepare_secret_key<P>(be, c.key);
  kem::encaps<P>(be, c.pub, c.ct, c.ss, c.coins, c.coins + P::kK);

  std::vector<Bench> out;
  // The stateless rows are exactly what the C API does: the stateless layer parses, operates and
  // wipes, with the key objects on the stack.
  out.push_back({"keygen", "kem", [&c] { kem::stateless_keypair<P>(*c.be, c.pk, c.sk, c.seed_kem); }});
  out.push_back(
      {"encaps", "kem", [&c] { (void)kem::stateless_encaps<P>(*c.be, c.ct, c.ss, c.pk, c.coins, c.coins + P::kK); }});
  out.push_back({"decaps", "kem", [&c] { (void)kem::stateless_decaps<P>(*c.be, c.ss, c.ct, c.sk); }});
  out.push_back({"encaps_cached", "kem", [&c] { kem::encaps<P>(*c.be, c.pub, c.ct, c.ss, c.coins, c.coins + P::kK); }});
  out.push_back({"decaps_cached", "kem", [&c] { kem::decaps<P>(*c.be, c.key, c.ss, c.ct); }});
  const bool keeps = be.kernels<P>().transforms != nullptr;  // elsewhere preparing is a no-op
  out.push_back({"prepare_pk", "kem", [&c] { kem::prepare_public_key<P>(*c.be, c.pub); }, !keeps});
  out.push_back({"prepare_sk", "kem", [&c] { kem::prepare_secret_key<P>(*c.be, c.key); }, !keeps});
  // A TLS client's side of one key share: a key object generated (H(pk) included), then one
  // decapsulation with it; client_once_prepared generates it prepared (kem::keypair_prepared).
  // The ciphertext is another key's, so it decapsulates to the rejection key: in constant time,
  // the same work.
  out.push_back({"client_once", "kem", [&c] {
                   kem::keypair<P>(*c.be, c.ephemeral, c.seed_kem);
                   kem::decaps<P>(*c.be, c.ephemeral, c.ss, c.ct);
                 }});
  out.push_back({"client_once_prepared", "kem",
                 [&c] {
                   kem::keypair_prepared<P>(*c.be, c.ephemeral, c.seed_kem, pke::heap_transform_store<P>());
                   kem::decaps<P>(*c.be, c.ephemeral, c.ss, c.ct);
                 },
                 !keeps});
  if (!kernels) return out;

  // Kernel inputs: a = h (dense), b = a sparse vector of weight w_r, a noisy code word with
  // delta RS symbol errors for the decoders.
  pke::expand_h<P>(be, c.a, c.pk);
  for (std::size_t i = 0; i < P::kWr; i++) fill(c.rnd + 4 * i, 4);
  be.kernels<P>().enc_positions(c.pos, c.rnd, P::kWr);
  be.kernels<P>().support_to_vector(c.b.w, c.pos, P::kWr);
  fill(c.msg, sizeof(c.msg));
  code::rs_encode<P>(c.rs_word, c.msg);
  for (std::size_t i = 0; i < P::kDelta; i++) c.rs_word[3 * i % P::kN1] ^= static_cast<std::uint8_t>(1 + i);
  pke::code_encode<P>(c.noisy, c.msg);
  for (std::size_t i = 0; i < P::kN1N2Words; i++) {  // ~12.5% bit noise: the AND of three draws
    std::uint64_t noise = rng();
    noise &= rng();
    c.noisy.w[i] ^= noise & rng();
  }
  std::memset(c.keccak_state, 0, sizeof(c.keccak_state));

  const auto& k = be.kernels<P>();
  out.push_back({"mul", "kernel", [&c, &k] { k.mul(c.out1.w, c.a.w, c.b.w); }});
  out.push_back({"mul2", "kernel", [&c, &k] { k.mul2(c.out1.w, c.out2.w, c.a.w, c.a.w, c.b.w); }});
  out.push_back({"rm_decode", "kernel", [&c, &k] { k.rm_decode(c.rs_word, c.noisy.w); }});
  out.push_back({"rs_decode", "kernel", [&c, &k] { k.rs_decode(c.msg, c.rs_word); }});
  out.push_back({"rs_encode", "kernel", [&c, &k] { k.rs_encode(c.rs_cw, c.msg); }});
  out.push_back({"enc_sample", "kernel", [&c, &k] {
                   k.enc_positions(c.pos, c.rnd, P::kWr);
                   k.support_to_vector(c.out1.w, c.pos, P::kWr);
                 }});
  out.push_back({"keccak_f1600", "kernel", [&c] { c.be->keccak_f1600(c.keccak_state); }});
  out.push_back({"hash_pk", "kernel", [&c] { sym::oracle_h(c.be->keccak_f1600, c.ss, c.pk, P::kPublicKeyBytes); }});
  out.push_back({"expand_h", "kernel", [&c] { pke::expand_h<P>(*c.be, c.out2, c.pk); }});
  return out;
}

std::string allowed_cpus(const cpu_set_t& set) {
  std::string list;
  for (int i = 0; i < CPU_SETSIZE; i++)
    if (CPU_ISSET(i, &set)) {
      if (!list.empty()) list += ',';
      list += std::to_string(i);
    }
  return list;
}

// Pins to `cpu`, or with cpu < 0 to the last CPU this process may use. An explicit CPU that
// cannot be used is an error; without one, an unpinned run is reported in *note.
bool pin_to_core(int cpu, std::string* note, std::string* error) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) {
    if (cpu >= 0) {
      *error = std::string("cannot read the CPU affinity: ") + std::strerror(errno);
      return false;
    }
    *note = "not pinned (sched_getaffinity failed)";
    return true;
  }
  int chosen = cpu;
  if (chosen < 0)
    for (int i = CPU_SETSIZE - 1; i >= 0; i--)
      if (CPU_ISSET(i, &set)) {
        chosen = i;
        break;
      }
  CPU_ZERO(&set);
  CPU_SET(chosen, &set);
  if (sched_setaffinity(0, sizeof(set), &set) != 0) {
    if (cpu >= 0) {
      *error = "cannot pin to CPU " + std::to_string(cpu) + ": " + std::strerror(errno);
      return false;
    }
    *note = "not pinned (sched_setaffinity failed)";
    return true;
  }
  *note = "pinned to CPU " + std::to_string(chosen);
  return true;
}

}  // namespace

std::string cpu_unavailable(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return std::string("sched_getaffinity: ") + std::strerror(errno);
  if (cpu >= 0 && cpu < CPU_SETSIZE && CPU_ISSET(cpu, &set)) return "";
  return "CPU " + std::to_string(cpu) + " is not available to this process (it may use CPU " + allowed_cpus(set) + ")";
}

namespace {

template <class P>
void bench_level(const BenchOptions& opt, const std::vector<const backend::Backend*>& bes,
                 std::vector<BenchRow>* rows) {
  std::vector<std::unique_ptr<Ctx<P>>> ctxs;
  std::vector<std::vector<Bench>> benches;
  for (const auto* be : bes) {
    ctxs.push_back(std::make_unique<Ctx<P>>());
    benches.push_back(make_benches<P>(*ctxs.back(), *be, opt.kernels));
    if (!opt.ops.empty())
      for (auto& b : benches.back())
        if (std::find(opt.ops.begin(), opt.ops.end(), b.op) == opt.ops.end()) b.skip = true;
  }
  const std::size_t nops = benches[0].size();
  for (const auto& list : benches)  // the same operations for every backend (alternated by index)
    if (list.size() != nops) std::abort();
  for (std::size_t op = 0; op < nops; op++) {
    // Warm-up of every backend first.
    for (std::size_t b = 0; b < bes.size(); b++)
      for (std::size_t i = 0; i < opt.warmup && !benches[b][op].skip; i++) benches[b][op].fn();
    std::vector<std::vector<double>> cyc(bes.size()), ns(bes.size());
    // Backends alternate in blocks of kBlock timed runs, each block preceded by one untimed run, so
    // that every backend sees the same machine conditions while each timed run finds its own code
    // and data in the caches (as a benchmark of one implementation would).
    constexpr std::size_t kBlock = 10;
    for (std::size_t r = 0; r < opt.runs; r += kBlock) {
      const std::size_t n = std::min(kBlock, opt.runs - r);
      for (std::size_t b = 0; b < bes.size(); b++) {
        if (benches[b][op].skip) continue;
        benches[b][op].fn();
        for (std::size_t i = 0; i < n; i++) {
          const std::uint64_t n0 = now_ns();
          const std::uint64_t t0 = tsc_begin();
          benches[b][op].fn();
          const std::uint64_t t1 = tsc_end();
          const std::uint64_t n1 = now_ns();
          cyc[b].push_back(static_cast<double>(t1 - t0));
          ns[b].push_back(static_cast<double>(n1 - n0));
        }
      }
    }
    for (std::size_t b = 0; b < bes.size(); b++) {
      if (benches[b][op].skip) continue;
      BenchRow row{P::kLevel,
                   bes[b]->name,
                   benches[b][op].op,
                   benches[b][op].kind,
                   percentile(cyc[b], 0.5),
                   percentile(ns[b], 0.5),
                   percentile(cyc[b], 0.1),
                   percentile(cyc[b], 0.9),
                   opt.runs,
                   baseline_instructions(bes[b]->name, P::kLevel, benches[b][op].op)};
      rows->push_back(row);
    }
  }
}

}  // namespace

bool run_bench(const BenchOptions& opt, std::vector<BenchRow>* rows, std::string* note, std::string* error) {
  std::vector<const backend::Backend*> bes;
  const auto features = backend::effective_cpu_features();
  if (opt.backends.empty()) {
    const backend::Backend* be = backend::active();
    if (be == nullptr) {
      *error = backend::active_error();
      return false;
    }
    bes.push_back(be);
  } else if (opt.backends.size() == 1 && opt.backends[0] == "all") {
    for (const auto* be : backend::all_backends())
      if (backend::is_supported(*be, features)) bes.push_back(be);
    std::reverse(bes.begin(), bes.end());  // portable first
  } else {
    for (const auto& name : opt.backends) {
      const backend::Backend* be = backend::find_backend(name);
      if (be == nullptr) {
        *error = "unknown backend '" + name + "'";
        return false;
      }
      if (!backend::is_supported(*be, features)) {
        *error = "backend '" + name + "' is not supported on this CPU";
        return false;
      }
      bes.push_back(be);
    }
  }
  if (!pin_to_core(opt.cpu, note, error)) return false;
  for (int level : opt.levels) {
    if (!with_params(level, [&]<class P>() { bench_level<P>(opt, bes, rows); })) {
      *error = "unknown level " + std::to_string(level);
      return false;
    }
  }
  return true;
}

void print_bench_summary(const std::vector<BenchRow>& rows, const std::string& note, const std::string& selected) {
  std::vector<std::string> backends;
  for (const auto& r : rows)
    if (r.kind == "kem" && std::find(backends.begin(), backends.end(), r.backend) == backends.end())
      backends.push_back(r.backend);
  if (backends.empty()) return;
  const std::size_t runs = rows.front().runs;
  std::printf("# hqc bench --summary: median TSC cycles of %zu runs, backends interleaved in one run; %s\n", runs,
              note.c_str());
  if (backends.size() > 1)
    std::printf("# (N.Nx) = speed-up over %s: its median cycles / the backend's\n", backends[0].c_str());
  std::printf("%-6s %-7s", "level", "op");
  for (const auto& b : backends) {
    std::string head = b;
    if (b == selected) head.insert(head.begin(), '*');
    std::printf(" %18s", head.c_str());
  }
  std::printf("\n");
  auto find = [&](int level, const std::string& backend, const std::string& op) -> const BenchRow* {
    for (const auto& r : rows)
      if (r.level == level && r.backend == backend && r.op == op) return &r;
    return nullptr;
  };
  double lo = 0, hi = 0, log_sum = 0;
  int n = 0;
  std::vector<std::pair<int, std::string>> keys;  // (level, op) in the order measured
  for (const auto& r : rows)
    if (r.kind == "kem" && std::find(keys.begin(), keys.end(), std::make_pair(r.level, r.op)) == keys.end())
      keys.emplace_back(r.level, r.op);
  for (const auto& [level, op] : keys) {
    const BenchRow* base = find(level, backends[0], op);
    std::printf("HQC-%-2d %-7s", level, op.c_str());
    for (const auto& b : backends) {
      const BenchRow* r = find(level, b, op);
      char cell[64];
      if (r == nullptr) std::snprintf(cell, sizeof(cell), "-");
      else if (b == backends[0] || base == nullptr) std::snprintf(cell, sizeof(cell), "%.0f", r->median_cycles);
      else {
        const double speedup = base->median_cycles / r->median_cycles;
        std::snprintf(cell, sizeof(cell), "%.0f (%.1fx)", r->median_cycles, speedup);
        if (b == selected) {
          lo = n == 0 ? speedup : std::min(lo, speedup);
          hi = n == 0 ? speedup : std::max(hi, speedup);
          log_sum += std::log(speedup);
          n++;
        }
      }
      std::printf(" %18s", cell);
    }
    std::printf("\n");
  }
  if (n > 0)
    std::printf("selected backend %s: %.1fx to %.1fx faster than %s on these operations (geometric mean %.1fx)\n",
                selected.c_str(), lo, hi, backends[0].c_str(), std::exp(log_sum / n));
}

void print_bench_table(const std::vector<BenchRow>& rows, const std::string& note) {
  std::printf("# hqc bench: median of runs, TSC cycles and ns; %s\n", note.c_str());
  std::printf("%-6s %-16s %-20s %-7s %14s %12s %14s %14s %8s %14s\n", "level", "backend", "op", "kind", "median_cycles",
              "median_ns", "p10_cycles", "p90_cycles", "runs", "instructions");
  for (const auto& r : rows) {
    char instr[32];
    if (r.instructions >= 0) std::snprintf(instr, sizeof(instr), "%lld", static_cast<long long>(r.instructions));
    else std::snprintf(instr, sizeof(instr), "-");
    std::printf("HQC-%-2d %-16s %-20s %-7s %14.0f %12.0f %14.0f %14.0f %8zu %14s\n", r.level, r.backend.c_str(),
                r.op.c_str(), r.kind.c_str(), r.median_cycles, r.median_ns, r.p10_cycles, r.p90_cycles, r.runs, instr);
  }
}

void print_bench_json(const std::vector<BenchRow>& rows) {
  using Json = nlohmann::ordered_json;
  Json list = Json::array();
  for (const auto& r : rows)
    list.push_back({{"level", r.level},
                    {"algorithm", "HQC-" + std::to_string(r.level)},
                    {"backend", r.backend},
                    {"op", r.op},
                    {"kind", r.kind},
                    {"median_cycles", std::llround(r.median_cycles)},
                    {"median_ns", std::llround(r.median_ns)},
                    {"p10_cycles", std::llround(r.p10_cycles)},
                    {"p90_cycles", std::llround(r.p90_cycles)},
                    {"runs", r.runs},
                    {"instructions", r.instructions >= 0 ? Json(r.instructions) : Json(nullptr)}});
  std::printf("%s\n", list.dump(2, ' ', false, Json::error_handler_t::replace).c_str());
}

void print_bench_csv(const std::vector<BenchRow>& rows) {
  std::printf("level,backend,op,kind,median_cycles,median_ns,p10_cycles,p90_cycles,runs,instructions\n");
  for (const auto& r : rows)
    std::printf("%d,%s,%s,%s,%.0f,%.0f,%.0f,%.0f,%zu,%lld\n", r.level, r.backend.c_str(), r.op.c_str(), r.kind.c_str(),
                r.median_cycles, r.median_ns, r.p10_cycles, r.p90_cycles, r.runs,
                static_cast<long long>(r.instructions));
}

}  // namespace hqc::tools
