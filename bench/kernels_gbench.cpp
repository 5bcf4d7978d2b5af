// Google Benchmark view of the kernels and KEM operations of every backend this CPU runs
// (complements `hqc bench`, which reports TSC medians side by side).
//   kernels_gbench --benchmark_filter='HQC-5/.*/mul'
#include <benchmark/benchmark.h>

#include <memory>
#include <random>
#include <string>

#include "backend/registry.hpp"
#include "kem/kem.hpp"

namespace {

using namespace hqc;

template <class P>
struct Inputs {
  pke::RingVec<P> a, b, o1, o2;
  pke::CodeVec<P> noisy;
  std::uint8_t cw[P::kN1], msg[P::kK], rnd[4 * P::kWr], seed[32], coins[P::kK + 16], ct[P::kCiphertextBytes], ss[32];
  std::uint8_t pk[P::kPublicKeyBytes], sk[P::kSecretKeyBytes];
  std::uint32_t pos[P::kWr];
  kem::SecretKey<P> key;
  std::uint64_t st[25];
};

template <class P>
void register_level(const backend::Backend* be) {
  auto in = std::make_shared<Inputs<P>>();
  std::mt19937_64 rng(P::kLevel);
  for (auto& x : in->seed) x = static_cast<std::uint8_t>(rng());
  for (auto& x : in->coins) x = static_cast<std::uint8_t>(rng());
  for (auto& x : in->rnd) x = static_cast<std::uint8_t>(rng());
  for (auto& x : in->msg) x = static_cast<std::uint8_t>(rng());
  const auto& k = be->kernels<P>();
  kem::keypair<P>(*be, in->key, in->seed);
  kem::encaps<P>(*be, in->key.pub, in->ct, in->ss, in->coins, in->coins + P::kK);
  kem::stateless_keypair<P>(*be, in->pk, in->sk, in->seed);
  in->a = in->key.pub.ek.h;
  k.enc_positions(in->pos, in->rnd, P::kWr);
  k.support_to_vector(in->b.w, in->pos, P::kWr);
  pke::code_encode<P>(in->noisy, in->msg);
  code::rs_encode<P>(in->cw, in->msg);
  for (std::size_t i = 0; i < P::kDelta; i++) in->cw[2 * i] ^= 0x5a;
  const std::string prefix = std::string(P::kName) + "/" + be->name + "/";
  auto reg = [&](const char* name, auto fn) {
    benchmark::RegisterBenchmark((prefix + name).c_str(), [in, be, fn](benchmark::State& s) {
      for (auto _ : s) fn(*in, *be);
    });
  };
  reg("mul", [](Inputs<P>& i, const backend::Backend& b) { b.kernels<P>().mul(i.o1.w, i.a.w, i.b.w); });
  reg("mul2",
      [](Inputs<P>& i, const backend::Backend& b) { b.kernels<P>().mul2(i.o1.w, i.o2.w, i.a.w, i.a.w, i.b.w); });
  reg("rm_decode", [](Inputs<P>& i, const backend::Backend& b) { b.kernels<P>().rm_decode(i.cw, i.noisy.w); });
  reg("rs_decode", [](Inputs<P>& i, const backend::Backend& b) { b.kernels<P>().rs_decode(i.msg, i.cw); });
  reg("enc_sample", [](Inputs<P>& i, const backend::Backend& b) {
    b.kernels<P>().enc_positions(i.pos, i.rnd, P::kWr);
    b.kernels<P>().support_to_vector(i.o1.w, i.pos, P::kWr);
  });
  reg("keccak_f1600", [](Inputs<P>& i, const backend::Backend& b) { b.keccak_f1600(i.st); });
  // The stateless operations (what the C API runs per call: parse, operate, wipe) ...
  reg("keygen", [](Inputs<P>& i, const backend::Backend& b) { kem::stateless_keypair<P>(b, i.pk, i.sk, i.seed); });
  reg("encaps", [](Inputs<P>& i, const backend::Backend& b) {
    kem::stateless_encaps<P>(b, i.ct, i.ss, i.pk, i.coins, i.coins + P::kK);
  });
  reg("decaps", [](Inputs<P>& i, const backend::Backend& b) { kem::stateless_decaps<P>(b, i.ss, i.ct, i.sk); });
  // ... and with key objects parsed once.
  reg("encaps_cached", [](Inputs<P>& i, const backend::Backend& b) {
    kem::encaps<P>(b, i.key.pub, i.ct, i.ss, i.coins, i.coins + P::kK);
  });
  reg("decaps_cached", [](Inputs<P>& i, const backend::Backend& b) { kem::decaps<P>(b, i.key, i.ss, i.ct); });
}

}  // namespace

int main(int argc, char** argv) {
  for (const auto* be : backend::all_backends()) {
    if (!backend::is_supported(*be, backend::effective_cpu_features())) continue;
    register_level<Hqc1>(be);
    register_level<Hqc3>(be);
    register_level<Hqc5>(be);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
