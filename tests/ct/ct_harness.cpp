// Constant-time harness (run under valgrind memcheck). Secrets are marked undefined with
// ct::poison: seed_kem (key generation), m and salt (encapsulation), seed_dk, sigma and seed_kem of
// the secret key (decapsulation). Memcheck then reports every branch and every memory address
// that depends on them. Public outputs (pk, ct) are declassified at the API boundary; each
// declassification inside the library states its reason (docs/SIDE-CHANNELS.md).
//
// usage: ct_harness LEVEL {keygen|encaps|decaps} [--planted-leak]
// (each operation runs the ones before it to obtain its inputs, with the same secrets marked)
// --planted-leak adds a deliberate secret-dependent branch (in planted_leak): the harness must then
// be flagged. ct_selftest passes only if memcheck reports exactly that branch (exit code 99 and a
// "Conditional jump" report at planted_leak; tests/must_fail.sh), so neither a silent harness nor
// a crash or a usage error (exit 2) can pass for it.
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "arg_int.hpp"
#include "backend/registry.hpp"
#include "common/ct.hpp"
#include "kem/kem.hpp"

#if !defined(HQC_CT_VALGRIND) || !HQC_CT_VALGRIND
#error "ct_harness needs HQC_CT_VALGRIND=1"
#endif

namespace {

using namespace hqc;

volatile int g_sink;

// The planted leak: a branch on a secret byte, in a function of its own so that memcheck's report
// names it (ct_selftest matches "at ...: planted_leak").
__attribute__((noinline)) void planted_leak(const std::uint8_t* secret) {
  if (secret[0] & 1) g_sink = 1;
}

template <class P>
int run(const backend::Backend& be, const std::string& op, bool leak) {
  std::uint8_t seed_kem[32], coins[P::kK + 16];
  for (int i = 0; i < 32; i++) seed_kem[i] = static_cast<std::uint8_t>(17 * i + 3);
  for (std::size_t i = 0; i < sizeof(coins); i++) coins[i] = static_cast<std::uint8_t>(5 * i + 1);
  auto key = std::make_unique<kem::SecretKey<P>>();
  auto key2 = std::make_unique<kem::SecretKey<P>>();
  auto key3 = std::make_unique<kem::SecretKey<P>>();
  auto pub = std::make_unique<kem::PublicKey<P>>();
  std::uint8_t sk[P::kSecretKeyBytes], ct[P::kCiphertextBytes], ss[32];

  // KeyGen: seed_kem secret.
  ct::poison(seed_kem, sizeof(seed_kem));
  if (leak) planted_leak(seed_kem);  // memcheck must report it
  kem::keypair<P>(be, *key, seed_kem);
  ct::declassify(key->pub.pk, sizeof(key->pub.pk));  // the public key is published
  key->serialize(sk);
  // The same key prepared as it is generated (a TLS client's key share; h*y through the transforms
  // it keeps where the table's products are its transform products), from the same secret seed.
  kem::keypair_prepared<P>(be, *key3, seed_kem, pke::heap_transform_store<P>());
  ct::declassify(key3->pub.pk, sizeof(key3->pub.pk));
  if (op == "keygen") return 0;

  // Encaps: m and salt secret (the salt is published in ct, but not before encaps returns).
  if (kem::parse_public_key<P>(be, *pub, key->pub.pk) != kem::Status::kOk) return 2;
  ct::poison(coins, sizeof(coins));
  kem::encaps<P>(be, *pub, ct, ss, coins, coins + P::kK);
  ct::declassify(ct, sizeof(ct));  // the ciphertext is published
  if (op == "encaps") return 0;

  {
    // Decaps: the secret part of sk secret, from parsing on (y is re-sampled from seed_dk).
    ct::poison(sk + P::kPublicKeyBytes, P::kSecretKeyBytes - P::kPublicKeyBytes);
    if (kem::parse_secret_key<P>(be, *key2, sk) != kem::Status::kOk) return 2;
    kem::decaps<P>(be, *key2, ss, ct);
    ct[P::kCiphertextBytes / 2] ^= 1;  // and an invalid ciphertext (implicit rejection)
    kem::decaps<P>(be, *key2, ss, ct);
    ct[0] ^= 0x80;
    kem::decaps<P>(be, *key2, ss, ct);
    kem::decaps<P>(be, *key3, ss, ct);  // with the key prepared as it was generated
  }
  ct::declassify(ss, sizeof(ss));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const bool leak = argc == 4 && std::string(argv[3]) == "--planted-leak";
  const std::string op = argc >= 3 ? argv[2] : "";
  if ((argc != 3 && !leak) || (op != "keygen" && op != "encaps" && op != "decaps")) {
    std::fprintf(stderr, "usage: ct_harness LEVEL {keygen|encaps|decaps} [--planted-leak]\n");
    return 2;
  }
  const int level = static_cast<int>(tools::arg_int(argv[1], "LEVEL", 1, 5));
  const backend::Backend* be = backend::active();
  if (be == nullptr) {
    std::fprintf(stderr, "ct_harness: %s\n", backend::active_error().c_str());
    return 2;
  }
  std::printf("ct_harness: HQC-%d %s on backend %s%s\n", level, op.c_str(), be->name, leak ? " (planted leak)" : "");
  int rc = 2;
  if (!with_params(level, [&]<class P>() { rc = run<P>(*be, op, leak); })) return 2;
  return rc;
}
