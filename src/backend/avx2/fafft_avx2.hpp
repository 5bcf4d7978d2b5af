// Frobenius additive FFT (FAFFT) multiplier for GF(2)[x]/(x^n - 1) over GF(2^32), avx2 backend:
// the algorithm of the avx512 backend's FAFFT (backend/avx512/fafft.hpp, docs/FAFFT.md) on 256-bit
// vectors, for CPUs with AVX2 + GFNI (VEX, 256-bit) + BMI2 and no AVX-512 (docs/AVX2.md).
//
// Layout of a transform: 2^(m-5) GF(2^32) elements (m = kLogProduct<P>), one dword each, point j
// at dword point_dword(j). The same values as the avx512 transform in another order, so a key
// prepared by one kernel table is only ever multiplied by that table (pke/kept_transforms.hpp).
// Constant time: loop bounds and addresses depend only on the parameter set. Defined in
// fafft_avx2.cpp (instructions enabled there by a target pragma); nothing here is inline code. A
// caller must check that the CPU has AVX2, GFNI and BMI2 (e.g. backend::is_supported() on a row
// that uses it).
#pragma once

#include <cstddef>
#include <cstdint>

#include "backend/fafft/plan.hpp"

namespace hqc::backend::avx2::fafft {

// The sizes of backend/fafft/plan.hpp (shared with the avx512 port), with points of 32 bits.
using backend::fafft::kLogProduct;
using backend::fafft::kTransformWords;
using backend::fafft::log_product_bits;
template <class P>
inline constexpr unsigned kLogPoints = kLogProduct<P> - 5;
static_assert(kTransformWords<Hqc5> * 64 == (std::size_t{32} << kLogPoints<Hqc5>));
// The dword of a transform that holds point j: within each group of 64 points, point 8 r + l is
// at dword 8 l + r (the FFT's last pass works on the transposed group; fafft_avx2.cpp).
constexpr std::size_t point_dword(std::size_t j) { return (j & ~std::size_t{63}) | ((j & 7) << 3) | ((j >> 3) & 7); }

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
// out = a*b mod x^n - 1 (same contract as avx2::mul_vpclmul<P>).
template <class P>
void mul(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b);
// out1 = a1*b, out2 = a2*b (b transformed once).
template <class P>
void mul2(std::uint64_t* out1, std::uint64_t* out2, const std::uint64_t* a1, const std::uint64_t* a2,
          const std::uint64_t* b);

}  // namespace hqc::backend::avx2::fafft
