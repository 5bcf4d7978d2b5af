// Reed-Solomon encoding and decoding for the Cortex-M4 (spec §5.2, §5.6), four GF(2^8) elements
// per 32-bit word. The M4 has no carry-less multiply, and the portable decoder multiplies one pair
// of bytes at a time with a 15-step masked shift-and-add (code/reed_solomon.cpp). Here a word holds
// four field elements (byte lane l of word k is element 4k + l), and:
// - x * alpha in every lane is a lane-wise doubling and 0x1D where a lane's top bit carried out:
//   UADD8 and SEL at run time (xtime4_rt), a shift, masks and a multiplication in the compile-time
//   tables (xtime4); no carry crosses a lane;
// - a product is the XOR over the bits b of one factor of (its bit b as a lane mask) AND
//   (x^b times the other factor). Where the other factor is a public constant, its eight multiples
//   x^b are tables (flash), so a product costs two instructions per bit for four lanes;
// - the decoder's sums over the code positions and over the syndromes are Horner evaluations whose
//   lanes run side by side (syndromes: one lane per syndrome; Chien search and Forney: one lane per
//   code position), in Thumb-2 (hqc_m4_rs_horner, reed_solomon_m4.S: one word at a time over all
//   the coefficients, its multiples held in registers).
// Every step, index and loop bound depends on the parameter set only: the received word, the
// syndromes and the locator are never branched on or used to form an address (spec §8). The
// Berlekamp iteration is the portable one step for step (the same masks for its data-dependent
// decisions) but without its inversion: sigma = d_rho sigma + d P instead of sigma + (d / d_rho) P.
// By induction every step's sigma, P, d and d_rho are nonzero multiples of the portable's (sigma and
// d by one factor a, P and d_rho by another, b; the step multiplies a by b d_rho, and P = x sigma_old
// takes a), so the decisions, which test d against zero, are the same, and the final locator is c
// times the portable's, c != 0. The Chien search finds the same roots, and Forney's Omega / sigma'
// is unchanged (both are multiplied by c; where sigma' is zero both give zero). So the decoded
// bytes are the portable decoder's on every input, including words with more than delta errors;
// the device test image checks that.
#include <arm_acle.h>

#include <array>
#include <cstddef>
#include <cstdint>

#include "code/reed_solomon.hpp"
#include "common/ct.hpp"
#include "common/mem.hpp"
#include "gf256/gf256.hpp"
#include "params/params.hpp"

// acc[k] = the Horner evaluation over count coefficients (coef_top[0], coef_top[-1], ..., each in
// every lane) at the public lanes of word k, whose multiples are mult[k] (reed_solomon_m4.S).
extern "C" void hqc_m4_rs_horner(std::uint32_t* acc, const void* mult, std::size_t words, const std::uint8_t* coef_top,
                                 std::size_t count);

namespace hqc::backend::m4 {
namespace {

using u32 = std::uint32_t;
constexpr u32 kLaneLow = 0x01010101u;

// x * alpha (alpha = x, modulus 0x11D, spec §1.4) in each byte lane.
constexpr u32 xtime4(u32 a) { return ((a << 1) & 0xFEFEFEFEu) ^ (((a >> 7) & kLaneLow) * 0x1Du); }
// The same at run time in three instructions: UADD8 doubles every lane (no carry crosses a lane)
// and sets the lane's GE flag where the top bit carried out, and SEL then takes 0x1D in exactly
// those lanes. UADD8 and SEL are single-cycle whatever the data. poly = 0x1D1D1D1D.
// UADD8's sum must stay in use: GCC 12 keeps a UADD8 whose sum is dead for its GE flags but no
// longer computes its operands (a Horner product that doubled b only for the flags read an
// uninitialized register at -Os, caught by m4_test's rs_decode checks).
inline u32 xtime4_rt(u32 a, u32 poly) {
  const u32 d = __uadd8(a, a);
  return d ^ __sel(poly, 0u);
}
// 0xFF in the lanes of a whose bit b is set, 0x00 in the others. low is kLaneLow, passed in a
// register (ct::value_barrier) by the callers' loops: the mask is then one AND with a shifted
// operand and one RSB (x * 255 = (x << 8) - x), not a shift, an AND with an immediate and an RSB.
inline u32 lane_bit_mask(u32 a, unsigned b, u32 low) {
  const u32 bit = (a >> b) & low;
  return (bit << 8) - bit;
}
// 0xFF in the lanes of v that are zero.
inline u32 lane_zero_mask(u32 v) {
  const u32 low7 = (v & 0x7F7F7F7Fu) + 0x7F7F7F7Fu;  // top bit of a lane: its low 7 bits are nonzero
  return ((~(low7 | v | 0x7F7F7F7Fu)) >> 7) * 0xFFu;
}

// Lane-wise product of two secret words.
inline u32 mul4(u32 a, u32 b) {
  const u32 low = ct::value_barrier(kLaneLow);
  const u32 poly = ct::value_barrier(0x1D1D1D1Du);
  u32 r = 0;
  for (unsigned i = 0; i < 8; i++) {
    r ^= a & lane_bit_mask(b, i, low);
    a = xtime4_rt(a, poly);
  }
  return r;
}

// Lane-wise a^254 = a^-1 (0 for 0), the portable chain of squarings and products (gf256::inv).
inline u32 inv4(u32 a) {
  const u32 a2 = mul4(a, a);
  const u32 a3 = mul4(a2, a);
  const u32 a6 = mul4(a3, a3);
  const u32 a12 = mul4(a6, a6);
  const u32 a15 = mul4(a12, a3);
  u32 a240 = a15;
  for (int i = 0; i < 4; i++) a240 = mul4(a240, a240);
  return mul4(mul4(a240, a12), a2);
}

// The eight multiples x^b * c (b = 0..7) of a word of public constants, the table form of a factor.
using Multiples = std::array<u32, 8>;
constexpr Multiples multiples(u32 c) {
  Multiples m{};
  for (unsigned b = 0; b < 8; b++) {
    m[b] = c;
    c = xtime4(c);
  }
  return m;
}

// The masks of the bits of one secret byte (all-ones or zero), to multiply it into every lane.
struct ScalarMasks {
  u32 m[8];
  explicit ScalarMasks(u32 x) {
    for (unsigned b = 0; b < 8; b++) m[b] = 0u - ((x >> b) & 1u);
  }
  ~ScalarMasks() { ct::wipe(m, sizeof(m)); }
  ScalarMasks(const ScalarMasks&) = delete;
  ScalarMasks& operator=(const ScalarMasks&) = delete;
  // x * (every lane of the secret word w).
  u32 times(u32 w) const {
    const u32 poly = ct::value_barrier(0x1D1D1D1Du);
    u32 r = 0;
    for (unsigned b = 0; b < 8; b++) {
      r ^= m[b] & w;
      w = xtime4_rt(w, poly);
    }
    return r;
  }
  // x * (every lane of the public word whose multiples are t).
  u32 times_public(const Multiples& t) const {
    u32 r = 0;
    for (unsigned b = 0; b < 8; b++) r ^= m[b] & t[b];
    return r;
  }
};

constexpr std::size_t words_for(std::size_t bytes) { return (bytes + 3) / 4; }
// The lanes of the last word of a vector of n elements that hold elements (all-ones if n % 4 == 0).
constexpr u32 last_word_mask(std::size_t n) { return n % 4 == 0 ? ~u32{0} : (u32{1} << (8 * (n % 4))) - 1; }

// Packs f(i), i < n, into words of multiples (lanes i >= n zero).
template <std::size_t W, class F>
constexpr std::array<Multiples, W> packed_multiples(std::size_t n, F f) {
  std::array<Multiples, W> t{};
  for (std::size_t k = 0; k < W; k++) {
    u32 c = 0;
    for (std::size_t l = 0; l < 4; l++)
      if (4 * k + l < n) c |= u32{f(4 * k + l)} << (8 * l);
    t[k] = multiples(c);
  }
  return t;
}

inline std::uint8_t byte_of(const u32* w, std::size_t i) { return reinterpret_cast<const std::uint8_t*>(w)[i]; }

}  // namespace

// Systematic encoding (spec §5.2), the portable shift register (code::rs_encode) with the register
// packed: each message byte shifts the register up one lane and adds f * g, f = msg[i] + reg[2delta - 1].
template <class P>
void rs_encode(std::uint8_t cw[P::kN1], const std::uint8_t msg[P::kK]) {
  constexpr std::size_t R = P::kRsParity, W = words_for(R);
  static constexpr auto kG = code::rs_generator<P>();
  static constexpr auto kGx = packed_multiples<W>(R, [](std::size_t j) { return kG[j]; });
  u32 reg[W];
  for (u32& x : reg) x = 0;
  for (std::size_t i = P::kK; i-- > 0;) {
    const ScalarMasks f(msg[i] ^ byte_of(reg, R - 1));
    for (std::size_t k = W; k-- > 0;) {
      const u32 shifted = (reg[k] << 8) | (k > 0 ? reg[k - 1] >> 24 : 0);  // k is public
      reg[k] = shifted ^ f.times_public(kGx[k]);
    }
    reg[W - 1] &= last_word_mask(R);  // reg[2delta - 1] has been used as f
  }
  mem::copy(cw, reg, R);
  mem::copy(cw + R, msg, P::kK);
  ct::wipe(reg, sizeof(reg));
}

// Decoding (spec §5.6): syndromes, Berlekamp's iteration, Chien search, Forney's error values.
template <class P>
void rs_decode(std::uint8_t msg[P::kK], const std::uint8_t cw[P::kN1]) {
  constexpr std::size_t N1 = P::kN1, D = P::kDelta, R = P::kRsParity;
  constexpr std::size_t WR = words_for(R), WD = words_for(D + 1), WN = words_for(N1);
  // Lane i of the syndromes' Horner step: alpha^(i + 1). Lane j of the positions' step:
  // gamma_j = alpha^(255 - j) = alpha^-j, and its square (for the locator's derivative).
  static constexpr auto kAlphaX =
      packed_multiples<WR>(R, [](std::size_t i) { return gf256::alpha_pow(static_cast<unsigned>(i + 1)); });
  static constexpr auto kGammaX = packed_multiples<WN>(
      N1, [](std::size_t j) { return gf256::alpha_pow(gf256::mod255(static_cast<unsigned>(255 - j))); });
  static constexpr auto kGamma2X = packed_multiples<WN>(
      N1, [](std::size_t j) { return gf256::alpha_pow(gf256::mod255(static_cast<unsigned>(2 * (255 - j)))); });
  // rev[R - 2 - mu + i] = S_(mu + 1 - i) (zero where mu + 1 - i < 0): Berlekamp's discrepancy is
  // the dot product of the locator with a window of rev. low[D + t] = S_t (zero below D): Omega's
  // terms sigma_i S_(t - i) for all t at once are a window of low.
  constexpr std::size_t kRevBytes = R - 1 + 4 * WD, kLowBytes = D + 4 * WR;
  struct State {
    u32 r[WN], syn[WR], sigma[WD], sigma_old[WD], pp[WD], sel[WD], omega[WR];
    u32 v[WN], om[WN], der[WN];
    std::uint8_t odd[D / 2 + 1];  // the locator's odd coefficients (Forney's derivative)
    u32 rev[words_for(kRevBytes)], low[words_for(kLowBytes)];
  };
  ct::Wiped<State> st;
  State& s = *st;
  mem::copy(s.r, cw, N1);  // lanes >= n1 stay zero

  // 1. Syndromes S_(i+1) = r(alpha^(i + 1)), i < 2delta: Horner over the positions, from n1 - 1 down
  //    (hqc_m4_rs_horner, as the Chien search and Forney below).
  const auto* r_bytes = reinterpret_cast<const std::uint8_t*>(s.r);
  hqc_m4_rs_horner(s.syn, kAlphaX.data(), WR, r_bytes + N1 - 1, N1);
  s.syn[WR - 1] &= last_word_mask(R);
  auto* rev = reinterpret_cast<std::uint8_t*>(s.rev);
  auto* low = reinterpret_cast<std::uint8_t*>(s.low);
  for (std::size_t t = 0; t < R; t++) {
    rev[R - 1 - t] = byte_of(s.syn, t);
    low[D + t] = byte_of(s.syn, t);
  }

  // 2. Berlekamp with 2delta fixed iterations, as code::rs_decode_portable: every data-dependent
  //    decision is a mask. sigma and P(x) are packed; their degrees are at most mu + 1 in step mu,
  //    so updating every coefficient up to delta changes nothing above the portable bound `top`.
  s.sigma[0] = 1;
  s.pp[0] = 1u << 8;  // P(x) = x
  std::uint64_t L = 0, Lp = 0;
  std::int64_t rho = -1;
  std::uint8_t d_rho = 1;
  std::uint8_t d = byte_of(s.syn, 0);
  for (std::size_t mu = 0; mu < R; mu++) {
    for (std::size_t k = 0; k < WD; k++) s.sigma_old[k] = s.sigma[k];
    const std::uint64_t L_old = L;
    {
      // sigma = d_rho sigma + d P: the portable's sigma + (d / d_rho) P times d_rho, without
      // the inversion (see the file comment: a nonzero multiple of the portable's locator).
      // sigma and P have degree at most mu + 1 (and delta): the words above are zero (mu public).
      const std::size_t words = (mu + 1 < D ? mu + 1 : D) / 4 + 1;
      const ScalarMasks scale(d_rho), coef(d);
#pragma GCC unroll 1
      for (std::size_t k = 0; k < words; k++) s.sigma[k] = scale.times(s.sigma[k]) ^ coef.times(s.pp[k]);
    }
    const std::uint64_t cand = static_cast<std::uint64_t>(static_cast<std::int64_t>(mu) - rho) + Lp;
    const std::uint64_t grow = ct::mask_nonzero64(d) & ct::mask_lt64(L, cand);
    L = (cand & grow) | (L & ~grow);
    if (mu == R - 1) break;  // public loop index
    const std::uint8_t g8 = static_cast<std::uint8_t>(grow);
    const u32 g32 = static_cast<u32>(grow);
    rho =
        static_cast<std::int64_t>((static_cast<std::uint64_t>(mu) & grow) | (static_cast<std::uint64_t>(rho) & ~grow));
    d_rho = static_cast<std::uint8_t>((d & g8) | (d_rho & ~g8));
    // P(x) = x * (grow ? sigma_old : P), truncated to degree delta.
    for (std::size_t k = 0; k < WD; k++) s.sel[k] = (s.sigma_old[k] & g32) | (s.pp[k] & ~g32);
    for (std::size_t k = WD; k-- > 0;) s.pp[k] = (s.sel[k] << 8) | (k > 0 ? s.sel[k - 1] >> 24 : 0);
    s.pp[WD - 1] &= last_word_mask(D + 1);
    Lp = (L_old & grow) | (Lp & ~grow);
    // d = sum over i <= delta of sigma_i S_(mu + 1 - i) (sigma_0 = 1).
    u32 acc = 0;
#pragma GCC unroll 1
    for (std::size_t k = 0; k < WD; k++) acc ^= mul4(s.sigma[k], mem::load_le32(rev + (R - 2 - mu) + 4 * k));
    acc ^= acc >> 16;
    acc ^= acc >> 8;
    d = static_cast<std::uint8_t>(acc);
  }

  // 3. Chien search: v_j = sigma(gamma_j), Horner over the coefficients; an error at j iff v_j = 0.
  const auto* sigma_bytes = reinterpret_cast<const std::uint8_t*>(s.sigma);
  hqc_m4_rs_horner(s.v, kGammaX.data(), WN, sigma_bytes + D, D + 1);

  // 4. Omega(x) = S(x) sigma(x) mod x^(2delta): omega_t = sum over i <= min(delta, t) of
  //    sigma_i S_(t - i), all t at once per i.
  for (std::size_t i = 0; i <= D; i++) {
    const ScalarMasks si(byte_of(s.sigma, i));
#pragma GCC unroll 1
    for (std::size_t k = 0; k < WR; k++) s.omega[k] ^= si.times(mem::load_le32(low + (D - i) + 4 * k));
  }

  // 5. Forney (spec §5.6 step 4): e_j = Omega(gamma_j) / sigma'(gamma_j), where sigma'(x) =
  //    sum over odd i of sigma_i x^(i - 1) = sum over k of sigma_(2k+1) (x^2)^k. Computed for
  //    every position, then kept where the Chien search found an error.
  hqc_m4_rs_horner(s.om, kGammaX.data(), WN, reinterpret_cast<const std::uint8_t*>(s.omega) + R - 1, R);
  constexpr std::size_t kOdd = (D + 1) / 2;  // sigma_1, sigma_3, ..., sigma_(2 kOdd - 1)
  for (std::size_t k = 0; k < kOdd; k++) s.odd[k] = sigma_bytes[2 * k + 1];
  hqc_m4_rs_horner(s.der, kGamma2X.data(), WN, s.odd + kOdd - 1, kOdd);
#pragma GCC unroll 1
  for (std::size_t k = 0; k < WN; k++) s.r[k] ^= mul4(s.om[k], inv4(s.der[k])) & lane_zero_mask(s.v[k]);

  mem::copy(msg, reinterpret_cast<const std::uint8_t*>(s.r) + R, P::kK);
}

template void rs_encode<Hqc1>(std::uint8_t*, const std::uint8_t*);
template void rs_encode<Hqc3>(std::uint8_t*, const std::uint8_t*);
template void rs_encode<Hqc5>(std::uint8_t*, const std::uint8_t*);
template void rs_decode<Hqc1>(std::uint8_t*, const std::uint8_t*);
template void rs_decode<Hqc3>(std::uint8_t*, const std::uint8_t*);
template void rs_decode<Hqc5>(std::uint8_t*, const std::uint8_t*);

}  // namespace hqc::backend::m4
