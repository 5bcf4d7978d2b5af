// Reed-Solomon decoding (spec §5.6), GFNI variant (GFNI enabled by the target pragma below; reached
// only through the registry rows avx2-*-gfni, which require GFNI). GF2P8MULB multiplies in the AES field
// GF(2)[x]/(x^8+x^4+x^3+x+1), not in HQC's GF(2)[x]/(x^8+x^4+x^3+x^2+1). Both are GF(2^8), so
// phi: alpha -> beta, with beta a root of HQC's modulus in the AES field, is a field isomorphism
// and GF(2)-linear: one GF2P8AFFINEQB with phi's 8x8 bit matrix maps the received word in, every
// product inside the decoder is one GF2P8MULB, and phi^-1's matrix maps the corrected word out.
// The constant tables are mapped at compile time.
//
// GFNI is enabled by the pragma below for this file's own functions only (system and shared
// headers are included before it), so the file builds with the backend's plain -mavx2 flags
// wherever it is compiled.
#include <immintrin.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "backend/avx2/kernels.hpp"
#include "params/params.hpp"

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,pclmul,bmi2,gfni"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,pclmul,bmi2,gfni")
#endif

#include "backend/avx2/rs_impl.hpp"

namespace hqc::backend::avx2 {
namespace {

constexpr u8 aes_mul_ct(u8 a, u8 b) {
  unsigned r = 0;
  for (unsigned i = 0; i < 8; i++)
    if ((b >> i) & 1u) r ^= static_cast<unsigned>(a) << i;
  for (unsigned i = 14; i >= 8; i--)
    if ((r >> i) & 1u) r ^= 0x11Bu << (i - 8);
  return static_cast<u8>(r);
}

// The smallest beta in the AES field with beta^8 + beta^4 + beta^3 + beta^2 + 1 = 0.
constexpr u8 find_beta() {
  for (unsigned c = 2; c < 256; c++) {
    const u8 b = static_cast<u8>(c);
    u8 pw[9] = {1};
    for (int i = 1; i <= 8; i++) pw[i] = aes_mul_ct(pw[i - 1], b);
    if ((pw[8] ^ pw[4] ^ pw[3] ^ pw[2] ^ pw[0]) == 0) return b;
  }
  return 0;
}
constexpr u8 kBeta = find_beta();

// phi(sum a_k alpha^k) = sum a_k beta^k, as a table, and its inverse.
constexpr std::array<u8, 256> kPhi = [] {
  std::array<u8, 256> t{};
  u8 pw[8] = {1};
  for (int k = 1; k < 8; k++) pw[k] = aes_mul_ct(pw[k - 1], kBeta);
  for (unsigned x = 0; x < 256; x++) {
    u8 r = 0;
    for (int k = 0; k < 8; k++)
      if ((x >> k) & 1u) r ^= pw[k];
    t[x] = r;
  }
  return t;
}();
constexpr std::array<u8, 256> kPhiInv = [] {
  std::array<u8, 256> t{};
  for (unsigned x = 0; x < 256; x++) t[kPhi[x]] = static_cast<u8>(x);
  return t;
}();
constexpr u8 phi(u8 x) { return kPhi[x]; }
constexpr u8 phi_inv(u8 y) { return kPhiInv[y]; }

// GF2P8AFFINEQB matrix of a linear map f: output bit i = parity(row_i & x), row_i in byte 7 - i,
// bit k of row_i = bit i of f(1 << k).
template <class Fn>
constexpr std::uint64_t affine_matrix(Fn f) {
  std::uint64_t m = 0;
  for (int i = 0; i < 8; i++) {
    std::uint64_t row = 0;
    for (int k = 0; k < 8; k++) row |= static_cast<std::uint64_t>((f(static_cast<u8>(1u << k)) >> i) & 1u) << k;
    m |= row << (8 * (7 - i));
  }
  return m;
}
constexpr std::uint64_t kPhiMatrix = affine_matrix(phi);
constexpr std::uint64_t kPhiInvMatrix = affine_matrix(phi_inv);

// The isomorphism really is one: it maps HQC products to AES products and 1 to 1.
static_assert(kBeta != 0 && phi(1) == 1 && phi(2) == kBeta);
static_assert(phi(hqc_mul_ct(0x53, 0xCA)) == aes_mul_ct(phi(0x53), phi(0xCA)));
static_assert(phi(hqc_mul_ct(0xFF, 0x80)) == aes_mul_ct(phi(0xFF), phi(0x80)));
static_assert(phi_inv(phi(0x9E)) == 0x9E);
// phi is a bijection (so phi^-1 above is complete).
static_assert([] {
  for (unsigned x = 0; x < 256; x++)
    if (kPhiInv[kPhi[x]] != x) return false;
  return true;
}());

struct GfniField {
  static constexpr std::array<u8, 256> kMap = kPhi;
  static __m256i to(__m256i v) {
    return _mm256_gf2p8affine_epi64_epi8(v, _mm256_set1_epi64x(static_cast<long long>(kPhiMatrix)), 0);
  }
  static __m256i from(__m256i v) {
    return _mm256_gf2p8affine_epi64_epi8(v, _mm256_set1_epi64x(static_cast<long long>(kPhiInvMatrix)), 0);
  }
  struct Prep {
    __m256i s;
  };
  static Prep prep(__m256i s) { return Prep{s}; }
  static __m256i mul_s(__m256i v, const Prep& p) { return _mm256_gf2p8mul_epi8(v, p.s); }
  static __m256i mul(__m256i a, __m256i b) { return _mm256_gf2p8mul_epi8(a, b); }
};

}  // namespace

template <class P>
void rs_decode_gfni(std::uint8_t* msg, const std::uint8_t* cw) {
  rs_decode_impl<P, GfniField>(msg, cw);
}

template void rs_decode_gfni<Hqc1>(std::uint8_t*, const std::uint8_t*);
template void rs_decode_gfni<Hqc3>(std::uint8_t*, const std::uint8_t*);
template void rs_decode_gfni<Hqc5>(std::uint8_t*, const std::uint8_t*);

template <class P>
void rs_encode_gfni(std::uint8_t* cw, const std::uint8_t* msg) {
  rs_encode_impl<P, GfniField>(cw, msg);
}

template void rs_encode_gfni<Hqc1>(std::uint8_t*, const std::uint8_t*);
template void rs_encode_gfni<Hqc3>(std::uint8_t*, const std::uint8_t*);
template void rs_encode_gfni<Hqc5>(std::uint8_t*, const std::uint8_t*);

}  // namespace hqc::backend::avx2

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
