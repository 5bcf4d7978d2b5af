// The hash oracles and XOF of HQC (spec §3). The domain byte is always the LAST input byte.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sym/keccak.hpp"

namespace hqc::sym {

inline constexpr std::uint8_t kDomainPrng = 0x00;
inline constexpr std::uint8_t kDomainXof = 0x01;
inline constexpr std::uint8_t kDomainG = 0x00;
inline constexpr std::uint8_t kDomainH = 0x01;
inline constexpr std::uint8_t kDomainI = 0x02;
inline constexpr std::uint8_t kDomainJ = 0x03;

// XOF(seed) = SHAKE256(seed || 0x01), read sequentially.
class Xof : public Shake256 {
 public:
  Xof(backend::KeccakF1600Fn f, const std::uint8_t seed[32]) : Shake256(f) {
    absorb(seed, 32);
    absorb_byte(kDomainXof);
  }
};

// H(pk) = SHA3-256(pk || 0x01).
inline void oracle_h(backend::KeccakF1600Fn f, std::uint8_t out[32], const std::uint8_t* pk, std::size_t pk_len) {
  Sha3_256 h(f);
  h.absorb(pk, pk_len);
  h.absorb_byte(kDomainH);
  h.final(out);
}

// G(hpk, m, salt) = SHA3-512(hpk || m || salt || 0x00).
inline void oracle_g(backend::KeccakF1600Fn f, std::uint8_t out[64], const std::uint8_t hpk[32], const std::uint8_t* m,
                     std::size_t k, const std::uint8_t salt[16]) {
  Sha3_512 h(f);
  h.absorb(hpk, 32);
  h.absorb(m, k);
  h.absorb(salt, 16);
  h.absorb_byte(kDomainG);
  h.final(out);
}

// I(seed_pke) = SHA3-512(seed_pke || 0x02).
inline void oracle_i(backend::KeccakF1600Fn f, std::uint8_t out[64], const std::uint8_t seed[32]) {
  Sha3_512 h(f);
  h.absorb(seed, 32);
  h.absorb_byte(kDomainI);
  h.final(out);
}

// J(hpk, sigma, ct) = SHA3-256(hpk || sigma || ct || 0x03), ct exactly as received.
inline void oracle_j(backend::KeccakF1600Fn f, std::uint8_t out[32], const std::uint8_t hpk[32],
                     const std::uint8_t* sigma, std::size_t k, const std::uint8_t* ct, std::size_t ct_len) {
  Sha3_256 h(f);
  h.absorb(hpk, 32);
  h.absorb(sigma, k);
  h.absorb(ct, ct_len);
  h.absorb_byte(kDomainJ);
  h.final(out);
}

// The KAT / upstream PRNG: SHAKE256(entropy || personalization || 0x00) (spec §10).
class Prng : public Shake256 {
 public:
  Prng(backend::KeccakF1600Fn f, const std::uint8_t* entropy, std::size_t len) : Shake256(f) {
    absorb(entropy, len);
    absorb_byte(kDomainPrng);
  }
  void read(std::uint8_t* out, std::size_t len) { squeeze(out, len); }
};

}  // namespace hqc::sym
