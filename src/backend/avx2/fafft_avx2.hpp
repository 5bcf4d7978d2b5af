// Frobenius additive FFT (FAFFT) multiplier for GF(2)[x]/(x^n - 1) over GF(2^128), avx2 backend:
// the port of the avx512 backend's first FAFFT to CPUs with AVX2 + VPCLMULQDQ (256-bit) + GFNI
// (VEX, 256-bit) + BMI2 and no AVX-512 (docs/AVX2.md, docs/FAFFT.md), with the tables of
// backend/fafft/tables.hpp. (The avx512 FAFFT now works over GF(2^32); the two transforms are
// different words of the same size, each used only by its own kernel table.)
//
// Layout of a transform: 2^(m-7) GF(2^128) elements (m = kLogProduct<P>), each two little-endian
// 64-bit words, point index order (docs/FAFFT.md). Constant time: loop bounds and addresses depend
// only on the parameter set. Defined in fafft_avx2.cpp (instructions enabled there by a target
// pragma); nothing here is inline code. A caller must check that the CPU has AVX2, VPCLMULQDQ,
// GFNI and BMI2 (e.g. backend::is_supported() on the avx2-vpclmul-gfni row).
#pragma once

#include <cstddef>
#include <cstdint>

#include "backend/fafft/plan.hpp"

namespace hqc::backend::avx2::fafft {

// The sizes of backend/fafft/plan.hpp (shared with the other implementation), with points of
// 128 bits.
using backend::fafft::kLogProduct;
using backend::fafft::kTransformWords;
using backend::fafft::log_product_bits;
template <class P>
inline constexpr unsigned kLogPoints = kLogProduct<P> - 7;
static_assert(kTransformWords<Hqc5> == std::size_t{2} << kLogPoints<Hqc5>,
              "two words per point must make the contract's transform size");

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
