#include "kat.hpp"

#include <cstdint>
#include <cstring>
#include <vector>

#include <openssl/evp.h>

#include "backend/registry.hpp"
#include "hqc/hqc.h"
#include "sym/oracles.hpp"

namespace hqc::tools {

namespace {

void put_hex(std::ostream& out, const char* label, const std::uint8_t* p, std::size_t n) {
  static const char* kHex = "0123456789ABCDEF";
  std::string s(label);
  s += " = ";
  for (std::size_t i = 0; i < n; i++) {
    s += kHex[p[i] >> 4];
    s += kHex[p[i] & 15];
  }
  s += '\n';
  out << s;
}

}  // namespace

bool write_kat(std::ostream& out, int level, std::size_t count, std::string* error) {
  const hqc_kem_info* info = hqc_kem_info_by_level(level);
  if (info == nullptr) {
    *error = "unknown level";
    return false;
  }
  // The KAT randomness is a SHAKE256 PRNG (spec §10); it is public test data, computed with the
  // portable Keccak so that the transcript does not depend on the backend under test.
  const auto f = backend::portable().keccak_f1600;
  std::uint8_t entropy[48];
  for (int i = 0; i < 48; i++) entropy[i] = static_cast<std::uint8_t>(i);
  sym::Prng master(f, entropy, sizeof(entropy));

  std::vector<std::uint8_t> pk(info->public_key_bytes), sk(info->secret_key_bytes), ct(info->ciphertext_bytes);
  std::uint8_t ss[32], ss2[32], seed[48], seed_kem[32], coins[HQC_MAX_ENCAPS_COINS_BYTES];
  for (std::size_t rec = 0; rec < count; rec++) {
    master.read(seed, sizeof(seed));
    sym::Prng prng(f, seed, sizeof(seed));
    prng.read(seed_kem, sizeof(seed_kem));
    prng.read(coins, info->encaps_coins_bytes);  // m, then salt

    int rc = hqc_kem_keypair_derand(info->name, pk.data(), pk.size(), sk.data(), sk.size(), seed_kem, 32);
    if (rc == HQC_OK)
      rc = hqc_kem_encaps_derand(info->name, ct.data(), ct.size(), ss, 32, pk.data(), pk.size(), coins,
                                 info->encaps_coins_bytes);
    if (rc == HQC_OK) rc = hqc_kem_decaps(info->name, ss2, 32, ct.data(), ct.size(), sk.data(), sk.size());
    if (rc != HQC_OK) {
      *error = std::string("record ") + std::to_string(rec) + ": " + hqc_status_string(rc);
      return false;
    }
    if (std::memcmp(ss, ss2, 32) != 0) {
      *error = "record " + std::to_string(rec) + ": decapsulation disagrees with encapsulation";
      return false;
    }
    if (rec > 0) out << '\n';
    out << "count = " << rec << '\n';
    put_hex(out, "seed", seed, sizeof(seed));
    put_hex(out, "pk", pk.data(), pk.size());
    put_hex(out, "sk", sk.data(), sk.size());
    put_hex(out, "ct", ct.data(), ct.size());
    put_hex(out, "ss", ss, sizeof(ss));
  }
  return true;
}

std::string expected_kat_digest(int level) {
  switch (level) {
    case 1: return "b3389b12e932373de55a14223acf2c7e67dddcf4df46a133bd3724fe0460b4d1";
    case 3: return "afe6382bfec5426317ca6c986731433fafb95bc08cc6d0b273c3736fcd8b3205";
    case 5: return "8eda7cc337fb4c279f0c1199ececb142406735449faed24a9047b38956de7805";
    default: return "";
  }
}

std::string sha256_hex(const std::string& data) {
  unsigned char md[32];
  unsigned int len = 0;
  EVP_Digest(data.data(), data.size(), md, &len, EVP_sha256(), nullptr);
  static const char* kHex = "0123456789abcdef";
  std::string s;
  for (unsigned i = 0; i < len; i++) {
    s += kHex[md[i] >> 4];
    s += kHex[md[i] & 15];
  }
  return s;
}

}  // namespace hqc::tools
