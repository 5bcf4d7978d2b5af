// Frobenius additive FFT multiplier, avx2 backend (see fafft_avx2.hpp, docs/FAFFT.md and
// docs/AVX2.md): the algorithm of backend/avx512/fafft.cpp on 256-bit vectors, without any
// AVX-512 instruction (no zmm, no mask registers, no EVEX-only forms).
//
// Field GF(2^128) = GF(2)[z]/(z^128 + z^7 + z^2 + z + 1), two elements per ymm (one per 128-bit
// lane), multiplied with VPCLMULQDQ: four (pointwise products) or three (by a twiddle,
// Karatsuba), reduced with two more by the fixed constant 0x87. Transform of f, deg f < 2^m,
// K = m - 7: novel-basis conversion over GF(2) (compile-time plans), encoding of 128 bits per
// field element (GFNI 8x8 bit-matrix products, the committed tables), additive FFT on
// beta_127 + W_K. The product is the inverse transform of the pointwise product. Spec §2.2
// (ring multiplication), §8 (constant time).
//
// Differences from the avx512 code: ternary logic -> XOR chains; masked loads/stores -> whole
// vectors plus scalar tails at public offsets; two-source qword permutes -> VPERM2I128 / VPALIGNR /
// unpacks with immediates; VPERMB / VPERMT2B byte transposes -> PUNPCK byte/word interleaves,
// VPERMQ + PSHUFD and PSHUFB with constant patterns; gathers -> whole-vector row loads and 4x4
// qword transposes. The conversion's register units are 16 ymm (4096 bits, as avx512's 8 zmm)
// and their step programs are unrolled at compile time (every shift, offset and mask an
// immediate or a constant; ymm whose mask is zero are skipped, which depends only on the plan).
// The pointwise products are Karatsuba and fused with inverse layer 0 under lazy reduction.
//
// Constant time: no branch, loop bound or address depends on data (only on n, m, K and the
// plans); scratch buffers holding data are wiped with avx2::wipe before returning.
#include "backend/avx2/fafft_avx2.hpp"

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

#include "backend/avx2/simd.hpp"
#include "backend/fafft/entry_points.hpp"
#include "backend/fafft/tables.hpp"
#include "params/params.hpp"

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,pclmul,bmi2,vpclmulqdq,gfni"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,pclmul,bmi2,vpclmulqdq,gfni")
#endif

// Included under the target options above, so that the passes' template functions get them too
// and the traits' vector operations inline into them.
#include "backend/fafft/conversion_passes.hpp"

namespace hqc::backend::avx2::fafft {
namespace {

using u64 = std::uint64_t;
namespace tables = ::hqc::backend::fafft::tables;

inline __m256i ld(const u64* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
inline void st(u64* p, __m256i v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
inline __m256i xor3(__m256i a, __m256i b, __m256i c) { return _mm256_xor_si256(_mm256_xor_si256(a, b), c); }
inline __m256i bcast128(const u64* p) {
  return _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}

// ---- GF(2^128) arithmetic, two elements per ymm -----------------------------------------------

// Reduction of the 256-bit products (x = words 0, 1; y = words 2, 3 of each lane).
inline __m256i gf_reduce(__m256i x, __m256i y) {
  const __m256i r = _mm256_set1_epi64x(0x87);
  const __m256i t = _mm256_clmulepi64_epi128(y, r, 0x01);            // w3 * (z^7 + z^2 + z + 1)
  y = _mm256_xor_si256(y, _mm256_bsrli_epi128(t, 8));                // into w2
  x = _mm256_xor_si256(x, _mm256_bslli_epi128(t, 8));                // into w1
  return _mm256_xor_si256(x, _mm256_clmulepi64_epi128(y, r, 0x00));  // w2 * (...) into w0, w1
}

// b_lo ^ b_hi in the low word of each lane (Karatsuba fold).
inline __m256i kara_fold(__m256i b) { return _mm256_xor_si256(b, _mm256_shuffle_epi32(b, 0x4E)); }
// Product by a constant b with its fold bx (three VPCLMULQDQ).
inline __m256i gf_mul_const(__m256i a, __m256i b, __m256i bx) {
  const __m256i lo = _mm256_clmulepi64_epi128(a, b, 0x00);
  const __m256i hi = _mm256_clmulepi64_epi128(a, b, 0x11);
  const __m256i mid = xor3(_mm256_clmulepi64_epi128(kara_fold(a), bx, 0x00), lo, hi);
  return gf_reduce(_mm256_xor_si256(lo, _mm256_bslli_epi128(mid, 8)),
                   _mm256_xor_si256(hi, _mm256_bsrli_epi128(mid, 8)));
}

// Unreduced product by a constant: lo, mid, hi 128-bit parts per lane (true middle = mid ^ lo ^
// hi). Sums of unreduced products need one split and one reduction (lazy reduction).
struct Wide {
  __m256i lo, mid, hi;
};
inline Wide gf_mul_const_wide(__m256i a, __m256i b, __m256i bx) {
  return {_mm256_clmulepi64_epi128(a, b, 0x00), _mm256_clmulepi64_epi128(kara_fold(a), bx, 0x00),
          _mm256_clmulepi64_epi128(a, b, 0x11)};
}
// Unreduced general product (Karatsuba, both operands folded), same convention as above.
inline Wide gf_mul_wide(__m256i a, __m256i b) {
  return {_mm256_clmulepi64_epi128(a, b, 0x00), _mm256_clmulepi64_epi128(kara_fold(a), kara_fold(b), 0x00),
          _mm256_clmulepi64_epi128(a, b, 0x11)};
}
// Reduction of c + p + q (c reduced, p and q wide).
inline __m256i gf_reduce_sum(__m256i c, const Wide& p, const Wide& q) {
  const __m256i lo = xor3(c, p.lo, q.lo), hi = _mm256_xor_si256(p.hi, q.hi);
  const __m256i mid = xor3(xor3(p.mid, q.mid, p.lo), q.lo, hi);
  return gf_reduce(_mm256_xor_si256(lo, _mm256_bslli_epi128(mid, 8)),
                   _mm256_xor_si256(hi, _mm256_bsrli_epi128(mid, 8)));
}

// ---- Additive FFT on beta_127 + W_K ------------------------------------------------------------

// Twiddles of layer i (shared by K = 9 and 10): element 2^(9-i) - 1 of the table.
inline const u64* twiddles(unsigned layer) { return tables::kTwiddle + 2 * ((std::size_t{1} << (9 - layer)) - 1); }

struct Tw {
  __m256i t, x;  // twiddle (both lanes) and its Karatsuba fold
};
inline Tw tw_at(const u64* p) {
  const __m256i t = bcast128(p);
  return {t, kara_fold(t)};
}

// Radix-4 butterflies (layers i and i - 1) on quarters a0..a3, as avx512 r4_fwd / r4_inv: three
// reductions for the four products.
inline void r4_fwd(__m256i& a0, __m256i& a1, __m256i& a2, __m256i& a3, const Tw& t, const Tw& t0, const Tw& t1) {
  const Wide p02 = gf_mul_const_wide(a2, t.t, t.x);
  const __m256i b1 = _mm256_xor_si256(a1, gf_mul_const(a3, t.t, t.x));
  const __m256i b3 = _mm256_xor_si256(a3, b1);
  const __m256i c0 = gf_reduce_sum(a0, p02, gf_mul_const_wide(b1, t0.t, t0.x));
  const __m256i c2 = gf_reduce_sum(_mm256_xor_si256(a2, a0), p02, gf_mul_const_wide(b3, t1.t, t1.x));
  a0 = c0;
  a1 = _mm256_xor_si256(b1, c0);
  a2 = c2;
  a3 = _mm256_xor_si256(b3, c2);
}
inline void r4_inv(__m256i& a0, __m256i& a1, __m256i& a2, __m256i& a3, const Tw& t, const Tw& t0, const Tw& t1) {
  const __m256i b1 = _mm256_xor_si256(a1, a0);
  const __m256i b3 = _mm256_xor_si256(a3, a2);
  const Wide p0 = gf_mul_const_wide(b1, t0.t, t0.x);
  const Wide p2 = gf_mul_const_wide(b3, t1.t, t1.x);
  const __m256i c2 = gf_reduce_sum(_mm256_xor_si256(a2, a0), p0, p2);
  const __m256i c3 = _mm256_xor_si256(b3, b1);
  a0 = gf_reduce_sum(a0, p0, gf_mul_const_wide(c2, t.t, t.x));
  a1 = _mm256_xor_si256(b1, gf_mul_const(c3, t.t, t.x));
  a2 = c2;
  a3 = c3;
}

// Layers i and i - 1 (i >= 3) in one pass over memory.
template <bool Inverse>
void fft_layer2(u64* g, unsigned K, unsigned i) {
  const std::size_t qw = std::size_t{1} << i;  // words of a quarter (2^(i-1) elements)
  const u64* tw = twiddles(i);
  const u64* twl = twiddles(i - 1);
  for (std::size_t b = 0; b < (std::size_t{1} << (K - 1 - i)); b++) {
    const Tw t = tw_at(tw + 2 * b), t0 = tw_at(twl + 4 * b), t1 = tw_at(twl + 4 * b + 2);
    u64* q = g + 4 * qw * b;
    for (std::size_t x = 0; x < qw; x += 4) {
      __m256i a0 = ld(q + x), a1 = ld(q + qw + x), a2 = ld(q + 2 * qw + x), a3 = ld(q + 3 * qw + x);
      if constexpr (Inverse) r4_inv(a0, a1, a2, a3, t, t0, t1);
      else r4_fwd(a0, a1, a2, a3, t, t0, t1);
      st(q + x, a0);
      st(q + qw + x, a1);
      st(q + 2 * qw + x, a2);
      st(q + 3 * qw + x, a3);
    }
  }
}

// One layer i >= 2 in one pass over memory.
template <bool Inverse>
void fft_layer(u64* g, unsigned K, unsigned i) {
  const std::size_t half = std::size_t{1} << i;
  const u64* tw = twiddles(i);
  for (std::size_t b = 0; b < (std::size_t{1} << (K - 1 - i)); b++) {
    const Tw t = tw_at(tw + 2 * b);
    u64* u = g + 4 * half * b;
    u64* v = u + 2 * half;
    for (std::size_t x = 0; x < 2 * half; x += 4) {
      __m256i uu = ld(u + x), vv = ld(v + x);
      if constexpr (Inverse) {
        vv = _mm256_xor_si256(vv, uu);
        uu = _mm256_xor_si256(uu, gf_mul_const(vv, t.t, t.x));
      } else {
        uu = _mm256_xor_si256(uu, gf_mul_const(vv, t.t, t.x));
        vv = _mm256_xor_si256(vv, uu);
      }
      st(u + x, uu);
      st(v + x, vv);
    }
  }
}

// Layers 1 and 0 on the four elements (e0 e1 | e2 e3) = (z0 | z1) of unit c: layer 1 block c
// (u = z0, v = z1), then layer 0 blocks 2c, 2c + 1 (u = (e0, e2), v = (e1, e3)).
inline void bf10_fwd(__m256i& z0, __m256i& z1, std::size_t c) {
  const __m256i t1 = bcast128(twiddles(1) + 2 * c);
  z0 = _mm256_xor_si256(z0, gf_mul_const(z1, t1, kara_fold(t1)));
  z1 = _mm256_xor_si256(z1, z0);
  const __m256i t0 = ld(twiddles(0) + 4 * c);
  __m256i u = _mm256_permute2x128_si256(z0, z1, 0x20), v = _mm256_permute2x128_si256(z0, z1, 0x31);
  u = _mm256_xor_si256(u, gf_mul_const(v, t0, kara_fold(t0)));
  v = _mm256_xor_si256(v, u);
  z0 = _mm256_permute2x128_si256(u, v, 0x20);
  z1 = _mm256_permute2x128_si256(u, v, 0x31);
}
// Layer 1 undone on unit c (layer 0 is fused with the pointwise products in ifft_product).
inline void bf1_inv(__m256i& z0, __m256i& z1, std::size_t c) {
  const __m256i t1 = bcast128(twiddles(1) + 2 * c);
  z1 = _mm256_xor_si256(z1, z0);
  z0 = _mm256_xor_si256(z0, gf_mul_const(z1, t1, kara_fold(t1)));
}

// Layers K-1 .. 2 in radix-4 passes (plus one single layer 2 for odd K), layers 1 and 0 in a
// last pass inside registers: the same layer schedule as avx512.
template <unsigned K>
void fft(u64* g) {
  static_assert(K >= 4 && K <= 10);
  unsigned i = K - 1;
  for (; i >= 3; i -= 2) fft_layer2<false>(g, K, i);
  if (i == 2) fft_layer<false>(g, K, 2);
  for (std::size_t c = 0; c < (std::size_t{1} << (K - 2)); c++) {
    __m256i z0 = ld(g + 8 * c), z1 = ld(g + 8 * c + 4);
    bf10_fwd(z0, z1, c);
    st(g + 8 * c, z0);
    st(g + 8 * c + 4, z1);
  }
}

// g = inverse FFT of the pointwise product x * y (g may be x or y); the products are computed
// in the first pass.
template <unsigned K>
void ifft_product(u64* g, const u64* x, const u64* y) {
  static_assert(K >= 4 && K <= 10);
  for (std::size_t c = 0; c < (std::size_t{1} << (K - 2)); c++) {
    // Unit c = elements e0..e3; layer 0 on u = (e0, e2), v = (e1, e3) with lazy reduction:
    // v = xu*yu + xv*yv and u = xu*yu + t0 v, each reduced once (Karatsuba products).
    const std::size_t o = 8 * c;
    const __m256i x0 = ld(x + o), x1 = ld(x + o + 4), y0 = ld(y + o), y1 = ld(y + o + 4);
    const Wide pu = gf_mul_wide(_mm256_permute2x128_si256(x0, x1, 0x20), _mm256_permute2x128_si256(y0, y1, 0x20));
    const Wide pv = gf_mul_wide(_mm256_permute2x128_si256(x0, x1, 0x31), _mm256_permute2x128_si256(y0, y1, 0x31));
    const __m256i t0 = ld(twiddles(0) + 4 * c);
    const __m256i v = gf_reduce_sum(_mm256_setzero_si256(), pu, pv);
    const __m256i u = gf_reduce_sum(_mm256_setzero_si256(), pu, gf_mul_const_wide(v, t0, kara_fold(t0)));
    __m256i z0 = _mm256_permute2x128_si256(u, v, 0x20), z1 = _mm256_permute2x128_si256(u, v, 0x31);
    bf1_inv(z0, z1, c);
    st(g + o, z0);
    st(g + o + 4, z1);
  }
  unsigned i = K - 1;
  while (i >= 3) i -= 2;  // the bottom of the forward radix-4 passes
  if (i == 2) fft_layer<true>(g, K, 2);
  for (i += 2; i <= K - 1; i += 2) fft_layer2<true>(g, K, i);
}

// ---- Novel-basis conversion over GF(2) ---------------------------------------------------------
//
// The steps (convert(L, G), the Taylor expansions at s_T), their plan of register and memory
// passes (backend/fafft/plan.hpp) and the passes' code (backend/fafft/conversion_passes.hpp) are
// shared with avx512 fafft.cpp. Every step leaves its source range unchanged and moves bits
// downwards (src > dst), so the inverse is the same steps in reverse order and bits above a zero
// bound stay zero. Here are the ymm forms of the passes' vector operations.

// w[dst .. dst+len) ^= w[src .. src+len) (bit ranges, src > dst, disjoint), four destination
// words at a time; w has readable padding words past the source range. All arguments public.
void xor_range(u64* w, std::size_t dst, std::size_t src, std::size_t len) {
  if ((dst | src | len) % 64 == 0) {  // whole words
    u64* d = w + dst / 64;
    const u64* sp = w + src / 64;
    const std::size_t nw = len / 64;
    std::size_t i = 0;
    for (; i + 4 <= nw; i += 4) st(d + i, _mm256_xor_si256(ld(d + i), ld(sp + i)));
    for (; i < nw; i++) d[i] ^= sp[i];
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
  auto mask_of = [&](std::size_t dw) {
    u64 m = ~u64{0};
    if (dw == dw0) m &= head_mask;
    if (dw == dw1) m &= tail_mask;
    return m;
  };
  std::size_t dw = dw0;
  for (; dw + 3 <= dw1; dw += 4) {
    const __m256i m =
        _mm256_set_epi64x(static_cast<long long>(mask_of(dw + 3)), static_cast<long long>(mask_of(dw + 2)),
                          static_cast<long long>(mask_of(dw + 1)), static_cast<long long>(mask_of(dw)));
    __m256i v = ld(w + dw + q);
    if (r != 0) v = _mm256_or_si256(_mm256_srl_epi64(v, rc), _mm256_sll_epi64(ld(w + dw + q + 1), rc2));
    st(w + dw, _mm256_xor_si256(ld(w + dw), _mm256_and_si256(v, m)));
  }
  for (; dw <= dw1; dw++) {
    u64 v = w[dw + q];
    if (r != 0) v = (v >> r) | (w[dw + q + 1] << (64 - r));
    w[dw] ^= v & mask_of(dw);
  }
}

// The ymm traits of the shared conversion passes (backend/fafft/conversion_passes.hpp). A register
// unit is sixteen ymm (the same 4096 bits as avx512's eight zmm).
struct YmmPasses {
  using Vec = __m256i;
  static constexpr int kWords = 4;
  static Vec zero() { return _mm256_setzero_si256(); }
  static Vec load(const u64* p) { return ld(p); }
  static void store(u64* p, Vec v) { st(p, v); }
  static Vec loadu(const u64* p) { return ld(p); }
  static void storeu(u64* p, Vec v) { st(p, v); }
  static Vec bxor(Vec a, Vec b) { return _mm256_xor_si256(a, b); }
  static Vec bor(Vec a, Vec b) { return _mm256_or_si256(a, b); }
  // Shifts by a constant count (an immediate once inlined).
  static Vec srli(Vec x, unsigned r) { return _mm256_srli_epi64(x, static_cast<int>(r)); }
  static Vec slli(Vec x, unsigned r) { return _mm256_slli_epi64(x, static_cast<int>(r)); }
  static Vec xor_and(Vec x, Vec s, Vec m) { return _mm256_xor_si256(x, _mm256_and_si256(s, m)); }
  static Vec set(const u64* m) {
    return _mm256_set_epi64x(static_cast<long long>(m[3]), static_cast<long long>(m[2]), static_cast<long long>(m[1]),
                             static_cast<long long>(m[0]));
  }
  template <int O>
  static Vec words_from(Vec lo, Vec hi) {
    const Vec mid = _mm256_permute2x128_si256(lo, hi, 0x21);  // words 2 .. 5 of lo:hi
    if constexpr (O == 2) return mid;
    else if constexpr (O == 1) return _mm256_alignr_epi8(mid, lo, 8);
    else return _mm256_alignr_epi8(hi, mid, 8);
  }
  static void xor_range(u64* w, std::size_t dst, std::size_t src, std::size_t len) {
    fafft::xor_range(w, dst, src, len);
  }
};
using Conversion = backend::fafft::ConversionPasses<YmmPasses>;

// ---- Encoding / decoding: 128 rows of 2^K bits <-> 2^K field elements -------------------------
//
// The bit-matrix products of avx512 fafft.cpp (docs/FAFFT.md) with the same tables, four GFNI
// lanes per ymm. The 8x8 byte transposes (VPERMB there) are PUNPCKLBW/HBW + PUNPCKLWD/HWD, then
// VPERMQ + PSHUFD to put each column's two dwords together, and a PSHUFB where the byte order
// must change.

constexpr u64 kRevBytes = 0x0102040810204080ull;  // matrix R as X operand
constexpr u64 kIdBytes = 0x8040201008040201ull;   // identity as X operand

// Rows g0..g3 in A's qwords, g4..g7 in B's. Returns columns k = 0..3 (lo) and 4..7 (hi): qword
// k holds byte k of the rows in the order g0 g4 g1 g5 g2 g6 g3 g7.
struct Cols {
  __m256i lo, hi;
};
inline __m256i gather_cols(__m256i v) {  // dwords (k, 4 + k) -> qword k
  return _mm256_shuffle_epi32(_mm256_permute4x64_epi64(v, 0xD8), 0xD8);
}
inline Cols transpose8(__m256i a, __m256i b) {
  const __m256i p = _mm256_unpacklo_epi8(a, b), q = _mm256_unpackhi_epi8(a, b);
  return {gather_cols(_mm256_unpacklo_epi16(p, q)), gather_cols(_mm256_unpackhi_epi16(p, q))};
}
// PSHUFB patterns (per qword): the output byte i takes input byte pat[i].
inline __m256i qword_pattern(const std::uint8_t (&pat)[8]) {
  alignas(32) std::uint8_t b[32];
  for (int i = 0; i < 32; i++) b[i] = static_cast<std::uint8_t>(pat[i % 8] + 8 * (i / 8 % 2));
  return _mm256_load_si256(reinterpret_cast<const __m256i*>(b));
}
// (e0 e4 e2 e6 e1 e5 e3 e7) -> e7 e6 .. e0.
constexpr std::uint8_t kPatDec[8] = {7, 3, 5, 1, 6, 2, 4, 0};

// The encoding constants (the first 128 words of tables::kEnc*: C_(t8,p) at 16 t8 + p, t8 < 8)
// with each t8's 16 qwords reordered as p = 0 2 4 6 | 1 3 5 7 | 8 10 12 14 | 9 11 13 15, so that
// the accumulators (A, B) = (p 0 2 4 6, p 1 3 5 7) are the row order for which transpose8 gives
// bytes p0 .. p7 in order (no byte shuffle after it). Compile-time copy of public constants.
struct EncPerm {
  alignas(32) u64 w[128];
};
constexpr EncPerm make_enc_perm(const u64* enc) {
  constexpr int kOrder[16] = {0, 2, 4, 6, 1, 3, 5, 7, 8, 10, 12, 14, 9, 11, 13, 15};
  EncPerm e{};
  for (int t8 = 0; t8 < 8; t8++)
    for (int i = 0; i < 16; i++) e.w[16 * t8 + i] = enc[16 * t8 + kOrder[i]];
  return e;
}
template <unsigned K>
inline constexpr EncPerm kEncPerm = make_enc_perm(K == 9 ? tables::kEnc9 : tables::kEnc10);
template <unsigned K>
const u64* enc_table() {
  return kEncPerm<K>.w;
}
template <unsigned K>
const u64* dec_table() {
  if constexpr (K == 9) return tables::kDec9;
  else return tables::kDec10;
}

// 4x4 qword transpose: row i of (a, b, c, d) -> column i.
inline void transpose4(__m256i& a, __m256i& b, __m256i& c, __m256i& d) {
  const __m256i t0 = _mm256_unpacklo_epi64(a, b), t1 = _mm256_unpackhi_epi64(a, b);
  const __m256i t2 = _mm256_unpacklo_epi64(c, d), t3 = _mm256_unpackhi_epi64(c, d);
  a = _mm256_permute2x128_si256(t0, t2, 0x20);
  b = _mm256_permute2x128_si256(t1, t3, 0x20);
  c = _mm256_permute2x128_si256(t0, t2, 0x31);
  d = _mm256_permute2x128_si256(t1, t3, 0x31);
}

// Rows 0..7 (at a public stride) of four consecutive words: a[i] = rows 0, 2, 4, 6 and b[i] =
// rows 1, 3, 5, 7 of word i (the order for which transpose8 gives sorted bytes).
inline void load_rows4(const u64* p, std::size_t stride, __m256i (&a)[4], __m256i (&b)[4]) {
  for (std::size_t i = 0; i < 4; i++) {
    a[i] = ld(p + 2 * i * stride);
    b[i] = ld(p + (2 * i + 1) * stride);
  }
  transpose4(a[0], a[1], a[2], a[3]);
  transpose4(b[0], b[1], b[2], b[3]);
}

// t = encoding of rows 0..63 of `bits` (rows 64..127 are zero).
template <unsigned K>
void encode_half(u64* t, const u64* bits) {
  constexpr std::size_t RW = (std::size_t{1} << K) / 64;  // words per row
  const u64* enc = enc_table<K>();
  const __m256i rev = _mm256_set1_epi64x(static_cast<long long>(kRevBytes));
  alignas(32) u64 t1s[4 * 64];  // R D^T R of the 64 blocks of words w0..w0+3, broadcast from memory
  static_assert(RW % 4 == 0);
  for (std::size_t w0 = 0; w0 < RW; w0 += 4) {
    for (std::size_t t8 = 0; t8 < 8; t8++) {
      __m256i a[4], b[4];
      load_rows4(bits + 8 * t8 * RW + w0, RW, a, b);
      for (std::size_t i = 0; i < 4; i++) {
        const Cols d = transpose8(a[i], b[i]);  // qword b = D_(t8, 8(w0+i)+b)
        st(t1s + 64 * i + 8 * t8, _mm256_gf2p8affine_epi64_epi8(rev, d.lo, 0));
        st(t1s + 64 * i + 8 * t8 + 4, _mm256_gf2p8affine_epi64_epi8(rev, d.hi, 0));
      }
    }
    for (std::size_t wb = 0; wb < 32; wb++) {
      const std::size_t w = w0 + wb / 8, b = wb % 8;
      __m256i acc[4] = {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256()};
      for (std::size_t t8 = 0; t8 < 8; t8++) {
        const __m256i x = _mm256_set1_epi64x(static_cast<long long>(t1s[64 * (wb / 8) + 8 * t8 + b]));
        for (int k = 0; k < 4; k++)
          acc[k] = _mm256_xor_si256(acc[k], _mm256_gf2p8affine_epi64_epi8(x, ld(enc + 16 * t8 + 4 * k), 0));
      }
      // acc qword p, byte 7 - jl = byte p of element 8J + jl: transpose back.
      const Cols c1 = transpose8(acc[0], acc[1]), c2 = transpose8(acc[2], acc[3]);  // columns k = 7 - jl
      const __m256i l1 = c1.lo, h1 = c1.hi, l2 = c2.lo, h2 = c2.hi;
      // h = (jl3 jl2 | jl1 jl0), l = (jl7 jl6 | jl5 jl4); halves p 0..7 (1) and 8..15 (2).
      const __m256i hl = _mm256_unpacklo_epi64(h1, h2), hh = _mm256_unpackhi_epi64(h1, h2);  // (3|1), (2|0)
      const __m256i ll = _mm256_unpacklo_epi64(l1, l2), lh = _mm256_unpackhi_epi64(l1, l2);  // (7|5), (6|4)
      u64* o = t + 16 * (8 * w + b);
      st(o, _mm256_permute2x128_si256(hh, hl, 0x31));
      st(o + 4, _mm256_permute2x128_si256(hh, hl, 0x20));
      st(o + 8, _mm256_permute2x128_si256(lh, ll, 0x31));
      st(o + 12, _mm256_permute2x128_si256(lh, ll, 0x20));
    }
  }
  wipe(t1s, sizeof(t1s));
}

// In place: t (2^K field elements) -> 128 rows of 2^K bits (the novel-basis coefficients in
// index order). tmp: 2^(K+1) words of scratch.
template <unsigned K>
void decode_full(u64* t, u64* tmp) {
  constexpr std::size_t RW = (std::size_t{1} << K) / 64;
  const u64* dec = dec_table<K>();
  const __m256i id = _mm256_set1_epi64x(static_cast<long long>(kIdBytes));
  const __m256i pdec = qword_pattern(kPatDec);
  // R*In_p for every J: qword p of tmp[16 J ..] has byte qq = byte p of element 8J + 7 - qq.
  for (std::size_t J = 0; J < (std::size_t{1} << K) / 8; J++) {
    const u64* e = t + 16 * J;
    const __m256i e0 = ld(e), e1 = ld(e + 4), e2 = ld(e + 8), e3 = ld(e + 12);
    const Cols lo = transpose8(_mm256_unpacklo_epi64(e0, e1), _mm256_unpacklo_epi64(e2, e3));
    const Cols hi = transpose8(_mm256_unpackhi_epi64(e0, e1), _mm256_unpackhi_epi64(e2, e3));
    st(tmp + 16 * J, _mm256_shuffle_epi8(lo.lo, pdec));
    st(tmp + 16 * J + 4, _mm256_shuffle_epi8(lo.hi, pdec));
    st(tmp + 16 * J + 8, _mm256_shuffle_epi8(hi.lo, pdec));
    st(tmp + 16 * J + 12, _mm256_shuffle_epi8(hi.hi, pdec));
  }
  for (std::size_t J = 0; J < (std::size_t{1} << K) / 8; J++) {
    const u64* rin = tmp + 16 * J;
    __m256i y[4] = {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256()};
    for (std::size_t p = 0; p < 16; p++) {
      const __m256i x = _mm256_set1_epi64x(static_cast<long long>(rin[p]));
      for (int k = 0; k < 4; k++)
        y[k] = _mm256_xor_si256(y[k], _mm256_gf2p8affine_epi64_epi8(x, ld(dec + 16 * p + 4 * k), 0));
    }
    for (int k = 0; k < 4; k++) st(t + 16 * J + 4 * k, _mm256_gf2p8affine_epi64_epi8(id, y[k], 0));  // D_(t8, J)
  }
  // Second pass: D_(t8, 8w+b) for b = 0..7 (stride 16 words), bytes transposed so that qword r
  // = word w of row 8*t8 + r, stored to tmp[t8][w][r].
  for (std::size_t w = 0; w < RW; w++)
    for (std::size_t g = 0; g < 16; g += 4) {
      __m256i a[4], b[4];
      load_rows4(t + 16 * 8 * w + g, 16, a, b);  // a[i], b[i]: t8 = g + i
      for (std::size_t i = 0; i < 4; i++) {
        const Cols c = transpose8(a[i], b[i]);
        st(tmp + 8 * ((g + i) * RW + w), c.lo);
        st(tmp + 8 * ((g + i) * RW + w) + 4, c.hi);
      }
    }
  // Third pass: 4x4 qword transposes tmp[t8][4c .. 4c+3][r] -> row 8*t8 + r, words 4c .. 4c+3.
  for (std::size_t t8 = 0; t8 < 16; t8++)
    for (std::size_t c = 0; c < RW / 4; c++) {
      const u64* s = tmp + 8 * (t8 * RW + 4 * c);
      for (std::size_t h = 0; h < 2; h++) {
        __m256i z0 = ld(s + 4 * h), z1 = ld(s + 8 + 4 * h), z2 = ld(s + 16 + 4 * h), z3 = ld(s + 24 + 4 * h);
        transpose4(z0, z1, z2, z3);
        u64* o = t + (8 * t8 + 4 * h) * RW + 4 * c;
        st(o, z0);
        st(o + RW, z1);
        st(o + 2 * RW, z2);
        st(o + 3 * RW, z3);
      }
    }
}

// ---- Whole transforms --------------------------------------------------------------------------

template <class P>
void reduce_out(u64* out, const u64* c) {
  constexpr std::size_t q = P::kN / 64;
  constexpr unsigned r = P::kN % 64;
  static_assert(r != 0);
  std::size_t i = 0;
  for (; i + 4 <= P::kNWords; i += 4) {
    const __m256i hi = _mm256_or_si256(_mm256_srli_epi64(ld(c + i + q), static_cast<int>(r)),
                                       _mm256_slli_epi64(ld(c + i + q + 1), static_cast<int>(64 - r)));
    st(out + i, _mm256_xor_si256(ld(c + i), hi));
  }
  for (; i < P::kNWords; i++) out[i] = c[i] ^ (c[i + q] >> r) ^ (c[i + q + 1] << (64 - r));
  out[P::kNWords - 1] &= P::kLastWordMask;
  for (i = P::kNWords; i < P::kNWordsPadded; i++) out[i] = 0;
}

// The parts of the shared composition of the entry points (backend/fafft/entry_points.hpp).
struct Parts {
  static constexpr unsigned kLogElementBits = 7;  // GF(2^128)
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
    fafft::encode_half<K>(t, bits);
  }
  // In place (tmp is scratch).
  template <unsigned K>
  static u64* decode_full(u64* t, u64* tmp) {
    fafft::decode_full<K>(t, tmp);
    return t;
  }
  template <unsigned K>
  static void fft(u64* g) {
    fafft::fft<K>(g);
  }
  template <unsigned K>
  static void ifft_product(u64* g, const u64* x, const u64* y) {
    fafft::ifft_product<K>(g, x, y);
  }
  template <class P>
  static void reduce_out(u64* out, const u64* c) {
    fafft::reduce_out<P>(out, c);
  }
  static void wipe(void* p, std::size_t len) { ::hqc::backend::avx2::wipe(p, len); }
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
