// MemorySanitizer builds only (preset `msan`, force-included into every C++ translation unit):
// replaces the SIMD intrinsics that MSan (clang 14) does not model by scalar code with the same
// result. MSan checks every operand of an intrinsic it does not know (vpternlogq, gf2p8affineqb,
// gf2p8affineinvqb) as if it were a branch condition, so a secret operand is reported although
// the instruction is constant time (false positive, see tests/ct/ct_msan_probes.cpp). The scalar
// replacements use only AND/OR/XOR/NOT and shifts, which MSan propagates bit by bit, so a secret
// stays secret through them and a later branch on it is still reported. Nothing is replaced in
// any other build; ct_msan_probes_raw.cpp (HQC_MSAN_RAW_INTRINSICS) keeps the real instructions.
#pragma once

#if defined(__x86_64__)

#include <immintrin.h>

#include <cstdint>
#include <cstring>

namespace hqc_msan {

// vpternlogq: bit i of the result is bit (a_i << 2 | b_i << 1 | c_i) of imm.
template <class V>
inline V ternlog(V a, V b, V c, int imm) {
  constexpr int kLanes = sizeof(V) / 8;
  std::uint64_t x[kLanes], y[kLanes], z[kLanes], r[kLanes];
  std::memcpy(x, &a, sizeof(V));
  std::memcpy(y, &b, sizeof(V));
  std::memcpy(z, &c, sizeof(V));
  for (int l = 0; l < kLanes; l++) {
    std::uint64_t acc = 0;
    for (int k = 0; k < 8; k++) {
      if (((imm >> k) & 1) == 0) continue;  // imm is a compile-time constant of the kernel
      const std::uint64_t ta = (k & 4) ? x[l] : ~x[l];
      const std::uint64_t tb = (k & 2) ? y[l] : ~y[l];
      const std::uint64_t tc = (k & 1) ? z[l] : ~z[l];
      acc |= ta & tb & tc;
    }
    r[l] = acc;
  }
  V out;
  std::memcpy(&out, r, sizeof(V));
  return out;
}

inline std::uint8_t parity8(std::uint8_t v) {
  v = static_cast<std::uint8_t>(v ^ (v >> 4));
  v = static_cast<std::uint8_t>(v ^ (v >> 2));
  v = static_cast<std::uint8_t>(v ^ (v >> 1));
  return static_cast<std::uint8_t>(v & 1);
}

// GF(2^8) product modulo x^8 + x^4 + x^3 + x + 1 (the GFNI field), without branches.
inline std::uint8_t gf_mul_11b(std::uint8_t a, std::uint8_t b) {
  std::uint8_t r = 0;
  for (int i = 0; i < 8; i++) {
    r = static_cast<std::uint8_t>(r ^ (static_cast<std::uint8_t>(0 - ((b >> i) & 1)) & a));
    a = static_cast<std::uint8_t>((a << 1) ^ (static_cast<std::uint8_t>(0 - (a >> 7)) & 0x1B));
  }
  return r;
}
inline std::uint8_t gf_inv_11b(std::uint8_t a) {  // a^254, 0 -> 0
  std::uint8_t r = 1, p = a;
  for (int i = 0; i < 8; i++) {
    if (i > 0) r = gf_mul_11b(r, p);  // exponent bits of 254 = 0b11111110: every bit but bit 0
    p = gf_mul_11b(p, p);
  }
  return r;
}

// gf2p8affine(inv)qb: for each byte x of a 64-bit lane q, result bit i = parity(A_q.byte[7 - i]
// & x') ^ imm bit i, with x' = x (affine) or the inverse of x in GF(2^8)/0x11B (affineinv).
template <class V>
inline V gf2p8affine(V xv, V av, int imm, bool inverse) {
  constexpr int kBytes = sizeof(V);
  std::uint8_t x[kBytes], a[kBytes], r[kBytes];
  std::memcpy(x, &xv, sizeof(V));
  std::memcpy(a, &av, sizeof(V));
  for (int j = 0; j < kBytes; j++) {
    const int q = j / 8;
    const std::uint8_t in = inverse ? gf_inv_11b(x[j]) : x[j];
    std::uint8_t out = 0;
    for (int i = 0; i < 8; i++)
      out = static_cast<std::uint8_t>(
          out | ((parity8(static_cast<std::uint8_t>(a[8 * q + 7 - i] & in)) ^ ((imm >> i) & 1)) << i));
    r[j] = out;
  }
  V o;
  std::memcpy(&o, r, sizeof(V));
  return o;
}

}  // namespace hqc_msan

#if defined(__clang__) && defined(__has_feature)
#if __has_feature(memory_sanitizer) && defined(HQC_CT_MSAN) && !defined(HQC_MSAN_RAW_INTRINSICS)
#undef _mm512_ternarylogic_epi64
#define _mm512_ternarylogic_epi64(A, B, C, I) ::hqc_msan::ternlog<__m512i>((A), (B), (C), (I))
#undef _mm256_ternarylogic_epi64
#define _mm256_ternarylogic_epi64(A, B, C, I) ::hqc_msan::ternlog<__m256i>((A), (B), (C), (I))
#undef _mm_ternarylogic_epi64
#define _mm_ternarylogic_epi64(A, B, C, I) ::hqc_msan::ternlog<__m128i>((A), (B), (C), (I))
#undef _mm512_gf2p8affine_epi64_epi8
#define _mm512_gf2p8affine_epi64_epi8(X, A, I) ::hqc_msan::gf2p8affine<__m512i>((X), (A), (I), false)
#undef _mm256_gf2p8affine_epi64_epi8
#define _mm256_gf2p8affine_epi64_epi8(X, A, I) ::hqc_msan::gf2p8affine<__m256i>((X), (A), (I), false)
#undef _mm_gf2p8affine_epi64_epi8
#define _mm_gf2p8affine_epi64_epi8(X, A, I) ::hqc_msan::gf2p8affine<__m128i>((X), (A), (I), false)
#undef _mm512_gf2p8affineinv_epi64_epi8
#define _mm512_gf2p8affineinv_epi64_epi8(X, A, I) ::hqc_msan::gf2p8affine<__m512i>((X), (A), (I), true)
#undef _mm256_gf2p8affineinv_epi64_epi8
#define _mm256_gf2p8affineinv_epi64_epi8(X, A, I) ::hqc_msan::gf2p8affine<__m256i>((X), (A), (I), true)
#undef _mm_gf2p8affineinv_epi64_epi8
#define _mm_gf2p8affineinv_epi64_epi8(X, A, I) ::hqc_msan::gf2p8affine<__m128i>((X), (A), (I), true)

#endif
#endif
#endif
