// Reed-Solomon decoding with GFNI (spec §5.6), the same algorithm as the portable decoder step
// for step (so every output byte matches, also beyond the correction capacity).
//
// Field representation. GFNI multiplies (gf2p8mulb) in the AES field GF(2)[x]/(0x11B); HQC's
// field is GF(2)[x]/(0x11D). Both are GF(2^8): phi(alpha^i) = beta^i, with beta a root of 0x11D's
// polynomial in the AES field, is a field isomorphism and GF(2)-linear, so it is one
// gf2p8affineqb with an 8x8 bit matrix. The received word is mapped once, the whole decoder runs
// in the AES representation (secret x secret products: gf2p8mulb; inverses: gf2p8affineinvqb
// with the identity matrix, which maps 0 to 0 like the portable a^254), and the error values are
// mapped back. Public constants (powers of alpha at public exponents) are precomputed in the AES
// representation at compile time.
//
// Vector layout: syndromes and Omega in one zmm (2 delta <= 58 lanes); sigma, the Berlekamp
// auxiliary polynomial and the Chien/Forney evaluations in one ymm. Only the k message positions
// j = 2 delta .. n1-1 are evaluated (the decoder outputs only those): Chien search tests up to 32
// candidates per instruction here, all of them at once (64 per zmm instruction for the syndrome
// and Omega products).
#include <immintrin.h>

#include <array>
#include <cstring>

#include "backend/avx512/kernels.hpp"
#include "backend/avx512/simd.hpp"

namespace hqc::backend::avx512 {

namespace {

using u8 = std::uint8_t;
using u64 = std::uint64_t;

constexpr unsigned gf_mul_poly(unsigned a, unsigned b, unsigned poly) {
  unsigned r = 0;
  for (unsigned i = 0; i < 8; i++)
    if ((b >> i) & 1u) r ^= a << i;
  for (unsigned i = 15; i >= 8; i--)
    if ((r >> i) & 1u) r ^= poly << (i - 8);
  return r;
}

struct FieldMaps {
  u8 exp11d[255];   // alpha^i in HQC's field
  u8 phi_exp[255];  // phi(alpha^i) = beta^i in the AES field
  u64 phi;          // gf2p8affineqb matrix of phi
  u64 phi_inv;      // and of its inverse
};

constexpr u64 matrix_from_images(const u8 images[8]) {
  // Output bit i = parity(row_i & x); row_i sits in byte 7 - i of the matrix.
  u64 m = 0;
  for (unsigned i = 0; i < 8; i++) {
    unsigned row = 0;
    for (unsigned k = 0; k < 8; k++) row |= ((images[k] >> i) & 1u) << k;
    m |= static_cast<u64>(row) << (8 * (7 - i));
  }
  return m;
}

constexpr FieldMaps make_maps() {
  FieldMaps f{};
  unsigned x = 1;
  for (u8& e : f.exp11d) {  // alpha^i, i = 0..254
    e = static_cast<u8>(x);
    x = gf_mul_poly(x, 2, 0x11D);
  }
  // beta: the first root of x^8 + x^4 + x^3 + x^2 + 1 in the AES field.
  unsigned beta = 0;
  for (unsigned b = 2; b < 256 && beta == 0; b++) {
    unsigned p = 1, v = 1;  // v = b^k
    for (unsigned k = 1; k <= 8; k++) {
      v = gf_mul_poly(v, b, 0x11B);
      if (k == 2 || k == 3 || k == 4 || k == 8) p ^= v;
    }
    if (p == 0) beta = b;
  }
  unsigned y = 1;
  for (u8& e : f.phi_exp) {  // beta^i
    e = static_cast<u8>(y);
    y = gf_mul_poly(y, beta, 0x11B);
  }
  u8 img[8] = {}, img_inv[8] = {};
  for (unsigned k = 0; k < 8; k++) img[k] = f.phi_exp[k];  // phi(x^k) = phi(alpha^k)
  for (unsigned k = 0; k < 8; k++)
    for (unsigned e = 0; e < 255; e++)
      if (f.phi_exp[e] == (1u << k)) img_inv[k] = f.exp11d[e];
  f.phi = matrix_from_images(img);
  f.phi_inv = matrix_from_images(img_inv);
  return f;
}
constexpr FieldMaps kMaps = make_maps();

constexpr u8 apply_matrix(u64 m, u8 x) {
  unsigned r = 0;
  for (unsigned i = 0; i < 8; i++) {
    unsigned row = static_cast<unsigned>(m >> (8 * (7 - i))) & 0xFFu, par = 0;
    for (unsigned k = 0; k < 8; k++) par ^= ((row & x) >> k) & 1u;
    r |= par << i;
  }
  return static_cast<u8>(r);
}
// The maps are mutually inverse, and phi(2 a) = phi(2) phi(a) for every a: with linearity and 2
// generating the multiplicative group, phi is a field isomorphism (checked at compile time).
constexpr bool check_maps() {
  for (unsigned a = 0; a < 256; a++) {
    const u8 pa = apply_matrix(kMaps.phi, static_cast<u8>(a));
    if (apply_matrix(kMaps.phi_inv, pa) != a) return false;
    if (apply_matrix(kMaps.phi, static_cast<u8>(gf_mul_poly(a, 2, 0x11D))) != gf_mul_poly(pa, kMaps.phi_exp[1], 0x11B))
      return false;
  }
  return true;
}
static_assert(check_maps());

template <class P>
struct RsTables {
  static constexpr std::size_t N1 = P::kN1, R = P::kRsParity, K = P::kK;
  alignas(64) u8 syn[N1][64];  // lane l < R: phi(alpha^((l+1) j))
  alignas(32) u8 eval[R][32];  // lane l < K: phi(alpha^(((255 - (R + l)) t) mod 255))
};

template <class P>
constexpr RsTables<P> make_tables() {
  RsTables<P> t{};
  for (std::size_t j = 0; j < P::kN1; j++)
    for (std::size_t l = 0; l < P::kRsParity; l++) t.syn[j][l] = kMaps.phi_exp[((l + 1) * j) % 255];
  for (std::size_t r = 0; r < P::kRsParity; r++)
    for (std::size_t l = 0; l < P::kK; l++) t.eval[r][l] = kMaps.phi_exp[((255 - (P::kRsParity + l)) * r) % 255];
  return t;
}

inline u64 barrier64(u64 x) {
#ifndef HQC_AVX512_MSAN  // MemorySanitizer treats asm outputs as defined: skip it there
  __asm__("" : "+r"(x));
#endif
  return x;
}
inline u64 mask_nonzero64(u64 x) { return barrier64(0 - ((x | (0 - x)) >> 63)); }
inline u64 mask_lt64(u64 a, u64 b) { return barrier64(0 - ((a - b) >> 63)); }

constexpr long long kIdentity = 0x0102040810204080LL;

inline __m256i gf_inv256(__m256i x) { return _mm256_gf2p8affineinv_epi64_epi8(x, _mm256_set1_epi64x(kIdentity), 0); }

// XOR of all 32 bytes, in every byte.
inline __m256i xor_all_bytes(__m256i x) {
  x = _mm256_xor_si256(x, _mm256_maskz_shuffle_i64x2(0xFF, x, x, 1));
  x = _mm256_xor_si256(x, _mm256_maskz_shuffle_epi32(0xFF, x, static_cast<_MM_PERM_ENUM>(0x4E)));
  x = _mm256_xor_si256(x, _mm256_maskz_shuffle_epi32(0xFF, x, static_cast<_MM_PERM_ENUM>(0xB1)));
  x = _mm256_xor_si256(x, _mm256_maskz_rol_epi32(0xFF, x, 16));
  x = _mm256_xor_si256(x,
                       _mm256_or_si256(_mm256_maskz_slli_epi16(0xFFFF, x, 8), _mm256_maskz_srli_epi16(0xFFFF, x, 8)));
  return x;
}

}  // namespace

template <class P>
void rs_decode(std::uint8_t* msg, const std::uint8_t* cw) {
  constexpr std::size_t N1 = P::kN1, D = P::kDelta, R = P::kRsParity, K = P::kK;
  static_assert(R <= 64 && K <= 32 && D + 1 <= 32);
  static constexpr RsTables<P> kT = make_tables<P>();
  const __m512i phi = _mm512_set1_epi64(static_cast<long long>(kMaps.phi));

  struct State {
    alignas(64) u8 r[128];        // received word, AES representation
    alignas(64) u8 syn[64 + 64];  // [64 zeros][S_1 .. S_R, zeros]
    alignas(64) u8 rev[R + 96];   // rev[x] = S_(R+32-x) (1-based), zero outside
    alignas(32) u8 sg[32];        // sigma
    alignas(64) u8 om[64];        // Omega
  };
  State s;
  std::memset(&s, 0, sizeof(s));

  // 0. phi(received word).
  for (std::size_t c = 0; c < N1; c += 64) {
    const std::size_t rem = N1 - c;
    const __mmask64 m = rem >= 64 ? ~__mmask64{0} : (__mmask64{1} << rem) - 1;
    _mm512_store_si512(s.r + c, _mm512_gf2p8affine_epi64_epi8(_mm512_maskz_loadu_epi8(m, cw + c), phi, 0));
  }

  // 1. Syndromes: S = sum_j r_j * (alpha^(ij))_i, one broadcast coefficient per received symbol.
  __m512i syn = _mm512_setzero_si512();
  for (std::size_t j = 0; j < N1; j++)
    syn = _mm512_xor_si512(
        syn, _mm512_gf2p8mul_epi8(_mm512_set1_epi8(static_cast<char>(s.r[j])), _mm512_load_si512(kT.syn[j])));
  _mm512_store_si512(s.syn + 64, syn);
  for (std::size_t x = 0; x < R + 96; x++) {
    const std::size_t idx = R + 32 - x;  // S_idx, stored at syn[64 + idx - 1]
    s.rev[x] = (x <= R + 32 && idx >= 1 && idx <= R) ? s.syn[64 + idx - 1] : 0;
  }

  // 2. Berlekamp, 2 delta fixed iterations, every data-dependent choice a mask.
  __m256i sigma = _mm256_maskz_set1_epi8(1u, 1);
  __m256i pp = _mm256_maskz_set1_epi8(2u, 1);
  const __m256i one = _mm256_set1_epi8(1);
  u64 L = 0, Lp = 0;
  std::int64_t rho = -1;
  __m256i d_rho = one;
  __m256i d = _mm256_set1_epi8(static_cast<char>(s.syn[64]));
  u64 d_scalar = s.syn[64];
  const __mmask32 keep_pp = static_cast<__mmask32>(((2u << D) - 1u) & ~1u);  // lanes 1..D
  const __m256i shift_up = _mm256_set_epi8(30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12,
                                           11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0);  // lane i <- lane i-1
  for (std::size_t mu = 0; mu < R; mu++) {
    const __m256i sigma_old = sigma;
    const u64 L_old = L;
    const std::size_t top = (mu + 1 < D) ? mu + 1 : D;
    const __m256i coef = _mm256_gf2p8mul_epi8(d, gf_inv256(d_rho));
    const __mmask32 upd = static_cast<__mmask32>(((2u << top) - 1u) & ~1u);  // lanes 1..top
    sigma = _mm256_mask_xor_epi64(sigma, 0xF, sigma, _mm256_maskz_mov_epi8(upd, _mm256_gf2p8mul_epi8(coef, pp)));
    const u64 cand = static_cast<u64>(static_cast<std::int64_t>(mu) - rho) + Lp;
    const u64 grow = mask_nonzero64(d_scalar) & mask_lt64(L, cand);
    L = (cand & grow) | (L & ~grow);
    if (mu == R - 1) break;  // public loop index
    const __mmask32 g32 = static_cast<__mmask32>(grow);
    rho = static_cast<std::int64_t>((static_cast<u64>(mu) & grow) | (static_cast<u64>(rho) & ~grow));
    d_rho = _mm256_mask_mov_epi8(d_rho, g32, d);
    pp = _mm256_maskz_permutexvar_epi8(keep_pp, shift_up, _mm256_mask_mov_epi8(pp, g32, sigma_old));
    Lp = (L_old & grow) | (Lp & ~grow);
    // d = sum_{i=0..top} sigma_i S_(mu+2-i) (1-based S; sigma_0 = 1): lane i of the window.
    const __m256i win = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s.rev + R + 30 - mu));
    d = xor_all_bytes(_mm256_maskz_gf2p8mul_epi8(static_cast<__mmask32>((2u << top) - 1u), sigma, win));
    d_scalar = static_cast<u64>(static_cast<std::uint32_t>(_mm256_cvtsi256_si32(d)) & 0xFFu);
  }
  _mm256_store_si256(reinterpret_cast<__m256i*>(s.sg), sigma);

  // 3. Omega(x) = S(x) sigma(x) mod x^(2 delta), lanes t < 2 delta.
  __m512i om = _mm512_setzero_si512();
  for (std::size_t i = 0; i <= D; i++)
    om = _mm512_xor_si512(
        om, _mm512_gf2p8mul_epi8(_mm512_set1_epi8(static_cast<char>(s.sg[i])), _mm512_loadu_si512(s.syn + 64 - i)));
  const __mmask64 rmask = R >= 64 ? ~__mmask64{0} : (__mmask64{1} << R) - 1;
  _mm512_store_si512(s.om, _mm512_maskz_mov_epi8(rmask, om));

  // 4. Chien search and Forney values at the message positions j = R + l, all lanes at once.
  __m256i chien = _mm256_setzero_si256(), omx = _mm256_setzero_si256(), der = _mm256_setzero_si256();
  for (std::size_t i = 0; i <= D; i++) {
    const __m256i e = _mm256_load_si256(reinterpret_cast<const __m256i*>(kT.eval[i]));
    chien = _mm256_xor_si256(chien, _mm256_gf2p8mul_epi8(_mm256_set1_epi8(static_cast<char>(s.sg[i])), e));
  }
  for (std::size_t i = 1; i <= D; i += 2) {
    const __m256i e = _mm256_load_si256(reinterpret_cast<const __m256i*>(kT.eval[i - 1]));
    der = _mm256_xor_si256(der, _mm256_gf2p8mul_epi8(_mm256_set1_epi8(static_cast<char>(s.sg[i])), e));
  }
  for (std::size_t t = 0; t < R; t++) {
    const __m256i e = _mm256_load_si256(reinterpret_cast<const __m256i*>(kT.eval[t]));
    omx = _mm256_xor_si256(omx, _mm256_gf2p8mul_epi8(_mm256_set1_epi8(static_cast<char>(s.om[t])), e));
  }
  const __mmask32 is_root = _mm256_cmpeq_epi8_mask(chien, _mm256_setzero_si256());
  const __m256i err = _mm256_maskz_gf2p8mul_epi8(is_root, omx, gf_inv256(der));
  const __m256i err_hqc =
      _mm256_gf2p8affine_epi64_epi8(err, _mm256_set1_epi64x(static_cast<long long>(kMaps.phi_inv)), 0);
  const __mmask32 kmask = K >= 32 ? ~__mmask32{0} : static_cast<__mmask32>((std::uint64_t{1} << K) - 1u);
  const __m256i recv = _mm256_maskz_loadu_epi8(kmask, cw + R);
  _mm256_mask_storeu_epi8(msg, kmask, _mm256_xor_si256(recv, err_hqc));
  wipe(&s, sizeof(s));
}

template void rs_decode<Hqc1>(std::uint8_t*, const std::uint8_t*);
template void rs_decode<Hqc3>(std::uint8_t*, const std::uint8_t*);
template void rs_decode<Hqc5>(std::uint8_t*, const std::uint8_t*);

namespace {

// The systematic encoder's rows (spec §5.2): the parity of msg is msg(x) x^(2 delta) mod g(x) =
// sum_i msg_i (x^(2 delta + i) mod g(x)); row i holds the coefficients of x^(2 delta + i) mod
// g(x), g(x) = prod_{l=1}^{2 delta} (x - alpha^l) (spec §1.5), in the AES representation (lanes
// >= 2 delta zero). Public constants, computed at compile time in HQC's field, then mapped.
template <class P>
struct RsEncodeRows {
  alignas(64) u8 row[P::kK][64];
};

template <class P>
constexpr RsEncodeRows<P> make_encode_rows() {
  constexpr std::size_t R = P::kRsParity;
  u8 g[R + 1] = {1};
  for (std::size_t l = 1; l <= R; l++) {
    const unsigned root = kMaps.exp11d[l];
    for (std::size_t j = l; j >= 1; j--) g[j] = static_cast<u8>(g[j - 1] ^ gf_mul_poly(g[j], root, 0x11D));
    g[0] = static_cast<u8>(gf_mul_poly(g[0], root, 0x11D));
  }
  RsEncodeRows<P> t{};
  u8 rem[R] = {};  // x^(2 delta) mod g = g - x^(2 delta) (characteristic 2)
  for (std::size_t j = 0; j < R; j++) rem[j] = g[j];
  for (std::size_t i = 0; i < P::kK; i++) {
    for (std::size_t j = 0; j < R; j++) t.row[i][j] = apply_matrix(kMaps.phi, rem[j]);
    const unsigned top = rem[R - 1];  // rem <- x rem mod g
    for (std::size_t j = R - 1; j >= 1; j--) rem[j] = static_cast<u8>(rem[j - 1] ^ gf_mul_poly(top, g[j], 0x11D));
    rem[0] = static_cast<u8>(gf_mul_poly(top, g[0], 0x11D));
  }
  return t;
}

}  // namespace

// Systematic RS encoding (spec §5.2): k products of a broadcast message symbol with a constant row
// (gf2p8mulb in the AES representation, the symbols mapped in and the parity out by
// gf2p8affineqb), four independent accumulators. No data-dependent branch or address; the same
// bytes as the portable shift register for every message.
template <class P>
void rs_encode(std::uint8_t* cw, const std::uint8_t* msg) {
  constexpr std::size_t R = P::kRsParity, K = P::kK;
  static_assert(R <= 64 && K <= 32 && K % 4 == 0);
  static constexpr RsEncodeRows<P> kT = make_encode_rows<P>();
  constexpr __mmask32 kmask = K == 32 ? ~__mmask32{0} : (__mmask32{1} << K) - 1;
  alignas(32) u8 m[32];
  _mm256_store_si256(reinterpret_cast<__m256i*>(m),
                     _mm256_gf2p8affine_epi64_epi8(_mm256_maskz_loadu_epi8(kmask, msg),
                                                   _mm256_set1_epi64x(static_cast<long long>(kMaps.phi)), 0));
  __m512i acc[4] = {_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512()};
  for (std::size_t i = 0; i < K; i++)
    acc[i % 4] = _mm512_xor_si512(
        acc[i % 4], _mm512_gf2p8mul_epi8(_mm512_set1_epi8(static_cast<char>(m[i])), _mm512_load_si512(kT.row[i])));
  const __m512i par = _mm512_gf2p8affine_epi64_epi8(xor3_512(acc[0], acc[1], _mm512_xor_si512(acc[2], acc[3])),
                                                    _mm512_set1_epi64(static_cast<long long>(kMaps.phi_inv)), 0);
  constexpr __mmask64 rmask = R == 64 ? ~__mmask64{0} : (__mmask64{1} << R) - 1;
  _mm512_mask_storeu_epi8(cw, rmask, par);
  _mm256_mask_storeu_epi8(cw + R, kmask, _mm256_maskz_loadu_epi8(kmask, msg));
  wipe(m, sizeof(m));
}

template void rs_encode<Hqc1>(std::uint8_t*, const std::uint8_t*);
template void rs_encode<Hqc3>(std::uint8_t*, const std::uint8_t*);
template void rs_encode<Hqc5>(std::uint8_t*, const std::uint8_t*);

}  // namespace hqc::backend::avx512
