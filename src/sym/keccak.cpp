#include "sym/keccak.hpp"

#include <bit>

#include "common/ct.hpp"
#include "common/mem.hpp"
#include "sym/keccak_constants.hpp"

namespace hqc::sym {

static_assert(std::endian::native == std::endian::little, "hqckit assumes a little-endian host (spec §12 item 9)");

namespace {

inline std::uint64_t rotl(std::uint64_t x, unsigned r) { return r == 0 ? x : (x << r) | (x >> (64 - r)); }

}  // namespace

void keccak_f1600_portable(std::uint64_t a[25]) {
  for (const std::uint64_t rc : kKeccakRoundConstants) {
    // theta
    std::uint64_t c[5], d[5];
    for (int x = 0; x < 5; x++) c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
    for (int x = 0; x < 5; x++) d[x] = c[(x + 4) % 5] ^ rotl(c[(x + 1) % 5], 1);
    for (int i = 0; i < 25; i++) a[i] ^= d[i % 5];
    // rho and pi: B[y][2x+3y] = rot(A[x][y], r[x][y])
    std::uint64_t b[25];
    for (int x = 0; x < 5; x++)
      for (int y = 0; y < 5; y++) b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(a[x + 5 * y], kKeccakRho[x + 5 * y]);
    // chi
    for (int y = 0; y < 5; y++)
      for (int x = 0; x < 5; x++) a[x + 5 * y] = b[x + 5 * y] ^ (~b[(x + 1) % 5 + 5 * y] & b[(x + 2) % 5 + 5 * y]);
    // iota
    a[0] ^= rc;
  }
}

void keccak_f1600_interleaved_portable(std::uint32_t a[50]) {
  std::uint64_t lanes[25];
  for (int i = 0; i < 25; i++) lanes[i] = deinterleave_lane(a[2 * i], a[2 * i + 1]);
  keccak_f1600_portable(lanes);
  for (int i = 0; i < 25; i++) interleave_lane(lanes[i], a[2 * i], a[2 * i + 1]);
  ct::wipe(lanes, sizeof(lanes));
}

void Sponge::reset() {
  s_.clear();
  pos_ = 0;
  squeezing_ = false;
}

// Lanes are little-endian (FIPS 202 byte order): runs of whole lanes are XORed (or read) by one
// loop, and the bytes of a partial lane are gathered into one lane value first, so the state is
// only ever read and written as whole lanes (in the permutation's form, KeccakState).
void Sponge::absorb(const std::uint8_t* in, std::size_t len) {
  while (len > 0) {
    const std::size_t off = pos_ & 7;
    if (off == 0 && len >= 8) {  // whole lanes up to the end of the block or of the input
      std::size_t n = (rate_ - pos_) / 8;
      if (n > len / 8) n = len / 8;
      s_.xor_lanes(pos_ / 8, in, n);
      pos_ += 8 * n;
      in += 8 * n;
      len -= 8 * n;
      if (pos_ == rate_) {
        s_.permute();
        pos_ = 0;
      }
      continue;
    }
    std::size_t take = 8 - off;
    if (take > len) take = len;
    std::uint64_t v = 0;
    for (std::size_t j = 0; j < take; j++) v |= static_cast<std::uint64_t>(in[j]) << (8 * (off + j));
    s_.xor_lane(pos_ >> 3, v);
    pos_ += take;
    in += take;
    len -= take;
    if (pos_ == rate_) {
      s_.permute();
      pos_ = 0;
    }
  }
}

void Sponge::finalize() {
  s_.xor_lane(pos_ >> 3, static_cast<std::uint64_t>(pad_) << (8 * (pos_ & 7)));
  s_.xor_lane((rate_ - 1) >> 3, 0x80ULL << (8 * ((rate_ - 1) & 7)));
  s_.permute();
  pos_ = 0;
  squeezing_ = true;
}

void Sponge::squeeze(std::uint8_t* out, std::size_t len) {
  if (!squeezing_) finalize();
  while (len > 0) {
    if (pos_ == rate_) {
      s_.permute();
      pos_ = 0;
    }
    const std::size_t off = pos_ & 7;
    if (off == 0 && len >= 8) {  // whole lanes up to the end of the block or of the output
      std::size_t n = (rate_ - pos_) / 8;
      if (n > len / 8) n = len / 8;
      s_.read_lanes(out, pos_ / 8, n);
      pos_ += 8 * n;
      out += 8 * n;
      len -= 8 * n;
      continue;
    }
    std::size_t take = 8 - off;
    if (take > len) take = len;
    s_.read_bytes(pos_, out, take);
    pos_ += take;
    out += take;
    len -= take;
  }
}

void sha3_256(Permutation f, std::uint8_t out[32], const std::uint8_t* in, std::size_t len) {
  Sha3_256 h(f);
  h.absorb(in, len);
  h.final(out);
}
void sha3_512(Permutation f, std::uint8_t out[64], const std::uint8_t* in, std::size_t len) {
  Sha3_512 h(f);
  h.absorb(in, len);
  h.final(out);
}
void shake256(Permutation f, std::uint8_t* out, std::size_t outlen, const std::uint8_t* in, std::size_t len) {
  Shake256 x(f);
  x.absorb(in, len);
  x.squeeze(out, outlen);
}

}  // namespace hqc::sym
