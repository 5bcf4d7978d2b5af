// Frobenius additive FFT (FAFFT) multiplier for GF(2)[x]/(x^n - 1), avx512 backend.
//
// A product c = a*b (deg c < 2^m, m = kLogProduct<P>) is evaluated at the 2^(m-5) points
// beta_31 + W_(m-5) of GF(2^32) (a tower over GFNI's GF(2^8); Cantor basis); the Frobenius orbits
// of these points are disjoint and have 32 elements, so these values determine c. Transform =
// novel-basis conversion (bit operations) + encoding of 32 bits per field element (GFNI
// bit-matrix products) + additive FFT (gf2p8mulb). Layout of a transform: 2^(m-5) field elements
// of one 32-bit word each, point j at dword point_dword(j). Algorithm and numbers: docs/FAFFT.md.
//
// Everything is constant time: loop bounds and addresses depend only on the parameter set.
// Defined in fafft.cpp (compiled with the avx512 flags); nothing here is inline code.
#pragma once

#include <cstddef>
#include <cstdint>

#include "backend/fafft/plan.hpp"

namespace hqc::backend::avx512::fafft {

// The sizes of backend/fafft/plan.hpp (the transform has the contract's size, as in the avx2
// port), with points of 32 bits.
using backend::fafft::kLogProduct;
using backend::fafft::kTransformWords;
using backend::fafft::log_product_bits;
template <class P>
inline constexpr unsigned kLogPoints = kLogProduct<P> - 5;
static_assert(kTransformWords<Hqc5> * 64 == (std::size_t{32} << kLogPoints<Hqc5>));
// The dword of a transform that holds point j: within each group of 256 points, point 16 r + l
// is at dword 16 l + r (the FFT's last pass works on the transposed group; fafft.cpp).
constexpr std::size_t point_dword(std::size_t j) { return (j & ~std::size_t{255}) | ((j & 15) << 4) | ((j >> 4) & 15); }

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
