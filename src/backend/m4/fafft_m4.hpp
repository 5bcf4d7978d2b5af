// The Frobenius additive FFT multiplier on the Cortex-M4 (fafft_m4.cpp): the algorithm of
// docs/FAFFT.md (novel-basis conversion, encoding of 32 bits per element of GF(2^32), additive FFT
// on the coset beta_31 + W_K, pointwise products, the inverse steps) with GF(2^32) in a polynomial
// basis, GF(2)[z]/(z^32 + z^7 + z^3 + z^2 + 1), so that a field product is the leaves' 32x32
// carry-less product from UMULL over four bit classes and a reduction of eleven shifted XORs (a
// product by a twiddle in the large layers: a bit-matrix product over 32 points' bit planes).
// A transform is 2^K elements, point j at word j (natural order): not interchangeable with the
// x86 ports' transforms (a key prepared by one kernel table is only multiplied by that table,
// pke/kept_transforms.hpp).
//
// The m4 row uses it where it is cheaper than the Toom/Karatsuba tree (docs/M4.md): the transforms
// that prepared key objects keep, at HQC-5 on the whole 2^17 bits (and mul and mul2 there), at
// HQC-1 and HQC-3 on half the bits with a Chinese remainder step (forward_crt etc. below; and
// mul2_crt there, mul_crt at HQC-3).
// Constant time: every loop bound, index and twiddle depends on the parameter set, the layer and
// the block (public) only.
#pragma once

#include <cstddef>
#include <cstdint>

#include "backend/ops.hpp"

namespace hqc::backend::m4::fafft {

// The FAFFT on the whole 2^m bits: t = the transform of a (backend::fafft::kTransformWords<P>
// words: 2^m bits, the contract's size at HQC-5 and larger than it at HQC-1 and HQC-3 on a device).
template <class P>
void forward(std::uint64_t* t, const std::uint64_t* a);
// out = a * b mod x^n - 1 from the transforms of a and b.
template <class P>
void mul_transformed(std::uint64_t* out, const std::uint64_t* ta, const std::uint64_t* tb);
// The same with b a ring element (transformed inside).
template <class P>
void mul_transformed_plain(std::uint64_t* out, const std::uint64_t* ta, const std::uint64_t* b);

// out = a * b (2 F + IP) and out1 = a1 * b, out2 = a2 * b with b transformed once (3 F + 2 IP), the
// sliced layers' table indices computed once for all the transforms: the m4 row's mul and mul2 at
// HQC-5, where they take fewer estimated cycles than the tree's products (docs/M4.md).
template <class P>
void mul(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b);
template <class P>
void mul2(std::uint64_t* out1, std::uint64_t* out2, const std::uint64_t* a1, const std::uint64_t* a2,
          const std::uint64_t* b);

// The same contract at HQC-1 and HQC-3 by a 2^(m-1)-bit transform and the Chinese remainder
// theorem (fafft_m4.cpp, CrtEntry): a transform holds the 2^(m-6) points and the operand's top
// 2n - 1 - 2^(m-1) bits (2,569 at HQC-1, 6,165 at HQC-3), the contract's backend::kTransformWords<P>
// words on a device build.
template <class P>
void forward_crt(std::uint64_t* t, const std::uint64_t* a);
template <class P>
void mul_transformed_crt(std::uint64_t* out, const std::uint64_t* ta, const std::uint64_t* tb);
template <class P>
void mul_transformed_plain_crt(std::uint64_t* out, const std::uint64_t* ta, const std::uint64_t* b);
// out = a * b in this form (2 F + IP): the m4 row's mul at HQC-3 (docs/M4.md).
template <class P>
void mul_crt(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b);
// out1 = a1 * b, out2 = a2 * b in this form, b transformed once (3 F + 2 IP): the m4 row's mul2 at
// HQC-1 and HQC-3 (docs/M4.md).
template <class P>
void mul2_crt(std::uint64_t* out1, std::uint64_t* out2, const std::uint64_t* a1, const std::uint64_t* a2,
              const std::uint64_t* b);

}  // namespace hqc::backend::m4::fafft
