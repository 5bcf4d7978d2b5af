// Frobenius additive FFT multiplier over GF(2^32) (see fafft.hpp and docs/FAFFT.md).
//
// Field GF(2^32) = GF(2^8)[y]/(y^4 + y^3 + y^2 + 6) over the field of GFNI's gf2p8mulb, one element
// per dword, sixteen per zmm (backend/fafft/field32.hpp). A product by a constant is four
// gf2p8mulb by its diagonals on the element rotated by 0, 8, 16 and 24 bits; a general product
// is four gf2p8mulb of the first operand's bytes by the second times 1, y, y^2, y^3. Cantor basis
// beta_i (beta_0 = 1, beta_i^2 + beta_i = beta_(i-1)), subspace polynomials s_i with
// s_i(beta_j) = beta_(j-i), novel basis X_j = prod_(bit i of j) s_i.
//
// Transform of a binary polynomial f, deg f < 2^m, K = m - 5:
//  1. novel-basis conversion (over GF(2), recursive Taylor expansions at x^(2^T) + x);
//  2. encoding: with i = t*2^K + j, G_j = sum_t c_i E_t, E_t = X_t(s_K(beta_31)) (a fixed
//     invertible 32x32 bit matrix, applied with GFNI 8x8 bit-matrix products);
//  3. additive FFT of g = sum_j G_j X_j on the coset beta_31 + W_K (Lin-Chung-Han butterflies,
//     twiddles s_i(offset)).
// The result is f at the 2^K points; their Frobenius orbits are disjoint, of size 32, so the
// transform is a bijection on 2^m bits and the product is its inverse of the pointwise product.
//
// Constant time: no branch, loop bound or address depends on data (only on m); the GF(2)
// arithmetic is bit-parallel, the field arithmetic is gf2p8mulb, rotations and fixed shuffles,
// and the twiddles are read at public indices.
#include "backend/avx512/fafft.hpp"

#include <immintrin.h>

#include <cstring>
#include <type_traits>
#include <utility>

#include "backend/avx512/kernels.hpp"
#include "backend/avx512/simd.hpp"
#include "backend/fafft/conversion_passes.hpp"
#include "backend/fafft/entry_points.hpp"
#include "backend/fafft/fft_passes.hpp"
#include "backend/fafft/field32.hpp"
#include "params/params.hpp"

namespace hqc::backend::avx512::fafft {
namespace {

using u64 = std::uint64_t;
using u32 = std::uint32_t;
namespace field = ::hqc::backend::fafft::field32;

[[gnu::always_inline]] inline __m512i ld(const void* p) { return _mm512_load_si512(p); }
[[gnu::always_inline]] inline void st(void* p, __m512i v) { _mm512_store_si512(p, v); }
inline __m512i srl(__m512i x, __m128i c) { return _mm512_maskz_srl_epi64(0xFF, x, c); }
inline __m512i sll(__m512i x, __m128i c) { return _mm512_maskz_sll_epi64(0xFF, x, c); }
[[gnu::always_inline]] inline __m512i xor3(__m512i a, __m512i b, __m512i c) { return xor3_512(a, b, c); }
// a ^ (b & c); plain vector ops under MemorySanitizer (see simd.hpp).
inline __m512i xor_and(__m512i a, __m512i b, __m512i c) {
#ifdef HQC_AVX512_MSAN
  return _mm512_xor_si512(a, _mm512_and_si512(b, c));
#else
  return _mm512_ternarylogic_epi64(a, b, c, 0x78);
#endif
}
[[gnu::always_inline]] inline __m512i gmul(__m512i a, __m512i b) { return _mm512_gf2p8mul_epi8(a, b); }
// Zero-masked forms with full masks (same instructions): g++ 12 warns on the unmasked ones.
template <int N>
[[gnu::always_inline]] inline __m512i rotl_dwords(__m512i x) {
  return _mm512_maskz_rol_epi32(0xFFFF, x, N);
}
inline __m512i perm8(__m512i idx, __m512i x) { return _mm512_maskz_permutexvar_epi8(~__mmask64{0}, idx, x); }
[[gnu::always_inline]] inline __m512i affine(__m512i x, __m512i a) { return _mm512_gf2p8affine_epi64_epi8(x, a, 0); }
[[gnu::always_inline]] inline __m512i bcast32(u32 v) { return _mm512_set1_epi32(static_cast<int>(v)); }

using backend::fafft::static_for;

// pshufb indices that rotate each dword left by 8 R bits: byte j takes byte j - R of its dword.
template <int R>
[[gnu::always_inline]] inline __m512i rotl_bytes_index() {
  constexpr u32 lo = static_cast<u32>((0 - R) & 3) | (static_cast<u32>((1 - R) & 3) << 8) |
                     (static_cast<u32>((2 - R) & 3) << 16) | (static_cast<u32>((3 - R) & 3) << 24);
  return _mm512_set_epi32(0x0C0C0C0C + lo, 0x08080808 + lo, 0x04040404 + lo, lo, 0x0C0C0C0C + lo, 0x08080808 + lo,
                          0x04040404 + lo, lo, 0x0C0C0C0C + lo, 0x08080808 + lo, 0x04040404 + lo, lo, 0x0C0C0C0C + lo,
                          0x08080808 + lo, 0x04040404 + lo, lo);
}

// ---- GF(2^32) arithmetic, sixteen elements per zmm --------------------------------------------

// General products of sixteen pairs: a * b = sum_k a_k (b y^k), where b y is b rotated by 8 bits plus
// b's top byte times (1 + q0, q1, q2, q3) (y^4 = q3 y^3 + q2 y^2 + q1 y + q0; the 1 removes the
// top byte that the rotation moved to byte 0).
[[gnu::always_inline]] inline __m512i field_mul(__m512i a, __m512i b) {
  constexpr u32 kFix = (1u ^ field::kModulus[0]) | (u32{field::kModulus[1]} << 8) | (u32{field::kModulus[2]} << 16) |
                       (u32{field::kModulus[3]} << 24);
  // pshufb indices: byte k of each dword, repeated over the dword's four bytes.
  const __m512i dword_base =
      _mm512_set_epi32(0x0C0C0C0C, 0x08080808, 0x04040404, 0, 0x0C0C0C0C, 0x08080808, 0x04040404, 0, 0x0C0C0C0C,
                       0x08080808, 0x04040404, 0, 0x0C0C0C0C, 0x08080808, 0x04040404, 0);
  const __m512i s0 = dword_base, s1 = _mm512_add_epi8(dword_base, _mm512_set1_epi8(1)),
                s2 = _mm512_add_epi8(dword_base, _mm512_set1_epi8(2)),
                s3 = _mm512_add_epi8(dword_base, _mm512_set1_epi8(3));
  const __m512i q = bcast32(kFix);
  const __m512i b1 = _mm512_xor_si512(rotl_dwords<8>(b), gmul(_mm512_shuffle_epi8(b, s3), q));
  const __m512i b2 = _mm512_xor_si512(rotl_dwords<8>(b1), gmul(_mm512_shuffle_epi8(b1, s3), q));
  const __m512i b3 = _mm512_xor_si512(rotl_dwords<8>(b2), gmul(_mm512_shuffle_epi8(b2, s3), q));
  return xor3(_mm512_xor_si512(gmul(_mm512_shuffle_epi8(a, s0), b), gmul(_mm512_shuffle_epi8(a, s1), b1)),
              gmul(_mm512_shuffle_epi8(a, s2), b2), gmul(_mm512_shuffle_epi8(a, s3), b3));
}

// ---- Additive FFT on beta_31 + W_K (backend/fafft/fft_passes.hpp) ------------------------------
//
// Sixteen elements per zmm, so groups of 256 elements: layers K-1 .. 8 in one pass over memory on
// groups of 16 (HQC-1: 8) zmm 256 elements apart, then layers 7 .. 0 of each group in 16 zmm with
// a 16 x 16 dword transpose between layers 4 and 3 (point_dword in fafft.hpp).

// 16 x 16 dword transpose (z[l] lane r <- z[r] lane l): dword and qword unpacks make 4 x 4
// blocks inside each 128-bit lane, two rounds of 128-bit lane shuffles move the blocks.
[[gnu::always_inline]] inline void transpose16x16(__m512i* z) {
  __m512i t[16], u[16];
  static_for<8>([&](auto k) __attribute__((always_inline)) {
    t[2 * k] = _mm512_maskz_unpacklo_epi32(0xFFFF, z[2 * k], z[2 * k + 1]);
    t[2 * k + 1] = _mm512_maskz_unpackhi_epi32(0xFFFF, z[2 * k], z[2 * k + 1]);
  });
  static_for<4>([&](auto k) __attribute__((always_inline)) {  // u[4k+m]: rows 4k..4k+3, column 4L+m
    u[4 * k] = _mm512_maskz_unpacklo_epi64(0xFF, t[4 * k], t[4 * k + 2]);
    u[4 * k + 1] = _mm512_maskz_unpackhi_epi64(0xFF, t[4 * k], t[4 * k + 2]);
    u[4 * k + 2] = _mm512_maskz_unpacklo_epi64(0xFF, t[4 * k + 1], t[4 * k + 3]);
    u[4 * k + 3] = _mm512_maskz_unpackhi_epi64(0xFF, t[4 * k + 1], t[4 * k + 3]);
  });
  static_for<4>([&](auto m) __attribute__((always_inline)) {
    const __m512i w0 = _mm512_maskz_shuffle_i32x4(0xFFFF, u[m], u[4 + m], 0x88);
    const __m512i w1 = _mm512_maskz_shuffle_i32x4(0xFFFF, u[m], u[4 + m], 0xDD);
    const __m512i w2 = _mm512_maskz_shuffle_i32x4(0xFFFF, u[8 + m], u[12 + m], 0x88);
    const __m512i w3 = _mm512_maskz_shuffle_i32x4(0xFFFF, u[8 + m], u[12 + m], 0xDD);
    z[m] = _mm512_maskz_shuffle_i32x4(0xFFFF, w0, w2, 0x88);
    z[8 + m] = _mm512_maskz_shuffle_i32x4(0xFFFF, w0, w2, 0xDD);
    z[4 + m] = _mm512_maskz_shuffle_i32x4(0xFFFF, w1, w3, 0x88);
    z[12 + m] = _mm512_maskz_shuffle_i32x4(0xFFFF, w1, w3, 0xDD);
  });
}

// The zmm operations of the shared FFT.
struct ZmmField {
  using Vec = __m512i;
  static constexpr unsigned kLogLanes = 4;
  static constexpr unsigned kMaxPassLayers = 4;
  [[gnu::always_inline]] static Vec load(const u32* p) { return ld(p); }
  [[gnu::always_inline]] static void store(u32* p, Vec v) { st(p, v); }
  [[gnu::always_inline]] static Vec bxor(Vec a, Vec b) { return _mm512_xor_si512(a, b); }
  [[gnu::always_inline]] static Vec bxor3(Vec a, Vec b, Vec c) { return xor3(a, b, c); }
  [[gnu::always_inline]] static Vec gmul(Vec a, Vec b) { return fafft::gmul(a, b); }
  // A byte shuffle, not vprold: zmm vprold takes the pipe that vgf2p8mulb needs (measured on Zen 4),
  // vpshufb issues beside it (docs/FAFFT.md, "Limits").
  template <int R>
  [[gnu::always_inline]] static Vec rotl_bytes(Vec x) {
    return _mm512_shuffle_epi8(x, rotl_bytes_index<R>());
  }
  [[gnu::always_inline]] static Vec bcast(u32 v) { return bcast32(v); }
  [[gnu::always_inline]] static Vec mul(Vec a, Vec b) { return field_mul(a, b); }
  [[gnu::always_inline]] static void transpose(Vec* z) { transpose16x16(z); }
};
using Fft = backend::fafft::FftPasses<ZmmField>;

// ---- Novel-basis conversion over GF(2) ---------------------------------------------------------
//
// The steps (convert(L, G), the Taylor expansions at s_T), their plan of register and memory
// passes (backend/fafft/plan.hpp) and the passes' code (backend/fafft/conversion_passes.hpp) are
// shared with the avx2 port; here are the zmm forms of its vector operations.

// w[dst .. dst+len) ^= w[src .. src+len) (bit ranges, src > dst, disjoint), eight destination
// words at a time; w has 8 words of readable padding past the source range. All arguments public.
void xor_range(u64* w, std::size_t dst, std::size_t src, std::size_t len) {
  if ((dst | src | len) % 64 == 0) {  // whole words (public sizes)
    u64* d = w + dst / 64;
    const u64* sp = w + src / 64;
    const std::size_t nw = len / 64;
    std::size_t i = 0;
    for (; i + 8 <= nw; i += 8)
      _mm512_storeu_si512(d + i, _mm512_xor_si512(_mm512_loadu_si512(d + i), _mm512_loadu_si512(sp + i)));
    if (i < nw) {
      const __mmask8 k = static_cast<__mmask8>((1u << (nw - i)) - 1);
      _mm512_mask_storeu_epi64(
          d + i, k, _mm512_xor_si512(_mm512_maskz_loadu_epi64(k, d + i), _mm512_maskz_loadu_epi64(k, sp + i)));
    }
    return;
  }
  const std::size_t delta = src - dst, q = delta / 64;
  const unsigned r = static_cast<unsigned>(delta % 64);
  const __m128i rc = _mm_cvtsi32_si128(static_cast<int>(r));
  const __m128i rc2 = _mm_cvtsi32_si128(static_cast<int>(64 - r));
  const std::size_t end = dst + len;
  const std::size_t dw0 = dst / 64, dw1 = (end - 1) / 64;
  const u64 head_mask = ~u64{0} << (dst % 64);
  const u64 tail_mask = (end % 64) ? ((u64{1} << (end % 64)) - 1) : ~u64{0};
  for (std::size_t dw = dw0; dw <= dw1; dw += 8) {
    const std::size_t cnt = dw1 - dw + 1 < 8 ? dw1 - dw + 1 : 8;
    const __mmask8 k = static_cast<__mmask8>((1u << cnt) - 1);
    __m512i m = _mm512_set1_epi64(-1);
    if (dw == dw0) m = _mm512_mask_set1_epi64(m, 1, static_cast<long long>(head_mask));
    if (dw1 - dw < 8) {
      const __mmask8 kt = static_cast<__mmask8>(1u << (dw1 - dw));
      m = _mm512_mask_and_epi64(m, kt, m, _mm512_set1_epi64(static_cast<long long>(tail_mask)));
    }
    __m512i v = _mm512_maskz_loadu_epi64(k, w + dw + q);
    if (r != 0) v = _mm512_or_si512(srl(v, rc), sll(_mm512_maskz_loadu_epi64(k, w + dw + q + 1), rc2));
    _mm512_mask_storeu_epi64(w + dw, k, xor_and(_mm512_maskz_loadu_epi64(k, w + dw), v, m));
  }
}

// The zmm traits of the shared conversion passes (backend/fafft/conversion_passes.hpp). A register
// unit is eight zmm. (Units of sixteen zmm, with a plan of 8192-bit register blocks, measured no
// faster: faster forward, slower inverse conversion.)
struct ZmmPasses {
  using Vec = __m512i;
  static constexpr int kWords = 8;
  static Vec zero() { return _mm512_setzero_si512(); }
  static Vec load(const u64* p) { return ld(p); }
  static void store(u64* p, Vec v) { st(p, v); }
  static Vec loadu(const u64* p) { return _mm512_loadu_si512(p); }
  static void storeu(u64* p, Vec v) { _mm512_storeu_si512(p, v); }
  static Vec bxor(Vec a, Vec b) { return _mm512_xor_si512(a, b); }
  static Vec bor(Vec a, Vec b) { return _mm512_or_si512(a, b); }
  // Shifts by a constant count (an immediate once inlined); zero-masked forms with full masks.
  static Vec srli(Vec x, unsigned r) { return _mm512_maskz_srli_epi64(0xFF, x, r); }
  static Vec slli(Vec x, unsigned r) { return _mm512_maskz_slli_epi64(0xFF, x, r); }
  static Vec xor_and(Vec x, Vec s, Vec m) { return fafft::xor_and(x, s, m); }
  // (lo >> R) | (hi << (64 - R)) per word: one vpshrdq (AVX-512 VBMI2) for three instructions.
  template <unsigned R>
  static Vec shrd(Vec lo, Vec hi) {
    return _mm512_maskz_shrdi_epi64(0xFF, lo, hi, R);
  }
  static Vec set(const u64* m) {
    return _mm512_set_epi64(static_cast<long long>(m[7]), static_cast<long long>(m[6]), static_cast<long long>(m[5]),
                            static_cast<long long>(m[4]), static_cast<long long>(m[3]), static_cast<long long>(m[2]),
                            static_cast<long long>(m[1]), static_cast<long long>(m[0]));
  }
  template <int O>
  static Vec words_from(Vec lo, Vec hi) {
    return _mm512_maskz_alignr_epi64(0xFF, hi, lo, O);  // words O .. 7 of lo, then 0 .. O-1 of hi
  }
  static void xor_range(u64* w, std::size_t dst, std::size_t src, std::size_t len) {
    fafft::xor_range(w, dst, src, len);
  }
  // plan.hpp's PairMap on every 16-bit lane: A on the low bytes, D on the high ones, plus B on
  // the high byte moved down (vpsrlw leaves zero high bytes, which B maps to zero).
  static Vec pair_map(Vec x, Vec a, Vec b, Vec d) {
    constexpr __mmask64 kHighBytes = 0xAAAAAAAAAAAAAAAAULL;
    const Vec lo_hi = _mm512_mask_gf2p8affine_epi64_epi8(affine(x, a), kHighBytes, x, d, 0);
    return _mm512_xor_si512(lo_hi, affine(_mm512_srli_epi16(x, 8), b));
  }
};
using Conversion = backend::fafft::ConversionPasses<ZmmPasses>;

// ---- Encoding / decoding: 32 rows of 2^K bits <-> 2^K field elements --------------------------
//
// Row t holds bits t 2^K .. (t+1) 2^K - 1 of the converted polynomial, so column j of the rows is
// the 32-bit vector (c_(t 2^K + j))_t of point j. gf2p8affineqb(X, A) sets bit s of each byte x
// to parity(byte 7-s of A & x), A the qword of X's lane. Encoding (rows 0..15: the input has
// 2^(m-1) bits): per 8 x 8 bit block (byte J of rows 8a .. 8a+7, gathered into one qword by a
// qword transpose and a byte transpose), affine(unit bytes, block) transposes it (byte b = column
// 8J+b, bit s = row 8a+7-s), then affine(., C_(a,p)) gives byte p of G_j, and two two-source byte
// permutes per plane pair put the bytes of each element together. Decoding mirrors it: element
// bytes to four planes (in reversed column order within each qword), affine(., Q_(a,p)) summed
// over p gives bits 8a..8a+7 of Minv G_j, affine(unit bytes, .) and a byte transpose make them
// row bytes, and a qword transpose of eight such registers gives whole row segments.

alignas(64) constexpr u64 kTrA[8] = {0, 8, 2, 10, 4, 12, 6, 14};
alignas(64) constexpr u64 kTrB[8] = {1, 9, 3, 11, 5, 13, 7, 15};
alignas(64) constexpr u64 kTrC[8] = {0, 1, 8, 9, 4, 5, 12, 13};
alignas(64) constexpr u64 kTrD[8] = {2, 3, 10, 11, 6, 7, 14, 15};
alignas(64) constexpr u64 kTrE[8] = {0, 1, 2, 3, 8, 9, 10, 11};
alignas(64) constexpr u64 kTrF[8] = {4, 5, 6, 7, 12, 13, 14, 15};
// z[i] qword j -> z[j] qword i (8x8 qwords, three rounds of two-source permutes).
inline void transpose8x8(__m512i* z) {
  const __m512i a = ld(kTrA), b = ld(kTrB), c = ld(kTrC), d = ld(kTrD), e = ld(kTrE), f = ld(kTrF);
  __m512i t[8], u[8];
  for (int k = 0; k < 8; k += 2) {
    t[k] = _mm512_permutex2var_epi64(z[k], a, z[k + 1]);
    t[k + 1] = _mm512_permutex2var_epi64(z[k], b, z[k + 1]);
  }
  for (int k = 0; k < 8; k += 4)
    for (int l = 0; l < 2; l++) {
      u[k + l] = _mm512_permutex2var_epi64(t[k + l], c, t[k + l + 2]);
      u[k + l + 2] = _mm512_permutex2var_epi64(t[k + l], d, t[k + l + 2]);
    }
  for (int l = 0; l < 4; l++) {
    z[l] = _mm512_permutex2var_epi64(u[l], e, u[l + 4]);
    z[l + 4] = _mm512_permutex2var_epi64(u[l], f, u[l + 4]);
  }
}

struct CodingShuffles {
  alignas(64) std::uint8_t transpose[64];  // byte 8b+r <- byte 8r+b (8 x 8 bytes)
  alignas(64) std::uint8_t unit[64];       // byte q = 1 << (q mod 8)
  alignas(64) std::uint8_t pair_lo[64];    // bytes of elements 0..31 of two planes, interleaved
  alignas(64) std::uint8_t pair_hi[64];    // the same for elements 32..63
  alignas(64) std::uint16_t dword_lo[32];  // two byte pairs -> dwords of elements 0..15
  alignas(64) std::uint16_t dword_hi[32];  // ... 16..31
  alignas(64) std::uint16_t word_lo[32];   // dwords of elements 0..31 -> their low words
  alignas(64) std::uint16_t word_hi[32];   // ... high words
  alignas(64) std::uint8_t plane[2][64];   // words of elements 0..63 -> byte 0 / 1, columns reversed per qword
};
constexpr CodingShuffles make_coding_shuffles() {
  CodingShuffles c{};
  for (unsigned b = 0; b < 8; b++)
    for (unsigned r = 0; r < 8; r++) c.transpose[8 * b + r] = static_cast<std::uint8_t>(8 * r + b);
  for (unsigned q = 0; q < 64; q++) c.unit[q] = static_cast<std::uint8_t>(1u << (q % 8));
  for (unsigned e = 0; e < 32; e++) {
    c.pair_lo[2 * e] = static_cast<std::uint8_t>(e);
    c.pair_lo[2 * e + 1] = static_cast<std::uint8_t>(64 + e);
    c.pair_hi[2 * e] = static_cast<std::uint8_t>(32 + e);
    c.pair_hi[2 * e + 1] = static_cast<std::uint8_t>(96 + e);
    c.word_lo[e] = static_cast<std::uint16_t>(2 * e);
    c.word_hi[e] = static_cast<std::uint16_t>(2 * e + 1);
  }
  for (unsigned l = 0; l < 16; l++) {
    c.dword_lo[2 * l] = static_cast<std::uint16_t>(l);
    c.dword_lo[2 * l + 1] = static_cast<std::uint16_t>(32 + l);
    c.dword_hi[2 * l] = static_cast<std::uint16_t>(16 + l);
    c.dword_hi[2 * l + 1] = static_cast<std::uint16_t>(48 + l);
  }
  for (unsigned p = 0; p < 2; p++)
    for (unsigned q = 0; q < 64; q++) {
      const unsigned e = 8 * (q / 8) + 7 - (q % 8);
      c.plane[p][q] = static_cast<std::uint8_t>(e < 32 ? 2 * e + p : 64 + 2 * (e - 32) + p);
    }
  return c;
}
alignas(64) inline constexpr CodingShuffles kMoves = make_coding_shuffles();

// The matrices C_(a,p) and Q_(a,p): field::kCoding<K> (backend/fafft/field32.hpp).
using field::kCoding;

// t (2^K elements, layout A) = encoding of rows 0..15 of bits.
template <unsigned K>
void encode_half(u32* t, const u64* bits) {
  constexpr std::size_t row_words = (std::size_t{1} << K) / 64;
  const __m512i bt = ld(kMoves.transpose), unit = ld(kMoves.unit);
  for (std::size_t w = 0; w < row_words / 8; w++) {  // 512 columns
    __m512i cols[2][8];
    for (unsigned a = 0; a < 2; a++) {
      __m512i z[8];
      for (unsigned r = 0; r < 8; r++) z[r] = ld(bits + (8 * a + r) * row_words + 8 * w);
      transpose8x8(z);
      for (unsigned k = 0; k < 8; k++) cols[a][k] = affine(unit, perm8(bt, z[k]));
    }
    for (unsigned k = 0; k < 8; k++) {  // 64 columns: elements 512 w + 64 k ..
      __m512i o[4];
      for (unsigned p = 0; p < 4; p++)
        o[p] = _mm512_xor_si512(affine(cols[0][k], ld(kCoding<K>.enc[0][p])),
                                affine(cols[1][k], ld(kCoding<K>.enc[1][p])));
      const __m512i p01l = _mm512_permutex2var_epi8(o[0], ld(kMoves.pair_lo), o[1]);
      const __m512i p01h = _mm512_permutex2var_epi8(o[0], ld(kMoves.pair_hi), o[1]);
      const __m512i p23l = _mm512_permutex2var_epi8(o[2], ld(kMoves.pair_lo), o[3]);
      const __m512i p23h = _mm512_permutex2var_epi8(o[2], ld(kMoves.pair_hi), o[3]);
      u32* out = t + 512 * w + 64 * k;
      st(out, _mm512_permutex2var_epi16(p01l, ld(kMoves.dword_lo), p23l));
      st(out + 16, _mm512_permutex2var_epi16(p01l, ld(kMoves.dword_hi), p23l));
      st(out + 32, _mm512_permutex2var_epi16(p01h, ld(kMoves.dword_lo), p23h));
      st(out + 48, _mm512_permutex2var_epi16(p01h, ld(kMoves.dword_hi), p23h));
    }
  }
}

// rows (32 rows of 2^K bits) = decoding of t (layout A).
template <unsigned K>
void decode_full(u64* rows, const u32* t) {
  constexpr std::size_t row_words = (std::size_t{1} << K) / 64;
  const __m512i bt = ld(kMoves.transpose), unit = ld(kMoves.unit);
  for (std::size_t w = 0; w < row_words / 8; w++) {  // 512 columns
    __m512i seg[4][8];
    for (unsigned k = 0; k < 8; k++) {
      const u32* in = t + 512 * w + 64 * k;
      const __m512i g0 = ld(in), g1 = ld(in + 16), g2 = ld(in + 32), g3 = ld(in + 48);
      const __m512i l01 = _mm512_permutex2var_epi16(g0, ld(kMoves.word_lo), g1);
      const __m512i h01 = _mm512_permutex2var_epi16(g0, ld(kMoves.word_hi), g1);
      const __m512i l23 = _mm512_permutex2var_epi16(g2, ld(kMoves.word_lo), g3);
      const __m512i h23 = _mm512_permutex2var_epi16(g2, ld(kMoves.word_hi), g3);
      const __m512i plane[4] = {_mm512_permutex2var_epi8(l01, ld(kMoves.plane[0]), l23),
                                _mm512_permutex2var_epi8(l01, ld(kMoves.plane[1]), l23),
                                _mm512_permutex2var_epi8(h01, ld(kMoves.plane[0]), h23),
                                _mm512_permutex2var_epi8(h01, ld(kMoves.plane[1]), h23)};
      for (unsigned a = 0; a < 4; a++) {
        const __m512i x = xor3(
            _mm512_xor_si512(affine(plane[0], ld(kCoding<K>.dec[a][0])), affine(plane[1], ld(kCoding<K>.dec[a][1]))),
            affine(plane[2], ld(kCoding<K>.dec[a][2])), affine(plane[3], ld(kCoding<K>.dec[a][3])));
        seg[a][k] = perm8(bt, affine(unit, x));
      }
    }
    for (unsigned a = 0; a < 4; a++) {
      transpose8x8(seg[a]);
      for (unsigned r = 0; r < 8; r++) st(rows + (8 * a + r) * row_words + 8 * w, seg[a][r]);
    }
  }
}

// ---- Whole transforms --------------------------------------------------------------------------

template <class P>
void reduce_out(u64* out, const u64* c) {
  constexpr std::size_t q = P::kN / 64;
  constexpr unsigned r = P::kN % 64;
  static_assert(r != 0);
  const __m128i rc = _mm_cvtsi32_si128(static_cast<int>(r));
  const __m128i rc2 = _mm_cvtsi32_si128(static_cast<int>(64 - r));
  std::size_t i = 0;
  for (; i + 8 <= P::kNWords; i += 8) {
    const __m512i hi =
        _mm512_or_si512(srl(_mm512_loadu_si512(c + i + q), rc), sll(_mm512_loadu_si512(c + i + q + 1), rc2));
    _mm512_storeu_si512(out + i, _mm512_xor_si512(ld(c + i), hi));
  }
  for (; i < P::kNWords; i++) out[i] = c[i] ^ (c[i + q] >> r) ^ (c[i + q + 1] << (64 - r));
  out[P::kNWords - 1] &= P::kLastWordMask;
  for (i = P::kNWords; i < P::kNWordsPadded; i++) out[i] = 0;
}

// The parts of the shared composition of the entry points (backend/fafft/entry_points.hpp). A
// transform is 2^K dwords in the caller's uint64 buffers (vector loads and stores only).
struct Parts {
  static constexpr unsigned kLogElementBits = 5;  // GF(2^32)
  template <unsigned L>
  static void to_novel(u64* w, std::size_t limit) {
    Conversion::to_novel<L>(w, limit);
  }
  template <unsigned L>
  static void from_novel(u64* w, std::size_t limit) {
    Conversion::from_novel<L>(w, limit);
  }
  template <unsigned K>
  static void encode_half(u64* t, const u64* bits) {
    fafft::encode_half<K>(reinterpret_cast<u32*>(t), bits);
  }
  // The rows go to tmp (all 32 decoded: the vector pass gives whole row segments).
  template <unsigned K, unsigned /*kProductRows*/>
  static u64* decode_full(const u64* t, u64* tmp) {
    fafft::decode_full<K>(tmp, reinterpret_cast<const u32*>(t));
    return tmp;
  }
  template <unsigned K>
  static void fft(u64* g) {
    Fft::fft<K>(reinterpret_cast<u32*>(g));
  }
  template <unsigned K>
  static void ifft_product(u64* g, const u64* x, const u64* y) {
    Fft::ifft_product<K>(reinterpret_cast<u32*>(g), reinterpret_cast<const u32*>(x), reinterpret_cast<const u32*>(y));
  }
  template <class P>
  static void reduce_out(u64* out, const u64* c) {
    fafft::reduce_out<P>(out, c);
  }
  static void wipe(void* p, std::size_t len) { ::hqc::backend::avx512::wipe(p, len); }
  static void copy(void* dst, const void* src, std::size_t len) { std::memcpy(dst, src, len); }
  static void zero(void* p, std::size_t len) { std::memset(p, 0, len); }
};
using Entry = backend::fafft::EntryPoints<Parts>;

}  // namespace

template <class P>
void forward(std::uint64_t* t, const std::uint64_t* a) {
  Entry::forward<P>(t, a);
}
template <class P>
void mul_transformed(std::uint64_t* out, const std::uint64_t* ta, const std::uint64_t* tb) {
  Entry::mul_transformed<P>(out, ta, tb);
}
template <class P>
void mul_transformed_plain(std::uint64_t* out, const std::uint64_t* ta, const std::uint64_t* b) {
  Entry::mul_transformed_plain<P>(out, ta, b);
}
template <class P>
void mul2_transformed_plain(std::uint64_t* out1, std::uint64_t* out2, const std::uint64_t* ta1,
                            const std::uint64_t* ta2, const std::uint64_t* b) {
  Entry::mul2_transformed_plain<P>(out1, out2, ta1, ta2, b);
}
template <class P>
void mul(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b) {
  Entry::mul<P>(out, a, b);
}
template <class P>
void mul2(std::uint64_t* out1, std::uint64_t* out2, const std::uint64_t* a1, const std::uint64_t* a2,
          const std::uint64_t* b) {
  Entry::mul2<P>(out1, out2, a1, a2, b);
}

#define HQC_FAFFT_INSTANTIATE(P)                                                                                      \
  template void forward<P>(std::uint64_t*, const std::uint64_t*);                                                     \
  template void mul_transformed<P>(std::uint64_t*, const std::uint64_t*, const std::uint64_t*);                       \
  template void mul_transformed_plain<P>(std::uint64_t*, const std::uint64_t*, const std::uint64_t*);                 \
  template void mul2_transformed_plain<P>(std::uint64_t*, std::uint64_t*, const std::uint64_t*, const std::uint64_t*, \
                                          const std::uint64_t*);                                                      \
  template void mul<P>(std::uint64_t*, const std::uint64_t*, const std::uint64_t*);                                   \
  template void mul2<P>(std::uint64_t*, std::uint64_t*, const std::uint64_t*, const std::uint64_t*,                   \
                        const std::uint64_t*);
HQC_FAFFT_INSTANTIATE(Hqc1)
HQC_FAFFT_INSTANTIATE(Hqc3)
HQC_FAFFT_INSTANTIATE(Hqc5)
#undef HQC_FAFFT_INSTANTIATE

}  // namespace hqc::backend::avx512::fafft
