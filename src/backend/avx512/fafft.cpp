// Frobenius additive FFT multiplier (see fafft.hpp and docs/FAFFT.md).
//
// Field GF(2^128) = GF(2)[z]/(z^128 + z^7 + z^2 + z + 1), one element per 128-bit lane, multiplied
// with three (by a twiddle, Karatsuba) or four VPCLMULQDQ and reduced with two more by the fixed
// constant 0x87. Cantor basis
// beta_i (beta_0 = 1, beta_i^2 + beta_i = beta_(i-1)), subspace polynomials s_i with
// s_i(beta_j) = beta_(j-i), s_(2^t)(x) = x^(2^(2^t)) + x, novel basis X_j = prod_(bit i of j) s_i.
//
// Transform of a binary polynomial f, deg f < 2^m, K = m - 7:
//  1. novel-basis conversion (over GF(2), recursive Taylor expansions at x^(2^T) + x);
//  2. encoding: with i = t*2^K + j, G_j = sum_t c_i E_t, E_t = X_t(s_K(beta_127)) (a fixed
//     invertible 128x128 bit matrix, applied with GFNI 8x8 bit-matrix products);
//  3. additive FFT of g = sum_j G_j X_j on the coset beta_127 + W_K (Lin-Chung-Han butterflies,
//     precomputed twiddles s_i(offset)).
// The result is f at the 2^K points; their Frobenius orbits are disjoint, of size 128, so the
// transform is a bijection on 2^m bits and the product is its inverse of the pointwise product.
//
// Constant time: no branch, loop bound or address depends on data (only on m), the GF(2)
// arithmetic is bit-parallel and GF(2^128) products use carry-less multiplication.
#include "backend/avx512/fafft.hpp"

#include <immintrin.h>

#include <cstring>
#include <utility>

#include "backend/avx512/kernels.hpp"
#include "backend/avx512/simd.hpp"
#include "backend/fafft/conversion_passes.hpp"
#include "backend/fafft/entry_points.hpp"
#include "backend/fafft/tables.hpp"
#include "params/params.hpp"

namespace hqc::backend::avx512::fafft {
namespace {

using u64 = std::uint64_t;
namespace tables = ::hqc::backend::fafft::tables;

// Zero-masked forms with full masks (same instructions): g++ 12 warns on the unmasked ones.
inline __m512i perm64(__m512i idx, __m512i x) { return _mm512_maskz_permutexvar_epi64(0xFF, idx, x); }
inline __m512i perm8(__m512i idx, __m512i x) { return _mm512_maskz_permutexvar_epi8(~__mmask64{0}, idx, x); }
inline __m512i bcast128(const std::uint64_t* p) {
  return _mm512_maskz_broadcast_i32x4(0xFFFF, _mm_load_si128(reinterpret_cast<const __m128i*>(p)));
}
inline __m512i srl(__m512i x, __m128i c) { return _mm512_maskz_srl_epi64(0xFF, x, c); }
inline __m512i sll(__m512i x, __m128i c) { return _mm512_maskz_sll_epi64(0xFF, x, c); }
inline __m512i gather64(__m512i idx, const std::uint64_t* base) {
  return _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), 0xFF, idx, base, 8);
}
inline __m512i xor3(__m512i a, __m512i b, __m512i c) { return xor3_512(a, b, c); }
// a ^ (b & c); plain vector ops under MemorySanitizer (see simd.hpp).
inline __m512i xor_and(__m512i a, __m512i b, __m512i c) {
#ifdef HQC_AVX512_MSAN
  return _mm512_xor_si512(a, _mm512_and_si512(b, c));
#else
  return _mm512_ternarylogic_epi64(a, b, c, 0x78);
#endif
}

// ---- GF(2^128) arithmetic, four elements per zmm ----------------------------------------------

// Reduction of the 256-bit products (x = words 0, 1; y = words 2, 3 of each lane).
inline __m512i gf_reduce(__m512i x, __m512i y) {
  const __m512i r = _mm512_set1_epi64(0x87);
  const __m512i t = _mm512_clmulepi64_epi128(y, r, 0x01);            // w3 * (z^7 + z^2 + z + 1)
  y = _mm512_xor_si512(y, _mm512_bsrli_epi128(t, 8));                // into w2
  x = _mm512_xor_si512(x, _mm512_bslli_epi128(t, 8));                // into w1
  return _mm512_xor_si512(x, _mm512_clmulepi64_epi128(y, r, 0x00));  // w2 * (...) into w0, w1
}

inline __m512i gf_mul(__m512i a, __m512i b) {
  const __m512i lo = _mm512_clmulepi64_epi128(a, b, 0x00);
  const __m512i hi = _mm512_clmulepi64_epi128(a, b, 0x11);
  const __m512i mid = _mm512_xor_si512(_mm512_clmulepi64_epi128(a, b, 0x01), _mm512_clmulepi64_epi128(a, b, 0x10));
  return gf_reduce(_mm512_xor_si512(lo, _mm512_bslli_epi128(mid, 8)),
                   _mm512_xor_si512(hi, _mm512_bsrli_epi128(mid, 8)));
}

// Product by a constant b with bx = b_lo ^ b_hi in the low word of each lane (Karatsuba, three
// VPCLMULQDQ).
inline __m512i kara_fold(__m512i b) {
  return _mm512_xor_si512(b, _mm512_maskz_shuffle_epi32(0xFFFF, b, _MM_PERM_BADC));
}
inline __m512i gf_mul_const(__m512i a, __m512i b, __m512i bx) {
  const __m512i lo = _mm512_clmulepi64_epi128(a, b, 0x00);
  const __m512i hi = _mm512_clmulepi64_epi128(a, b, 0x11);
  const __m512i mid = xor3(_mm512_clmulepi64_epi128(kara_fold(a), bx, 0x00), lo, hi);
  return gf_reduce(_mm512_xor_si512(lo, _mm512_bslli_epi128(mid, 8)),
                   _mm512_xor_si512(hi, _mm512_bsrli_epi128(mid, 8)));
}

// Unreduced product by a constant (Karatsuba): lo, mid, hi 128-bit parts per lane. Sums of
// unreduced products need one split and one reduction (lazy reduction in the radix-4 passes).
struct Wide {
  __m512i lo, mid, hi;
};
inline Wide gf_mul_const_wide(__m512i a, __m512i b, __m512i bx) {
  const __m512i lo = _mm512_clmulepi64_epi128(a, b, 0x00);
  const __m512i hi = _mm512_clmulepi64_epi128(a, b, 0x11);
  const __m512i mid = _mm512_clmulepi64_epi128(kara_fold(a), bx, 0x00);
  return {lo, mid, hi};  // true middle = mid ^ lo ^ hi
}
// Reduction of c + p + q (c reduced, p and q wide).
inline __m512i gf_reduce_sum(__m512i c, const Wide& p, const Wide& q) {
  const __m512i lo = xor3(c, p.lo, q.lo), hi = _mm512_xor_si512(p.hi, q.hi);
  const __m512i mid = xor3(xor3(p.mid, q.mid, p.lo), q.lo, hi);
  return gf_reduce(_mm512_xor_si512(lo, _mm512_bslli_epi128(mid, 8)),
                   _mm512_xor_si512(hi, _mm512_bsrli_epi128(mid, 8)));
}

// ---- Additive FFT on beta_127 + W_K ------------------------------------------------------------

inline const u64* twiddles(unsigned layer) { return tables::kTwiddle + 2 * ((std::size_t{1} << (9 - layer)) - 1); }

alignas(64) constexpr u64 kIdxLo4[8] = {0, 1, 2, 3, 8, 9, 10, 11};
alignas(64) constexpr u64 kIdxHi4[8] = {4, 5, 6, 7, 12, 13, 14, 15};
alignas(64) constexpr u64 kIdxEven[8] = {0, 1, 4, 5, 8, 9, 12, 13};
alignas(64) constexpr u64 kIdxOdd[8] = {2, 3, 6, 7, 10, 11, 14, 15};
alignas(64) constexpr u64 kIdxIlv0[8] = {0, 1, 8, 9, 2, 3, 10, 11};
alignas(64) constexpr u64 kIdxIlv1[8] = {4, 5, 12, 13, 6, 7, 14, 15};
alignas(64) constexpr u64 kIdxDup[8] = {0, 1, 0, 1, 2, 3, 2, 3};

inline __m512i ld(const u64* p) { return _mm512_load_si512(p); }
inline void st(u64* p, __m512i v) { _mm512_store_si512(p, v); }

// Radix-4 butterflies (layers i and i - 1) on quarters a0..a3: layer i with twiddle t on
// (a0, a2), (a1, a3), then layer i - 1 with t0 on (a0, a1) and t1 on (a2, a3). Lazy reduction:
// three reductions for the four products.
struct Tw {
  __m512i t, x;  // twiddle and its Karatsuba fold
};
inline Tw tw_at(const u64* p) {
  const __m512i t = bcast128(p);
  return {t, kara_fold(t)};
}
inline void r4_fwd(__m512i& a0, __m512i& a1, __m512i& a2, __m512i& a3, const Tw& t, const Tw& t0, const Tw& t1) {
  // layer i: a0' = a0 + t a2 (kept wide), a1' = a1 + t a3, a2' = a2 + a0', a3' = a3 + a1'
  const Wide p02 = gf_mul_const_wide(a2, t.t, t.x);
  const __m512i b1 = _mm512_xor_si512(a1, gf_mul_const(a3, t.t, t.x));
  const __m512i b3 = _mm512_xor_si512(a3, b1);
  // layer i - 1: a0'' = a0' + t0 a1', a2'' = a2' + t1 a3' (one reduction each)
  const __m512i c0 = gf_reduce_sum(a0, p02, gf_mul_const_wide(b1, t0.t, t0.x));
  const __m512i c2 = gf_reduce_sum(_mm512_xor_si512(a2, a0), p02, gf_mul_const_wide(b3, t1.t, t1.x));
  a0 = c0;
  a1 = _mm512_xor_si512(b1, c0);
  a2 = c2;
  a3 = _mm512_xor_si512(b3, c2);
}
inline void r4_inv(__m512i& a0, __m512i& a1, __m512i& a2, __m512i& a3, const Tw& t, const Tw& t0, const Tw& t1) {
  const __m512i b1 = _mm512_xor_si512(a1, a0);  // layer i - 1 undone: a1 += a0, a3 += a2,
  const __m512i b3 = _mm512_xor_si512(a3, a2);
  const Wide p0 = gf_mul_const_wide(b1, t0.t, t0.x);  // a0 += t0 a1 (wide)
  const Wide p2 = gf_mul_const_wide(b3, t1.t, t1.x);  // a2 += t1 a3 (wide)
  // layer i undone: a2 += a0, a0 += t a2; a3 += a1, a1 += t a3
  const __m512i c2 = gf_reduce_sum(_mm512_xor_si512(a2, a0), p0, p2);
  const __m512i c3 = _mm512_xor_si512(b3, b1);
  a0 = gf_reduce_sum(a0, p0, gf_mul_const_wide(c2, t.t, t.x));
  a1 = _mm512_xor_si512(b1, gf_mul_const(c3, t.t, t.x));
  a2 = c2;
  a3 = c3;
}

// Layers i and i - 1 (i >= 3) in one pass over memory.
inline void fft_layer2(u64* g, unsigned K, unsigned i, bool inverse) {
  const std::size_t qw = std::size_t{1} << i;  // words of a quarter (2^(i-1) elements)
  const u64* tw = twiddles(i);
  const u64* twl = twiddles(i - 1);
  for (std::size_t b = 0; b < (std::size_t{1} << (K - 1 - i)); b++) {
    const Tw t = tw_at(tw + 2 * b), t0 = tw_at(twl + 4 * b), t1 = tw_at(twl + 4 * b + 2);
    u64* q = g + 4 * qw * b;
    for (std::size_t x = 0; x < qw; x += 8) {
      __m512i a0 = ld(q + x), a1 = ld(q + qw + x), a2 = ld(q + 2 * qw + x), a3 = ld(q + 3 * qw + x);
      if (inverse) r4_inv(a0, a1, a2, a3, t, t0, t1);
      else r4_fwd(a0, a1, a2, a3, t, t0, t1);
      st(q + x, a0);
      st(q + qw + x, a1);
      st(q + 2 * qw + x, a2);
      st(q + 3 * qw + x, a3);
    }
  }
}

// Layers 1 and 0 on the eight elements of (z0, z1), unit c (twiddles of blocks 2c, 2c + 1 of
// layer 1 and 4c .. 4c + 3 of layer 0), inside registers.
inline void bf10_fwd(__m512i& z0, __m512i& z1, std::size_t c) {
  const __m512i lo4 = ld(kIdxLo4), hi4 = ld(kIdxHi4), ev = ld(kIdxEven), od = ld(kIdxOdd);
  const __m512i t1 = perm64(ld(kIdxDup), _mm512_maskz_loadu_epi64(0x0F, twiddles(1) + 4 * c));
  __m512i u = _mm512_permutex2var_epi64(z0, lo4, z1), v = _mm512_permutex2var_epi64(z0, hi4, z1);
  u = _mm512_xor_si512(u, gf_mul_const(v, t1, kara_fold(t1)));
  v = _mm512_xor_si512(v, u);
  z0 = _mm512_permutex2var_epi64(u, lo4, v);
  z1 = _mm512_permutex2var_epi64(u, hi4, v);
  const __m512i t0 = _mm512_loadu_si512(twiddles(0) + 8 * c);
  u = _mm512_permutex2var_epi64(z0, ev, z1);
  v = _mm512_permutex2var_epi64(z0, od, z1);
  u = _mm512_xor_si512(u, gf_mul_const(v, t0, kara_fold(t0)));
  v = _mm512_xor_si512(v, u);
  z0 = _mm512_permutex2var_epi64(u, ld(kIdxIlv0), v);
  z1 = _mm512_permutex2var_epi64(u, ld(kIdxIlv1), v);
}
inline void bf01_inv(__m512i& z0, __m512i& z1, std::size_t c) {
  const __m512i lo4 = ld(kIdxLo4), hi4 = ld(kIdxHi4), ev = ld(kIdxEven), od = ld(kIdxOdd);
  const __m512i t0 = _mm512_loadu_si512(twiddles(0) + 8 * c);
  __m512i u = _mm512_permutex2var_epi64(z0, ev, z1), v = _mm512_permutex2var_epi64(z0, od, z1);
  v = _mm512_xor_si512(v, u);
  u = _mm512_xor_si512(u, gf_mul_const(v, t0, kara_fold(t0)));
  z0 = _mm512_permutex2var_epi64(u, ld(kIdxIlv0), v);
  z1 = _mm512_permutex2var_epi64(u, ld(kIdxIlv1), v);
  const __m512i t1 = perm64(ld(kIdxDup), _mm512_maskz_loadu_epi64(0x0F, twiddles(1) + 4 * c));
  u = _mm512_permutex2var_epi64(z0, lo4, z1);
  v = _mm512_permutex2var_epi64(z0, hi4, z1);
  v = _mm512_xor_si512(v, u);
  u = _mm512_xor_si512(u, gf_mul_const(v, t1, kara_fold(t1)));
  z0 = _mm512_permutex2var_epi64(u, lo4, v);
  z1 = _mm512_permutex2var_epi64(u, hi4, v);
}

// One layer i >= 2 in one pass over memory.
inline void fft_layer(u64* g, unsigned K, unsigned i, bool inverse) {
  const std::size_t half = std::size_t{1} << i;
  const u64* tw = twiddles(i);
  for (std::size_t b = 0; b < (std::size_t{1} << (K - 1 - i)); b++) {
    const Tw t = tw_at(tw + 2 * b);
    u64* u = g + 4 * half * b;
    u64* v = u + 2 * half;
    for (std::size_t x = 0; x < 2 * half; x += 8) {
      __m512i uu = ld(u + x), vv = ld(v + x);
      if (inverse) {
        vv = _mm512_xor_si512(vv, uu);
        uu = _mm512_xor_si512(uu, gf_mul_const(vv, t.t, t.x));
      } else {
        uu = _mm512_xor_si512(uu, gf_mul_const(vv, t.t, t.x));
        vv = _mm512_xor_si512(vv, uu);
      }
      st(u + x, uu);
      st(v + x, vv);
    }
  }
}

// Layers K-1 .. 2 in radix-4 passes (plus one single layer 2 for odd K), layers 1 and 0 in a
// last pass inside registers. (Deeper fusion, e.g. layers 3..0 in registers, measured slower:
// the dependent products of one block then form a long latency chain.)
template <unsigned K>
void fft(u64* g) {
  static_assert(K >= 4 && K <= 10);
  unsigned i = K - 1;
  for (; i >= 3; i -= 2) fft_layer2(g, K, i, false);
  if (i == 2) fft_layer(g, K, 2, false);
  for (std::size_t c = 0; c < (std::size_t{1} << (K - 3)); c++) {
    __m512i z0 = ld(g + 16 * c), z1 = ld(g + 16 * c + 8);
    bf10_fwd(z0, z1, c);
    st(g + 16 * c, z0);
    st(g + 16 * c + 8, z1);
  }
}

// g = inverse FFT of the pointwise product x * y (g may be x or y); the products are computed
// in the first pass.
template <unsigned K>
void ifft_product(u64* g, const u64* x, const u64* y) {
  static_assert(K >= 4 && K <= 10);
  for (std::size_t c = 0; c < (std::size_t{1} << (K - 3)); c++) {
    const std::size_t o = 16 * c;
    __m512i z0 = gf_mul(ld(x + o), ld(y + o)), z1 = gf_mul(ld(x + o + 8), ld(y + o + 8));
    bf01_inv(z0, z1, c);
    st(g + o, z0);
    st(g + o + 8, z1);
  }
  unsigned i = K - 1;
  while (i >= 3) i -= 2;  // the bottom of the forward radix-4 passes
  if (i == 2) fft_layer(g, K, 2, true);
  for (i += 2; i <= K - 1; i += 2) fft_layer2(g, K, i, true);
}

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
};
using Conversion = backend::fafft::ConversionPasses<ZmmPasses>;

// ---- Encoding / decoding: 128 rows of 2^K bits <-> 2^K field elements -------------------------
//
// With D_(t8,J) the 8x8 bit block (byte r = byte J of row 8*t8 + r) and gf2p8affineqb(X, A)
// computing X * A^T * R (R = bit-order reversal), encoding is, per J and byte p of the output,
// R * Out_p = sum_t8 (R D^T R) * C_(t8,p)^T * R with C = R K^T R, K[r][s] = E_(8t8+r) bit 8p+s
// (tables::kEnc*). Decoding mirrors it with A_(t8,p) = R * Q, Q[r][s] = Minv[8t8+r][8p+s]
// (tables::kDec*), and a last transposition with the identity.

constexpr u64 kRevBytes = 0x0102040810204080ull;  // matrix R as X operand
constexpr u64 kIdBytes = 0x8040201008040201ull;   // identity as X operand

struct ByteIdx {
  alignas(64) std::uint8_t tr[64];    // 8x8 byte transpose within a zmm
  alignas(64) std::uint8_t out0[64];  // encode: (acc0, acc1) -> elements 8J .. 8J+3
  alignas(64) std::uint8_t out1[64];  // .. 8J+4 .. 8J+7
  alignas(64) std::uint8_t in0[64];   // decode: elements -> R*In_p, p = 0..7
  alignas(64) std::uint8_t in1[64];   // p = 8..15
};
constexpr ByteIdx make_byte_idx() {
  ByteIdx x{};
  for (int b = 0; b < 8; b++)
    for (int r = 0; r < 8; r++) x.tr[b * 8 + r] = static_cast<std::uint8_t>(r * 8 + b);
  for (int jl = 0; jl < 8; jl++)
    for (int p = 0; p < 16; p++) {
      const int src = (p / 8) * 64 + (p % 8) * 8 + 7 - jl;
      if (jl < 4) x.out0[jl * 16 + p] = static_cast<std::uint8_t>(src);
      else x.out1[(jl - 4) * 16 + p] = static_cast<std::uint8_t>(src);
    }
  for (int h = 0; h < 2; h++)
    for (int pp = 0; pp < 8; pp++)
      for (int qq = 0; qq < 8; qq++) {
        const int jl = 7 - qq, p = 8 * h + pp;
        const int src = (jl / 4) * 64 + (jl % 4) * 16 + p;
        (h == 0 ? x.in0 : x.in1)[pp * 8 + qq] = static_cast<std::uint8_t>(src);
      }
  return x;
}
alignas(64) constexpr ByteIdx kByteIdx = make_byte_idx();

inline __m512i ldb(const std::uint8_t* p) { return _mm512_load_si512(p); }

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

template <unsigned K>
const u64* enc_table() {
  if constexpr (K == 9) return tables::kEnc9;
  else return tables::kEnc10;
}
template <unsigned K>
const u64* dec_table() {
  if constexpr (K == 9) return tables::kDec9;
  else return tables::kDec10;
}

// t = encoding of rows 0..63 of `bits` (rows 64..127 are zero).
template <unsigned K>
void encode_half(u64* t, const u64* bits) {
  constexpr std::size_t RW = (std::size_t{1} << K) / 64;  // words per row
  const u64* enc = enc_table<K>();
  const __m512i rev = _mm512_set1_epi64(static_cast<long long>(kRevBytes));
  const __m512i tr = ldb(kByteIdx.tr);
  const __m512i o0 = ldb(kByteIdx.out0), o1 = ldb(kByteIdx.out1);
  const __m512i gidx = _mm512_set_epi64(7 * RW, 6 * RW, 5 * RW, 4 * RW, 3 * RW, 2 * RW, RW, 0);
  alignas(64) u64 t1s[64];  // broadcasts from memory keep the shuffle port free
  for (std::size_t w = 0; w < RW; w++) {
    __m512i t1[8];
    for (int t8 = 0; t8 < 8; t8++) {
      const __m512i z = gather64(gidx, bits + 8 * t8 * RW + w);
      const __m512i d = perm8(tr, z);  // qword b = D_(t8, 8w+b)
      t1[t8] = _mm512_gf2p8affine_epi64_epi8(rev, d, 0);
    }
    for (int t8 = 0; t8 < 8; t8++) st(t1s + 8 * t8, t1[t8]);
    for (int b = 0; b < 8; b++) {
      __m512i acc0 = _mm512_setzero_si512(), acc1 = _mm512_setzero_si512();
      for (int t8 = 0; t8 < 8; t8 += 2) {
        const __m512i x0 = _mm512_set1_epi64(static_cast<long long>(t1s[8 * t8 + b]));
        const __m512i x1 = _mm512_set1_epi64(static_cast<long long>(t1s[8 * t8 + 8 + b]));
        acc0 = xor3(acc0, _mm512_gf2p8affine_epi64_epi8(x0, ld(enc + 16 * t8), 0),
                    _mm512_gf2p8affine_epi64_epi8(x1, ld(enc + 16 * t8 + 16), 0));
        acc1 = xor3(acc1, _mm512_gf2p8affine_epi64_epi8(x0, ld(enc + 16 * t8 + 8), 0),
                    _mm512_gf2p8affine_epi64_epi8(x1, ld(enc + 16 * t8 + 24), 0));
      }
      const std::size_t J = 8 * w + static_cast<std::size_t>(b);
      st(t + 16 * J, _mm512_permutex2var_epi8(acc0, o0, acc1));
      st(t + 16 * J + 8, _mm512_permutex2var_epi8(acc0, o1, acc1));
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
  const __m512i id = _mm512_set1_epi64(static_cast<long long>(kIdBytes));
  const __m512i i0 = ldb(kByteIdx.in0), i1 = ldb(kByteIdx.in1);
  // R*In_p for every J (qword p of tmp[16 J ..]), then broadcast from memory: keeps the
  // shuffle port for the GFNI products.
  for (std::size_t J = 0; J < (std::size_t{1} << K) / 8; J++) {
    const __m512i g0 = ld(t + 16 * J), g1 = ld(t + 16 * J + 8);
    st(tmp + 16 * J, _mm512_permutex2var_epi8(g0, i0, g1));
    st(tmp + 16 * J + 8, _mm512_permutex2var_epi8(g0, i1, g1));
  }
  for (std::size_t J = 0; J < (std::size_t{1} << K) / 8; J++) {
    const u64* rin = tmp + 16 * J;
    __m512i y0 = _mm512_setzero_si512(), y1 = _mm512_setzero_si512();
    for (int p = 0; p < 16; p += 2) {
      const __m512i x0 = _mm512_set1_epi64(static_cast<long long>(rin[p]));
      const __m512i x1 = _mm512_set1_epi64(static_cast<long long>(rin[p + 1]));
      y0 = xor3(y0, _mm512_gf2p8affine_epi64_epi8(x0, ld(dec + 16 * p), 0),
                _mm512_gf2p8affine_epi64_epi8(x1, ld(dec + 16 * p + 16), 0));
      y1 = xor3(y1, _mm512_gf2p8affine_epi64_epi8(x0, ld(dec + 16 * p + 8), 0),
                _mm512_gf2p8affine_epi64_epi8(x1, ld(dec + 16 * p + 24), 0));
    }
    st(t + 16 * J, _mm512_gf2p8affine_epi64_epi8(id, y0, 0));  // lane t8: D_(t8, J)
    st(t + 16 * J + 8, _mm512_gf2p8affine_epi64_epi8(id, y1, 0));
  }
  // Second pass: lane b = D_(t8, 8w+b) by a gather, bytes transposed so that lane r = word w of
  // row 8*t8 + r, stored contiguously to tmp[t8][w][r].
  const __m512i tr = ldb(kByteIdx.tr);
  const __m512i gidx = _mm512_set_epi64(7 * 16, 6 * 16, 5 * 16, 4 * 16, 3 * 16, 2 * 16, 16, 0);
  for (std::size_t t8 = 0; t8 < 16; t8++)
    for (std::size_t w = 0; w < RW; w++) st(tmp + 8 * (t8 * RW + w), perm8(tr, gather64(gidx, t + 16 * 8 * w + t8)));
  // Third pass: 8x8 qword transposes tmp[t8][8c .. 8c+7][r] -> row 8*t8 + r, words 8c .. 8c+7.
  for (std::size_t t8 = 0; t8 < 16; t8++)
    for (std::size_t c = 0; c < RW / 8; c++) {
      __m512i z[8];
      for (int i = 0; i < 8; i++) z[i] = ld(tmp + 8 * (t8 * RW + 8 * c + i));
      transpose8x8(z);
      for (int r = 0; r < 8; r++) st(t + (8 * t8 + r) * RW + 8 * c, z[r]);
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

// The parts of the shared composition of the entry points (backend/fafft/entry_points.hpp).
struct Parts {
  template <unsigned L>
  static void to_novel(u64* w, std::size_t limit) {
    Conversion::to_novel<L>(w, limit);
  }
  template <unsigned L>
  static void from_novel(u64* w) {
    Conversion::from_novel<L>(w);
  }
  template <unsigned K>
  static void encode_half(u64* t, const u64* bits) {
    fafft::encode_half<K>(t, bits);
  }
  template <unsigned K>
  static void decode_full(u64* t, u64* tmp) {
    fafft::decode_full<K>(t, tmp);
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
  static void wipe(void* p, std::size_t len) { ::hqc::backend::avx512::wipe(p, len); }
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
