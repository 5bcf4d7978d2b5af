// KAT image (label m4): prints records count = 0 .. N-1 of the NIST KAT transcript of one level,
// byte for byte as the official .rsp file (spec §10), computed on the emulated Cortex-M4 with the
// device build's per-level C API (of every level, or of one: m4_kat_lL). Arguments: level=1|3|5
// count=N (default 10). Exit status 0, or 1 if an operation failed or decapsulation disagreed with
// encapsulation (the transcript then stops there; scripts/m4-kat.sh compares the output with the
// official digests).
#include <cstdlib>
#include <cstring>

#include "backend/device.hpp"
#include "hqc/hqc.h"
#include "m4_support.hpp"
#include "sym/oracles.hpp"

namespace {

struct LevelApi {
  int (*keypair_derand)(std::uint8_t*, std::uint8_t*, const std::uint8_t*);
  int (*encaps_derand)(std::uint8_t*, std::uint8_t*, const std::uint8_t*, const std::uint8_t*);
  int (*decaps)(std::uint8_t*, const std::uint8_t*, const std::uint8_t*);
};

// The largest level's buffers (static RAM of the image, not of the library).
std::uint8_t g_pk[HQC5_PUBLIC_KEY_BYTES], g_sk[HQC5_SECRET_KEY_BYTES], g_ct[HQC5_CIPHERTEXT_BYTES];

void field(const char* label, const std::uint8_t* p, std::size_t n) {
  m4::out(label);
  m4::out(" = ");
  m4::out_hex(p, n);
  m4::out("\n");
}

int run(const hqc_kem_info& info, const LevelApi& api, std::uint32_t count) {
  // The KAT randomness: SHAKE256 PRNG of the entropy 0, 1, ..., 47 (spec §10), with the portable
  // Keccak so that the transcript does not depend on the backend under test.
  const auto f = hqc::backend::device_portable().keccak_f1600;
  std::uint8_t entropy[48];
  for (std::size_t i = 0; i < sizeof(entropy); i++) entropy[i] = static_cast<std::uint8_t>(i);
  hqc::sym::Prng master(f, entropy, sizeof(entropy));
  for (std::uint32_t rec = 0; rec < count; rec++) {
    std::uint8_t seed[48], seed_kem[HQC_KEYPAIR_COINS_BYTES], coins[HQC_MAX_ENCAPS_COINS_BYTES];
    std::uint8_t ss[HQC_SHARED_SECRET_BYTES], ss2[HQC_SHARED_SECRET_BYTES];
    master.read(seed, sizeof(seed));
    hqc::sym::Prng prng(f, seed, sizeof(seed));
    prng.read(seed_kem, sizeof(seed_kem));
    prng.read(coins, info.encaps_coins_bytes);  // m, then salt
    int rc = api.keypair_derand(g_pk, g_sk, seed_kem);
    if (rc == HQC_OK) rc = api.encaps_derand(g_ct, ss, g_pk, coins);
    if (rc == HQC_OK) rc = api.decaps(ss2, g_ct, g_sk);
    if (rc != HQC_OK || std::memcmp(ss, ss2, sizeof(ss)) != 0) {
      m4::flush();
      m4::out(rc != HQC_OK ? "m4_kat: an operation failed: " : "m4_kat: decapsulation disagrees at ");
      m4::out(rc != HQC_OK ? hqc_status_string(rc) : "record ");
      m4::out_uint(rec);
      m4::out("\n");
      return 1;
    }
    if (rec > 0) m4::out("\n");
    m4::out("count = ");
    m4::out_uint(rec);
    m4::out("\n");
    field("seed", seed, sizeof(seed));
    field("pk", g_pk, info.public_key_bytes);
    field("sk", g_sk, info.secret_key_bytes);
    field("ct", g_ct, info.ciphertext_bytes);
    field("ss", ss, sizeof(ss));
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const int level = static_cast<int>(m4::arg_uint(argc, argv, "level", 1));
  const std::uint32_t count = m4::arg_uint(argc, argv, "count", 10);
  const hqc_kem_info* info = hqc_kem_info_by_level(level);
  // A single-level library (HQC_ONLY_LEVEL) defines its own level's functions only.
  LevelApi api{};
#if HQC_ONLY_LEVEL == 0 || HQC_ONLY_LEVEL == 1
  if (level == 1) api = {&hqc1_keypair_derand, &hqc1_encaps_derand, &hqc1_decaps};
#endif
#if HQC_ONLY_LEVEL == 0 || HQC_ONLY_LEVEL == 3
  if (level == 3) api = {&hqc3_keypair_derand, &hqc3_encaps_derand, &hqc3_decaps};
#endif
#if HQC_ONLY_LEVEL == 0 || HQC_ONLY_LEVEL == 5
  if (level == 5) api = {&hqc5_keypair_derand, &hqc5_encaps_derand, &hqc5_decaps};
#endif
  int rc = 2;
  if (info == nullptr || api.keypair_derand == nullptr)
    m4::out("m4_kat: level must be 1, 3 or 5, one this library has\n");
  else rc = run(*info, api, count);
  m4::flush();
  std::exit(rc);
}
