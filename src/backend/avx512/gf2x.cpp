// Ring multiplication in GF(2)[x]/(x^n - 1) on 512-bit VPCLMULQDQ (spec §2.2).
//
// Structure: a decomposition tree (MulPlan, chosen per parameter set by bench/avx512/mul_search.cpp)
// of two-way Karatsuba, three-way Karatsuba and Toom-Cook-3 levels down to a VPCLMULQDQ
// schoolbook on `base`-word operands, then reduction mod x^n - 1. A plan may have an unbalanced
// top (MulPlan::high, `unbalanced_top`): a two-way Karatsuba over a low tree and a shorter high
// tree (plus a few one-word passes), so that n need not be padded to base * 2^i * 3^j words
// (HQC-5: 901 = 512 + 384 + 5). Everything is branch-free: the only loop bounds and addresses are
// functions of the (public) sizes.
//
// Schoolbook base case. Output chunk t (words 8t .. 8t+7, one zmm) collects every a_i b_j with
// i + j in [8t, 8t+8). For b-lane m = (b_2m, b_2m+1), broadcast to the four 128-bit lanes, and
// the eight a-words X = a[8t-2m .. 8t-2m+8) (an unaligned load from a zero-guarded copy):
//   clmul(X, B_m, 0x00) = a_{8t-2m+2l} b_2m           -> word 8t + 2l     (even part E)
//   clmul(X, B_m, 0x01) ^ clmul(X, B_m, 0x10)        -> word 8t + 2l + 1 (odd part O)
//   clmul(X, B_{m-1}, 0x11) = a_{8t-2m+2l+1} b_{2m-1} -> word 8t + 2l     (E)
// so each product lands in place without shuffles; O is moved up one word with one valignq per
// output chunk. Four VPCLMULQDQ per 16 word products: the schoolbook runs at the multiplier's
// throughput. The two products of encryption (h*r2, s*r2) go through the tree together and
// share every sum and broadcast of r2.
#include <immintrin.h>

#include <cstring>

#include "backend/avx512/kernels.hpp"
#include "backend/avx512/mul_plans.hpp"
#include "backend/avx512/simd.hpp"

namespace hqc::backend::avx512 {

void wipe(void* p, std::size_t len) {
  if (len == 0 || p == nullptr) return;
  std::memset(p, 0, len);
  __asm__ __volatile__("" : : "r"(p) : "memory");
}

namespace {

using u64 = std::uint64_t;

inline __mmask8 tail_mask(std::size_t rem) { return static_cast<__mmask8>((1u << rem) - 1u); }

// dst = x ^ y (n words).
inline void xor2(u64* dst, const u64* x, const u64* y, std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm512_storeu_si512(dst + i, _mm512_xor_si512(_mm512_loadu_si512(x + i), _mm512_loadu_si512(y + i)));
  if (i < n) {
    const __mmask8 m = tail_mask(n - i);
    _mm512_mask_storeu_epi64(dst + i, m,
                             _mm512_xor_si512(_mm512_maskz_loadu_epi64(m, x + i), _mm512_maskz_loadu_epi64(m, y + i)));
  }
}
// dst ^= x ^ y (n words).
inline void xor3_into(u64* dst, const u64* x, const u64* y, std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm512_storeu_si512(dst + i,
                        xor3_512(_mm512_loadu_si512(dst + i), _mm512_loadu_si512(x + i), _mm512_loadu_si512(y + i)));
  if (i < n) {
    const __mmask8 m = tail_mask(n - i);
    _mm512_mask_storeu_epi64(dst + i, m,
                             xor3_512(_mm512_maskz_loadu_epi64(m, dst + i), _mm512_maskz_loadu_epi64(m, x + i),
                                      _mm512_maskz_loadu_epi64(m, y + i)));
  }
}
// dst ^= x (n words).
inline void xor_into(u64* dst, const u64* x, std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm512_storeu_si512(dst + i, _mm512_xor_si512(_mm512_loadu_si512(dst + i), _mm512_loadu_si512(x + i)));
  if (i < n) {
    const __mmask8 m = tail_mask(n - i);
    _mm512_mask_storeu_epi64(
        dst + i, m, _mm512_xor_si512(_mm512_maskz_loadu_epi64(m, dst + i), _mm512_maskz_loadu_epi64(m, x + i)));
  }
}
inline void copy_words(u64* dst, const u64* src, std::size_t n) { std::memcpy(dst, src, n * sizeof(u64)); }
inline void zero_words(u64* dst, std::size_t n) { std::memset(dst, 0, n * sizeof(u64)); }

// ---- Register leaves: 8x8-word product with 16 VPCLMULQDQ, Karatsuba on 16, 32 and 64 words. ----
//
// 8x8 words, 128-bit lanes k = (a_2k, a_2k+1). B_m is lane m of b in all four lanes and R_m is a
// rotated up by m lanes (lane k holds a-lane (k - m) mod 4). Then clmul(R_m, B_m, 0x00) and
// clmul(R_m, B_(m-1), 0x11) land on output lane k, or on lane k + 4 when the rotation wrapped
// (k < m): a lane mask splits every product between the low and the high output register without
// any shift. The middle terms (0x01, 0x10) sit one word higher and are moved once at the end.
// 16 multiplications for 64 word products: the multiplier's full width.
#define HQC_ALWAYS_INLINE inline __attribute__((always_inline))

template <int kM>
HQC_ALWAYS_INLINE __m512i lane_bcast(__m512i b) {
  return _mm512_maskz_shuffle_i64x2(0xFF, b, b, kM * 0x55);
}
template <int kM>
HQC_ALWAYS_INLINE __m512i lane_rot(__m512i a) {  // lane k <- lane (k - m) mod 4
  constexpr int i0 = (4 - kM) & 3, i1 = (5 - kM) & 3, i2 = (6 - kM) & 3, i3 = (7 - kM) & 3;
  return _mm512_maskz_shuffle_i64x2(0xFF, a, a, i0 | (i1 << 2) | (i2 << 4) | (i3 << 6));
}

HQC_ALWAYS_INLINE void mul8(__m512i a, __m512i b, __m512i& lo, __m512i& hi) {
  const __m512i b0 = lane_bcast<0>(b), b1 = lane_bcast<1>(b), b2 = lane_bcast<2>(b), b3 = lane_bcast<3>(b);
  const __m512i r1 = lane_rot<1>(a), r2 = lane_rot<2>(a), r3 = lane_rot<3>(a);
  __m512i elo = _mm512_clmulepi64_epi128(a, b0, 0x00);
  __m512i ehi = _mm512_clmulepi64_epi128(a, b3, 0x11);
  __m512i mlo = _mm512_xor_si512(_mm512_clmulepi64_epi128(a, b0, 0x01), _mm512_clmulepi64_epi128(a, b0, 0x10));
  __m512i mhi;
  {
    const __m512i e = _mm512_xor_si512(_mm512_clmulepi64_epi128(r1, b1, 0x00), _mm512_clmulepi64_epi128(r1, b0, 0x11));
    const __m512i m = _mm512_xor_si512(_mm512_clmulepi64_epi128(r1, b1, 0x01), _mm512_clmulepi64_epi128(r1, b1, 0x10));
    elo = _mm512_mask_xor_epi64(elo, 0xFC, elo, e);
    ehi = _mm512_mask_xor_epi64(ehi, 0x03, ehi, e);
    mlo = _mm512_mask_xor_epi64(mlo, 0xFC, mlo, m);
    mhi = _mm512_maskz_mov_epi64(0x03, m);
  }
  {
    const __m512i e = _mm512_xor_si512(_mm512_clmulepi64_epi128(r2, b2, 0x00), _mm512_clmulepi64_epi128(r2, b1, 0x11));
    const __m512i m = _mm512_xor_si512(_mm512_clmulepi64_epi128(r2, b2, 0x01), _mm512_clmulepi64_epi128(r2, b2, 0x10));
    elo = _mm512_mask_xor_epi64(elo, 0xF0, elo, e);
    ehi = _mm512_mask_xor_epi64(ehi, 0x0F, ehi, e);
    mlo = _mm512_mask_xor_epi64(mlo, 0xF0, mlo, m);
    mhi = _mm512_mask_xor_epi64(mhi, 0x0F, mhi, m);
  }
  {
    const __m512i e = _mm512_xor_si512(_mm512_clmulepi64_epi128(r3, b3, 0x00), _mm512_clmulepi64_epi128(r3, b2, 0x11));
    const __m512i m = _mm512_xor_si512(_mm512_clmulepi64_epi128(r3, b3, 0x01), _mm512_clmulepi64_epi128(r3, b3, 0x10));
    elo = _mm512_mask_xor_epi64(elo, 0xC0, elo, e);
    ehi = _mm512_mask_xor_epi64(ehi, 0x3F, ehi, e);
    mlo = _mm512_mask_xor_epi64(mlo, 0xC0, mlo, m);
    mhi = _mm512_mask_xor_epi64(mhi, 0x3F, mhi, m);
  }
  lo = _mm512_xor_si512(elo, alignr64<7>(mlo, _mm512_setzero_si512()));
  hi = _mm512_xor_si512(ehi, alignr64<7>(mhi, mlo));
}

// Karatsuba on Z registers (8Z words) per operand, all in registers: out has 2Z registers.
template <int Z>
HQC_ALWAYS_INLINE void mul_regs(const __m512i* a, const __m512i* b, __m512i* out) {
  if constexpr (Z == 1) {
    mul8(a[0], b[0], out[0], out[1]);
  } else {
    constexpr int H = Z / 2;
    __m512i as[H], bs[H], z0[Z], z1[Z], z2[Z];
    for (int i = 0; i < H; i++) {
      as[i] = _mm512_xor_si512(a[i], a[H + i]);
      bs[i] = _mm512_xor_si512(b[i], b[H + i]);
    }
    mul_regs<H>(a, b, z0);
    mul_regs<H>(a + H, b + H, z2);
    mul_regs<H>(as, bs, z1);
    for (int i = 0; i < Z; i++) z1[i] = xor3_512(z1[i], z0[i], z2[i]);
    for (int i = 0; i < H; i++) {
      out[i] = z0[i];
      out[H + i] = _mm512_xor_si512(z0[H + i], z1[i]);
      out[Z + i] = _mm512_xor_si512(z2[i], z1[H + i]);
      out[Z + H + i] = z2[H + i];
    }
  }
}

template <int Z, int NA>
void leaf_mul(u64* const* out, const u64* const* a, const u64* b) {
  __m512i bv[Z];
  for (int i = 0; i < Z; i++) bv[i] = _mm512_loadu_si512(b + 8 * i);
  for (int k = 0; k < NA; k++) {
    __m512i av[Z], o[2 * Z];
    for (int i = 0; i < Z; i++) av[i] = _mm512_loadu_si512(a[k] + 8 * i);
    mul_regs<Z>(av, bv, o);
    for (int i = 0; i < 2 * Z; i++) _mm512_storeu_si512(out[k] + 8 * i, o[i]);
  }
}

// out[k][0 .. 2B) = a[k][0 .. B) * b[0 .. B) for k < NA (see the file comment).
template <int NA>
void base_mul(u64* const* out, const u64* const* a, const u64* b, std::size_t B) {
  alignas(64) u64 abuf[NA][kMaxBaseWords + 24];
  alignas(64) u64 bbuf[kMaxBaseWords + 8];
  const std::size_t M = (B + 1) / 2;  // 128-bit lanes of b
  for (int k = 0; k < NA; k++) {
    zero_words(abuf[k], 8);
    copy_words(abuf[k] + 8, a[k], B);
    zero_words(abuf[k] + 8 + B, 16);
  }
  zero_words(bbuf, 2);
  copy_words(bbuf + 2, b, B);
  zero_words(bbuf + 2 + B, 4);

  const std::size_t T = (2 * B + 7) / 8;
  __m512i o_prev[NA];
  for (int k = 0; k < NA; k++) o_prev[k] = _mm512_setzero_si512();
  for (std::size_t t = 0; t < T; t++) {
    __m512i e[NA], o[NA];
    for (int k = 0; k < NA; k++) e[k] = o[k] = _mm512_setzero_si512();
    // Windows a[8t-2j, 8t-2j+8) that meet [0, B): 2j > 8t - B and 2j < 8t + 8 (public bounds).
    const std::size_t jlo = 8 * t + 1 > B ? (8 * t - B) / 2 + 1 : 0;
    const std::size_t jhi = 4 * t + 3 < M ? 4 * t + 3 : M;
    for (std::size_t j = jlo; j <= jhi; j++) {
      const __m512i bj = bcast128(bbuf + 2 + 2 * j);
      const __m512i bjm = bcast128(bbuf + 2 * j);
      for (int k = 0; k < NA; k++) {
        const __m512i x = _mm512_loadu_si512(abuf[k] + 8 + 8 * t - 2 * j);
        e[k] = xor3_512(e[k], _mm512_clmulepi64_epi128(x, bj, 0x00), _mm512_clmulepi64_epi128(x, bjm, 0x11));
        o[k] = xor3_512(o[k], _mm512_clmulepi64_epi128(x, bj, 0x01), _mm512_clmulepi64_epi128(x, bj, 0x10));
      }
    }
    const std::size_t rem = 2 * B - 8 * t;
    const __mmask8 m = rem >= 8 ? static_cast<__mmask8>(0xFF) : tail_mask(rem);
    for (int k = 0; k < NA; k++) {
      const __m512i r = _mm512_xor_si512(e[k], alignr64<7>(o[k], o_prev[k]));
      o_prev[k] = o[k];
      _mm512_mask_storeu_epi64(out[k] + 8 * t, m, r);
    }
  }
  wipe(abuf, sizeof(abuf));
  wipe(bbuf, sizeof(bbuf));
}

constexpr std::size_t round8(std::size_t n) { return (n + 7) & ~std::size_t{7}; }

// Scratch words of one level of `n` words for `na` products (the level's own buffers; its
// children's scratch follows).
constexpr std::size_t level_scratch(int split, MulLevel kind, std::size_t n, int na) {
  const std::size_t s = n / static_cast<std::size_t>(split);
  const std::size_t una = static_cast<std::size_t>(na);
  if (kind == kToom3)  // one evaluation of each operand at a time, P(t) and P(t + 1) per product
    return (una + 1) * round8(s + 1) + 2 * una * round8(2 * s + 2);
  return split == 2 ? (3 * una + 1) * s : (7 * una + 1) * s;
}

bool tree_valid(const MulPlan& plan) {
  if (plan.base < 1 || plan.base > kMaxBaseWords || plan.depth > 7) return false;
  for (std::size_t i = 0; i < plan.depth; i++) {
    if (plan.split[i] != 2 && plan.split[i] != 3) return false;
    if (plan.kind[i] != kKaratsuba && plan.kind[i] != kToom3) return false;
    if (plan.kind[i] == kToom3 && plan.split[i] != 3) return false;
  }
  return true;
}

bool plan_valid(const MulPlan& plan) {
  if (!tree_valid(plan)) return false;
  if (plan.unbalanced() &&
      (!tree_valid(plan.high_plan()) || plan.high.extra > kMaxExtraWords || plan.high_words() > plan.low_words()))
    return false;
  if (!plan.unbalanced() && plan.high.extra != 0) return false;
  return plan.top_words() <= kMaxTopWords;
}

// ---- Toom-Cook-3 level ------------------------------------------------------------------------
//
// Bodrato's sequence for GF(2)[x] at the points 0, 1, t, t + 1, inf with t = x^32, so that every
// evaluation and every exact division moves whole 32-bit dwords (valignd/valignq, no bit shifts)
// and the evaluations at t and t + 1 grow by one word only. With X = x^(64 s) and
// A = a0 + a1 X + a2 X^2 (likewise B), C = A B = c0 + c1 X + c2 X^2 + c3 X^3 + c4 X^4:
//   P(0) = c0 = a0 b0, P(inf) = c4 = a2 b2, P(1) = (a0 + a1 + a2)(b0 + b1 + b2),
//   P(t) = A(t) B(t), P(t + 1) = A(t + 1) B(t + 1); A(t) = a0 + a1 t + a2 t^2 has s + 1 words.
//   U = P(1) + c0 + c4 = c1 + c2 + c3,
//   Y = P(t + 1) + P(t) + c4 + U = c3 (t^2 + t)                   => c3 = Y / t / (t + 1),
//   W = (P(t) + c0 + c4 t^4) / t = c1 + c2 t + c3 t^2, Q = U + c3 = c1 + c2
//                                                                => c2 = (W + Q + c3 t^2) / (t + 1),
//   c1 = Q + c2.
// Division by t drops the (zero) low dword; division by t + 1 = 1 + x^32 is the dword prefix XOR
// q_i = y_i + q_(i-1), taken from the low end (the division is exact, so the low 2s words of the
// quotient are the whole quotient): four shift-XOR steps inside a zmm and a broadcast carry
// between zmm. The products at t and t + 1 have (s + 1)-word operands: the tree below multiplies
// the low s words, and the rest, X (A_hi B + B_hi A_lo) with one-word A_hi, B_hi, is added by one
// VPCLMULQDQ pass (4 per 8 words). All loop bounds and addresses are functions of s only.

// x[start .. start + 8) with the words at or past `len` read as zero (public sizes only).
HQC_ALWAYS_INLINE __m512i load_clip(const u64* x, std::size_t start, std::size_t len) {
  if (start >= len) return _mm512_setzero_si512();
  if (len - start >= 8) return _mm512_loadu_si512(x + start);
  return _mm512_maskz_loadu_epi64(tail_mask(len - start), x + start);
}
// Dwords [start, start + 16) of the dword array at x, those at or past `len` dwords read as zero.
HQC_ALWAYS_INLINE __m512i load_clip32(const u64* x, std::size_t start, std::size_t len) {
  const auto* d = reinterpret_cast<const std::uint32_t*>(x);
  if (start >= len) return _mm512_setzero_si512();
  if (len - start >= 16) return _mm512_loadu_si512(d + start);
  return _mm512_maskz_loadu_epi32(static_cast<__mmask16>((1u << (len - start)) - 1u), d + start);
}
// x[start .. min(start + 8, len)) = v.
HQC_ALWAYS_INLINE void store_clip(u64* x, std::size_t start, std::size_t len, __m512i v) {
  if (start >= len) return;
  if (len - start >= 8) _mm512_storeu_si512(x + start, v);
  else _mm512_mask_storeu_epi64(x + start, tail_mask(len - start), v);
}
// v moved up by one dword, the low dword from the top of `prev`.
HQC_ALWAYS_INLINE __m512i up1_dword(__m512i v, __m512i prev) { return _mm512_maskz_alignr_epi32(0xFFFF, v, prev, 15); }

// Dword prefix XOR of v continuing `carry` (the prefix so far, broadcast), carry updated. The
// carry is advanced by the chunk's own total (broadcast of its local prefix's top dword), so the
// loop-carried chain is one XOR per chunk, not the permute.
HQC_ALWAYS_INLINE __m512i prefix_xor16(__m512i v, __m512i& carry) {
  const __m512i z = _mm512_setzero_si512();
  v = _mm512_xor_si512(v, up1_dword(v, z));
  v = _mm512_xor_si512(v, alignr64<7>(v, z));
  v = _mm512_xor_si512(v, alignr64<6>(v, z));
  v = _mm512_xor_si512(v, alignr64<4>(v, z));
  const __m512i out = _mm512_xor_si512(v, carry);
  carry = _mm512_xor_si512(carry, perm32(_mm512_set1_epi32(15), v));
  return out;
}

// Evaluations of x = x0 + x1 X + x2 X^2 (3s words), one buffer per operand, one point at a time
// (the buffer is reused, so a level keeps a single (s + 1)-word evaluation per operand).
// e = x0 + x1 + x2 (s words).
void toom3_eval_1(u64* e, const u64* x, std::size_t s) {
  for (std::size_t i = 0; i < s; i += 8)
    store_clip(e, i, s, xor3_512(load_clip(x, i, s), load_clip(x + s, i, s), load_clip(x + 2 * s, i, s)));
}
// e = x0 + x1 t + x2 t^2 (s + 1 words).
void toom3_eval_t(u64* e, const u64* x, std::size_t s) {
  const u64* x1 = x + s;
  const u64* x2 = x + 2 * s;
  __m512i p1 = _mm512_setzero_si512(), p2 = _mm512_setzero_si512();
  for (std::size_t i = 0; i < s + 1; i += 8) {
    const __m512i v1 = load_clip(x1, i, s), v2 = load_clip(x2, i, s);
    store_clip(e, i, s + 1, xor3_512(load_clip(x, i, s), up1_dword(v1, p1), alignr64<7>(v2, p2)));
    p1 = v1;
    p2 = v2;
  }
}
// e = x(t) -> x(t + 1) = x(t) + x1 + x2, in place.
void toom3_eval_t1(u64* e, const u64* x, std::size_t s) { xor3_into(e, x + s, x + 2 * s, s); }

// dst[0 .. nb + 1) ^= ha xb[0 .. nb) + hb xa[0 .. na) for one-word ha, hb (na <= nb).
void word_correct(u64* dst, const u64* ha, const u64* xb, std::size_t nb, const u64* hb, const u64* xa,
                  std::size_t na) {
  const __m512i va = _mm512_set1_epi64(static_cast<long long>(*ha));
  const __m512i vb = _mm512_set1_epi64(static_cast<long long>(*hb));
  __m512i po = _mm512_setzero_si512();
  for (std::size_t i = 0; i < nb + 1; i += 8) {
    const __m512i b = load_clip(xb, i, nb), a = load_clip(xa, i, na);
    // Even words of b, a times h -> word i + 2l; odd words -> word i + 2l + 1 (moved up one word).
    const __m512i e = _mm512_xor_si512(_mm512_clmulepi64_epi128(b, va, 0x00), _mm512_clmulepi64_epi128(a, vb, 0x00));
    const __m512i o = _mm512_xor_si512(_mm512_clmulepi64_epi128(b, va, 0x01), _mm512_clmulepi64_epi128(a, vb, 0x01));
    store_clip(dst, i, nb + 1, xor3_512(load_clip(dst, i, nb + 1), e, alignr64<7>(o, po)));
    po = o;
  }
}
// dst[0 .. s + 2) ^= ha xb[0 .. s + 1) + hb xa[0 .. s) for one-word ha, hb.
void toom3_correct(u64* dst, const u64* ha, const u64* xb, const u64* hb, const u64* xa, std::size_t s) {
  word_correct(dst, ha, xb, s + 1, hb, xa, s);
}

// out[0 .. 6s) = C from c0 = out[0 .. 2s), P(1) = out[2s .. 4s), c4 = out[4s .. 6s) (in place)
// and pt = P(t), pt1 = P(t + 1) (2s + 2 words each, consumed).
void toom3_interpolate(u64* out, u64* pt, u64* pt1, std::size_t s) {
  const std::size_t n2 = 2 * s, d2 = 4 * s;  // words, dwords of c0 .. c4
  const u64* c0 = out;
  u64* u = out + n2;
  const u64* c4 = out + 4 * s;
  // U = P(1) + c0 + c4 (in u); Y = P(t + 1) + P(t) + c4 + U (in pt1, words 0 .. 2s).
  for (std::size_t i = 0; i < n2 + 1; i += 8) {
    const __m512i v4 = load_clip(c4, i, n2);
    const __m512i uu = xor3_512(load_clip(u, i, n2), load_clip(c0, i, n2), v4);
    store_clip(u, i, n2, uu);
    const __m512i y = xor3_512(load_clip(pt1, i, n2 + 1), load_clip(pt, i, n2 + 1), _mm512_xor_si512(uu, v4));
    store_clip(pt1, i, n2 + 1, y);
  }
  // c3 = Y / t / (t + 1): dword j of c3 = dwords 1 .. j + 1 of Y (in pt1, in place: the reads run
  // one dword ahead of the writes).
  __m512i carry = _mm512_setzero_si512();
  for (std::size_t i = 0; i < n2; i += 8)
    store_clip(pt1, i, n2, prefix_xor16(load_clip32(pt1, 2 * i + 1, d2 + 1), carry));
  // W = (P(t) + c0 + c4 t^4) / t (dword j: dwords j + 1 of P(t) and c0, dword j - 3 of c4);
  // Q = U + c3; c2 = (W + Q + c3 t^2) / (t + 1) (in pt, in place); c1 = Q + c2 (in u).
  carry = _mm512_setzero_si512();
  __m512i p3 = _mm512_setzero_si512(), p4 = _mm512_setzero_si512();
  for (std::size_t i = 0; i < n2; i += 8) {
    const __m512i v3 = load_clip(pt1, i, n2), v4 = load_clip(c4, i, n2);
    const __m512i w = xor3_512(load_clip32(pt, 2 * i + 1, d2 + 4), load_clip32(c0, 2 * i + 1, d2),
                               _mm512_maskz_alignr_epi32(0xFFFF, v4, p4, 13));
    const __m512i q = _mm512_xor_si512(load_clip(u, i, n2), v3);
    const __m512i c2 = prefix_xor16(xor3_512(w, q, alignr64<7>(v3, p3)), carry);
    store_clip(pt, i, n2, c2);
    store_clip(u, i, n2, _mm512_xor_si512(q, c2));
    p3 = v3;
    p4 = v4;
  }
  // out = c0 + c1 X + c2 X^2 + c3 X^3 + c4 X^4 with c1 in out[2s .. 4s): out[s .. 2s) ^= c1_lo,
  // out[2s .. 3s) = c1_hi + c2_lo, out[3s .. 4s) = c2_hi + c3_lo (c1_hi is read before the chunk
  // is overwritten; the writes to out[2s ..) stay below 3s), out[4s .. 5s) ^= c3_hi.
  xor_into(out + s, u, s);
  for (std::size_t i = 0; i < s; i += 8) {
    const __m512i c1h = load_clip(u + s, i, s);
    store_clip(u, i, s, _mm512_xor_si512(c1h, load_clip(pt, i, s)));
    store_clip(u + s, i, s, _mm512_xor_si512(load_clip(pt + s, i, s), load_clip(pt1, i, s)));
  }
  xor_into(out + 4 * s, pt1 + s, s);
}

template <int NA>
void rec(u64* const* out, const u64* const* a, const u64* b, std::size_t n, const MulPlan& plan, int lvl, u64* scr);

// One Toom-3 level: out[k][0 .. 6s) = a[k][0 .. 3s) * b[0 .. 3s); each evaluation of b is formed
// once for all NA products.
template <int NA>
void toom3_level(u64* const* out, const u64* const* a, const u64* b, std::size_t s, const MulPlan& plan, int lvl,
                 u64* scr) {
  const std::size_t se = round8(s + 1), sp = round8(2 * s + 2);
  u64* ea[NA];
  u64* pt[NA];
  u64* pt1[NA];
  u64* omid[NA];
  u64* o4[NA];
  const u64* a2[NA];
  for (int k = 0; k < NA; k++) {
    const std::size_t uk = static_cast<std::size_t>(k);
    ea[k] = scr + uk * se;
    pt[k] = scr + (NA + 1) * se + 2 * uk * sp;
    pt1[k] = pt[k] + sp;
    omid[k] = out[k] + 2 * s;
    o4[k] = out[k] + 4 * s;
    a2[k] = a[k] + 2 * s;
  }
  u64* eb = scr + NA * se;
  u64* rest = scr + (NA + 1) * se + 2 * NA * sp;
  const u64* const* cea = ea;
  rec<NA>(out, a, b, s, plan, lvl + 1, rest);          // c0 = P(0) -> out[0 .. 2s)
  rec<NA>(o4, a2, b + 2 * s, s, plan, lvl + 1, rest);  // c4 = P(inf) -> out[4s .. 6s)
  for (int k = 0; k < NA; k++) toom3_eval_1(ea[k], a[k], s);
  toom3_eval_1(eb, b, s);
  rec<NA>(omid, cea, eb, s, plan, lvl + 1, rest);  // P(1) -> out[2s .. 4s)
  // P(t) and P(t + 1): the tree multiplies the low s words of the (s + 1)-word evaluations, then
  // + X (A_hi B + B_hi A_lo) (A_hi B has s + 2 words, B_hi A_lo s + 1).
  for (int pass = 0; pass < 2; pass++) {
    u64* const* p = pass == 0 ? pt : pt1;
    if (pass == 0) {
      for (int k = 0; k < NA; k++) toom3_eval_t(ea[k], a[k], s);
      toom3_eval_t(eb, b, s);
    } else {
      for (int k = 0; k < NA; k++) toom3_eval_t1(ea[k], a[k], s);
      toom3_eval_t1(eb, b, s);
    }
    rec<NA>(p, cea, eb, s, plan, lvl + 1, rest);
    for (int k = 0; k < NA; k++) {
      zero_words(p[k] + 2 * s, 2);
      toom3_correct(p[k] + s, ea[k] + s, eb, eb + s, ea[k], s);
    }
  }
  for (int k = 0; k < NA; k++) toom3_interpolate(out[k], pt[k], pt1[k], s);
}

// out[k][0 .. 2n) = a[k][0 .. n) * b[0 .. n), n = plan.base * prod(plan.split[lvl ..]).
template <int NA>
void rec(u64* const* out, const u64* const* a, const u64* b, std::size_t n, const MulPlan& plan, int lvl, u64* scr) {
  if (lvl == plan.depth) {
    if (n == 8) leaf_mul<1, NA>(out, a, b);
    else if (n == 16) leaf_mul<2, NA>(out, a, b);
    else if (n == 32) leaf_mul<4, NA>(out, a, b);
    else if (n == 64) leaf_mul<8, NA>(out, a, b);
    else base_mul<NA>(out, a, b, n);
    return;
  }
  const int split = plan.split[lvl];
  const std::size_t s = n / static_cast<std::size_t>(split);
  if (plan.kind[lvl] == kToom3) {
    toom3_level<NA>(out, a, b, s, plan, lvl, scr);
    return;
  }
  u64* o1[NA];
  const u64* a1[NA];
  if (split == 2) {
    // z0 = a0 b0 -> out[0, 2s), z2 = a1 b1 -> out[2s, 4s), out[s, 3s) ^= (a0+a1)(b0+b1) + z0 + z2.
    rec<NA>(out, a, b, s, plan, lvl + 1, scr);
    for (int k = 0; k < NA; k++) {
      o1[k] = out[k] + 2 * s;
      a1[k] = a[k] + s;
    }
    rec<NA>(o1, a1, b + s, s, plan, lvl + 1, scr);
    u64* asum[NA];
    u64* z1[NA];
    u64* bsum = scr + NA * s;
    for (int k = 0; k < NA; k++) {
      asum[k] = scr + static_cast<std::size_t>(k) * s;
      z1[k] = scr + (NA + 1) * s + static_cast<std::size_t>(k) * 2 * s;
      xor2(asum[k], a[k], a[k] + s, s);
    }
    xor2(bsum, b, b + s, s);
    u64* rest = scr + (3 * NA + 1) * s;
    rec<NA>(z1, asum, bsum, s, plan, lvl + 1, rest);
    for (int k = 0; k < NA; k++) {
      xor3_into(z1[k], out[k], out[k] + 2 * s, 2 * s);
      xor_into(out[k] + s, z1[k], 2 * s);
    }
    return;
  }
  // Three-way Karatsuba: p0, p1, p2 in place, then
  // out[s..3s) ^= p01 + p0 + p1, out[2s..4s) ^= p02 + p0 + p2, out[3s..5s) ^= p12 + p1 + p2.
  for (int part = 0; part < 3; part++) {
    for (int k = 0; k < NA; k++) {
      o1[k] = out[k] + 2 * s * static_cast<std::size_t>(part);
      a1[k] = a[k] + s * static_cast<std::size_t>(part);
    }
    rec<NA>(o1, a1, b + s * static_cast<std::size_t>(part), s, plan, lvl + 1, scr);
  }
  u64* asum[NA];
  const u64* asum_c[NA];
  u64* q[3][NA];
  u64* bsum = scr + NA * s;
  for (int k = 0; k < NA; k++) {
    asum[k] = scr + static_cast<std::size_t>(k) * s;
    asum_c[k] = asum[k];
    for (int p = 0; p < 3; p++)
      q[p][k] = scr + (NA + 1) * s + (static_cast<std::size_t>(p) * NA + static_cast<std::size_t>(k)) * 2 * s;
  }
  u64* rest = scr + (7 * NA + 1) * s;
  constexpr int kPairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
  for (int p = 0; p < 3; p++) {
    const std::size_t i0 = static_cast<std::size_t>(kPairs[p][0]), i1 = static_cast<std::size_t>(kPairs[p][1]);
    for (int k = 0; k < NA; k++) xor2(asum[k], a[k] + i0 * s, a[k] + i1 * s, s);
    xor2(bsum, b + i0 * s, b + i1 * s, s);
    rec<NA>(q[p], asum_c, bsum, s, plan, lvl + 1, rest);
    for (int k = 0; k < NA; k++) xor3_into(q[p][k], out[k] + 2 * s * i0, out[k] + 2 * s * i1, 2 * s);
  }
  for (int k = 0; k < NA; k++) {
    xor_into(out[k] + s, q[0][k], 2 * s);
    xor_into(out[k] + 2 * s, q[1][k], 2 * s);
    xor_into(out[k] + 3 * s, q[2][k], 2 * s);
  }
}

// out[0 .. words) = prod mod (x^n - 1), prod has at least 2*words words; clears bits >= n.
void reduce(u64* out, const u64* prod, std::size_t n_bits, std::size_t words) {
  const std::size_t q = n_bits / 64;
  const unsigned r = static_cast<unsigned>(n_bits % 64);  // non-zero for every HQC n
  const __m512i sr = _mm512_set1_epi64(r), sl = _mm512_set1_epi64(64 - r);
  std::size_t i = 0;
  for (; i + 8 <= words; i += 8) {
    const __m512i hi =
        _mm512_or_si512(srlv64(_mm512_loadu_si512(prod + i + q), sr), sllv64(_mm512_loadu_si512(prod + i + q + 1), sl));
    _mm512_storeu_si512(out + i, _mm512_xor_si512(_mm512_loadu_si512(prod + i), hi));
  }
  if (i < words) {
    const __mmask8 m = tail_mask(words - i);
    const __m512i hi = _mm512_or_si512(srlv64(_mm512_maskz_loadu_epi64(m, prod + i + q), sr),
                                       sllv64(_mm512_maskz_loadu_epi64(m, prod + i + q + 1), sl));
    _mm512_mask_storeu_epi64(out + i, m, _mm512_xor_si512(_mm512_maskz_loadu_epi64(m, prod + i), hi));
  }
  out[words - 1] &= (u64{1} << r) - 1;
}

constexpr std::size_t tree_scratch_words(const MulPlan& plan, int na) {
  std::size_t n = plan.low_words(), total = 0;
  for (std::size_t i = 0; i < plan.depth; i++) {
    total += level_scratch(plan.split[i], plan.kind[i], n, na);
    n /= plan.split[i];
  }
  return total;
}
// The unbalanced top's own buffers: a1, b1 zero-extended (H words each), a0 + a1, b0 + b1 (L
// words each), (a0 + a1)(b0 + b1) (2L words per product); the two trees' scratch follows.
constexpr std::size_t unbalanced_own_words(std::size_t L, std::size_t H, int na) {
  const std::size_t una = static_cast<std::size_t>(na);
  return (una + 1) * round8(H) + (una + 1) * round8(L) + una * 2 * L;
}
constexpr std::size_t scratch_words(const MulPlan& plan, int na) {
  if (!plan.unbalanced()) return tree_scratch_words(plan, na) + 8;
  const std::size_t lo = tree_scratch_words(plan, na), hi = tree_scratch_words(plan.high_plan(), na);
  return unbalanced_own_words(plan.low_words(), plan.high_words(), na) + (lo > hi ? lo : hi) + 8;
}

// Unbalanced top (MulPlan::high): out[k][0 .. 2(L + H)) = a[k] * b, where a[k] and b have L + hw
// words (hw <= H: the high parts are zero-extended to H words), L = plan.low_words(),
// H = plan.high_words() = T + e (T = high tree words, e = extra words).
//   z0 = a0 b0 -> out[0, 2L);
//   z2 = a1 b1 -> out[2L, 2L + 2H): the high tree on the low T words of a1, b1, then
//        + x^(64 (T + j)) (a1[T + j] b1 + b1[T + j] a1[0 .. T)) for j < e (one-word passes);
//   z1 = (a0 + a1)(b0 + b1); out[L, 2L + H) ^= z1 + z0 + z2 = a0 b1 + a1 b0, which has L + H
//        words (the words of z1 + z0 + z2 above are zero).
// b's parts and sums are formed once for all NA products. All sizes are public (plan and n only).
template <int NA>
void unbalanced_top(u64* const* out, const u64* const* a, const u64* b, std::size_t hw, const MulPlan& plan,
                    const MulPlan& high, u64* scr) {
  const std::size_t L = plan.low_words(), H = plan.high_words(), T = high.low_words();
  const std::size_t HP = round8(H), LP = round8(L);
  u64* ah[NA];
  u64* as[NA];
  u64* z1[NA];
  u64* o2[NA];
  const u64* cah[NA];
  const u64* cas[NA];
  u64* bh = scr + NA * HP;
  u64* bs = scr + (NA + 1) * HP + NA * LP;
  for (int k = 0; k < NA; k++) {
    const std::size_t uk = static_cast<std::size_t>(k);
    ah[k] = scr + uk * HP;
    as[k] = scr + (NA + 1) * HP + uk * LP;
    z1[k] = scr + (NA + 1) * (HP + LP) + uk * 2 * L;
    o2[k] = out[k] + 2 * L;
    cah[k] = ah[k];
    cas[k] = as[k];
  }
  u64* rest = scr + unbalanced_own_words(L, H, NA);
  rec<NA>(out, a, b, L, plan, 0, rest);  // z0
  for (int k = 0; k < NA; k++) {
    copy_words(ah[k], a[k] + L, hw);
    zero_words(ah[k] + hw, H - hw);
  }
  copy_words(bh, b + L, hw);
  zero_words(bh + hw, H - hw);
  rec<NA>(o2, cah, bh, T, high, 0, rest);  // z2: the tree on T words
  for (int k = 0; k < NA; k++) {
    zero_words(o2[k] + 2 * T, 2 * (H - T));
    for (std::size_t j = T; j < H; j++) word_correct(o2[k] + j, ah[k] + j, bh, H, bh + j, ah[k], T);
  }
  for (int k = 0; k < NA; k++) {
    xor2(as[k], a[k], ah[k], H);
    copy_words(as[k] + H, a[k] + H, L - H);
  }
  xor2(bs, b, bh, H);
  copy_words(bs + H, b + H, L - H);
  rec<NA>(z1, cas, bs, L, plan, 0, rest);
  const std::size_t mid = L + H, z2w = 2 * H < mid ? 2 * H : mid;
  for (int k = 0; k < NA; k++) {
    xor3_into(z1[k], out[k], o2[k], z2w);
    xor_into(z1[k] + z2w, out[k] + z2w, mid - z2w);
    xor_into(out[k] + L, z1[k], mid);
  }
}

// Plain product of top_words()-word operands, balanced or unbalanced top.
template <int NA>
void plan_product(u64* const* out, const u64* const* a, const u64* b, const MulPlan& plan, u64* scr) {
  if (plan.unbalanced()) {
    const MulPlan high = plan.high_plan();
    unbalanced_top<NA>(out, a, b, plan.high_words(), plan, high, scr);
  } else {
    rec<NA>(out, a, b, plan.low_words(), plan, 0, scr);
  }
}

template <class P, int NA>
void ring_mul(u64* const* out, const u64* const* a, const u64* b) {
  static constexpr MulPlan kPlan = kMulPlan<P>;
  constexpr std::size_t N = kPlan.top_words();
  constexpr std::size_t W = P::kNWords;
  static_assert(N >= W && N <= kMaxTopWords && kPlan.base <= kMaxBaseWords);
  // An unbalanced top reads a[k], b in place (words [0, W) only: the high parts are zero-extended
  // into its own buffers), so only a balanced tree pads the operands here.
  static_assert(!kPlan.unbalanced() || (kPlan.low_words() < W && kPlan.high_words() <= kPlan.low_words() &&
                                        kPlan.high.base <= kMaxBaseWords && kPlan.high.extra <= kMaxExtraWords));
  constexpr bool kPad = !kPlan.unbalanced() && N > P::kNWordsPadded;
  constexpr std::size_t kProdWords = 2 * N > 2 * W + 8 ? 2 * N : 2 * W + 8;
  struct Tmp {
    alignas(64) u64 ab[NA][kPad ? N : 1];
    alignas(64) u64 bb[kPad ? N : 1];
    alignas(64) u64 prod[NA][kProdWords];
    alignas(64) u64 scratch[scratch_words(kPlan, NA)];
  };
  alignas(64) Tmp tmp;
  const u64* aa[NA];
  const u64* bp = b;
  u64* pp[NA];
  for (int k = 0; k < NA; k++) {
    aa[k] = a[k];
    pp[k] = tmp.prod[k];
    zero_words(tmp.prod[k] + 2 * N, kProdWords - 2 * N);
  }
  if constexpr (kPad) {
    for (int k = 0; k < NA; k++) {
      copy_words(tmp.ab[k], a[k], P::kNWordsPadded);
      zero_words(tmp.ab[k] + P::kNWordsPadded, N - P::kNWordsPadded);
      aa[k] = tmp.ab[k];
    }
    copy_words(tmp.bb, b, P::kNWordsPadded);
    zero_words(tmp.bb + P::kNWordsPadded, N - P::kNWordsPadded);
    bp = tmp.bb;
  }
  if constexpr (kPlan.unbalanced()) {
    static constexpr MulPlan kHigh = kPlan.high_plan();
    unbalanced_top<NA>(pp, aa, bp, W - kPlan.low_words(), kPlan, kHigh, tmp.scratch);
  } else {
    rec<NA>(pp, aa, bp, N, kPlan, 0, tmp.scratch);
  }
  for (int k = 0; k < NA; k++) {
    reduce(out[k], tmp.prod[k], P::kN, W);
    zero_words(out[k] + W, P::kNWordsPadded - W);
  }
  wipe(&tmp, sizeof(tmp));
}

}  // namespace

std::size_t plan_scratch_words(const MulPlan& plan, int products) { return scratch_words(plan, products); }

bool plan_multiply(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b, const MulPlan& plan,
                   std::uint64_t* scratch) {
  if (!plan_valid(plan)) return false;
  u64* o[1] = {out};
  const u64* aa[1] = {a};
  plan_product<1>(o, aa, b, plan, scratch);
  return true;
}

bool plan_multiply2(std::uint64_t* out1, std::uint64_t* out2, const std::uint64_t* a1, const std::uint64_t* a2,
                    const std::uint64_t* b, const MulPlan& plan, std::uint64_t* scratch) {
  if (!plan_valid(plan)) return false;
  u64* o[2] = {out1, out2};
  const u64* aa[2] = {a1, a2};
  plan_product<2>(o, aa, b, plan, scratch);
  return true;
}

template <class P>
void mul(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b) {
  u64* o[1] = {out};
  const u64* aa[1] = {a};
  ring_mul<P, 1>(o, aa, b);
}

template <class P>
void mul2(std::uint64_t* out1, std::uint64_t* out2, const std::uint64_t* a1, const std::uint64_t* a2,
          const std::uint64_t* b) {
  u64* o[2] = {out1, out2};
  const u64* aa[2] = {a1, a2};
  ring_mul<P, 2>(o, aa, b);
}

template <class P>
MulPlan mul_plan() {
  return kMulPlan<P>;
}

#define HQC_AVX512_MUL(P)                                                                           \
  template void mul<P>(std::uint64_t*, const std::uint64_t*, const std::uint64_t*);                 \
  template void mul2<P>(std::uint64_t*, std::uint64_t*, const std::uint64_t*, const std::uint64_t*, \
                        const std::uint64_t*);                                                      \
  template MulPlan mul_plan<P>();
HQC_AVX512_MUL(Hqc1)
HQC_AVX512_MUL(Hqc3)
HQC_AVX512_MUL(Hqc5)

}  // namespace hqc::backend::avx512
