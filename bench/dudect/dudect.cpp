// dudect-style statistical timing test (Reparaz, Balasch, Verbauwhede 2017): two classes of inputs
// (fixed vs random), measured interleaved in random order with rdtsc, compared with Welch's
// t-test on the raw measurements and on measurements cropped at several percentiles (the crops
// remove the long tail of interrupts and preemption). |t| above about 4.5 is evidence that
// timing depends on the class; below, no dependence was detected at this sample size.
//
// usage: dudect [--backend NAME|all] [--level 1|3|5|all] [--test NAME|all] [--n MEASUREMENTS]
//               [--rounds R] [--short] [--swap KERNEL:BACKEND] [--class0 fixed|random] [--crops]
//               [--seed S] [--null]
// Both classes are prepared identically (untimed): each draws one entry of an input pool of the
// same size (the fixed class's pool holds copies of the fixed input), interleaved in one array,
// and copies it to the same buffer. Only the contents differ (see Pools).
// tests:
//   decaps_ct      fixed valid ciphertext vs random valid ciphertexts (one key object)
//   decaps_reject  fixed valid ciphertext vs random invalid ciphertexts (implicit rejection)
//   decaps_key     fixed key vs random keys (key objects with y expanded), each with a valid ct
//   encaps_m       fixed (m, salt) vs random (m, salt), one public key
//   keygen_seed    fixed seed_kem vs random seed_kem. Expected to show a dependence: the
//                  key-generation sampler is variable-time by design (spec §8; the number of
//                  rejections depends on the seed). A check that the tool sees real leaks.
//   k_mul, k_mul2, k_support_to_vector, k_enc_positions, k_rm_decode, k_rs_decode, k_keccak
//                  one kernel alone, fixed vs random operand (the one decapsulation derives from
//                  the ciphertext): bisection of a decapsulation signal. Not part of "all".
//   k_rs_encode    the RS encoder alone, fixed vs random message (the encoding of m and m').
// Output: one line per (backend, level, test, round) with n, the median, t of the raw data, max |t|
// over the raw data and the crops, the percentile kept by the crop with the max, and the verdict.
// Pin it to one core (taskset -c 1) on an otherwise idle machine for meaningful numbers.
#include <x86intrin.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "backend/registry.hpp"
#include "kem/kem.hpp"
#include "tsc.hpp"

namespace {

using namespace hqc;

using timing::tsc_begin;
using timing::tsc_end;

// Welch's t-test with online (Welford) means and variances.
struct TTest {
  double mean[2] = {0, 0}, m2[2] = {0, 0}, n[2] = {0, 0};
  void push(double x, int cls) {
    n[cls] += 1;
    const double d = x - mean[cls];
    mean[cls] += d / n[cls];
    m2[cls] += d * (x - mean[cls]);
  }
  double t() const {
    if (n[0] < 2 || n[1] < 2) return 0;
    const double v0 = m2[0] / (n[0] - 1), v1 = m2[1] / (n[1] - 1);
    const double den = std::sqrt(v0 / n[0] + v1 / n[1]);
    return den > 0 ? (mean[0] - mean[1]) / den : 0;
  }
};

struct Result {
  double max_t = 0;    // max |t| over the raw data and every crop
  double raw_t = 0;    // t of the uncropped data
  double median = 0;   // cycles
  double worst = 100;  // percentile kept by the crop that gave max_t (100: the raw data)
  std::size_t n = 0;
  std::vector<double> crop_t;  // t of each crop, in order of increasing percentile
};

// Percentile crops as in dudect: thresholds at 1 - 0.5^(10 (i+1) / K) of the pooled data.
Result analyse(const std::vector<std::uint64_t>& t, const std::vector<std::uint8_t>& cls) {
  Result r;
  r.n = t.size();
  std::vector<std::uint64_t> sorted = t;
  std::sort(sorted.begin(), sorted.end());
  r.median = static_cast<double>(sorted[sorted.size() / 2]);
  constexpr int kCrops = 20;
  std::vector<double> thresholds;
  for (int i = 0; i < kCrops; i++) {
    const double p = 1.0 - std::pow(0.5, 10.0 * (i + 1) / kCrops);
    thresholds.push_back(
        static_cast<double>(sorted[static_cast<std::size_t>(p * static_cast<double>(sorted.size() - 1))]));
  }
  TTest raw;
  std::vector<TTest> cropped(kCrops);
  for (std::size_t i = 0; i < t.size(); i++) {
    const double x = static_cast<double>(t[i]);
    raw.push(x, cls[i]);
    for (int c = 0; c < kCrops; c++)
      if (x < thresholds[c]) cropped[c].push(x, cls[i]);
  }
  r.raw_t = raw.t();
  r.max_t = std::fabs(r.raw_t);
  for (int c = 0; c < kCrops; c++) {
    const double tc = cropped[c].t();
    r.crop_t.push_back(tc);
    if (std::fabs(tc) > r.max_t) {
      r.max_t = std::fabs(tc);
      r.worst = 100.0 * (1.0 - std::pow(0.5, 10.0 * (c + 1) / kCrops));
    }
  }
  return r;
}

std::uint64_t g_seed = 0x5eed;  // --seed: keys, the fixed input, the random inputs and the class order
std::mt19937_64& rng() {
  static std::mt19937_64 g(g_seed);
  return g;
}
void random_bytes(std::uint8_t* p, std::size_t n) {
  for (std::size_t i = 0; i < n; i++) p[i] = static_cast<std::uint8_t>(rng()());
}

// Runs `n` measurements: prepare(i, cls) sets up input i of class cls (untimed), op(i) is timed.
template <class Prepare, class Op>
Result measure(std::size_t n, Prepare&& prepare, Op&& op) {
  std::vector<std::uint8_t> cls(n);
  for (auto& c : cls) c = static_cast<std::uint8_t>(rng()() & 1);
  std::vector<std::uint64_t> t(n);
  for (std::size_t i = 0; i < std::min<std::size_t>(n, 50); i++) {  // warm-up
    prepare(i, cls[i]);
    op(i);
  }
  for (std::size_t i = 0; i < n; i++) {
    prepare(i, cls[i]);
    const std::uint64_t a = tsc_begin();
    op(i);
    const std::uint64_t b = tsc_end();
    t[i] = b - a;
  }
  return analyse(t, cls);
}

// Input pools shared by both classes. Entry j of class c lives at slot 2j + c of one array, so
// the fixed inputs (kPool copies of one input) and the random inputs (kPool distinct inputs)
// interleave in the same memory region: both classes have the same footprint, the same cache
// behaviour and the same access pattern. Before each measurement (untimed) both classes draw one
// random entry index with the same generator call and copy that entry to the same destination.
// Every entry starts on a 64-byte boundary (the stride is the entry size rounded up to 64):
// otherwise, for sizes that are not multiples of 64 (a HQC-1 ciphertext has 4433 bytes, a HQC-1
// code word 2208), even and odd slots - i.e. the two classes - would be copied from differently
// aligned sources, and the copy's alignment alone gives |t| near 10 when both classes hold the
// same input (--null).
struct Pools {
  static constexpr std::size_t kPool = 64;
  std::size_t entry_bytes, stride;
  std::vector<std::uint8_t> data;
  explicit Pools(std::size_t bytes)
      : entry_bytes(bytes), stride((bytes + 63) / 64 * 64), data(2 * kPool * stride + 64) {}
  std::uint8_t* at(int kind, std::size_t j) {
    std::uint8_t* base = data.data() + (64 - reinterpret_cast<std::uintptr_t>(data.data()) % 64) % 64;
    return base + (2 * j + static_cast<std::size_t>(kind)) * stride;
  }
};

// The class label of a measurement maps to the kind of input: kind 0 fixed, kind 1 random.
// --class0 random inverts the mapping (the other class order), so that any effect tied to the
// label rather than to the input flips the sign of t while a real dependence keeps it.
int g_label_flip = 0;
int kind_of(int label) { return label ^ g_label_flip; }
// --null: the random pool is also filled with copies of the fixed input (both classes get the
// same input): a control of the method, since any |t| above the threshold is then a false positive.
bool g_null = false;

template <class P>
Result run_test(const backend::Backend& be, const std::string& test_name, std::size_t n) {
  // "<test>_prepared": the same test with key objects prepared for many operations (the
  // transforms of h, s, y kept where the multiplier has them: the FAFFT paths of avx512 HQC-5).
  const bool prepared = test_name.size() > 9 && test_name.ends_with("_prepared");
  const std::string test = prepared ? test_name.substr(0, test_name.size() - 9) : test_name;
  constexpr std::size_t kPool = Pools::kPool;
  std::uint8_t seed[32];
  random_bytes(seed, 32);
  auto key = std::make_unique<kem::SecretKey<P>>();
  kem::keypair<P>(be, *key, seed);
  if (prepared) kem::prepare_secret_key<P>(be, *key);
  std::uint8_t ss[32];
  auto encaps_random = [&](const kem::PublicKey<P>& pub, std::uint8_t* ct) {
    std::uint8_t coins[P::kK + 16];
    random_bytes(coins, sizeof(coins));
    kem::encaps<P>(be, pub, ct, ss, coins, coins + P::kK);
  };
  // Fills kind 0 with copies of entry (0, 0) and kind 1 with make(j) for each j.
  auto fill = [&](Pools& pools, auto&& make_fixed, auto&& make_random) {
    make_fixed(pools.at(0, 0));
    for (std::size_t j = 1; j < kPool; j++) std::memcpy(pools.at(0, j), pools.at(0, 0), pools.entry_bytes);
    for (std::size_t j = 0; j < kPool; j++) {
      if (g_null) std::memcpy(pools.at(1, j), pools.at(0, 0), pools.entry_bytes);
      else make_random(pools.at(1, j));
    }
  };

  if (test == "decaps_ct" || test == "decaps_reject") {
    Pools cts(P::kCiphertextBytes);
    fill(
        cts, [&](std::uint8_t* ct) { encaps_random(key->pub, ct); },
        [&](std::uint8_t* ct) {
          if (test == "decaps_ct") encaps_random(key->pub, ct);
          else random_bytes(ct, P::kCiphertextBytes);
        });
    // The measured input is always copied to the same buffer (untimed), so both classes run from
    // the same, cache-warm addresses.
    static std::uint8_t cur[P::kCiphertextBytes];
    return measure(
        n,
        [&](std::size_t, int c) {
          const std::size_t j = rng()() % kPool;
          std::memcpy(cur, cts.at(kind_of(c), j), sizeof(cur));
        },
        [&](std::size_t) { kem::decaps<P>(be, *key, ss, cur); });
  }
  if (test == "decaps_key") {
    // Keys are kept serialized and parsed (untimed) into the same key object before each
    // measurement; the ciphertext (encapsulated to that key) is copied to the same buffer.
    Pools sks(P::kSecretKeyBytes + P::kCiphertextBytes);
    auto tmp = std::make_unique<kem::SecretKey<P>>();
    auto make = [&](std::uint8_t* e) {
      random_bytes(seed, 32);
      kem::keypair<P>(be, *tmp, seed);
      tmp->serialize(e);
      encaps_random(tmp->pub, e + P::kSecretKeyBytes);
    };
    fill(sks, make, make);
    static std::uint8_t cur[P::kCiphertextBytes];
    return measure(
        n,
        [&](std::size_t, int c) {
          const std::uint8_t* e = sks.at(kind_of(c), rng()() % kPool);
          if (kem::parse_secret_key<P>(be, *key, e) != kem::Status::kOk) std::abort();
          if (prepared) kem::prepare_secret_key<P>(be, *key);
          std::memcpy(cur, e + P::kSecretKeyBytes, sizeof(cur));
        },
        [&](std::size_t) { kem::decaps<P>(be, *key, ss, cur); });
  }
  if (test == "encaps_m") {
    Pools ms(P::kK + 16);
    auto make = [&](std::uint8_t* e) { random_bytes(e, P::kK + 16); };
    fill(ms, make, make);
    std::uint8_t coins[P::kK + 16];
    static std::uint8_t ct[P::kCiphertextBytes];
    return measure(
        n, [&](std::size_t, int c) { std::memcpy(coins, ms.at(kind_of(c), rng()() % kPool), sizeof(coins)); },
        [&](std::size_t) { kem::encaps<P>(be, key->pub, ct, ss, coins, coins + P::kK); });
  }
  if (test == "keygen_seed") {
    Pools seeds(32);
    auto make = [&](std::uint8_t* e) { random_bytes(e, 32); };
    fill(seeds, make, make);
    std::uint8_t s[32];
    auto k = std::make_unique<kem::SecretKey<P>>();
    return measure(
        n, [&](std::size_t, int c) { std::memcpy(s, seeds.at(kind_of(c), rng()() % kPool), 32); },
        [&](std::size_t) { kem::keypair<P>(be, *k, s); });
  }
  if (test.starts_with("k_")) {
    // One kernel of the backend, timed alone on a fixed vs random operand (the operand that
    // decapsulation derives from the ciphertext; the other operands are the key's): a bisection
    // of a decapsulation signal below the kernel table.
    const auto& k = be.kernels<P>();
    static pke::RingVec<P> out1, out2;
    static std::uint8_t msg[P::kN1];
    alignas(64) static std::uint8_t
        cur[sizeof(pke::RingVec<P>) > sizeof(pke::CodeVec<P>) ? sizeof(pke::RingVec<P>) : sizeof(pke::CodeVec<P>)];
    auto ring = [&](std::uint8_t* e) {  // a dense ring element (u of a ciphertext)
      pke::RingVec<P> v{};
      random_bytes(v.bytes(), P::kVecNBytes);
      v.w[P::kNWords - 1] &= P::kLastWordMask;
      std::memcpy(e, v.w, sizeof(v.w));
    };
    auto positions = [&](std::uint8_t* e) {  // w_r distinct positions from the encryption sampler
      std::uint8_t xof[4 * P::kWr];
      random_bytes(xof, sizeof(xof));
      k.enc_positions(reinterpret_cast<std::uint32_t*>(cur), xof, P::kWr);
      std::memcpy(e, cur, 4 * P::kWr);
    };
    auto sparse = [&](std::uint8_t* e) {  // a weight-w_r ring element (r2 of the re-encryption)
      positions(e);
      k.support_to_vector(out1.w, reinterpret_cast<const std::uint32_t*>(e), P::kWr);
      std::memcpy(e, out1.w, sizeof(out1.w));
    };
    auto bytes = [&](std::size_t len) { return [len](std::uint8_t* e) { random_bytes(e, len); }; };
    auto kernel = [&](std::size_t len, auto&& make, auto&& op) {
      Pools pool(len);
      fill(pool, make, make);
      return measure(
          n, [&](std::size_t, int c) { std::memcpy(cur, pool.at(kind_of(c), rng()() % kPool), len); },
          [&](std::size_t) { op(); });
    };
    const auto* u64 = reinterpret_cast<const std::uint64_t*>(cur);
    if (test == "k_mul")  // u * y of decryption
      return kernel(sizeof(pke::RingVec<P>), ring, [&] { k.mul(out1.w, u64, key->y.w); });
    if (test == "k_mul2")  // h * r2 and s * r2 of the re-encryption
      return kernel(sizeof(pke::RingVec<P>), sparse,
                    [&] { k.mul2(out1.w, out2.w, key->pub.ek.h.w, key->pub.ek.s.w, u64); });
    if (test == "k_support_to_vector")
      return kernel(4 * P::kWr, positions,
                    [&] { k.support_to_vector(out1.w, reinterpret_cast<const std::uint32_t*>(cur), P::kWr); });
    if (test == "k_enc_positions")
      return kernel(4 * P::kWr, bytes(4 * P::kWr),
                    [&] { k.enc_positions(reinterpret_cast<std::uint32_t*>(out1.w), cur, P::kWr); });
    if (test == "k_rm_decode")
      return kernel(sizeof(pke::CodeVec<P>), bytes(sizeof(pke::CodeVec<P>)), [&] { k.rm_decode(msg, u64); });
    if (test == "k_rs_decode") return kernel(P::kN1, bytes(P::kN1), [&] { k.rs_decode(msg, cur); });
    if (test == "k_rs_encode")
      return kernel(P::kK, bytes(P::kK), [&] { k.rs_encode(reinterpret_cast<std::uint8_t*>(out1.w), cur); });
    if (test == "k_keccak")
      return kernel(200, bytes(200), [&] {
        std::memcpy(out1.w, cur, 200);
        be.keccak_f1600(out1.w);
      });
  }
  std::fprintf(stderr, "unknown test %s\n", test.c_str());
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  std::string backend_arg = "all", test_arg = "all", swap_arg;
  int level_filter = 0;  // 0: every level
  std::size_t n = 20000;
  int rounds = 1;
  bool show_crops = false;
  for (int i = 1; i < argc; i++) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--backend") backend_arg = next();
    else if (a == "--level") {
      const std::string l = next();
      level_filter = l == "all" ? 0 : std::stoi(l);
    } else if (a == "--test") test_arg = next();
    else if (a == "--n") n = std::stoul(next());
    else if (a == "--rounds") rounds = std::stoi(next());
    else if (a == "--swap") swap_arg = next();
    else if (a == "--class0") {
      const std::string c = next();
      if (c != "fixed" && c != "random") {
        std::fprintf(stderr, "dudect: --class0 takes fixed or random\n");
        return 2;
      }
      g_label_flip = c == "random" ? 1 : 0;
    } else if (a == "--crops") show_crops = true;
    else if (a == "--null") g_null = true;
    else if (a == "--seed") g_seed = std::stoull(next(), nullptr, 0);
    else if (a == "--short") {
      n = 2000;
      level_filter = 1;
    } else {
      std::fprintf(stderr,
                   "usage: dudect [--backend NAME|all] [--level 1|3|5|all] [--test NAME|all] [--n N] "
                   "[--rounds R] [--short] [--swap KERNEL:BACKEND]\n"
                   "              [--class0 fixed|random] [--crops] [--seed S] [--null]\n"
                   "  --swap rm_decode:avx2  runs the selected backend with that one kernel (mul, mul2,\n"
                   "  support_to_vector, enc_positions, rm_decode, rs_decode, rs_encode, keccak) taken from another\n"
                   "  backend: a bisection of a timing signal by kernel\n"
                   "  --class0 random  labels the random inputs class 0 (the other class order)\n"
                   "  --crops  also prints t for each percentile crop\n"
                   "  --seed S  seeds the generator of keys, inputs and class order (default 0x5eed)\n"
                   "  --null  both classes get the fixed input (a control: any signal is a false positive)\n");
      return 2;
    }
  }
  std::vector<const backend::Backend*> backends;
  for (const auto* b : backend::all_backends())
    if ((backend_arg == "all" || backend_arg == b->name) &&
        backend::is_supported(*b, backend::effective_cpu_features()))
      backends.push_back(b);
  static backend::Backend swapped;  // the selected backend with one kernel from another one
  if (!swap_arg.empty()) {
    const auto colon = swap_arg.find(':');
    const backend::Backend* from =
        colon == std::string::npos ? nullptr : backend::find_backend(swap_arg.substr(colon + 1));
    const std::string kernel = colon == std::string::npos ? "" : swap_arg.substr(0, colon);
    if (backends.size() != 1 || from == nullptr) {
      std::fprintf(stderr, "dudect: --swap needs one --backend and KERNEL:BACKEND\n");
      return 2;
    }
    swapped = *backends[0];
    auto swap_table = [&]<class P>(backend::KernelTable<P>& t, const backend::KernelTable<P>& f) {
      if (kernel == "mul") t.mul = f.mul;
      else if (kernel == "mul2") t.mul2 = f.mul2;
      else if (kernel == "support_to_vector") t.support_to_vector = f.support_to_vector;
      else if (kernel == "enc_positions") t.enc_positions = f.enc_positions;
      else if (kernel == "rm_decode") t.rm_decode = f.rm_decode;
      else if (kernel == "rs_decode") t.rs_decode = f.rs_decode;
      else if (kernel == "rs_encode") t.rs_encode = f.rs_encode;
      else return false;
      return true;
    };
    if (kernel == "keccak") {
      swapped.keccak_f1600 = from->keccak_f1600;
      swapped.keccak_f1600_x4 = from->keccak_f1600_x4;
    } else if (!swap_table(swapped.hqc1, from->hqc1) || !swap_table(swapped.hqc3, from->hqc3) ||
               !swap_table(swapped.hqc5, from->hqc5)) {
      std::fprintf(stderr, "dudect: unknown kernel %s\n", kernel.c_str());
      return 2;
    }
    backends[0] = &swapped;
  }
  if (backends.empty()) {
    std::fprintf(stderr, "dudect: no usable backend named %s\n", backend_arg.c_str());
    return 2;
  }
  const std::vector<std::string> tests =
      test_arg == "all"
          ? std::vector<std::string>{"decaps_ct",   "decaps_reject",      "decaps_key",          "encaps_m",
                                     "keygen_seed", "decaps_ct_prepared", "decaps_key_prepared", "encaps_m_prepared"}
          : std::vector<std::string>{test_arg};
  std::printf("# class 0 = %s inputs, seed %#llx%s\n", g_label_flip ? "random" : "fixed",
              static_cast<unsigned long long>(g_seed),
              g_null ? ", null control: the random pool holds the fixed input" : "");
  std::printf("%-9s %-6s %-14s %9s %12s %9s %9s %6s  %s\n", "backend", "level", "test", "n", "median_cyc", "t_raw",
              "max|t|", "crop%", "verdict");
  for (const auto* be : backends) {
    for (int level : {1, 3, 5}) {
      if (level_filter != 0 && level != level_filter) continue;
      for (const auto& test : tests) {
        for (int r = 0; r < rounds; r++) {
          Result res;
          with_params(level, [&]<class P>() { res = run_test<P>(*be, test, n); });
          const char* verdict = res.max_t > 10    ? "LEAK (t>10)"
                                : res.max_t > 4.5 ? "probable leak (t>4.5)"
                                                  : "no leak detected";
          std::printf("%-9s HQC-%d  %-14s %9zu %12.0f %9.2f %9.2f %6.1f  %s\n", be->name, level, test.c_str(), res.n,
                      res.median, res.raw_t, res.max_t, res.worst, verdict);
          if (show_crops) {
            std::printf("  crop t:");
            for (const double tc : res.crop_t) std::printf(" %.2f", tc);
            std::printf("\n");
          }
          std::fflush(stdout);
        }
      }
    }
  }
  return 0;
}
