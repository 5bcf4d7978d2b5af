// SPDX-License-Identifier: MIT
// The one table of algorithms the hqckit provider offers: pure HQC and the classical+HQC hybrids,
// with their TLS 1.3 group names and code points.
//
// Code points: the private-use values oqs-provider assigns to its HQC groups under these names
// (hqc1 65075 = 0xFE33 ... p521_hqc5 65082 = 0xFE3A). They are not IANA assignments and have
// changed across HQC rounds, so they are only the defaults: the provider's configuration
// section and OQS_CODEPOINT_<GROUP> override them at load time (config.cpp).
// Hybrid shares and secrets are the classical part followed by the HQC part, as in
// draft-ietf-tls-hybrid-design §3.2 and oqs-provider's hybrids.
#pragma once

#include <array>
#include <cstddef>

namespace hqckit::provider {

// The classical half of a hybrid, computed by OpenSSL's default provider.
struct Classical {
  const char* keytype;      // EVP key type fetched from the default provider: "EC", "X25519", "X448"
  const char* group;        // EC curve name, nullptr for X25519/X448
  std::size_t share_bytes;  // encoded public key: uncompressed point (0x04 || x || y) or raw u-coordinate
  std::size_t secret_bytes;
};

inline constexpr Classical kP256{"EC", "P-256", 65, 32};
inline constexpr Classical kP384{"EC", "P-384", 97, 48};
inline constexpr Classical kP521{"EC", "P-521", 133, 66};
inline constexpr Classical kX25519{"X25519", nullptr, 32, 32};
inline constexpr Classical kX448{"X448", nullptr, 56, 56};

struct Group {
  const char* name;        // TLS group name = first algorithm name of the KEYMGMT and KEM
  const char* alg_names;   // OSSL_ALGORITHM names (aliases separated by ':')
  unsigned tls_id;         // default TLS NamedGroup code point (ProvCtx::tls_id holds the active one)
  unsigned security_bits;  // NIST category 1/3/5 -> 128/192/256
  const char* hqc_alg;     // hqc C API name
  std::size_t hqc_pk_bytes;
  std::size_t hqc_sk_bytes;
  std::size_t hqc_ct_bytes;
  const Classical* classical;  // nullptr for pure HQC
  unsigned char oid_last;      // pure HQC: last arc of the key OID (see kHqcOidPrefix), 0 for hybrids

  constexpr std::size_t share_bytes() const {  // client key share = encoded public key
    return (classical ? classical->share_bytes : 0) + hqc_pk_bytes;
  }
  constexpr std::size_t ciphertext_bytes() const {  // server key share
    return (classical ? classical->share_bytes : 0) + hqc_ct_bytes;
  }
  constexpr std::size_t secret_bytes() const { return (classical ? classical->secret_bytes : 0) + 32; }
};

// Key OIDs for PEM/DER files of pure HQC keys (SubjectPublicKeyInfo / PKCS#8 with the raw HQC
// key bytes, no AlgorithmIdentifier parameters). HQC has no IETF or NIST OIDs yet; these are the
// Bouncy Castle arc for HQC, 1.3.6.1.4.1.22554.5.6.{1,2,3} (BCObjectIdentifiers.hqc128/192/256).
// They identify the algorithm for this provider's files only: no cross-implementation file
// format is claimed. DER body of the OID without its last arc:
inline constexpr unsigned char kHqcOidPrefix[] = {0x2B, 0x06, 0x01, 0x04, 0x01, 0x81, 0xB0, 0x1A, 0x05, 0x06};

// No #ifdefs in this table: an entry's index is its identity in the dispatch tables.
inline constexpr std::array<Group, 8> kGroups{{
    {"hqc1", "hqc1:HQC-1:1.3.6.1.4.1.22554.5.6.1", 0xFE33, 128, "HQC-1", 2241, 2321, 4433, nullptr, 1},
    {"p256_hqc1", "p256_hqc1", 0xFE34, 128, "HQC-1", 2241, 2321, 4433, &kP256, 0},
    {"x25519_hqc1", "x25519_hqc1", 0xFE35, 128, "HQC-1", 2241, 2321, 4433, &kX25519, 0},
    {"hqc3", "hqc3:HQC-3:1.3.6.1.4.1.22554.5.6.2", 0xFE36, 192, "HQC-3", 4514, 4602, 8978, nullptr, 2},
    {"p384_hqc3", "p384_hqc3", 0xFE37, 192, "HQC-3", 4514, 4602, 8978, &kP384, 0},
    {"x448_hqc3", "x448_hqc3", 0xFE38, 192, "HQC-3", 4514, 4602, 8978, &kX448, 0},
    {"hqc5", "hqc5:HQC-5:1.3.6.1.4.1.22554.5.6.3", 0xFE39, 256, "HQC-5", 7237, 7333, 14421, nullptr, 3},
    {"p521_hqc5", "p521_hqc5", 0xFE3A, 256, "HQC-5", 7237, 7333, 14421, &kP521, 0},
}};

}  // namespace hqckit::provider
