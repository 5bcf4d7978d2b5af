// Shortened Reed-Solomon codes over GF(2^8) (spec §1.5, §5.2, §5.6): systematic encoding and the
// portable constant-time decoder (the oracle for SIMD decoders).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "common/ct.hpp"
#include "gf256/gf256.hpp"
#include "params/params.hpp"

namespace hqc::code {

// Generator polynomial g(x) = prod_{i=1}^{2 delta} (x - alpha^i), coefficients from degree 0 up
// to the leading 1 (spec §1.5), computed at compile time.
template <class P>
constexpr std::array<std::uint8_t, P::kRsParity + 1> rs_generator() {
  std::array<std::uint8_t, P::kRsParity + 1> g{};
  g[0] = 1;
  for (std::size_t i = 1; i <= P::kRsParity; i++) {
    const std::uint8_t root = gf256::alpha_pow(static_cast<unsigned>(i));
    // g <- g * (x + root)
    for (std::size_t j = i; j >= 1; j--) g[j] = static_cast<std::uint8_t>(g[j - 1] ^ gf256::mul(g[j], root));
    g[0] = gf256::mul(g[0], root);
  }
  return g;
}
// First and last coefficients of the tables in spec §1.5.
static_assert(rs_generator<Hqc1>()[0] == 89 && rs_generator<Hqc1>()[29] == 181 && rs_generator<Hqc1>()[30] == 1);
static_assert(rs_generator<Hqc3>()[0] == 45 && rs_generator<Hqc3>()[31] == 232);
static_assert(rs_generator<Hqc5>()[0] == 49 && rs_generator<Hqc5>()[57] == 187);

// Systematic encoding (spec §5.2): cw[0, 2delta) = parity, cw[2delta, n1) = msg. Constant time.
template <class P>
void rs_encode(std::uint8_t cw[P::kN1], const std::uint8_t msg[P::kK]) {
  static constexpr auto g = rs_generator<P>();
  constexpr std::size_t R = P::kRsParity;
  std::uint8_t reg[R] = {};
  for (std::size_t i = P::kK; i-- > 0;) {
    const std::uint8_t f = static_cast<std::uint8_t>(msg[i] ^ reg[R - 1]);
    for (std::size_t j = R - 1; j >= 1; j--) reg[j] = static_cast<std::uint8_t>(reg[j - 1] ^ gf256::mul(f, g[j]));
    reg[0] = gf256::mul(f, g[0]);
  }
  for (std::size_t j = 0; j < R; j++) cw[j] = reg[j];
  for (std::size_t i = 0; i < P::kK; i++) cw[R + i] = msg[i];
  ct::wipe(reg, sizeof(reg));
}

// Intermediate values of the decoder, exposed for the component tests (vectors/ files).
template <class P>
struct RsDecodeTrace {
  std::uint8_t syndromes[P::kRsParity];  // S_1 .. S_2delta
  std::uint8_t sigma[P::kDelta + 1];     // error-locator coefficients
  std::uint8_t error_values[P::kN1];     // value added at each position (0 = no error)
  std::uint8_t corrected[P::kN1];
};

// Portable constant-time decoder (spec §5.6). msg receives cw's corrected message part.
template <class P>
void rs_decode_portable(std::uint8_t msg[P::kK], const std::uint8_t cw[P::kN1], RsDecodeTrace<P>* trace = nullptr);

}  // namespace hqc::code
