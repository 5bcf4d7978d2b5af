// What both FAFFT implementations (avx512/fafft.cpp on 512-bit vectors, avx2/fafft_avx2.cpp on
// 256-bit vectors) share apart from the tables (tables.hpp): the sizes of a transform and the
// step list of the novel-basis conversion. Plain constexpr C++, no instructions: each backend turns
// the steps into its own register and memory passes. The algorithm: docs/FAFFT.md.
#pragma once

#include <cstddef>
#include <cstdint>

#include "backend/ops.hpp"
#include "params/params.hpp"

namespace hqc::backend::fafft {

// Smallest m with 2^m >= 2n - 1 (the product has 2n - 1 coefficients).
constexpr unsigned log_product_bits(std::size_t n) {
  unsigned m = 0;
  while ((std::size_t{1} << m) < 2 * n - 1) m++;
  return m;
}
template <class P>
inline constexpr unsigned kLogProduct = log_product_bits(P::kN);
// log2 of the number of evaluation points (GF(2^128) elements of one transform).
template <class P>
inline constexpr unsigned kLogPoints = kLogProduct<P> - 7;
// uint64 words of one transform: the contract's size (backend/ops.hpp; buffers 64-byte aligned),
// 2^kLogPoints elements of two words, in point order; the same words in both implementations.
template <class P>
inline constexpr std::size_t kTransformWords = backend::kTransformWords<P>;
static_assert(kTransformWords<Hqc1> == std::size_t{2} << kLogPoints<Hqc1> &&
                  kTransformWords<Hqc3> == std::size_t{2} << kLogPoints<Hqc3> &&
                  kTransformWords<Hqc5> == std::size_t{2} << kLogPoints<Hqc5>,
              "the FAFFT layout (two words per point) must have the contract's transform size");

// ---- Novel-basis conversion over GF(2): the steps ----------------------------------------------
//
// convert(L, G): the array is a sequence of blocks of 2^L elements of G bits (a polynomial with
// coefficients that are G-bit units, converted themselves by a later call). With T the largest
// power of two below L, Taylor-expand at y = x^(2^T) + x = s_T(x): each level lev = L..T+1
// (k = lev - 1 - T, sub-blocks of 2^lev elements, half h = 2^(lev-1)) is
//   A: elements [h, h + 2^k) ^= elements [2h - 2^k, 2h)
//   B: elements [2^k, h) ^= elements [h, 2h - 2^k)
// which gives f = g0 + g1 * y^(2^k). Then convert(L - T, G * 2^T) (the y-polynomials, all
// 2^T coefficient slots at once) and convert(T, G) (each 2^T-element coefficient). Every step
// leaves its source range unchanged, so the inverse runs the same steps in reverse order.

struct Step {
  std::uint32_t block, dst, src, len;  // in bits, per block of `block` bits
};
constexpr int kMaxSteps = 72;  // gen_steps(17, 1) has 66 steps

// Appends the steps of convert(L, G) to s[n..] and returns the new count.
constexpr int gen_steps(unsigned L, std::uint32_t G, Step* s, int n) {
  if (L <= 1) return n;
  unsigned T = 1;
  while (2 * T < L) T *= 2;
  for (unsigned lev = L; lev > T; lev--) {
    const unsigned k = lev - 1 - T;
    const std::uint32_t half = G << (lev - 1), piece = G << k, block = G << lev;
    s[n++] = Step{block, half, 2 * half - piece, piece};
    s[n++] = Step{block, piece, half, half - piece};
  }
  n = gen_steps(L - T, G << T, s, n);
  return gen_steps(T, G, s, n);
}
constexpr int gen_steps_count(unsigned L) {
  Step s[256] = {};
  return gen_steps(L, 1, s, 0);
}
static_assert(gen_steps_count(17) <= kMaxSteps);

}  // namespace hqc::backend::fafft
