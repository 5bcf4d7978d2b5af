#include "code/reed_solomon.hpp"

#include "common/mem.hpp"

namespace hqc::code {

namespace {

// All-ones byte if x == 0.
inline std::uint8_t zero_mask8(std::uint32_t x) { return static_cast<std::uint8_t>(~ct::mask_nonzero32(x)); }

}  // namespace

template <class P>
void rs_decode_portable(std::uint8_t msg[P::kK], const std::uint8_t cw[P::kN1], RsDecodeTrace<P>* trace) {
  constexpr std::size_t N1 = P::kN1, D = P::kDelta, R = P::kRsParity;
  struct State {
    std::uint8_t syn[R];
    std::uint8_t sigma[D + 1];
    std::uint8_t sigma_old[D + 1];
    std::uint8_t pp[D + 1];
    std::uint8_t omega[R];
    std::uint8_t err[N1];
    std::uint8_t r[N1];
  };
  ct::Wiped<State> st;
  State& s = *st;
  mem::copy(s.r, cw, N1);

  // 1. Syndromes S_i = r(alpha^i), i = 1..2delta (alpha powers at public exponents).
  for (std::size_t i = 0; i < R; i++) {
    std::uint8_t acc = 0;
    for (std::size_t j = 0; j < N1; j++)
      acc ^= gf256::mul(s.r[j], gf256::alpha_pow(static_cast<unsigned>((i + 1) * j)));
    s.syn[i] = acc;
  }

  // 2. Berlekamp with 2delta fixed iterations; every data-dependent decision is a mask.
  mem::zero(s.sigma, sizeof(s.sigma));
  mem::zero(s.pp, sizeof(s.pp));
  s.sigma[0] = 1;
  s.pp[1] = 1;  // P(x) = x
  std::uint64_t L = 0, Lp = 0;
  std::int64_t rho = -1;
  std::uint8_t d_rho = 1;
  std::uint8_t d = s.syn[0];
  for (std::size_t mu = 0; mu < R; mu++) {
    mem::copy(s.sigma_old, s.sigma, D + 1);
    const std::uint64_t L_old = L;
    const std::size_t top = (mu + 1 < D) ? mu + 1 : D;
    const std::uint8_t coef = gf256::mul(d, gf256::inv(d_rho));
    for (std::size_t i = 1; i <= top; i++) s.sigma[i] ^= gf256::mul(coef, s.pp[i]);
    const std::uint64_t cand = static_cast<std::uint64_t>(static_cast<std::int64_t>(mu) - rho) + Lp;
    const std::uint64_t grow = ct::mask_nonzero64(d) & ct::mask_lt64(L, cand);
    L = (cand & grow) | (L & ~grow);
    if (mu == R - 1) break;  // public loop index
    const std::uint8_t g8 = static_cast<std::uint8_t>(grow);
    rho =
        static_cast<std::int64_t>((static_cast<std::uint64_t>(mu) & grow) | (static_cast<std::uint64_t>(rho) & ~grow));
    d_rho = static_cast<std::uint8_t>((d & g8) | (d_rho & ~g8));
    for (std::size_t i = D; i >= 1; i--)
      s.pp[i] = static_cast<std::uint8_t>((s.sigma_old[i - 1] & g8) | (s.pp[i - 1] & ~g8));
    s.pp[0] = 0;
    Lp = (L_old & grow) | (Lp & ~grow);
    d = s.syn[mu + 1];
    for (std::size_t i = 1; i <= top; i++) d ^= gf256::mul(s.sigma[i], s.syn[mu + 1 - i]);
  }

  // 3. Chien search over every position j < n1: error iff sigma(alpha^(255 - j)) = 0.
  for (std::size_t j = 0; j < N1; j++) {
    std::uint8_t v = 0;
    for (std::size_t i = 0; i <= D; i++)
      v ^= gf256::mul(s.sigma[i], gf256::alpha_pow(static_cast<unsigned>((255 - j) * i)));
    s.err[j] = zero_mask8(v);
  }

  // 4. Error values, Forney form (spec §5.6 step 4): e_j = Omega(X^-1) / sigma'(X^-1), X = alpha^j,
  //    with Omega(x) = S(x) sigma(x) mod x^(2 delta). Computed for every position, then masked.
  for (std::size_t t = 0; t < R; t++) {
    std::uint8_t acc = 0;
    for (std::size_t i = 0; i <= D && i <= t; i++) acc ^= gf256::mul(s.sigma[i], s.syn[t - i]);
    s.omega[t] = acc;
  }
  for (std::size_t j = 0; j < N1; j++) {
    const unsigned xinv = gf256::mod255(static_cast<unsigned>(255 - j));
    std::uint8_t om = 0, der = 0;
    for (std::size_t t = 0; t < R; t++) om ^= gf256::mul(s.omega[t], gf256::alpha_pow(static_cast<unsigned>(xinv * t)));
    for (std::size_t i = 1; i <= D; i += 2)
      der ^= gf256::mul(s.sigma[i], gf256::alpha_pow(static_cast<unsigned>(xinv * (i - 1))));
    const std::uint8_t e = static_cast<std::uint8_t>(gf256::mul(om, gf256::inv(der)) & s.err[j]);
    if (trace) trace->error_values[j] = e;
    s.r[j] ^= e;
  }

  mem::copy(msg, s.r + R, P::kK);
  if (trace) {
    mem::copy(trace->syndromes, s.syn, R);
    mem::copy(trace->sigma, s.sigma, D + 1);
    mem::copy(trace->corrected, s.r, N1);
  }
}

template void rs_decode_portable<Hqc1>(std::uint8_t*, const std::uint8_t*, RsDecodeTrace<Hqc1>*);
template void rs_decode_portable<Hqc3>(std::uint8_t*, const std::uint8_t*, RsDecodeTrace<Hqc3>*);
template void rs_decode_portable<Hqc5>(std::uint8_t*, const std::uint8_t*, RsDecodeTrace<Hqc5>*);

}  // namespace hqc::code
