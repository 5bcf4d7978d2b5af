// Constant-time trace image (tests/m4/ct_trace_test.sh). For one level (argument level=1|3|5) it
// runs, for two sets of secret inputs A and B, the same code on the same buffers: key generation,
// encapsulation, decapsulation of the valid ciphertext and of a tampered one (implicit rejection),
// each between markers 2*ID and 2*ID+1 (IDs 1..4 for A, 5..8 for B). The QEMU plugin
// (tests/m4/insn_count_plugin.c, trace=1) hashes the executed blocks and data addresses of each
// window; the test requires A's and B's hashes to be equal, op by op, and the two decapsulations
// of one set to be equal too.
//
// What is public and fixed by the choice of inputs: the key-generation sampler's accept pattern
// (spec §8: the rounds of rejection sampling of y and x depend on the key seed only, which the
// spec accepts): which draws are rejected. The image computes that pattern for candidate seeds
// (the first byte of the seed counts up, then the seventh) and takes the first seed of A with bit
// 0 of the first byte clear and the first of B with it set whose patterns are equal; it prints
// both seeds and the pattern. Everything else differs: seeds, encapsulation coins (message and
// salt), and hence keys, ciphertexts and shared secrets.
//
// pair=N (default 0) starts the search from other seeds and coins, so that scripts/m4-soak.sh
// compares many pairs of secret inputs. reject=1 takes seeds whose pattern rejects one draw (the
// most common pattern is none), in A as a duplicate and in B as a draw at or above the threshold:
// the samplers' refill paths are then in the traces, and why a draw was rejected, which the spec
// does not make public, must not show.
//
// prepared=1 encapsulates and decapsulates through key objects, parsed and prepared inside the
// windows (the transforms of h, s and y where the row keeps them: m4 at every level).
//
// leak=1 plants a leak: inside decapsulation's window a branch on bit 0 of the secret seed's
// first byte calls a probe function. The test must then report the trace difference
// (ct_trace_catches_leak).
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "backend/device.hpp"
#include "hqc/hqc.h"
#include "m4_support.hpp"
#include "params/params.hpp"
#include "sampling/sampling.hpp"
#include "sym/oracles.hpp"

namespace {

std::uint8_t g_pk[HQC5_PUBLIC_KEY_BYTES], g_sk[HQC5_SECRET_KEY_BYTES], g_ct[HQC5_CIPHERTEXT_BYTES];
std::uint8_t g_ss[HQC_SHARED_SECRET_BYTES];
std::uint8_t g_seed[HQC_KEYPAIR_COINS_BYTES], g_coins[HQC_MAX_ENCAPS_COINS_BYTES];
volatile std::uint32_t g_leak = 0;
volatile std::uint32_t g_probe_hits = 0;
int g_status = 0;

__attribute__((noinline)) void leak_probe() { g_probe_hits = g_probe_hits + 1; }
// In both decapsulation windows: with leak=1, a branch on a secret (bit 0 of the key seed).
__attribute__((noinline)) void maybe_leak() {
  if (g_leak != 0 && (g_seed[0] & 1) != 0) leak_probe();
}

// The accept pattern of key generation (spec §4.2, §8): which three-byte draws the samplers of y
// and then x accept, from the key seed as kem::keypair and pke::keygen derive it (spec §7.1:
// seed_pke = XOF(seed_kem); seed_dk = the first half of I(seed_pke)). The draws are fed one at a
// time to the level's accept kernel, which decides each in turn as a round of the sampler does;
// out[] gets the indices of the rejected draws (a duplicate or out of range), kAboveThreshold set
// in those at or above the rejection threshold.
constexpr std::uint32_t kAboveThreshold = 0x80000000u;
template <class P>
std::size_t accept_pattern(const std::uint8_t seed_kem[32], std::uint32_t* out, std::size_t cap) {
  const auto& be = hqc::backend::device_portable();
  std::uint8_t z[32 + P::kK], seeds[64];
  {
    hqc::sym::Xof xof(be.keccak_f1600, seed_kem);
    xof.squeeze(z, sizeof z);
  }
  hqc::sym::oracle_i(be.keccak_f1600, seeds, z);
  hqc::sym::Xof xof(be.keccak_f1600, seeds);
  std::size_t n = 0;
  std::uint32_t draw = 0;
  for (int sampler = 0; sampler < 2; sampler++) {
    std::uint32_t pos[P::kW];
    std::size_t count = 0;
    while (count < P::kW) {
      std::uint8_t buf[3];
      xof.squeeze(buf, 3);
      const std::size_t next = be.kernels<P>().keygen_accept(pos, count, buf, 1);
      std::uint32_t above;
      hqc::sampling::keygen_draw<P>(buf, above);
      if (next == count && n < cap) out[n++] = draw | (above & kAboveThreshold);
      count = next;
      draw++;
    }
  }
  return n;
}

struct Ops {
  int (*keypair)(std::uint8_t*, std::uint8_t*, const std::uint8_t*);
  int (*encaps)(std::uint8_t*, std::uint8_t*, const std::uint8_t*, const std::uint8_t*);
  int (*decaps)(std::uint8_t*, const std::uint8_t*, const std::uint8_t*);
  std::size_t ct_bytes, coins_bytes;
};

// prepared=1: encapsulation and decapsulation through key objects prepared in their windows
// (parsed, then prepare keeps the multiplier's transforms of h, s and y in the buffers below where
// the row has them: m4 at every level, whose FAFFT then computes every product of those windows).
hqc5_public_key_object g_pk_obj;
hqc5_secret_key_object g_sk_obj;
alignas(64) std::uint8_t g_pk_transforms[HQC5_PUBLIC_KEY_TRANSFORMS_BYTES];
alignas(64) std::uint8_t g_sk_transforms[HQC5_SECRET_KEY_TRANSFORMS_BYTES];
int g_kept = 0;  // prepares that kept transforms (public: the same for A and B)
bool g_prepared = false;

#define HQC_PREPARED_OPS(L)                                                                                       \
  int prepared_encaps##L(std::uint8_t* ct, std::uint8_t* ss, const std::uint8_t* pk, const std::uint8_t* coins) { \
    auto* o = reinterpret_cast<hqc##L##_public_key_object*>(&g_pk_obj);                                           \
    int kept = 0;                                                                                                 \
    if (hqc##L##_public_key_object_parse(o, pk) != HQC_OK ||                                                      \
        hqc##L##_public_key_object_prepare(o, g_pk_transforms, sizeof(g_pk_transforms), &kept) != HQC_OK)         \
      return HQC_ERR_MALFORMED_KEY;                                                                               \
    g_kept += kept;                                                                                               \
    return hqc##L##_public_key_object_encaps_derand(o, ct, ss, coins);                                            \
  }                                                                                                               \
  int prepared_decaps##L(std::uint8_t* ss, const std::uint8_t* ct, const std::uint8_t* sk) {                      \
    auto* o = reinterpret_cast<hqc##L##_secret_key_object*>(&g_sk_obj);                                           \
    int kept = 0;                                                                                                 \
    if (hqc##L##_secret_key_object_parse(o, sk) != HQC_OK ||                                                      \
        hqc##L##_secret_key_object_prepare(o, g_sk_transforms, sizeof(g_sk_transforms), &kept) != HQC_OK)         \
      return HQC_ERR_MALFORMED_KEY;                                                                               \
    g_kept += kept;                                                                                               \
    return hqc##L##_secret_key_object_decaps(o, ss, ct);                                                          \
  }
HQC_PREPARED_OPS(1)
HQC_PREPARED_OPS(3)
HQC_PREPARED_OPS(5)
#undef HQC_PREPARED_OPS

// One set of secret inputs, on the shared buffers; the same code for A and B.
__attribute__((noinline)) void run_set(const Ops& o, std::uint32_t base) {
  m4::hqc_m4_mark(2 * (base + 0));
  if (o.keypair(g_pk, g_sk, g_seed) != HQC_OK) g_status = 1;
  m4::hqc_m4_mark(2 * (base + 0) + 1);
  m4::hqc_m4_mark(2 * (base + 1));
  if (o.encaps(g_ct, g_ss, g_pk, g_coins) != HQC_OK) g_status = 1;
  m4::hqc_m4_mark(2 * (base + 1) + 1);
  // The valid ciphertext, then a tampered one (implicit rejection), from the same call site.
  for (std::uint32_t k = 0; k < 2; k++) {
    m4::hqc_m4_mark(2 * (base + 2 + k));
    if (o.decaps(g_ss, g_ct, g_sk) != HQC_OK) g_status = 1;
    maybe_leak();
    m4::hqc_m4_mark(2 * (base + 2 + k) + 1);
    g_ct[o.ct_bytes / 2] ^= 0x40;
  }
}

template <class P>
void run(const Ops& o, std::uint32_t pair, bool reject) {
  std::uint32_t pat_a[64], pat_b[64];
  std::uint8_t seed_a[32], seed_b[32];
  for (int i = 0; i < 32; i++) seed_a[i] = seed_b[i] = static_cast<std::uint8_t>(0x5A ^ (7 * i));
  for (int i = 0; i < 4; i++) {
    const auto v = static_cast<std::uint8_t>(pair >> (8 * i));
    seed_a[1 + i] ^= v;
    seed_b[1 + i] ^= v;
  }
  // Candidate k of set A (B): byte 0 = 2 (k mod 128) (+ 1 for B), byte 6 XORed with k / 128.
  // Default: for each A in turn, the first B with the same pattern. reject=1: for each B whose
  // pattern rejects exactly one draw, as at or above the threshold, the first A that rejects that
  // draw alone as a duplicate: the samplers' refill paths run in both traces, and the two reasons
  // for a rejection, which are secret, must take the same path.
  constexpr std::uint32_t kCandidates = 1u << 15;
  const std::uint8_t byte6 = seed_a[6];
  auto candidate = [byte6](std::uint8_t* seed, std::uint32_t k, std::uint32_t set) {
    seed[0] = static_cast<std::uint8_t>(2 * (k % 128) + set);
    seed[6] = static_cast<std::uint8_t>(byte6 ^ (k / 128));
  };
  auto same_draws = [](const std::uint32_t* x, const std::uint32_t* y, std::size_t n) {
    for (std::size_t i = 0; i < n; i++)
      if ((x[i] & ~kAboveThreshold) != (y[i] & ~kAboveThreshold)) return false;
    return true;
  };
  const std::uint32_t set_o = reject ? 1 : 0;  // the set searched first
  std::uint8_t* seed_o = reject ? seed_b : seed_a;
  std::uint8_t* seed_i = reject ? seed_a : seed_b;
  std::uint32_t* pat_o = reject ? pat_b : pat_a;
  std::uint32_t* pat_i = reject ? pat_a : pat_b;
  std::size_t na = 0;
  bool found = false;
  for (std::uint32_t ko = 0; ko < kCandidates && !found; ko++) {
    candidate(seed_o, ko, set_o);
    na = accept_pattern<P>(seed_o, pat_o, 64);
    if (reject && (na != 1 || (pat_o[0] & kAboveThreshold) == 0)) continue;
    for (std::uint32_t ki = 0; ki < kCandidates && !found; ki++) {
      candidate(seed_i, ki, 1 - set_o);
      const std::size_t ni = accept_pattern<P>(seed_i, pat_i, 64);
      found = ni == na && same_draws(pat_o, pat_i, na) && (!reject || (pat_i[0] & kAboveThreshold) == 0);
    }
  }
  if (!found) {
    m4::out("no two seeds with one accept pattern\n");
    g_status = 2;
    return;
  }
  m4::out("seed A ");
  m4::out_hex(seed_a, 32);
  m4::out("\nseed B ");
  m4::out_hex(seed_b, 32);
  m4::out("\naccept pattern of both (rejected draws of y then x):");
  for (std::size_t i = 0; i < na; i++) {
    m4::out(" ");
    m4::out_uint(pat_a[i] & ~kAboveThreshold);
    m4::out(pat_a[i] & kAboveThreshold ? " (A: above the threshold, " : " (A: a duplicate, ");
    m4::out(pat_b[i] & kAboveThreshold ? "B: above the threshold)" : "B: a duplicate)");
  }
  m4::out(na == 0 ? " none, every draw accepted\n" : "\n");
  if (g_prepared) {
    // Once before the windows, so that every window's parse finds an object that holds a prepared
    // key (parse releases it first: public work that an empty object skips).
    std::memcpy(g_seed, seed_a, 32);
    if (o.keypair(g_pk, g_sk, g_seed) != HQC_OK || o.encaps(g_ct, g_ss, g_pk, g_coins) != HQC_OK ||
        o.decaps(g_ss, g_ct, g_sk) != HQC_OK)
      g_status = 1;
    g_kept = 0;
  }
  m4::hqc_m4_mark(0);
  m4::hqc_m4_mark(1);
  for (int set = 0; set < 2; set++) {
    std::memcpy(g_seed, set == 0 ? seed_a : seed_b, 32);
    for (std::size_t i = 0; i < o.coins_bytes; i++)
      g_coins[i] = static_cast<std::uint8_t>((set == 0 ? 3 * i + 1 : 251 - 5 * i) ^ (pair >> (8 * (i % 4))));
    run_set(o, set == 0 ? 1 : 5);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::uint32_t level = m4::arg_uint(argc, argv, "level", 1);
  g_leak = m4::arg_uint(argc, argv, "leak", 0);
  const std::uint32_t pair = m4::arg_uint(argc, argv, "pair", 0);
  const bool reject = m4::arg_uint(argc, argv, "reject", 0) != 0;
  const bool prepared = m4::arg_uint(argc, argv, "prepared", 0) != 0;
  g_prepared = prepared;
  if (level == 1)
    run<hqc::Hqc1>({hqc1_keypair_derand, prepared ? prepared_encaps1 : hqc1_encaps_derand,
                    prepared ? prepared_decaps1 : hqc1_decaps, HQC1_CIPHERTEXT_BYTES, HQC1_ENCAPS_COINS_BYTES},
                   pair, reject);
  else if (level == 3)
    run<hqc::Hqc3>({hqc3_keypair_derand, prepared ? prepared_encaps3 : hqc3_encaps_derand,
                    prepared ? prepared_decaps3 : hqc3_decaps, HQC3_CIPHERTEXT_BYTES, HQC3_ENCAPS_COINS_BYTES},
                   pair, reject);
  else if (level == 5)
    run<hqc::Hqc5>({hqc5_keypair_derand, prepared ? prepared_encaps5 : hqc5_encaps_derand,
                    prepared ? prepared_decaps5 : hqc5_decaps, HQC5_CIPHERTEXT_BYTES, HQC5_ENCAPS_COINS_BYTES},
                   pair, reject);
  else g_status = 2;
  if (prepared) {
    // Six prepares per run (an encapsulation and two decapsulations per set); the m4 row keeps
    // transforms at every level, so that the windows run its FAFFT.
    m4::out("prepares that kept transforms: ");
    m4::out_uint(static_cast<std::uint64_t>(g_kept));
    m4::out(" of 6\n");
    if (std::strcmp(hqc_backend_name(), "m4") == 0 && g_kept != 6) g_status = 1;
  }
  m4::out(g_status == 0 ? "ok\n" : "FAILED\n");
  m4::flush();
  std::exit(g_status);
}
