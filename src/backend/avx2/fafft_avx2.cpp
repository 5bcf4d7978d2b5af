// Frobenius additive FFT multiplier, avx2 backend (see fafft_avx2.hpp, docs/FAFFT.md and
// docs/AVX2.md): the GF(2^32) algorithm of backend/avx512/fafft.cpp on 256-bit vectors, without
// any AVX-512 instruction (no zmm, no mask registers, no EVEX-only forms), with the same constants
// (backend/fafft/field32.hpp) and the same conversion plans (backend/fafft/plan.hpp,
// conversion_passes.hpp).
//
// Field GF(2^32) = GF(2^8)[y]/(y^4 + y^3 + y^2 + 6) over the field of GFNI's gf2p8mulb, one element
// per dword, eight per ymm. Transform of f, deg f < 2^m, K = m - 5: novel-basis conversion over
// GF(2), encoding of 32 bits per element (GFNI bit-matrix products), additive FFT on
// beta_31 + W_K; the product is the inverse transform of the pointwise product. Spec §2.2 (ring
// multiplication), §8 (constant time).
//
// Differences from the avx512 code: the dword rotations (VPROLD there) are PSHUFB byte moves;
// ternary logic is XOR chains; the FFT's groups are 64 elements in eight ymm (an 8 x 8 dword
// transpose between layers 3 and 2, layout B below) and layers K-1 .. 6 run in two passes over
// memory of radix 8 (radix 4 for the second at HQC-1), with sixteen registers; the 8 x 8 bit
// blocks of the encoding and decoding are gathered by rounds of PUNPCKLBW / PUNPCKHBW (VPERMB and
// two-source byte permutes there); the conversion's pair map blends with PBLENDVB (a byte mask
// there).
//
// Constant time: no branch, loop bound or address depends on data (only on n, m, K and the
// plans); the field arithmetic is gf2p8mulb and fixed shuffles; scratch buffers holding data are
// wiped with avx2::wipe before returning.
#include "backend/avx2/fafft_avx2.hpp"

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

#include "backend/avx2/simd.hpp"
#include "backend/fafft/entry_points.hpp"
#include "backend/fafft/field32.hpp"
#include "params/params.hpp"

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,bmi2,gfni"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,bmi2,gfni")
#endif

#include "backend/fafft/conversion_passes.hpp"
#include "backend/fafft/fft_passes.hpp"

namespace hqc::backend::avx2::fafft {
namespace {

using u64 = std::uint64_t;
using u32 = std::uint32_t;
namespace field = ::hqc::backend::fafft::field32;

[[gnu::always_inline]] inline __m256i ld(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }
[[gnu::always_inline]] inline void st(void* p, __m256i v) { _mm256_storeu_si256(static_cast<__m256i*>(p), v); }
[[gnu::always_inline]] inline __m256i vxor(__m256i a, __m256i b) { return _mm256_xor_si256(a, b); }
[[gnu::always_inline]] inline __m256i xor3(__m256i a, __m256i b, __m256i c) { return vxor(vxor(a, b), c); }
[[gnu::always_inline]] inline __m256i gmul(__m256i a, __m256i b) { return _mm256_gf2p8mul_epi8(a, b); }
[[gnu::always_inline]] inline __m256i affine(__m256i x, __m256i a) { return _mm256_gf2p8affine_epi64_epi8(x, a, 0); }
[[gnu::always_inline]] inline __m256i bcast32(u32 v) { return _mm256_set1_epi32(static_cast<int>(v)); }
[[gnu::always_inline]] inline __m256i shuf(__m256i x, __m256i idx) { return _mm256_shuffle_epi8(x, idx); }

using backend::fafft::static_for;

// ---- GF(2^32) arithmetic, eight elements per ymm --------------------------------------------

// PSHUFB patterns (the same in both 128-bit lanes).
struct Patterns {
  alignas(32) std::uint8_t rot[3][32];   // rotl of each dword by 8, 16, 24 bits
  alignas(32) std::uint8_t byte[4][32];  // byte k of each dword over the dword
  alignas(32) std::uint8_t plane[32];    // dwords c0..c3 -> per byte p: c3 c2 c1 c0
  alignas(32) std::uint8_t unit[32];     // byte q = 1 << (q mod 8)
  alignas(32) std::uint8_t high[32];     // 0x80 in the high byte of every word
};
constexpr Patterns make_patterns() {
  Patterns p{};
  for (unsigned q = 0; q < 32; q++) {
    const unsigned d = q & ~3u, k = q & 3u, in_lane = q & 15u;
    for (unsigned r = 0; r < 3; r++) p.rot[r][q] = static_cast<std::uint8_t>((d + ((k + 3 - r) & 3)) & 15);
    for (unsigned b = 0; b < 4; b++) p.byte[b][q] = static_cast<std::uint8_t>((d & 15) + b);
    const unsigned pl = in_lane / 4, i = in_lane & 3;
    p.plane[q] = static_cast<std::uint8_t>(4 * (3 - i) + pl);
    p.unit[q] = static_cast<std::uint8_t>(1u << (q % 8));
    p.high[q] = static_cast<std::uint8_t>((q & 1) ? 0x80 : 0);
  }
  return p;
}
alignas(32) inline constexpr Patterns kPat = make_patterns();

// Each dword rotated left by 8 R bits (R = 1, 2, 3).
template <int R>
[[gnu::always_inline]] inline __m256i rotl_bytes(__m256i x) {
  return shuf(x, ld(kPat.rot[R - 1]));
}

// General products of eight pairs: a * b = sum_k a_k (b y^k), where b y is b rotated by 8 bits plus
// b's top byte times (1 + q0, q1, q2, q3) (y^4 = q3 y^3 + q2 y^2 + q1 y + q0; the 1 removes the
// top byte that the rotation moved to byte 0).
[[gnu::always_inline]] inline __m256i field_mul(__m256i a, __m256i b) {
  constexpr u32 kFix = (1u ^ field::kModulus[0]) | (u32{field::kModulus[1]} << 8) | (u32{field::kModulus[2]} << 16) |
                       (u32{field::kModulus[3]} << 24);
  const __m256i q = bcast32(kFix);
  const __m256i s3 = ld(kPat.byte[3]);
  const __m256i b1 = vxor(rotl_bytes<1>(b), gmul(shuf(b, s3), q));
  const __m256i b2 = vxor(rotl_bytes<1>(b1), gmul(shuf(b1, s3), q));
  const __m256i b3 = vxor(rotl_bytes<1>(b2), gmul(shuf(b2, s3), q));
  return xor3(vxor(gmul(shuf(a, ld(kPat.byte[0])), b), gmul(shuf(a, ld(kPat.byte[1])), b1)),
              gmul(shuf(a, ld(kPat.byte[2])), b2), gmul(shuf(a, s3), b3));
}

// ---- Additive FFT on beta_31 + W_K (backend/fafft/fft_passes.hpp) ------------------------------
//
// Eight elements per ymm, so groups of 64 elements: layers K-1 .. 6 in two passes over memory on
// groups of eight (HQC-1's second: four) ymm, then layers 5 .. 0 of each group in eight ymm with
// an 8 x 8 dword transpose between layers 3 and 2 (point_dword in fafft_avx2.hpp).

// 8 x 8 dword transpose (z[l] lane r <- z[r] lane l).
[[gnu::always_inline]] inline void transpose8x8(__m256i* z) {
  __m256i t[8], u[8];
  static_for<4>([&](auto k) __attribute__((always_inline)) {
    t[2 * k] = _mm256_unpacklo_epi32(z[2 * k], z[2 * k + 1]);
    t[2 * k + 1] = _mm256_unpackhi_epi32(z[2 * k], z[2 * k + 1]);
  });
  static_for<2>([&](auto k) __attribute__((always_inline)) {
    u[4 * k] = _mm256_unpacklo_epi64(t[4 * k], t[4 * k + 2]);
    u[4 * k + 1] = _mm256_unpackhi_epi64(t[4 * k], t[4 * k + 2]);
    u[4 * k + 2] = _mm256_unpacklo_epi64(t[4 * k + 1], t[4 * k + 3]);
    u[4 * k + 3] = _mm256_unpackhi_epi64(t[4 * k + 1], t[4 * k + 3]);
  });
  static_for<4>([&](auto m) __attribute__((always_inline)) {
    z[m] = _mm256_permute2x128_si256(u[m], u[4 + m], 0x20);
    z[4 + m] = _mm256_permute2x128_si256(u[m], u[4 + m], 0x31);
  });
}

// The ymm operations of the shared FFT.
struct YmmField {
  using Vec = __m256i;
  static constexpr unsigned kLogLanes = 3;
  static constexpr unsigned kMaxPassLayers = 3;  // eight data registers of sixteen
  [[gnu::always_inline]] static Vec load(const u32* p) { return ld(p); }
  [[gnu::always_inline]] static void store(u32* p, Vec v) { st(p, v); }
  [[gnu::always_inline]] static Vec bxor(Vec a, Vec b) { return vxor(a, b); }
  // a ^ (b ^ c): in add_product's (u ^ p0 ^ p1) ^ p2 ^ p3 the products pair up first, so that
  // u waits for two XORs, not four (no ternary logic here).
  [[gnu::always_inline]] static Vec bxor3(Vec a, Vec b, Vec c) { return vxor(a, vxor(b, c)); }
  [[gnu::always_inline]] static Vec gmul(Vec a, Vec b) { return fafft::gmul(a, b); }
  template <int R>
  [[gnu::always_inline]] static Vec rotl_bytes(Vec x) {
    return fafft::rotl_bytes<R>(x);
  }
  [[gnu::always_inline]] static Vec bcast(u32 v) { return bcast32(v); }
  [[gnu::always_inline]] static Vec mul(Vec a, Vec b) { return field_mul(a, b); }
  [[gnu::always_inline]] static void transpose(Vec* z) { transpose8x8(z); }
};
using Fft = backend::fafft::FftPasses<YmmField>;

// ---- Novel-basis conversion over GF(2) ---------------------------------------------------------
//
// The steps, their plan of register and memory passes (backend/fafft/plan.hpp) and the passes'
// code (backend/fafft/conversion_passes.hpp) are shared with avx512 fafft.cpp. Every step leaves
// its source range unchanged and moves bits downwards (src > dst), so the inverse is the same
// steps in reverse order and bits above a zero bound stay zero. Here are the ymm forms of the
// passes' vector operations.

// w[dst .. dst+len) ^= w[src .. src+len) (bit ranges, src > dst, disjoint); w has readable padding
// words past the source range. All arguments public.
void xor_range(u64* w, std::size_t dst, std::size_t src, std::size_t len) {
  if ((dst | src | len) % 64 == 0) {
    u64* d = w + dst / 64;
    const u64* sp = w + src / 64;
    const std::size_t nw = len / 64;
    std::size_t i = 0;
    for (; i + 4 <= nw; i += 4) st(d + i, vxor(ld(d + i), ld(sp + i)));
    for (; i < nw; i++) d[i] ^= sp[i];
    return;
  }
  // Shifted: the first and last destination words (partial) one by one, the whole words between
  // them four at a time.
  const std::size_t delta = src - dst, q = delta / 64;
  const unsigned r = static_cast<unsigned>(delta % 64);
  const std::size_t end = dst + len;
  const std::size_t dw0 = dst / 64, dw1 = (end - 1) / 64;
  const u64 head_mask = ~u64{0} << (dst % 64);
  const u64 tail_mask = (end % 64) ? ((u64{1} << (end % 64)) - 1) : ~u64{0};
  const auto src_word = [&](std::size_t dw) {
    return r == 0 ? w[dw + q] : (w[dw + q] >> r) | (w[dw + q + 1] << (64 - r));
  };
  if (dw0 == dw1) {
    w[dw0] ^= src_word(dw0) & head_mask & tail_mask;
    return;
  }
  w[dw0] ^= src_word(dw0) & head_mask;
  std::size_t dw = dw0 + 1;
  if (r == 0) {
    for (; dw + 4 <= dw1; dw += 4) st(w + dw, vxor(ld(w + dw), ld(w + dw + q)));
  } else {
    const __m128i rc = _mm_cvtsi32_si128(static_cast<int>(r));
    const __m128i rc2 = _mm_cvtsi32_si128(static_cast<int>(64 - r));
    for (; dw + 4 <= dw1; dw += 4) {
      const __m256i v =
          _mm256_or_si256(_mm256_srl_epi64(ld(w + dw + q), rc), _mm256_sll_epi64(ld(w + dw + q + 1), rc2));
      st(w + dw, vxor(ld(w + dw), v));
    }
  }
  for (; dw < dw1; dw++) w[dw] ^= src_word(dw);
  w[dw1] ^= src_word(dw1) & tail_mask;
}

// The ymm traits of the shared conversion passes. A register unit is sixteen ymm (the same 4096
// bits as avx512's eight zmm).
struct YmmPasses {
  using Vec = __m256i;
  static constexpr int kWords = 4;
  static Vec zero() { return _mm256_setzero_si256(); }
  static Vec load(const u64* p) { return ld(p); }
  static void store(u64* p, Vec v) { st(p, v); }
  static Vec loadu(const u64* p) { return ld(p); }
  static void storeu(u64* p, Vec v) { st(p, v); }
  static Vec bxor(Vec a, Vec b) { return vxor(a, b); }
  static Vec bor(Vec a, Vec b) { return _mm256_or_si256(a, b); }
  // Shifts by a constant count (an immediate once inlined).
  static Vec srli(Vec x, unsigned r) { return _mm256_srli_epi64(x, static_cast<int>(r)); }
  static Vec slli(Vec x, unsigned r) { return _mm256_slli_epi64(x, static_cast<int>(r)); }
  static Vec xor_and(Vec x, Vec s, Vec m) { return vxor(x, _mm256_and_si256(s, m)); }
  static Vec set(const u64* m) {
    return _mm256_set_epi64x(static_cast<long long>(m[3]), static_cast<long long>(m[2]), static_cast<long long>(m[1]),
                             static_cast<long long>(m[0]));
  }
  template <int O>
  static Vec words_from(Vec lo, Vec hi) {
    const Vec mid = _mm256_permute2x128_si256(lo, hi, 0x21);
    if constexpr (O == 2) return mid;
    else if constexpr (O == 1) return _mm256_alignr_epi8(mid, lo, 8);
    else return _mm256_alignr_epi8(hi, mid, 8);
  }
  static void xor_range(u64* w, std::size_t dst, std::size_t src, std::size_t len) {
    fafft::xor_range(w, dst, src, len);
  }
  // plan.hpp's PairMap on every 16-bit lane: A on the low bytes, D on the high ones (a byte blend),
  // plus B on the high byte moved down (VPSRLW leaves zero high bytes, which B maps to zero).
  static Vec pair_map(Vec x, Vec a, Vec b, Vec d) {
    const Vec lo_hi = _mm256_blendv_epi8(affine(x, a), affine(x, d), ld(kPat.high));
    return vxor(lo_hi, affine(_mm256_srli_epi16(x, 8), b));
  }
};
using Conversion = backend::fafft::ConversionPasses<YmmPasses>;

// ---- Encoding / decoding: 32 rows of 2^K bits <-> 2^K field elements --------------------------
//
// Row t holds bits t 2^K .. (t+1) 2^K - 1 of the converted polynomial, so column j of the rows is
// the 32-bit vector (c_(t 2^K + j))_t of point j. Per 256 columns and eight rows (one ymm a row):
// rounds of byte interleaves (byte_round) gather each 8 x 8 bit block (byte J of the eight rows)
// into a qword; gf2p8affineqb(unit bytes, block) transposes it (byte b = column 8J + b, bit s =
// row 8a+7-s); the sum over the two row blocks of affine(., C_(a,p)) is byte p of G_j; byte and
// word interleaves put the four bytes of each element together. Decoding mirrors it: element
// bytes to four planes (columns reversed within each qword), the sum over the planes of
// affine(., Q_(a,p)) is bits 8a .. 8a+7 of the coefficients, affine(unit bytes, .) makes them row
// bytes, and four byte rounds give whole row segments.
using field::kCoding;  // C_(a,p), Q_(a,p) (field32.hpp); the first four of each eight copies

// One round of the byte transposes: registers i and i + 4 interleaved bytewise (the low halves of
// each lane to register 2i, the high ones to 2i + 1). Writing a byte's position as its register
// index (bits i2 i1 i0) and its index in the lane (bits b3 b2 b1 b0), a round takes
// (i2 i1 i0, b3 b2 b1 b0) to (i1 i0 b3, b2 b1 b0 i2). So three rounds take row r's byte j
// (r, j) to (j >> 1, (j & 1) << 3 | r), the encoding's gather of each byte J of eight rows into a
// qword, and four rounds take that back to (r, j), the decoding's.
[[gnu::always_inline]] inline void byte_round(__m256i* r) {
  __m256i n[8];
  static_for<4>([&](auto i) __attribute__((always_inline)) {
    n[2 * i] = _mm256_unpacklo_epi8(r[i], r[i + 4]);
    n[2 * i + 1] = _mm256_unpackhi_epi8(r[i], r[i + 4]);
  });
  static_for<8>([&](auto i) __attribute__((always_inline)) { r[i] = n[i]; });
}

// t (2^K elements, layout A) = encoding of rows 0..15 of bits (the input has 2^(m-1) bits).
template <unsigned K>
void encode_half(u32* t, const u64* bits) {
  constexpr std::size_t row_words = (std::size_t{1} << K) / 64;
  const __m256i unit = ld(kPat.unit);
  for (std::size_t c = 0; c < row_words / 4; c++) {  // 256 columns
    __m256i cols[2][8];
    for (unsigned a = 0; a < 2; a++) {
      __m256i r[8];
      for (unsigned i = 0; i < 8; i++) r[i] = ld(bits + (8 * a + i) * row_words + 4 * c);
      byte_round(r);
      byte_round(r);
      byte_round(r);
      for (unsigned m = 0; m < 8; m++) cols[a][m] = affine(unit, r[m]);
    }
    u32* out = t + 256 * c;
    for (unsigned m = 0; m < 8; m++) {
      __m256i o[4];
      for (unsigned p = 0; p < 4; p++)
        o[p] = vxor(affine(cols[0][m], ld(kCoding<K>.enc[0][p])), affine(cols[1][m], ld(kCoding<K>.enc[1][p])));
      const __m256i w01l = _mm256_unpacklo_epi8(o[0], o[1]), w01h = _mm256_unpackhi_epi8(o[0], o[1]);
      const __m256i w23l = _mm256_unpacklo_epi8(o[2], o[3]), w23h = _mm256_unpackhi_epi8(o[2], o[3]);
      const __m256i d0 = _mm256_unpacklo_epi16(w01l, w23l), d1 = _mm256_unpackhi_epi16(w01l, w23l);
      const __m256i d2 = _mm256_unpacklo_epi16(w01h, w23h), d3 = _mm256_unpackhi_epi16(w01h, w23h);
      st(out + 16 * m, _mm256_permute2x128_si256(d0, d1, 0x20));
      st(out + 16 * m + 8, _mm256_permute2x128_si256(d2, d3, 0x20));
      st(out + 128 + 16 * m, _mm256_permute2x128_si256(d0, d1, 0x31));
      st(out + 128 + 16 * m + 8, _mm256_permute2x128_si256(d2, d3, 0x31));
    }
  }
}

// rows (32 rows of 2^K bits) = decoding of t (layout A).
template <unsigned K>
void decode_full(u64* rows, const u32* t) {
  constexpr std::size_t row_words = (std::size_t{1} << K) / 64;
  const __m256i unit = ld(kPat.unit), pl = ld(kPat.plane);
  for (std::size_t c = 0; c < row_words / 4; c++) {
    __m256i seg[4][8];
    const u32* in = t + 256 * c;
    for (unsigned m = 0; m < 8; m++) {
      const __m256i e0 = ld(in + 16 * m), e1 = ld(in + 16 * m + 8);
      const __m256i e2 = ld(in + 128 + 16 * m), e3 = ld(in + 128 + 16 * m + 8);
      const __m256i s0 = shuf(_mm256_permute2x128_si256(e0, e2, 0x20), pl);
      const __m256i s1 = shuf(_mm256_permute2x128_si256(e0, e2, 0x31), pl);
      const __m256i s2 = shuf(_mm256_permute2x128_si256(e1, e3, 0x20), pl);
      const __m256i s3 = shuf(_mm256_permute2x128_si256(e1, e3, 0x31), pl);
      const __m256i x01l = _mm256_unpacklo_epi32(s1, s0), x01h = _mm256_unpackhi_epi32(s1, s0);
      const __m256i x23l = _mm256_unpacklo_epi32(s3, s2), x23h = _mm256_unpackhi_epi32(s3, s2);
      const __m256i plane[4] = {_mm256_unpacklo_epi64(x01l, x23l), _mm256_unpackhi_epi64(x01l, x23l),
                                _mm256_unpacklo_epi64(x01h, x23h), _mm256_unpackhi_epi64(x01h, x23h)};
      for (unsigned a = 0; a < 4; a++) {
        const __m256i x =
            vxor(vxor(affine(plane[0], ld(kCoding<K>.dec[a][0])), affine(plane[1], ld(kCoding<K>.dec[a][1]))),
                 vxor(affine(plane[2], ld(kCoding<K>.dec[a][2])), affine(plane[3], ld(kCoding<K>.dec[a][3]))));
        seg[a][m] = affine(unit, x);
      }
    }
    for (unsigned a = 0; a < 4; a++) {
      byte_round(seg[a]);
      byte_round(seg[a]);
      byte_round(seg[a]);
      byte_round(seg[a]);
      for (unsigned r = 0; r < 8; r++) st(rows + (8 * a + r) * row_words + 4 * c, seg[a][r]);
    }
  }
}

// ---- Whole transforms --------------------------------------------------------------------------

// out = c mod x^n - 1 (c: the 2n - 1 coefficients of a product), padding words zeroed.
template <class P>
void reduce_out(u64* out, const u64* c) {
  constexpr std::size_t q = P::kN / 64;
  constexpr unsigned r = P::kN % 64;
  static_assert(r != 0);
  std::size_t i = 0;
  for (; i + 4 <= P::kNWords; i += 4) {
    const __m256i hi = _mm256_or_si256(_mm256_srli_epi64(ld(c + i + q), static_cast<int>(r)),
                                       _mm256_slli_epi64(ld(c + i + q + 1), static_cast<int>(64 - r)));
    st(out + i, vxor(ld(c + i), hi));
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
  static void wipe(void* p, std::size_t len) { ::hqc::backend::avx2::wipe(p, len); }
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

}  // namespace hqc::backend::avx2::fafft

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
