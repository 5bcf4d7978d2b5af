// Constant-time check of the avx512 kernels under clang MemorySanitizer (valgrind cannot run
// AVX-512 code). Secrets are poisoned with __msan_poison; MSan then reports every conditional
// branch and every memory address computed from them while the real AVX-512 code executes.
// Prototype, not wired into CMake (the hardening work owns the CI wiring). Build by hand: every
// src/ translation unit with `clang++ -fsanitize=memory -O1 -g -std=c++20 -Isrc -Iinclude
// -DHQC_WITH_AVX512=1 -DHQC_CT_VALGRIND=0`, the src/backend/avx512 ones with the backend's ISA
// flags, plus this file; run it (exit 0 = no report and taint reached every output checked;
// `--self-test` must produce an MSan report). See docs/AVX512.md for what clang 14 can and
// cannot track.
#include <sanitizer/msan_interface.h>

#include <cstdio>
#include <cstring>
#include <random>

#include "backend/avx512/kernels.hpp"
#include "backend/registry.hpp"
#include "kem/kem.hpp"

namespace {

using namespace hqc;

int g_lost = 0;
// The secret must still be poisoned in a kernel's output: proof that MSan tracked it through
// every vector instruction of the kernel (a lost taint would make "no report" meaningless).
void expect_tainted(const void* p, std::size_t len, const char* what) {
  if (__msan_test_shadow(p, len) == -1) {
    std::printf("taint lost in %s\n", what);
    g_lost++;
  }
}

template <class P>
void run_kernels() {
  std::mt19937_64 rng(1);
  alignas(64) std::uint64_t a[P::kNWordsPadded] = {}, b[P::kNWordsPadded] = {}, o1[P::kNWordsPadded],
                                                     o2[P::kNWordsPadded];
  for (std::size_t i = 0; i < P::kNWords; i++) a[i] = rng(), b[i] = rng();
  a[P::kNWords - 1] &= P::kLastWordMask;
  b[P::kNWords - 1] &= P::kLastWordMask;
  __msan_poison(a, sizeof(a));
  __msan_poison(b, sizeof(b));
  backend::avx512::mul<P>(o1, a, b);
  expect_tainted(o1, sizeof(o1), "mul");
  backend::avx512::mul2<P>(o1, o2, a, b, b);
  expect_tainted(o2, sizeof(o2), "mul2");

  std::uint8_t rnd[4 * P::kWr];
  for (auto& x : rnd) x = static_cast<std::uint8_t>(rng());
  __msan_poison(rnd, sizeof(rnd));
  std::uint32_t pos[P::kWr];
  backend::avx512::enc_positions<P>(pos, rnd, P::kWr);
  expect_tainted(pos, sizeof(pos), "enc_positions");
  backend::avx512::support_to_vector<P>(o1, pos, P::kWr);
  expect_tainted(o1, sizeof(o1), "support_to_vector");

  alignas(64) std::uint64_t cw[P::kN1N2Words];
  for (auto& x : cw) x = rng();
  __msan_poison(cw, sizeof(cw));
  std::uint8_t sym[P::kN1], msg[P::kK];
  backend::avx512::rm_decode<P>(sym, cw);
  expect_tainted(sym, sizeof(sym), "rm_decode");
  backend::avx512::rs_decode<P>(msg, sym);
  expect_tainted(msg, sizeof(msg), "rs_decode");

  std::uint64_t st[4][25];
  for (auto& s : st)
    for (auto& x : s) x = rng();
  __msan_poison(st, sizeof(st));
  backend::avx512::keccak_f1600(st[0]);
  backend::avx512::keccak_f1600_lanes(st[1]);
  backend::avx512::keccak_f1600_x4(st[0], st[1], st[2], st[3]);
  expect_tainted(st[0], 200, "keccak_f1600 (five-register) + x4");
  expect_tainted(st[3], 200, "keccak_f1600_x4");
}

template <class P>
void run_kem() {
  const backend::Backend* be = backend::find_backend("avx512");
  std::uint8_t seed[32], m[P::kK], salt[16];
  for (std::size_t i = 0; i < 32; i++) seed[i] = static_cast<std::uint8_t>(i);
  std::memset(m, 7, sizeof(m));
  std::memset(salt, 9, sizeof(salt));
  static kem::SecretKey<P> key;
  static std::uint8_t ct[P::kCiphertextBytes], ss[32];
  kem::keypair<P>(*be, key, seed);
  kem::encaps<P>(*be, key.pub, ct, ss, m, salt);
  // Decapsulation with the secret parts of the key poisoned (y, sigma): only the final
  // selection's inputs are secret-dependent, and nothing may branch on them.
  __msan_poison(key.y.w, sizeof(key.y.w));
  __msan_poison(key.sigma, sizeof(key.sigma));
  kem::decaps<P>(*be, key, ss, ct);
  expect_tainted(ss, sizeof(ss), "decaps");
}

// Planted leak: must be reported (run with --self-test; exit status != 0 expected).
__attribute__((noinline)) int planted_leak() {
  volatile std::uint64_t secret = 5;
  __msan_poison(const_cast<std::uint64_t*>(&secret), sizeof(secret));
  return (secret & 1) ? 1 : 2;  // branch on a secret
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--self-test") == 0) return planted_leak() == 1 ? 0 : 0;
  const backend::Backend* be = backend::find_backend("avx512");
  if (be == nullptr || !backend::is_supported(*be, backend::effective_cpu_features())) {
    std::puts("avx512 backend not usable here: skipped");
    return 0;
  }
  run_kernels<Hqc1>();
  run_kernels<Hqc3>();
  run_kernels<Hqc5>();
  run_kem<Hqc1>();
  run_kem<Hqc3>();
  run_kem<Hqc5>();
  if (g_lost != 0) return 1;
  std::puts("ct_msan: secrets tracked through every kernel; no secret-dependent branch or address reported");
  return 0;
}
