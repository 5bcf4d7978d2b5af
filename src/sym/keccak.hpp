// Keccak sponge (FIPS 202): SHA3-256, SHA3-512 and SHAKE256 with incremental absorb and squeeze.
// The permutation comes from the backend table, so a SIMD Keccak serves every sponge.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "backend/ops.hpp"
#include "common/mem.hpp"

namespace hqc::sym {

void keccak_f1600_portable(std::uint64_t a[25]);

// A Keccak sponge of FIPS 202: its rate in bytes and its domain padding (the bits appended to the
// message before pad10*1: 0x06 for SHA3, 0x1F for SHAKE).
struct SpongeKind {
  std::size_t rate;
  std::uint8_t pad;
};
inline constexpr SpongeKind kSha3_256{136, 0x06};
inline constexpr SpongeKind kSha3_512{72, 0x06};
inline constexpr SpongeKind kShake256{136, 0x1F};
inline constexpr std::size_t kShake256Rate = kShake256.rate;

// A Keccak sponge of kind (rate, pad). Absorb any number of times, then squeeze any number of
// times; the squeezed stream does not depend on how reads are split (spec §3 "XOF stream"
// semantics). sym::SpongeLanes runs the same sponges several at a time.
class Sponge {
 public:
  // The state is zeroed by mem::zero, which stores words on the M4 (where the C library's memset,
  // which a value-initialized member becomes, stores bytes: about 1.4k estimated cycles a sponge).
  Sponge(backend::KeccakF1600Fn f, SpongeKind kind) : f_(f), rate_(kind.rate), pad_(kind.pad) {
    mem::zero(s_, sizeof(s_));
  }
  Sponge(backend::KeccakF1600Fn f, std::size_t rate, std::uint8_t pad) : Sponge(f, SpongeKind{rate, pad}) {}
  ~Sponge();
  Sponge(const Sponge&) = delete;
  Sponge& operator=(const Sponge&) = delete;

  void absorb(const std::uint8_t* in, std::size_t len);
  void absorb(std::span<const std::uint8_t> in) { absorb(in.data(), in.size()); }
  void absorb_byte(std::uint8_t b) { absorb(&b, 1); }
  void squeeze(std::uint8_t* out, std::size_t len);  // finalises on first call
  void reset();

 private:
  void finalize();
  std::uint64_t s_[25];
  backend::KeccakF1600Fn f_;
  std::size_t rate_;
  std::size_t pos_ = 0;  // byte position within the rate (absorb or squeeze)
  std::uint8_t pad_;
  bool squeezing_ = false;
};

struct Sha3_256 : Sponge {
  explicit Sha3_256(backend::KeccakF1600Fn f) : Sponge(f, kSha3_256) {}
  void final(std::uint8_t out[32]) { squeeze(out, 32); }
};
struct Sha3_512 : Sponge {
  explicit Sha3_512(backend::KeccakF1600Fn f) : Sponge(f, kSha3_512) {}
  void final(std::uint8_t out[64]) { squeeze(out, 64); }
};
struct Shake256 : Sponge {
  explicit Shake256(backend::KeccakF1600Fn f) : Sponge(f, kShake256) {}
};

// One-shot helpers.
void sha3_256(backend::KeccakF1600Fn f, std::uint8_t out[32], const std::uint8_t* in, std::size_t len);
void sha3_512(backend::KeccakF1600Fn f, std::uint8_t out[64], const std::uint8_t* in, std::size_t len);
void shake256(backend::KeccakF1600Fn f, std::uint8_t* out, std::size_t outlen, const std::uint8_t* in, std::size_t len);

}  // namespace hqc::sym
