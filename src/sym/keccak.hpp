// Keccak sponge (FIPS 202): SHA3-256, SHA3-512 and SHAKE256 with incremental absorb and squeeze.
// The permutation comes from the backend table, so a SIMD Keccak serves every sponge.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "backend/ops.hpp"
#include "common/ct.hpp"
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

// The bit-interleaved form of a 64-bit lane (backend::KeccakF1600InterleavedFn): even = its even
// bits (bit 2j at bit j), odd = its odd bits. Interleaving permutes the six index bits of a bit
// (the word w of the pair (low, high), then the position p4 .. p0 in the word) to (p0, w, p4, p3,
// p2, p1): five exchanges of w with p4, p3, p2, p1, p0, each one delta swap across the two words
// (the exchange with p4 swaps half-words), as the M4 permutation's own entry does
// (keccak_m4.S). Deinterleaving is the same exchanges in the reverse order. No branch.
inline void exchange_bits(std::uint32_t& x, std::uint32_t& y, unsigned shift, std::uint32_t mask) {
  const std::uint32_t t = (y ^ (x >> shift)) & mask;
  y ^= t;
  x ^= t << shift;
}
inline void interleave_lane(std::uint64_t v, std::uint32_t& even, std::uint32_t& odd) {
  std::uint32_t x = static_cast<std::uint32_t>(v), y = static_cast<std::uint32_t>(v >> 32);
  exchange_bits(x, y, 16, 0x0000FFFF);
  exchange_bits(x, y, 8, 0x00FF00FF);
  exchange_bits(x, y, 4, 0x0F0F0F0F);
  exchange_bits(x, y, 2, 0x33333333);
  exchange_bits(x, y, 1, 0x55555555);
  even = x;
  odd = y;
}
inline std::uint64_t deinterleave_lane(std::uint32_t even, std::uint32_t odd) {
  std::uint32_t x = even, y = odd;
  exchange_bits(x, y, 1, 0x55555555);
  exchange_bits(x, y, 2, 0x33333333);
  exchange_bits(x, y, 4, 0x0F0F0F0F);
  exchange_bits(x, y, 8, 0x00FF00FF);
  exchange_bits(x, y, 16, 0x0000FFFF);
  return x | (std::uint64_t{y} << 32);
}

// Keccak-f[1600] on the interleaved form from the standard one (deinterleave, permute,
// interleave): the reference the device's interleaved permutation is tested against.
void keccak_f1600_interleaved_portable(std::uint32_t a[50]);

// The lane conversions of the interleaved form (backend::KeccakXorLanesInterleavedFn and
// KeccakReadLanesInterleavedFn), for a backend that has no faster ones.
inline void xor_lanes_interleaved_portable(std::uint32_t* words, const std::uint8_t* in, std::size_t n) {
  for (std::size_t i = 0; i < n; i++) {
    std::uint32_t e, o;
    interleave_lane(mem::load_le64(in + 8 * i), e, o);
    words[2 * i] ^= e;
    words[2 * i + 1] ^= o;
  }
}
inline void read_lanes_interleaved_portable(std::uint8_t* out, const std::uint32_t* words, std::size_t n) {
  for (std::size_t i = 0; i < n; i++) mem::store_le64(out + 8 * i, deinterleave_lane(words[2 * i], words[2 * i + 1]));
}

// The permutation a sponge calls: a backend's keccak_f1600, and its keccak_f1600_interleaved
// where it has one; the sponge then keeps its state interleaved (converting only the lanes it
// absorbs or squeezes, by the backend's conversions or the portable ones). Built from a Backend,
// or from a bare permutation (standard form only).
struct Permutation {
  Permutation(backend::KeccakF1600Fn fn) : f(fn) {}  // NOLINT(google-explicit-constructor): a permutation is one
  Permutation(const backend::Backend& be)            // NOLINT(google-explicit-constructor)
      : f(be.keccak_f1600),
        interleaved(be.keccak_f1600_interleaved),
        xor_lanes(be.keccak_xor_lanes_interleaved != nullptr ? be.keccak_xor_lanes_interleaved
                                                             : &xor_lanes_interleaved_portable),
        read_lanes(be.keccak_read_lanes_interleaved != nullptr ? be.keccak_read_lanes_interleaved
                                                               : &read_lanes_interleaved_portable) {}
  backend::KeccakF1600Fn f;
  backend::KeccakF1600InterleavedFn interleaved = nullptr;
  backend::KeccakXorLanesInterleavedFn xor_lanes = &xor_lanes_interleaved_portable;     // interleaved form only
  backend::KeccakReadLanesInterleavedFn read_lanes = &read_lanes_interleaved_portable;  // interleaved form only
};

// Lanes of a Keccak state of either form (the standard one, or with `interleaved` the 50 words
// of the interleaved form in the same 200 bytes), read and XORed whole: the loops below keep
// the form's test out of the per-lane work.
namespace lanes {
using Word = std::uint32_t __attribute__((__may_alias__));
// Lanes first .. first + n of st (in p's form) ^= the n little-endian lanes at in (any alignment).
inline void xor_in(std::uint64_t* st, const Permutation& p, std::size_t first, const std::uint8_t* in, std::size_t n) {
  if (p.interleaved == nullptr) {
    for (std::size_t i = 0; i < n; i++) st[first + i] ^= mem::load_le64(in + 8 * i);
  } else if (n > 0) {
    p.xor_lanes(reinterpret_cast<Word*>(st) + 2 * first, in, n);
  }
}
// out[0 .. 8n) = lanes first .. first + n of st (in p's form), little-endian (any alignment).
inline void read_out(const std::uint64_t* st, const Permutation& p, std::size_t first, std::uint8_t* out,
                     std::size_t n) {
  if (p.interleaved == nullptr) {
    for (std::size_t i = 0; i < n; i++) mem::store_le64(out + 8 * i, st[first + i]);
  } else if (n > 0) {
    p.read_lanes(out, reinterpret_cast<const Word*>(st) + 2 * first, n);
  }
}
inline void xor_lane(std::uint64_t* st, bool interleaved, std::size_t i, std::uint64_t v) {
  if (!interleaved) {
    st[i] ^= v;
    return;
  }
  std::uint32_t e, o;
  interleave_lane(v, e, o);
  Word* w = reinterpret_cast<Word*>(st);
  w[2 * i] ^= e;
  w[2 * i + 1] ^= o;
}
inline std::uint64_t lane(const std::uint64_t* st, bool interleaved, std::size_t i) {
  if (!interleaved) return st[i];
  const Word* w = reinterpret_cast<const Word*>(st);
  return deinterleave_lane(w[2 * i], w[2 * i + 1]);
}
// out[0 .. n) = the state's bytes pos .. pos + n, all within one lane (n <= 8 - pos % 8).
inline void read_bytes(const std::uint64_t* st, bool interleaved, std::size_t pos, std::uint8_t* out, std::size_t n) {
  const std::uint64_t v = lane(st, interleaved, pos / 8) >> (8 * (pos % 8));
  for (std::size_t j = 0; j < n; j++) out[j] = static_cast<std::uint8_t>(v >> (8 * j));
}
}  // namespace lanes

// A Keccak state in its permutation's form (lanes above), zero at the start.
class KeccakState {
 public:
  explicit KeccakState(Permutation p) : p_(p) { clear(); }
  ~KeccakState() { ct::wipe(s_, sizeof(s_)); }
  KeccakState(const KeccakState&) = delete;
  KeccakState& operator=(const KeccakState&) = delete;
  // The state is zeroed by mem::zero, which stores words on the M4 (where the C library's memset,
  // which a value-initialized member becomes, stores bytes: about 1.4k estimated cycles a sponge).
  // All-zero is the zero state in both forms.
  void clear() { mem::zero(s_, sizeof(s_)); }
  bool interleaved() const { return p_.interleaved != nullptr; }
  void xor_lane(std::size_t i, std::uint64_t v) { lanes::xor_lane(s_, interleaved(), i, v); }
  void read_bytes(std::size_t pos, std::uint8_t* out, std::size_t n) const {
    lanes::read_bytes(s_, interleaved(), pos, out, n);
  }
  void xor_lanes(std::size_t first, const std::uint8_t* in, std::size_t n) { lanes::xor_in(s_, p_, first, in, n); }
  void read_lanes(std::uint8_t* out, std::size_t first, std::size_t n) const { lanes::read_out(s_, p_, first, out, n); }
  void permute() {
    if (p_.interleaved == nullptr) p_.f(s_);
    else p_.interleaved(reinterpret_cast<lanes::Word*>(s_));
  }

 private:
  std::uint64_t s_[25];
  Permutation p_;
};

// A Keccak sponge of kind (rate, pad). Absorb any number of times, then squeeze any number of
// times; the squeezed stream does not depend on how reads are split (spec §3 "XOF stream"
// semantics). sym::SpongeLanes runs the same sponges several at a time.
class Sponge {
 public:
  Sponge(Permutation p, SpongeKind kind) : s_(p), rate_(kind.rate), pad_(kind.pad) {}
  Sponge(Permutation p, std::size_t rate, std::uint8_t pad) : Sponge(p, SpongeKind{rate, pad}) {}
  ~Sponge() = default;
  Sponge(const Sponge&) = delete;
  Sponge& operator=(const Sponge&) = delete;

  void absorb(const std::uint8_t* in, std::size_t len);
  void absorb(std::span<const std::uint8_t> in) { absorb(in.data(), in.size()); }
  void absorb_byte(std::uint8_t b) { absorb(&b, 1); }
  void squeeze(std::uint8_t* out, std::size_t len);  // finalises on first call
  void reset();

 private:
  void finalize();
  KeccakState s_;
  std::size_t rate_;
  std::size_t pos_ = 0;  // byte position within the rate (absorb or squeeze)
  std::uint8_t pad_;
  bool squeezing_ = false;
};

struct Sha3_256 : Sponge {
  explicit Sha3_256(Permutation f) : Sponge(f, kSha3_256) {}
  void final(std::uint8_t out[32]) { squeeze(out, 32); }
};
struct Sha3_512 : Sponge {
  explicit Sha3_512(Permutation f) : Sponge(f, kSha3_512) {}
  void final(std::uint8_t out[64]) { squeeze(out, 64); }
};
struct Shake256 : Sponge {
  explicit Shake256(Permutation f) : Sponge(f, kShake256) {}
};

// One-shot helpers.
void sha3_256(Permutation f, std::uint8_t out[32], const std::uint8_t* in, std::size_t len);
void sha3_512(Permutation f, std::uint8_t out[64], const std::uint8_t* in, std::size_t len);
void shake256(Permutation f, std::uint8_t* out, std::size_t outlen, const std::uint8_t* in, std::size_t len);

}  // namespace hqc::sym
