// avx512 backend measurements that `hqc bench` does not make:
//  * Keccak: five-register single state, lane-interleaved single state, four states at once;
//  * the multiplier per parameter set: plain products of the shipped decomposition tree;
//  * support expansion: the avx512 kernel against the avx2 GFNI rows' kernel, interleaved;
//  * peak stack use of every KEM operation per backend (cached and uncached keys), by painting
//    the stack below the caller and finding the deepest overwritten byte.
// Usage: taskset -c 1 ./avx512_bench [runs]    (TSC cycles, median of runs; default 1001)
#include <x86intrin.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <vector>

#include "arg_int.hpp"
#include "backend/avx512/kernels.hpp"
#include "backend/registry.hpp"
#include "kem/kem.hpp"
#include "median_cycles.hpp"
#include "sampling/sampling.hpp"
#include "sym/sponge_lanes.hpp"

namespace {

template <class F>
double median_cycles(F&& f, int runs) {
  return hqc::bench::median_cycles(f, runs, 50);
}

constexpr std::size_t kProbe = 1 << 20;
__attribute__((noinline)) void paint_stack() {
  volatile unsigned char buf[kProbe];
  for (volatile std::uint8_t& b : buf) b = 0xA5;
  __asm__ __volatile__("" : : "r"(buf) : "memory");
}
__attribute__((noinline)) std::size_t scan_stack() {
  unsigned char buf[kProbe];  // deliberately not initialised: it still holds the paint
  const volatile unsigned char* p = buf;
  __asm__ __volatile__("" : "+r"(p) : : "memory");
  std::size_t i = 0;
  while (i < kProbe && p[i] == 0xA5) i++;  // lowest address first: deepest use
  return kProbe - i;
}
template <class F>
__attribute__((noinline)) std::size_t stack_peak(F&& f) {
  paint_stack();
  f();
  return scan_stack();
}

template <class P>
void kem_rows(const hqc::backend::Backend& be, int runs) {
  using namespace hqc;
  std::mt19937_64 rng(42);
  std::uint8_t seed[32], m[P::kK], salt[16];
  for (auto& x : seed) x = static_cast<std::uint8_t>(rng());
  for (auto& x : m) x = static_cast<std::uint8_t>(rng());
  for (auto& x : salt) x = static_cast<std::uint8_t>(rng());
  auto key = std::make_unique<kem::SecretKey<P>>();
  auto tmp = std::make_unique<kem::SecretKey<P>>();
  auto pub = std::make_unique<kem::PublicKey<P>>();
  kem::keypair<P>(be, *key, seed);
  kem::prepare_secret_key<P>(be, *key);  // the *_cached rows use a prepared key (as hqc bench)
  std::vector<std::uint8_t> sk(P::kSecretKeyBytes), ct(P::kCiphertextBytes);
  key->serialize(sk.data());
  std::uint8_t ss[32];
  kem::encaps<P>(be, key->pub, ct.data(), ss, m, salt);
  struct Op {
    const char* name;
    std::function<void()> f;
  };
  const Op ops[] = {
      {"keygen", [&] { kem::keypair<P>(be, *tmp, seed); }},
      {"encaps",
       [&] {
         kem::parse_public_key<P>(be, *pub, key->pub.pk);
         kem::encaps<P>(be, *pub, ct.data(), ss, m, salt);
       }},
      {"encaps_cached", [&] { kem::encaps<P>(be, key->pub, ct.data(), ss, m, salt); }},
      {"decaps",
       [&] {
         kem::parse_secret_key<P>(be, *tmp, sk.data());
         kem::decaps<P>(be, *tmp, ss, ct.data());
       }},
      {"decaps_cached", [&] { kem::decaps<P>(be, *key, ss, ct.data()); }},
  };
  for (const Op& op : ops) {
    const std::size_t peak = stack_peak(op.f);
    const double c = median_cycles(op.f, runs);
    std::printf("%-6s %-9s %-14s %10.0f cycles  peak stack %7zu bytes\n", P::kName, be.name, op.name, c, peak);
  }
}

// Key generation step by step (spec §7.1, §6.1) on one backend: where its cycles go.
template <class P>
void keygen_breakdown(const hqc::backend::Backend& be, int runs) {
  using namespace hqc;
  std::uint8_t seed[32] = {1, 2, 3}, seeds[64], z[32 + P::kK], hpk[32];
  auto v = std::make_unique<pke::RingVec<P>[]>(3);
  std::uint32_t pos[P::kW];
  const auto& k = be.kernels<P>();
  auto row = [&](const char* what, auto&& f) {
    std::printf("%-6s %-9s keygen step %-22s %9.0f\n", P::kName, be.name, what, median_cycles(f, runs));
  };
  row("XOF(seed_kem) 32+k B", [&] {
    sym::Xof xof(be.keccak_f1600, seed);
    xof.squeeze(z, sizeof(z));
  });
  row("I(seed_pke)", [&] { sym::oracle_i(be.keccak_f1600, seeds, seed); });
  row("sampler y,x portable draws", [&] {
    sym::Xof xof(be.keccak_f1600, seed);
    sampling::sample_keygen_positions<P>(pos, xof);
    sampling::sample_keygen_positions<P>(pos, xof);
  });
  row("sampler y,x keygen_accept", [&] {
    sym::Xof xof(be.keccak_f1600, seed);
    sampling::sample_keygen_positions<P>(pos, xof, k.keygen_accept);
    sampling::sample_keygen_positions<P>(pos, xof, k.keygen_accept);
  });
  row("support_to_vector x2", [&] {
    k.support_to_vector(v[0].w, pos, P::kW);
    k.support_to_vector(v[1].w, pos, P::kW);
  });
  row("expand h", [&] { pke::expand_h<P>(be, v[2], seed); });
  std::uint8_t prefix[pke::kKeygenXofPrefix<P>];
  row("h, seed_dk prefix serial", [&] {
    pke::expand_h<P>(be, v[2], seed);
    sym::Xof xof(be.keccak_f1600, seeds);
    xof.squeeze(prefix, sizeof(prefix));
  });
  row("h, seed_dk prefix lanes", [&] {
    sym::SpongeLanes lanes(be);
    lanes.start(0, sym::kOracleXof, {{seed, 32}}, v[2].bytes(), P::kVecNBytes);
    lanes.start(1, sym::kOracleXof, {{seeds, 32}}, prefix, sizeof(prefix));
    lanes.run_all();
  });
  row("mul h*y", [&] { k.mul(v[0].w, v[2].w, v[1].w); });
  std::uint8_t pk[P::kPublicKeyBytes] = {};
  row("H(pk)", [&] { sym::oracle_h(be.keccak_f1600, hpk, pk, sizeof(pk)); });
  auto key = std::make_unique<kem::SecretKey<P>>();
  row("total keypair", [&] { kem::keypair<P>(be, *key, seed); });
}

// The avx512 table's support expansion against the one of the avx2 table with GFNI (ymm), in
// alternating blocks of one process: per round the median of each, and their ratio.
template <class P>
void support_side_by_side(const hqc::backend::Backend& a512, const hqc::backend::Backend& a2, int runs) {
  using namespace hqc;
  const auto expand512 = a512.kernels<P>().support_to_vector;
  const auto expand2 = a2.kernels<P>().support_to_vector;
  std::mt19937_64 rng(P::kLevel);
  std::vector<std::uint32_t> pos(P::kWr);
  for (std::size_t i = 0; i < pos.size();) {  // distinct positions < n
    const auto p = static_cast<std::uint32_t>(rng() % P::kN);
    if (std::find(pos.begin(), pos.begin() + static_cast<long>(i), p) == pos.begin() + static_cast<long>(i))
      pos[i++] = p;
  }
  auto out = std::make_unique<pke::RingVec<P>>();
  std::vector<double> ratios;
  for (int round = 0; round < 7; round++) {
    const double c512 = median_cycles([&] { expand512(out->w, pos.data(), pos.size()); }, runs / 7 + 11);
    const double c2 = median_cycles([&] { expand2(out->w, pos.data(), pos.size()); }, runs / 7 + 11);
    ratios.push_back(c512 / c2);
    std::printf("HQC-%d  support_to_vector w=%zu round %d  %s %8.0f  %s %8.0f  ratio %.3f\n", P::kLevel, pos.size(),
                round, a512.name, c512, a2.name, c2, c512 / c2);
  }
  std::sort(ratios.begin(), ratios.end());
  std::printf("HQC-%d  support_to_vector w=%zu  %s / %s median of 7 rounds %.3f (%.3f-%.3f)\n", P::kLevel, pos.size(),
              a512.name, a2.name, ratios[3], ratios.front(), ratios.back());
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? static_cast<int>(hqc::tools::arg_int(argv[1], "runs", 1, 1000000)) : 1001;
  const hqc::backend::Backend* be = hqc::backend::find_backend("avx512");
  if (be == nullptr || !hqc::backend::is_supported(*be, hqc::backend::effective_cpu_features())) {
    std::fprintf(stderr, "avx512 backend not usable on this CPU\n");
    return 2;
  }
  std::printf("# avx512_bench: median TSC cycles of %d runs\n", runs);
  // Key objects (heap, C API): the expanded values plus room for the transforms of h, s (and y).
  std::printf(
      "key objects (bytes): HQC-1 public %zu secret %zu; HQC-3 public %zu secret %zu; HQC-5 public %zu "
      "secret %zu (transforms: %zu / %zu / %zu bytes each)\n",
      sizeof(hqc::kem::PublicKey<hqc::Hqc1>), sizeof(hqc::kem::SecretKey<hqc::Hqc1>),
      sizeof(hqc::kem::PublicKey<hqc::Hqc3>), sizeof(hqc::kem::SecretKey<hqc::Hqc3>),
      sizeof(hqc::kem::PublicKey<hqc::Hqc5>), sizeof(hqc::kem::SecretKey<hqc::Hqc5>),
      sizeof(hqc::pke::Transform<hqc::Hqc1>), sizeof(hqc::pke::Transform<hqc::Hqc3>),
      sizeof(hqc::pke::Transform<hqc::Hqc5>));
  std::uint64_t s[4][25] = {};
  for (int i = 0; i < 100; i++) s[i / 25][i % 25] = 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(i + 1);
  std::printf("keccak portable single        %8.0f\n",
              median_cycles([&] { hqc::sym::keccak_f1600_portable(s[0]); }, runs));
  std::printf("keccak avx512 five-register   %8.0f\n",
              median_cycles([&] { hqc::backend::avx512::keccak_f1600(s[0]); }, runs));
  std::printf("keccak avx512 lanes (single)  %8.0f\n",
              median_cycles([&] { hqc::backend::avx512::keccak_f1600_lanes(s[0]); }, runs));
  std::printf("keccak avx512 pairs (single)  %8.0f\n",
              median_cycles([&] { hqc::backend::avx512::keccak_f1600_pairs(s[0]); }, runs));
  std::printf("keccak avx512 pairs x2 (ymm)  %8.0f\n",
              median_cycles([&] { hqc::backend::avx512::keccak_f1600_pairs_x2(s[0], s[1]); }, runs));
  std::printf("keccak avx512 x4 (4 states)   %8.0f\n",
              median_cycles([&] { hqc::backend::avx512::keccak_f1600_x4(s[0], s[1], s[2], s[3]); }, runs));
  std::printf("keccak avx512 x4 (3 states)   %8.0f\n",
              median_cycles([&] { hqc::backend::avx512::keccak_f1600_x4(s[0], s[1], s[2], nullptr); }, runs));
  std::printf("keccak avx512 x4 (2 states)   %8.0f\n",
              median_cycles([&] { hqc::backend::avx512::keccak_f1600_x4(s[0], s[1], nullptr, nullptr); }, runs));
  if (const auto* a2 = hqc::backend::find_backend("avx2-vpclmul-gfni");
      a2 != nullptr && hqc::backend::is_supported(*a2, hqc::backend::effective_cpu_features()))
    for (int level : {1, 3, 5}) hqc::with_params(level, [&]<class P>() { support_side_by_side<P>(*be, *a2, runs); });
  for (int level : {1, 3, 5}) {
    for (const auto* b : hqc::backend::all_backends()) {
      if (std::strcmp(b->name, "portable") == 0 ||
          !hqc::backend::is_supported(*b, hqc::backend::effective_cpu_features()))
        continue;
      hqc::with_params(level, [&]<class P>() { keygen_breakdown<P>(*b, runs); });
    }
  }
  hqc::with_params(1, [&]<class P>() { kem_rows<P>(*be, runs); });
  hqc::with_params(3, [&]<class P>() { kem_rows<P>(*be, runs); });
  hqc::with_params(5, [&]<class P>() { kem_rows<P>(*be, runs); });
  for (const auto* b : hqc::backend::all_backends()) {
    if (b == be || !hqc::backend::is_supported(*b, hqc::backend::effective_cpu_features())) continue;
    hqc::with_params(1, [&]<class P>() { kem_rows<P>(*b, runs / 10 + 1); });
    hqc::with_params(3, [&]<class P>() { kem_rows<P>(*b, runs / 10 + 1); });
    hqc::with_params(5, [&]<class P>() { kem_rows<P>(*b, runs / 10 + 1); });
  }
}
