// GF(2^8) with modulus x^8 + x^4 + x^3 + x^2 + 1 = 0x11D (spec §1.4). Arithmetic on secret values
// is carry-less multiplication plus reduction with masks; no log/antilog lookups on secrets.
// Tables below are indexed only by public values (exponents of alpha at public positions).
#pragma once

#include <array>
#include <cstdint>

namespace hqc::gf256 {

inline constexpr unsigned kModulus = 0x11D;

// Constant-time product.
constexpr std::uint8_t mul(std::uint8_t a, std::uint8_t b) {
  unsigned r = 0;
  for (unsigned i = 0; i < 8; i++) r ^= (static_cast<unsigned>(a) << i) & (0u - ((b >> i) & 1u));
  for (unsigned i = 14; i >= 8; i--) r ^= (kModulus << (i - 8)) & (0u - ((r >> i) & 1u));
  return static_cast<std::uint8_t>(r);
}

constexpr std::uint8_t square(std::uint8_t a) { return mul(a, a); }

// a^254 = a^-1 for a != 0, and 0 for a = 0 (spec §1.4), by a fixed chain of squarings/products.
constexpr std::uint8_t inv(std::uint8_t a) {
  std::uint8_t a2 = square(a);                              // a^2
  std::uint8_t a3 = mul(a2, a);                             // a^3
  std::uint8_t a12 = square(square(a3));                    // a^12
  std::uint8_t a15 = mul(a12, a3);                          // a^15
  std::uint8_t a240 = square(square(square(square(a15))));  // a^240
  std::uint8_t a252 = mul(a240, a12);                       // a^252
  return mul(a252, a2);                                     // a^254
}

// alpha^i for i = 0..254 (alpha = 0x02), i.e. exp table; public.
constexpr std::array<std::uint8_t, 255> make_exp() {
  std::array<std::uint8_t, 255> t{};
  unsigned x = 1;
  for (unsigned i = 0; i < 255; i++) {
    t[i] = static_cast<std::uint8_t>(x);
    x <<= 1;
    if (x & 0x100) x ^= kModulus;
  }
  return t;
}
inline constexpr std::array<std::uint8_t, 255> kExp = make_exp();

// e mod 255 without a division (2^8 = 1 mod 255, so bytes fold), for any 32-bit e. The exponents
// are public, but a compiler optimising for size emits UDIV for `% 255`, and the device
// constant-time check admits no division at all (spec §8).
constexpr unsigned mod255(unsigned e) {
  e = (e & 0xFFFFu) + (e >> 16);  // <= 131070
  e = (e & 0xFFu) + (e >> 8);     // <= 766
  e = (e & 0xFFu) + (e >> 8);     // <= 257
  e = (e & 0xFFu) + (e >> 8);     // <= 256
  return e - 255u * static_cast<unsigned>(e >= 255u);
}
static_assert(mod255(0) == 0 && mod255(255) == 0 && mod255(256) == 1 && mod255(65535) == 0 && mod255(65536) == 1 &&
              mod255(0xFFFFFFFFu) == 0xFFFFFFFFu % 255 && mod255(1234567u) == 1234567u % 255);

// alpha^e for a public exponent e (any non-negative integer).
constexpr std::uint8_t alpha_pow(unsigned e) { return kExp[mod255(e)]; }

static_assert(kExp[8] == 29 && kExp[15] == 38 && mul(2, 142) == 1);
static_assert(inv(0) == 0 && mul(inv(0x53), 0x53) == 1);

}  // namespace hqc::gf256
