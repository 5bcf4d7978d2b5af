// The hash oracles and XOF of HQC (spec §3), each described once: its sponge and the domain byte
// that is always the LAST input byte. The one-lane functions below and the multi-lane scheduler
// (sym/sponge_lanes.hpp) both take these descriptions, so no rate or padding is written twice.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sym/keccak.hpp"

namespace hqc::sym {

struct Oracle {
  SpongeKind sponge;
  std::uint8_t domain;
};
// G(hpk, m, salt) = SHA3-512(hpk || m || salt || 0x00): K || theta.
inline constexpr Oracle kOracleG{kSha3_512, 0x00};
// H(pk) = SHA3-256(pk || 0x01).
inline constexpr Oracle kOracleH{kSha3_256, 0x01};
// I(seed_pke) = SHA3-512(seed_pke || 0x02): seed_dk || seed_ek.
inline constexpr Oracle kOracleI{kSha3_512, 0x02};
// J(hpk, sigma, ct) = SHA3-256(hpk || sigma || ct || 0x03), ct exactly as received.
inline constexpr Oracle kOracleJ{kSha3_256, 0x03};
// XOF(seed) = SHAKE256(seed || 0x01), read sequentially: SampleDense and both samplers read it
// (spec §4: h from seed_ek, x and y from seed_dk, r1, r2, e from theta).
inline constexpr Oracle kOracleXof{kShake256, 0x01};
// The KAT / upstream PRNG: SHAKE256(entropy || personalization || 0x00) (spec §10).
inline constexpr Oracle kOraclePrng{kShake256, 0x00};

// A sponge of oracle o that appends the domain byte when it is finalised: absorb the inputs,
// then read.
class OracleSponge : public Sponge {
 public:
  OracleSponge(Permutation f, const Oracle& o) : Sponge(f, o.sponge), domain_(o.domain) {}
  void finish(std::uint8_t* out, std::size_t len) {
    absorb_byte(domain_);
    squeeze(out, len);
  }

 private:
  std::uint8_t domain_;
};

// XOF(seed), read sequentially with squeeze() (a Shake256, which is kOracleXof's sponge).
class Xof : public Shake256 {
 public:
  Xof(Permutation f, const std::uint8_t seed[32]) : Shake256(f) {
    static_assert(kOracleXof.sponge.rate == kShake256.rate && kOracleXof.sponge.pad == kShake256.pad);
    absorb(seed, 32);
    absorb_byte(kOracleXof.domain);
  }
};

inline void oracle_h(Permutation f, std::uint8_t out[32], const std::uint8_t* pk, std::size_t pk_len) {
  OracleSponge h(f, kOracleH);
  h.absorb(pk, pk_len);
  h.finish(out, 32);
}

inline void oracle_g(Permutation f, std::uint8_t out[64], const std::uint8_t hpk[32], const std::uint8_t* m,
                     std::size_t k, const std::uint8_t salt[16]) {
  OracleSponge h(f, kOracleG);
  h.absorb(hpk, 32);
  h.absorb(m, k);
  h.absorb(salt, 16);
  h.finish(out, 64);
}

inline void oracle_i(Permutation f, std::uint8_t out[64], const std::uint8_t seed[32]) {
  OracleSponge h(f, kOracleI);
  h.absorb(seed, 32);
  h.finish(out, 64);
}

inline void oracle_j(Permutation f, std::uint8_t out[32], const std::uint8_t hpk[32], const std::uint8_t* sigma,
                     std::size_t k, const std::uint8_t* ct, std::size_t ct_len) {
  OracleSponge h(f, kOracleJ);
  h.absorb(hpk, 32);
  h.absorb(sigma, k);
  h.absorb(ct, ct_len);
  h.finish(out, 32);
}

// The KAT PRNG (kOraclePrng), read with read().
class Prng : public Shake256 {
 public:
  Prng(Permutation f, const std::uint8_t* entropy, std::size_t len) : Shake256(f) {
    static_assert(kOraclePrng.sponge.rate == kShake256.rate && kOraclePrng.sponge.pad == kShake256.pad);
    absorb(entropy, len);
    absorb_byte(kOraclePrng.domain);
  }
  void read(std::uint8_t* out, std::size_t len) { squeeze(out, len); }
};

}  // namespace hqc::sym
