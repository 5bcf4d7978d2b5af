// Frobenius additive FFT (FAFFT) multiplier for GF(2)[x]/(x^n - 1), avx512 backend.
//
// A product c = a*b (deg c < 2^m, m = kLogProduct<P>) is evaluated at the 2^(m-7) points
// beta_127 + W_(m-7) of GF(2^128) (Cantor basis); the Frobenius orbits of these points are
// disjoint and have 128 elements, so these values determine c. Transform = novel-basis
// conversion (bit operations) + encoding of 128 bits per field element (GFNI bit-matrix
// products) + additive FFT (VPCLMULQDQ). Layout of a transform: 2^(m-7) field elements, each two
// little-endian 64-bit words, point index order. Algorithm, tables and numbers: docs/FAFFT.md.
//
// Everything is constant time: loop bounds and addresses depend only on the parameter set.
// Defined in fafft.cpp (compiled with the avx512 flags); nothing here is inline code.
#pragma once

#include <cstddef>
#include <cstdint>

namespace hqc::backend::avx512::fafft {

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
// uint64 words of one transform (buffers must be 64-byte aligned).
template <class P>
inline constexpr std::size_t kTransformWords = std::size_t{2} << kLogPoints<P>;

// t = transform of the ring element a (kNWordsPadded words, bits >= n zero).
template <class P>
void forward(std::uint64_t* t, const std::uint64_t* a);
// out = a*b mod x^n - 1 from the transforms of a and b.
template <class P>
void mul_transformed(std::uint64_t* out, const std::uint64_t* ta, const std::uint64_t* tb);
// out = a*b mod x^n - 1 from the transform of a and the ring element b.
template <class P>
void mul_transformed_plain(std::uint64_t* out, const std::uint64_t* ta, const std::uint64_t* b);
// out1 = a1*b, out2 = a2*b from the transforms of a1 and a2 and the ring element b (transformed
// once): encryption's h*r2, s*r2 with cached h, s.
template <class P>
void mul2_transformed_plain(std::uint64_t* out1, std::uint64_t* out2, const std::uint64_t* ta1,
                            const std::uint64_t* ta2, const std::uint64_t* b);
// out = a*b mod x^n - 1 (same contract as avx512::mul<P>).
template <class P>
void mul(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b);
// out1 = a1*b, out2 = a2*b (b transformed once).
template <class P>
void mul2(std::uint64_t* out1, std::uint64_t* out2, const std::uint64_t* a1, const std::uint64_t* a2,
          const std::uint64_t* b);

}  // namespace hqc::backend::avx512::fafft
