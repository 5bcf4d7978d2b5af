// One KEM operation with fixed inputs, for instruction counting under callgrind. Setup (key
// generation, encapsulation for decaps) runs outside `hqc_perf_measured`, and callgrind is started
// with --collect-atstart=no --toggle-collect=hqc_perf_measured, so only the operation is counted.
//
// usage: perf_ops BACKEND LEVEL {keygen|encaps|decaps}
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "arg_int.hpp"
#include "backend/registry.hpp"
#include "kem/kem.hpp"
#if defined(HQC_PERF_SLOWDOWN)
#include "slow_backend.hpp"
#endif

namespace {

using namespace hqc;

template <class P>
struct State {
  std::uint8_t seed[32];
  std::uint8_t coins[P::kK + 16];
  std::uint8_t pk[P::kPublicKeyBytes];
  std::uint8_t sk[P::kSecretKeyBytes];
  std::uint8_t ct[P::kCiphertextBytes];
  std::uint8_t ss[32];
};

// The stateless operations the C API performs (parse + operate + wipe), so that the counts
// include the per-call work of H(pk), expanding h and y.
template <class P>
__attribute__((noinline)) void measured(const backend::Backend& be, State<P>& s, int op) {
  if (op == 0) kem::stateless_keypair<P>(be, s.pk, s.sk, s.seed);
  else if (op == 1) kem::stateless_encaps<P>(be, s.ct, s.ss, s.pk, s.coins, s.coins + P::kK);
  else kem::stateless_decaps<P>(be, s.ss, s.ct, s.sk);
}

}  // namespace

extern "C" __attribute__((noinline)) void hqc_perf_measured(void (*fn)(void*), void* arg) { fn(arg); }

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: perf_ops BACKEND LEVEL {keygen|encaps|decaps}\n");
    return 2;
  }
  const backend::Backend* be = backend::find_backend(argv[1]);
#if defined(HQC_PERF_SLOWDOWN)
  be = perf::slowed_down(be);  // perf_ops_slow: the deliberate regression (slow_backend.hpp)
#endif
  if (be == nullptr || !backend::is_supported(*be, backend::effective_cpu_features())) {
    std::fprintf(stderr, "perf_ops: backend %s not available\n", argv[1]);
    return 3;
  }
  const std::string opname = argv[3];
  const int op = opname == "keygen" ? 0 : opname == "encaps" ? 1 : opname == "decaps" ? 2 : -1;
  if (op < 0) return 2;
  int rc = 2;
  with_params(static_cast<int>(tools::arg_int(argv[2], "level", 1, 5)), [&]<class P>() {
    auto s = std::make_unique<State<P>>();
    for (int i = 0; i < 32; i++) s->seed[i] = static_cast<std::uint8_t>(i + 1);
    for (std::size_t i = 0; i < sizeof(s->coins); i++) s->coins[i] = static_cast<std::uint8_t>(3 * i + 7);
    kem::stateless_keypair<P>(*be, s->pk, s->sk, s->seed);
    if (kem::stateless_encaps<P>(*be, s->ct, s->ss, s->pk, s->coins, s->coins + P::kK) != kem::Status::kOk) return;
    struct Call {
      const backend::Backend* be;
      State<P>* s;
      int op;
    } call{be, s.get(), op};
    hqc_perf_measured(
        [](void* a) {
          auto* c = static_cast<Call*>(a);
          measured<P>(*c->be, *c->s, c->op);
        },
        &call);
    rc = 0;
  });
  return rc;
}
