// avx2 backend benchmark: (1) the ring-multiplication decompositions compared per level, and the
// GFNI FAFFT against the Karatsuba trees for each use (the numbers behind the choices recorded in
// docs/AVX2.md and backend/avx2/backend.cpp), (2) every kernel, avx2 vs portable, and (3) the KEM
// operations through the internal API (parsing included, as the C API does).
// Method: rdtsc between lfences, warm-up, median of the runs; pin it: taskset -c 1 ./avx2_bench.
#include <x86intrin.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "backend/avx2/fafft_avx2.hpp"
#include "backend/avx2/kernels.hpp"
#include "backend/registry.hpp"
#include "kem/kem.hpp"
#include "tsc.hpp"

namespace {

using namespace hqc;

// The avx2 row this CPU runs (the alias "avx2": the first avx2 row it supports).
const backend::Backend* avx2_row() { return backend::find_backend("avx2"); }
// The VPCLMULQDQ decompositions need the instruction.
bool variant_runs(int v) {
  const bool vpclmul = v >= static_cast<int>(backend::avx2::kFirstVpclmulVariant);
  return !vpclmul || (backend::effective_cpu_features() & backend::kCpuVpclmul) != 0;
}

std::size_t g_runs = 1000;

using timing::tsc_begin;
using timing::tsc_end;

double g_last_min = 0;  // minimum of the last median_cycles() call

template <class F>
double median_cycles(F&& f) {
  for (std::size_t i = 0; i < g_runs / 10 + 10; i++) f();
  std::vector<std::uint64_t> t(g_runs);
  for (std::size_t i = 0; i < g_runs; i++) {
    const std::uint64_t a = tsc_begin();
    f();
    t[i] = tsc_end() - a;
  }
  std::sort(t.begin(), t.end());
  g_last_min = static_cast<double>(t[0]);
  return static_cast<double>(t[g_runs / 2]);
}

std::mt19937_64 rng(42);

template <class P>
void random_vec(std::uint64_t* v) {
  for (std::size_t i = 0; i < P::kNWordsPadded; i++) v[i] = i < P::kNWords ? rng() : 0;
  v[P::kNWords - 1] &= P::kLastWordMask;
}

template <class P>
void random_support(std::uint32_t* pos, std::size_t w) {
  std::vector<std::uint32_t> all;
  while (all.size() < w) {
    const auto p = static_cast<std::uint32_t>(rng() % P::kN);
    if (std::find(all.begin(), all.end(), p) == all.end()) all.push_back(p);
  }
  std::copy(all.begin(), all.end(), pos);
}

// The GFNI FAFFT (fafft_avx2.hpp) against the VPCLMULQDQ and PCLMULQDQ Karatsuba trees, per use:
// one-shot mul and mul2, encryption with kept transforms of h and s (mul2_transformed_plain
// against the trees' mul2), decryption with a kept transform of y (mul_transformed_plain against
// mul), and the preparation of one transform. Every contender runs once per round, in turn.
template <class P>
void bench_fafft(std::uint64_t* a, std::uint64_t* b, std::uint64_t* c, std::uint64_t* d) {
  const auto f = backend::effective_cpu_features();
  if (!(f & backend::kCpuGfni)) return;
  const bool vpclmul = (f & backend::kCpuVpclmul) != 0;
  namespace ff = backend::avx2::fafft;
  alignas(64) static std::uint64_t ta[backend::fafft::kTransformWords<Hqc5>], tc[backend::fafft::kTransformWords<Hqc5>],
      tt[backend::fafft::kTransformWords<Hqc5>];
  ff::forward<P>(ta, a);
  ff::forward<P>(tc, c);
  alignas(64) std::uint64_t e[P::kNWordsPadded];
  struct Contender {
    const char* name;
    bool runs;
    std::function<void()> run;
    std::vector<std::uint64_t> t;
  };
  std::vector<Contender> cs = {
      {"mul: fafft", true, [&] { ff::mul<P>(d, a, b); }, {}},
      {"mul: karatsuba vpclmulqdq", vpclmul, [&] { backend::avx2::mul_vpclmul<P>(d, a, b); }, {}},
      {"mul: karatsuba pclmulqdq", true, [&] { backend::avx2::mul_pclmul<P>(d, a, b); }, {}},
      {"mul2: fafft", true, [&] { ff::mul2<P>(d, e, a, c, b); }, {}},
      {"mul2: karatsuba vpclmulqdq", vpclmul, [&] { backend::avx2::mul2_vpclmul<P>(d, e, a, c, b); }, {}},
      {"mul2: karatsuba pclmulqdq", true, [&] { backend::avx2::mul2_pclmul<P>(d, e, a, c, b); }, {}},
      {"kept h, s: fafft mul2_transformed_plain", true, [&] { ff::mul2_transformed_plain<P>(d, e, ta, tc, b); }, {}},
      {"kept y: fafft mul_transformed_plain", true, [&] { ff::mul_transformed_plain<P>(d, ta, b); }, {}},
      {"prepare one transform: fafft forward", true, [&] { ff::forward<P>(tt, a); }, {}},
  };
  for (std::size_t r = 0; r < g_runs + g_runs / 10; r++)
    for (auto& k : cs) {
      if (!k.runs) continue;
      const std::uint64_t t0 = tsc_begin();
      k.run();
      const std::uint64_t t1 = tsc_end();
      if (r >= g_runs / 10) k.t.push_back(t1 - t0);
    }
  std::printf("-- GFNI FAFFT against the Karatsuba trees (cycles, interleaved runs)   median        min\n");
  for (auto& k : cs) {
    if (k.t.empty()) continue;
    std::sort(k.t.begin(), k.t.end());
    std::printf("  %-58s %10llu %10llu\n", k.name, static_cast<unsigned long long>(k.t[k.t.size() / 2]),
                static_cast<unsigned long long>(k.t[0]));
  }
}

template <class P>
void bench_level(bool decomp_only) {
  alignas(64) std::uint64_t a[P::kNWordsPadded], b[P::kNWordsPadded], c[P::kNWordsPadded], d[P::kNWordsPadded];
  random_vec<P>(a);
  random_vec<P>(b);
  random_vec<P>(c);
  std::printf("\n== %s (n = %zu, %zu words, %zu blocks of 256 bits)\n", P::kName, P::kN, P::kNWords,
              (P::kNWords + 3) / 4);
  // Variants interleaved run by run (so that load changes on the machine hit all alike).
  std::printf("-- ring multiplication decompositions (cycles, interleaved runs)   median        min\n");
  constexpr int kV = static_cast<int>(backend::avx2::MulVariant::kCount);
  std::vector<std::vector<std::uint64_t>> times(kV + 1);
  for (std::size_t r = 0; r < g_runs + g_runs / 10; r++) {
    for (int v = 0; v <= kV; v++) {
      if (v < kV && !variant_runs(v)) continue;
      const std::uint64_t t0 = tsc_begin();
      if (v < kV) backend::avx2::mul_variant<P>(static_cast<backend::avx2::MulVariant>(v), d, a, b);
      else avx2_row()->kernels<P>().mul(d, a, b);
      const std::uint64_t t1 = tsc_end();
      if (r >= g_runs / 10) times[static_cast<std::size_t>(v)].push_back(t1 - t0);
    }
  }
  for (int v = 0; v <= kV; v++) {
    auto& t = times[static_cast<std::size_t>(v)];
    if (t.empty()) continue;
    std::sort(t.begin(), t.end());
    std::printf("  %-58s %10llu %10llu\n",
                v < kV ? backend::avx2::mul_variant_name(static_cast<backend::avx2::MulVariant>(v)) : "production mul",
                static_cast<unsigned long long>(t[t.size() / 2]), static_cast<unsigned long long>(t[0]));
  }
  std::printf("  %-58s %10.0f\n", "production mul2 (shared b), median",
              median_cycles([&] { avx2_row()->kernels<P>().mul2(d, c, a, c, b); }));
  bench_fafft<P>(a, b, c, d);
  if (decomp_only) return;

  const backend::Backend* bes[2] = {&backend::portable(), avx2_row()};
  std::printf("-- kernels (median cycles)          %12s %12s %8s\n", "portable", "avx2", "speedup");
  std::uint32_t pos[P::kWr];
  std::uint8_t rnd[4 * P::kWr];
  for (auto& x : rnd) x = static_cast<std::uint8_t>(rng());
  random_support<P>(pos, P::kWr);
  alignas(64) std::uint64_t code[P::kN1N2Words];
  for (auto& x : code) x = rng();
  std::uint8_t cw[P::kN1], msg[P::kK];
  for (auto& x : cw) x = static_cast<std::uint8_t>(rng());
  auto row = [&](const char* name, auto&& f) {
    const double t0 = median_cycles([&] { f(*bes[0]); });
    const double t1 = median_cycles([&] { f(*bes[1]); });
    std::printf("  %-32s %12.0f %12.0f %7.1fx   (avx2 min %.0f)\n", name, t0, t1, t0 / t1, g_last_min);
  };
  row("mul", [&](const backend::Backend& be) { be.kernels<P>().mul(d, a, b); });
  row("mul2", [&](const backend::Backend& be) { be.kernels<P>().mul2(d, c, a, c, b); });
  row("support_to_vector (w_r)",
      [&](const backend::Backend& be) { be.kernels<P>().support_to_vector(d, pos, P::kWr); });
  row("enc_positions (w_r)", [&](const backend::Backend& be) {
    std::uint32_t p2[P::kWr];
    be.kernels<P>().enc_positions(p2, rnd, P::kWr);
  });
  row("rm_decode", [&](const backend::Backend& be) { be.kernels<P>().rm_decode(cw, code); });
  row("rs_decode", [&](const backend::Backend& be) { be.kernels<P>().rs_decode(msg, cw); });
  if (avx2_row()->required & backend::kCpuGfni) {
    const double t = median_cycles([&] { backend::avx2::rs_decode_avx2<P>(msg, cw); });
    std::printf("  %-32s %12s %12.0f\n", "rs_decode (avx2, no GFNI)", "", t);
  }
  row("keccak_f1600", [&](const backend::Backend& be) {
    std::uint64_t st[25] = {1};
    be.keccak_f1600(st);
  });

  std::printf("-- KEM (median cycles, parsing included)  %12s %12s %8s\n", "portable", "avx2", "speedup");
  std::uint8_t seed[32] = {7}, m[P::kK] = {1}, salt[16] = {2}, ss[32];
  std::vector<std::uint8_t> pk(P::kPublicKeyBytes), sk(P::kSecretKeyBytes), ct(P::kCiphertextBytes);
  {
    kem::SecretKey<P> key;
    kem::keypair<P>(backend::portable(), key, seed);
    key.serialize(sk.data());
    std::memcpy(pk.data(), sk.data(), P::kPublicKeyBytes);
  }
  row("keygen", [&](const backend::Backend& be) {
    kem::SecretKey<P> key;
    kem::keypair<P>(be, key, seed);
    key.serialize(sk.data());
  });
  row("encaps", [&](const backend::Backend& be) {
    kem::PublicKey<P> pub;
    (void)kem::parse_public_key<P>(be, pub, pk.data());
    kem::encaps<P>(be, pub, ct.data(), ss, m, salt);
  });
  row("decaps", [&](const backend::Backend& be) {
    kem::SecretKey<P> key;
    (void)kem::parse_secret_key<P>(be, key, sk.data());
    kem::decaps<P>(be, key, ss, ct.data());
  });
}

}  // namespace

int main(int argc, char** argv) {
  bool decomp_only = false;
  for (int i = 1; i < argc; i++) {
    const std::string a = argv[i];
    if (a == "--decomp") decomp_only = true;
    else if (a.rfind("--runs=", 0) == 0) g_runs = std::strtoul(a.c_str() + 7, nullptr, 10);
  }
  if (!backend::is_supported(*avx2_row(), backend::effective_cpu_features())) {
    std::printf("this CPU lacks AVX2/PCLMULQDQ/BMI2\n");
    return 0;
  }
  std::printf("avx2 backend: row %s (%s)\n", avx2_row()->name, avx2_row()->description);
  bench_level<Hqc1>(decomp_only);
  bench_level<Hqc3>(decomp_only);
  bench_level<Hqc5>(decomp_only);
  return 0;
}
