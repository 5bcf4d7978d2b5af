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

Sponge::~Sponge() { ct::wipe(s_, sizeof(s_)); }

void Sponge::reset() {
  ct::wipe(s_, sizeof(s_));
  pos_ = 0;
  squeezing_ = false;
}

// Lanes are little-endian (FIPS 202 byte order); bytes are XORed into the state lane by lane.
static inline void xor_bytes_into_state(std::uint64_t* s, std::size_t pos, const std::uint8_t* in, std::size_t len) {
  for (std::size_t i = 0; i < len; i++) s[(pos + i) >> 3] ^= static_cast<std::uint64_t>(in[i]) << (8 * ((pos + i) & 7));
}

void Sponge::absorb(const std::uint8_t* in, std::size_t len) {
  while (len > 0) {
    if (pos_ == 0 && len >= rate_) {
      // Whole blocks: lane-wise XOR (little-endian loads).
      for (std::size_t i = 0; i < rate_ / 8; i++) {
        s_[i] ^= mem::load_le64(in + 8 * i);
      }
      f_(s_);
      in += rate_;
      len -= rate_;
      continue;
    }
    std::size_t take = rate_ - pos_;
    if (take > len) take = len;
    xor_bytes_into_state(s_, pos_, in, take);
    pos_ += take;
    in += take;
    len -= take;
    if (pos_ == rate_) {
      f_(s_);
      pos_ = 0;
    }
  }
}

void Sponge::finalize() {
  s_[pos_ >> 3] ^= static_cast<std::uint64_t>(pad_) << (8 * (pos_ & 7));
  s_[(rate_ - 1) >> 3] ^= 0x80ULL << (8 * ((rate_ - 1) & 7));
  f_(s_);
  pos_ = 0;
  squeezing_ = true;
}

void Sponge::squeeze(std::uint8_t* out, std::size_t len) {
  if (!squeezing_) finalize();
  while (len > 0) {
    if (pos_ == rate_) {
      f_(s_);
      pos_ = 0;
    }
    std::size_t take = rate_ - pos_;
    if (take > len) take = len;
    mem::copy(out, reinterpret_cast<const std::uint8_t*>(s_) + pos_, take);  // little-endian lanes
    pos_ += take;
    out += take;
    len -= take;
  }
}

void sha3_256(backend::KeccakF1600Fn f, std::uint8_t out[32], const std::uint8_t* in, std::size_t len) {
  Sha3_256 h(f);
  h.absorb(in, len);
  h.final(out);
}
void sha3_512(backend::KeccakF1600Fn f, std::uint8_t out[64], const std::uint8_t* in, std::size_t len) {
  Sha3_512 h(f);
  h.absorb(in, len);
  h.final(out);
}
void shake256(backend::KeccakF1600Fn f, std::uint8_t* out, std::size_t outlen, const std::uint8_t* in,
              std::size_t len) {
  Shake256 x(f);
  x.absorb(in, len);
  x.squeeze(out, outlen);
}

}  // namespace hqc::sym
