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

#include "backend/fafft/plan.hpp"

namespace hqc::backend::avx512::fafft {

// The sizes are those of backend/fafft/plan.hpp (shared with the other implementation).
using backend::fafft::kLogPoints;
using backend::fafft::kLogProduct;
using backend::fafft::kTransformWords;
using backend::fafft::log_product_bits;

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
