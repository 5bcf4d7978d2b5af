// Ring multiplication in GF(2)[x]/(x^n - 1) (spec §2.2) for the avx2 backend, written once over
// the base product of two 256-bit blocks (template parameter Base) and included by two
// translation units: gf2x_avx2.cpp (PCLMULQDQ bases) and gf2x_vpclmul.cpp (the VPCLMULQDQ base,
// under a target pragma, used only when the CPU has it). Karatsuba over 256-bit blocks with the
// recursion unrolled at compile time for each level's block count (two- and three-block nodes
// in registers), optional Toom-Cook-3 levels on top, then one vectorised fold. Every step is
// data-independent: operands are only XORed, carry-less multiplied and stored at public offsets.
// Private to this folder (anonymous namespace: one copy per translation unit).
#pragma once

#include <initializer_list>

#include "backend/avx2/kernels.hpp"
#include "backend/avx2/simd.hpp"
#include "params/params.hpp"

namespace hqc::backend::avx2 {
// Included once per ISA-flagged translation unit; internal linkage keeps each unit's copy
// (built with its own -m flags) out of the others.
namespace {  // NOLINT(cert-dcl59-cpp)

using u64 = std::uint64_t;

// The base products and the register nodes are inlined whatever the compiler's inlining budget:
// the unrolled nodes are large, and a base product left out of line costs a call per 256 bits.
#define HQC_AVX2_ALWAYS_INLINE inline __attribute__((always_inline))

// The base product of two 256-bit blocks.
enum class Base {
  kK9,   // Karatsuba at 256 bits over Karatsuba at 128 bits: 9 PCLMULQDQ
  kK12,  // Karatsuba at 256 bits over schoolbook at 128 bits: 12 PCLMULQDQ, fewer XORs
  kV8,   // schoolbook with 8 VPCLMULQDQ (ymm): defined in gf2x_vpclmul.cpp only
  kV6,   // Karatsuba at 256 bits over 128-bit schoolbook, 6 VPCLMULQDQ: gf2x_vpclmul.cpp only
};

template <Base B>
HQC_AVX2_ALWAYS_INLINE void clmul128(__m128i x, __m128i y, __m128i& lo, __m128i& hi) {
  const __m128i l = _mm_clmulepi64_si128(x, y, 0x00);
  const __m128i h = _mm_clmulepi64_si128(x, y, 0x11);
  __m128i m;
  if constexpr (B == Base::kK9) {
    const __m128i xs = _mm_xor_si128(x, _mm_unpackhi_epi64(x, x));
    const __m128i ys = _mm_xor_si128(y, _mm_unpackhi_epi64(y, y));
    m = _mm_xor_si128(_mm_clmulepi64_si128(xs, ys, 0x00), _mm_xor_si128(l, h));
  } else {
    m = _mm_xor_si128(_mm_clmulepi64_si128(x, y, 0x01), _mm_clmulepi64_si128(x, y, 0x10));
  }
  lo = _mm_xor_si128(l, _mm_slli_si128(m, 8));
  hi = _mm_xor_si128(h, _mm_srli_si128(m, 8));
}

// (r1:r0) = a * b, 512 bits.
template <Base B>
HQC_AVX2_ALWAYS_INLINE void mul256(__m256i a, __m256i b, __m256i& r0, __m256i& r1) {
  static_assert(B != Base::kV8 && B != Base::kV6, "specialised in gf2x_vpclmul.cpp");
  const __m128i a0 = _mm256_castsi256_si128(a), a1 = _mm256_extracti128_si256(a, 1);
  const __m128i b0 = _mm256_castsi256_si128(b), b1 = _mm256_extracti128_si256(b, 1);
  __m128i p0l, p0h, p2l, p2h, p1l, p1h;
  clmul128<B>(a0, b0, p0l, p0h);
  clmul128<B>(a1, b1, p2l, p2h);
  clmul128<B>(_mm_xor_si128(a0, a1), _mm_xor_si128(b0, b1), p1l, p1h);
  p1l = _mm_xor_si128(p1l, _mm_xor_si128(p0l, p2l));
  p1h = _mm_xor_si128(p1h, _mm_xor_si128(p0h, p2h));
  r0 = _mm256_set_m128i(_mm_xor_si128(p0h, p1l), p0l);
  r1 = _mm256_set_m128i(p2h, _mm_xor_si128(p2l, p1h));
}

// Scratch words needed by kara<N> below (sums of both operands and the middle product per level
// of the memory recursion; the register nodes of up to kRegBlocks blocks need none).
constexpr std::size_t kara_scratch_words(std::size_t n, std::size_t thr) {
  if (n <= thr || (thr == 1 && n <= kRegBlocks)) return 0;
  const std::size_t lo = (n + 1) / 2;
  return 16 * lo + kara_scratch_words(lo, thr);
}

// Block access for kara_regs: operands and results are either register arrays (__m256i, inner
// nodes) or memory (u64, 256-bit blocks at 32-byte offsets: the node's caller), so that a node
// reads its operands and writes its product straight from and to memory, without copies.
HQC_AVX2_ALWAYS_INLINE __m256i block(const __m256i* p, std::size_t i) { return p[i]; }
HQC_AVX2_ALWAYS_INLINE __m256i block(const u64* p, std::size_t i) { return load256(p + 4 * i); }
HQC_AVX2_ALWAYS_INLINE void put_block(__m256i* p, std::size_t i, __m256i v) { p[i] = v; }
HQC_AVX2_ALWAYS_INLINE void put_block(u64* p, std::size_t i, __m256i v) { store256(p + 4 * i, v); }
HQC_AVX2_ALWAYS_INLINE const __m256i* skip_blocks(const __m256i* p, std::size_t n) { return p + n; }
HQC_AVX2_ALWAYS_INLINE const u64* skip_blocks(const u64* p, std::size_t n) { return p + 4 * n; }

// out[0, 2N) = a[0, N) * b[0, N) in 256-bit blocks, all in registers (the compiler spills what
// does not fit): two-way Karatsuba down to one block, and three blocks as 2 + 1 with the cross
// terms by Karatsuba (6 base products instead of 7). In and Out: const __m256i* / __m256i*, or
// const u64* / u64* (block() and put_block()).
template <std::size_t N, Base B, class In, class Out>
HQC_AVX2_ALWAYS_INLINE void kara_regs(In a, In b, Out out) {
  if constexpr (N == 1) {
    __m256i r0, r1;
    mul256<B>(block(a, 0), block(b, 0), r0, r1);
    put_block(out, 0, r0);
    put_block(out, 1, r1);
  } else if constexpr (N == 3) {
    // (a0 + a1 Y) + a2 Y^2: the low 2x2 by Karatsuba; a2 b2 at Y^4; a0 b2 + a2 b0 =
    // (a0 + a2)(b0 + b2) + a0 b0 + a2 b2 at Y^2; a1 b2 + a2 b1 = (a1 + a2)(b1 + b2) + a1 b1 + a2 b2 at Y^3.
    const __m256i a0 = block(a, 0), a1 = block(a, 1), a2 = block(a, 2);
    const __m256i b0 = block(b, 0), b1 = block(b, 1), b2 = block(b, 2);
    __m256i l0, l1, h0, h1, m0, m1, q0, q1, t0, t1, u0, u1;
    mul256<B>(a0, b0, l0, l1);
    mul256<B>(a1, b1, h0, h1);
    mul256<B>(_mm256_xor_si256(a0, a1), _mm256_xor_si256(b0, b1), m0, m1);
    m0 = _mm256_xor_si256(m0, _mm256_xor_si256(l0, h0));
    m1 = _mm256_xor_si256(m1, _mm256_xor_si256(l1, h1));
    mul256<B>(a2, b2, q0, q1);
    mul256<B>(_mm256_xor_si256(a0, a2), _mm256_xor_si256(b0, b2), t0, t1);
    t0 = _mm256_xor_si256(t0, _mm256_xor_si256(l0, q0));
    t1 = _mm256_xor_si256(t1, _mm256_xor_si256(l1, q1));
    mul256<B>(_mm256_xor_si256(a1, a2), _mm256_xor_si256(b1, b2), u0, u1);
    u0 = _mm256_xor_si256(u0, _mm256_xor_si256(h0, q0));
    u1 = _mm256_xor_si256(u1, _mm256_xor_si256(h1, q1));
    put_block(out, 0, l0);
    put_block(out, 1, _mm256_xor_si256(l1, m0));
    put_block(out, 2, _mm256_xor_si256(_mm256_xor_si256(h0, m1), t0));
    put_block(out, 3, _mm256_xor_si256(_mm256_xor_si256(h1, t1), u0));
    put_block(out, 4, _mm256_xor_si256(q0, u1));
    put_block(out, 5, q1);
  } else {
    constexpr std::size_t lo = (N + 1) / 2, hi = N - lo;  // hi <= lo
    __m256i z0[2 * lo], z2[2 * hi], z1[2 * lo], sa[lo], sb[lo];
    kara_regs<lo, B>(a, b, static_cast<__m256i*>(z0));
    kara_regs<hi, B>(skip_blocks(a, lo), skip_blocks(b, lo), static_cast<__m256i*>(z2));
    for (std::size_t i = 0; i < lo; i++) {
      sa[i] = i < hi ? _mm256_xor_si256(block(a, i), block(a, lo + i)) : block(a, i);
      sb[i] = i < hi ? _mm256_xor_si256(block(b, i), block(b, lo + i)) : block(b, i);
    }
    kara_regs<lo, B>(static_cast<const __m256i*>(sa), static_cast<const __m256i*>(sb), static_cast<__m256i*>(z1));
    // z1 + z0 + z2 is the middle term, at block lo of the 2N-block product z0 + z2 Y^(2 lo).
    for (std::size_t k = 0; k < 2 * lo; k++)
      z1[k] = _mm256_xor_si256(z1[k], k < 2 * hi ? _mm256_xor_si256(z0[k], z2[k]) : z0[k]);
    for (std::size_t k = 0; k < 2 * N; k++) {
      __m256i v = k < 2 * lo ? z0[k] : z2[k - 2 * lo];
      if (k >= lo && k < 3 * lo) v = _mm256_xor_si256(v, z1[k - lo]);
      put_block(out, k, v);
    }
  }
}

// out[0, 8N) = a[0, 4N) * b[0, 4N), N blocks of 256 bits; schoolbook over blocks at N <= Thr,
// on registers at N <= kRegBlocks (with Thr = 1).
template <std::size_t N, std::size_t Thr, Base B>
void kara(u64* out, const u64* a, const u64* b, u64* scratch) {
  if constexpr (Thr == 1 && N <= kRegBlocks) {
    kara_regs<N, B>(a, b, out);
  } else if constexpr (N <= Thr) {
    __m256i acc[2 * N];
    for (std::size_t k = 0; k < 2 * N; k++) acc[k] = _mm256_setzero_si256();
    for (std::size_t i = 0; i < N; i++) {
      const __m256i ai = load256(a + 4 * i);
      for (std::size_t j = 0; j < N; j++) {
        __m256i r0, r1;
        mul256<B>(ai, load256(b + 4 * j), r0, r1);
        acc[i + j] = _mm256_xor_si256(acc[i + j], r0);
        acc[i + j + 1] = _mm256_xor_si256(acc[i + j + 1], r1);
      }
    }
    for (std::size_t k = 0; k < 2 * N; k++) store256(out + 4 * k, acc[k]);
  } else {
    constexpr std::size_t lo = (N + 1) / 2, hi = N - lo;  // hi <= lo
    u64* sa = scratch;
    u64* sb = scratch + 4 * lo;
    u64* z = scratch + 8 * lo;
    u64* rest = scratch + 16 * lo;
    kara<lo, Thr, B>(out, a, b, rest);                             // z0 -> out[0, 8lo)
    kara<hi, Thr, B>(out + 8 * lo, a + 4 * lo, b + 4 * lo, rest);  // z2 -> out[8lo, 8N)
    for (std::size_t i = 0; i < hi; i++) {
      store256(sa + 4 * i, _mm256_xor_si256(load256(a + 4 * i), load256(a + 4 * (lo + i))));
      store256(sb + 4 * i, _mm256_xor_si256(load256(b + 4 * i), load256(b + 4 * (lo + i))));
    }
    if constexpr (hi < lo) {
      store256(sa + 4 * hi, load256(a + 4 * hi));
      store256(sb + 4 * hi, load256(b + 4 * hi));
    }
    kara<lo, Thr, B>(z, sa, sb, rest);  // (a0 + a1)(b0 + b1), 2lo blocks
    for (std::size_t k = 0; k < 2 * hi; k++)
      store256(z + 4 * k, _mm256_xor_si256(load256(z + 4 * k),
                                           _mm256_xor_si256(load256(out + 4 * k), load256(out + 4 * (2 * lo + k)))));
    for (std::size_t k = 2 * hi; k < 2 * lo; k++)
      store256(z + 4 * k, _mm256_xor_si256(load256(z + 4 * k), load256(out + 4 * k)));
    for (std::size_t k = 0; k < 2 * lo; k++)
      store256(out + 4 * (lo + k), _mm256_xor_si256(load256(out + 4 * (lo + k)), load256(z + 4 * k)));
  }
}

// Two products sharing b: out1 = a1 * b, out2 = a2 * b. b's sums are formed once per node and
// every base step loads each b block once for both products.
template <std::size_t N, std::size_t Thr, Base B>
void kara2(u64* out1, u64* out2, const u64* a1, const u64* a2, const u64* b, u64* scratch) {
  if constexpr (Thr == 1 && N <= kRegBlocks) {
    kara<N, Thr, B>(out1, a1, b, scratch);
    kara<N, Thr, B>(out2, a2, b, scratch);
  } else if constexpr (N <= Thr) {
    __m256i acc1[2 * N], acc2[2 * N];
    for (std::size_t k = 0; k < 2 * N; k++) acc1[k] = acc2[k] = _mm256_setzero_si256();
    for (std::size_t j = 0; j < N; j++) {
      const __m256i bj = load256(b + 4 * j);
      for (std::size_t i = 0; i < N; i++) {
        __m256i r0, r1;
        mul256<B>(load256(a1 + 4 * i), bj, r0, r1);
        acc1[i + j] = _mm256_xor_si256(acc1[i + j], r0);
        acc1[i + j + 1] = _mm256_xor_si256(acc1[i + j + 1], r1);
        mul256<B>(load256(a2 + 4 * i), bj, r0, r1);
        acc2[i + j] = _mm256_xor_si256(acc2[i + j], r0);
        acc2[i + j + 1] = _mm256_xor_si256(acc2[i + j + 1], r1);
      }
    }
    for (std::size_t k = 0; k < 2 * N; k++) {
      store256(out1 + 4 * k, acc1[k]);
      store256(out2 + 4 * k, acc2[k]);
    }
  } else {
    constexpr std::size_t lo = (N + 1) / 2, hi = N - lo;
    u64* sa1 = scratch;
    u64* sa2 = scratch + 4 * lo;
    u64* sb = scratch + 8 * lo;
    u64* z1 = scratch + 12 * lo;
    u64* z2 = scratch + 20 * lo;
    u64* rest = scratch + 28 * lo;
    kara2<lo, Thr, B>(out1, out2, a1, a2, b, rest);
    kara2<hi, Thr, B>(out1 + 8 * lo, out2 + 8 * lo, a1 + 4 * lo, a2 + 4 * lo, b + 4 * lo, rest);
    for (std::size_t i = 0; i < hi; i++) {
      store256(sa1 + 4 * i, _mm256_xor_si256(load256(a1 + 4 * i), load256(a1 + 4 * (lo + i))));
      store256(sa2 + 4 * i, _mm256_xor_si256(load256(a2 + 4 * i), load256(a2 + 4 * (lo + i))));
      store256(sb + 4 * i, _mm256_xor_si256(load256(b + 4 * i), load256(b + 4 * (lo + i))));
    }
    if constexpr (hi < lo) {
      store256(sa1 + 4 * hi, load256(a1 + 4 * hi));
      store256(sa2 + 4 * hi, load256(a2 + 4 * hi));
      store256(sb + 4 * hi, load256(b + 4 * hi));
    }
    kara2<lo, Thr, B>(z1, z2, sa1, sa2, sb, rest);
    u64* outs[2] = {out1, out2};
    u64* zs[2] = {z1, z2};
    for (int t = 0; t < 2; t++) {
      u64* out = outs[t];
      u64* z = zs[t];
      for (std::size_t k = 0; k < 2 * hi; k++)
        store256(z + 4 * k, _mm256_xor_si256(load256(z + 4 * k),
                                             _mm256_xor_si256(load256(out + 4 * k), load256(out + 4 * (2 * lo + k)))));
      for (std::size_t k = 2 * hi; k < 2 * lo; k++)
        store256(z + 4 * k, _mm256_xor_si256(load256(z + 4 * k), load256(out + 4 * k)));
      for (std::size_t k = 0; k < 2 * lo; k++)
        store256(out + 4 * (lo + k), _mm256_xor_si256(load256(out + 4 * (lo + k)), load256(z + 4 * k)));
    }
  }
}

constexpr std::size_t kara2_scratch_words(std::size_t n, std::size_t thr) {
  if (n <= thr || (thr == 1 && n <= kRegBlocks)) return 0;
  const std::size_t lo = (n + 1) / 2;
  return 28 * lo + kara2_scratch_words(lo, thr);
}

// Toom-Cook-3 over blocks (Bodrato's sequence for GF(2)[x], points 0, 1, t, t + 1, inf with
// t = x^64, so that every evaluation and every division is a whole-word operation):
//   A = a0 + a1 X + a2 X^2 with X = x^(64 K), K = 4 ceil(N / 3) words; C = A B = sum c_i X^i.
//   P(0) = c0, P(inf) = c4, U = P(1) + c0 + c4 = c1 + c2 + c3,
//   P(t + 1) + P(t) + c4 = c1 + c2 + c3 (t^2 + t + 1)          => c3 = (U + that) / (t^2 + t),
//   W = (P(t) + c0 + c4 t^4) / t = c1 + c2 t + c3 t^2, Q = U + c3 = c1 + c2
//                                                                => c2 = (W + Q + c3 t^2) / (t + 1),
//   c1 = Q + c2.
// Division by t drops a (zero) word; division by t + 1 = 1 + x^64 is the word prefix XOR
// q_i = y_i + q_(i-1). All sizes are compile-time constants; nothing depends on the data.
template <std::size_t N>
struct ToomDims {
  static constexpr std::size_t k = (N + 2) / 3;        // blocks per part
  static constexpr std::size_t K = 4 * k;              // words per part
  static constexpr std::size_t K1 = K + 4;             // words of the t-evaluations (K + 2, padded)
  static constexpr std::size_t kTail = 4 * N - 2 * K;  // words of the top part
  static constexpr std::size_t L = 2 * K + 8;          // words of the widest product
  static_assert(kTail <= K && 2 * K <= 4 * N);
};

template <std::size_t N>
struct ToomEval {
  alignas(32) u64 e0[ToomDims<N>::K];
  alignas(32) u64 e1[ToomDims<N>::K];
  alignas(32) u64 einf[ToomDims<N>::K];
  alignas(32) u64 et[ToomDims<N>::K1];
  alignas(32) u64 et1[ToomDims<N>::K1];
};

template <std::size_t N>
void toom_evaluate(ToomEval<N>& e, const u64* x) {
  using D = ToomDims<N>;
  const u64* x1 = x + D::K;
  for (std::size_t i = 0; i < D::K; i++) e.e0[i] = x[i];
  for (std::size_t i = 0; i < D::K; i++) e.einf[i] = i < D::kTail ? x[2 * D::K + i] : 0;
  for (std::size_t i = 0; i < D::K; i++) e.e1[i] = e.e0[i] ^ x1[i] ^ e.einf[i];
  for (std::size_t i = 0; i < D::K1; i++) e.et[i] = 0;
  for (std::size_t i = 0; i < D::K; i++) {
    e.et[i] ^= e.e0[i];
    e.et[i + 1] ^= x1[i];
    e.et[i + 2] ^= e.einf[i];
  }
  for (std::size_t i = 0; i < D::K1; i++) e.et1[i] = e.et[i] ^ (i < D::K ? x1[i] ^ e.einf[i] : 0);
}

template <std::size_t N>
struct ToomProducts {
  alignas(32) u64 p0[ToomDims<N>::L];
  alignas(32) u64 p1[ToomDims<N>::L];
  alignas(32) u64 pinf[ToomDims<N>::L];
  alignas(32) u64 pt[ToomDims<N>::L];
  alignas(32) u64 pt1[ToomDims<N>::L];
};

// out[0, 8N) from the five products (consumed as scratch).
template <std::size_t N>
void toom_interpolate(u64* out, ToomProducts<N>& p) {
  using D = ToomDims<N>;
  constexpr std::size_t K = D::K, L = D::L;
  u64* u = p.p1;   // U = P(1) + c0 + c4
  u64* y = p.pt1;  // P(t+1) + P(t) + c4 + U, then c3
  u64* w = p.pt;   // W, then c2
  for (std::size_t i = 0; i < L; i++) u[i] ^= p.p0[i] ^ p.pinf[i];
  for (std::size_t i = 0; i < L; i++) y[i] ^= p.pt[i] ^ p.pinf[i] ^ u[i];
  // c3 = y / t / (t + 1).
  u64 acc = 0;
  for (std::size_t i = 0; i + 1 < L; i++) {
    acc ^= y[i + 1];
    y[i] = acc;
  }
  y[L - 1] = 0;
  // W = (P(t) + c0 + c4 t^4) / t.
  for (std::size_t i = 0; i + 1 < L; i++) w[i] = w[i + 1] ^ p.p0[i + 1] ^ (i + 1 >= 4 ? p.pinf[i - 3] : 0);
  w[L - 1] = 0;
  // Q = U + c3 (in u); c2 = (W + Q + c3 t^2) / (t + 1) (in w); c1 = Q + c2 (in u).
  for (std::size_t i = 0; i < L; i++) u[i] ^= y[i];
  acc = 0;
  for (std::size_t i = 0; i < L; i++) {
    acc ^= w[i] ^ u[i] ^ (i >= 2 ? y[i - 2] : 0);
    w[i] = acc;
  }
  for (std::size_t i = 0; i < L; i++) u[i] ^= w[i];
  // out = c0 + c1 X + c2 X^2 + c3 X^3 + c4 X^4, truncated to the 8N words of the product.
  constexpr std::size_t kOut = 8 * N;
  const u64* c[5] = {p.p0, u, w, y, p.pinf};
  for (std::size_t i = 0; i < kOut; i++) out[i] = 0;
  for (std::size_t j = 0; j < 5; j++) {
    const std::size_t off = j * K;
    for (std::size_t i = 0; i < 2 * K && off + i < kOut; i++) out[off + i] ^= c[j][i];
  }
}

template <std::size_t N, std::size_t Thr, Base B, int Toom>
void mulb(u64* out, const u64* a, const u64* b);
template <std::size_t N, std::size_t Thr, Base B, int Toom>
void mulb2(u64* out1, u64* out2, const u64* a1, const u64* a2, const u64* b);

// Block product by Toom levels (Toom > 0) then Karatsuba.
template <std::size_t N, std::size_t Thr, Base B, int Toom>
void mulb(u64* out, const u64* a, const u64* b) {
  if constexpr (Toom == 0) {
    alignas(32) u64 scratch[kara_scratch_words(N, Thr) + 4];
    kara<N, Thr, B>(out, a, b, scratch);
    wipe(scratch, sizeof(scratch));
  } else {
    using D = ToomDims<N>;
    struct Work {
      ToomEval<N> ea, eb;
      ToomProducts<N> p;
    };
    Work wk;
    toom_evaluate<N>(wk.ea, a);
    toom_evaluate<N>(wk.eb, b);
    for (auto* q : {wk.p.p0, wk.p.p1, wk.p.pinf})
      for (std::size_t i = 2 * D::K; i < D::L; i++) q[i] = 0;
    mulb<D::k, Thr, B, Toom - 1>(wk.p.p0, wk.ea.e0, wk.eb.e0);
    mulb<D::k, Thr, B, Toom - 1>(wk.p.p1, wk.ea.e1, wk.eb.e1);
    mulb<D::k, Thr, B, Toom - 1>(wk.p.pinf, wk.ea.einf, wk.eb.einf);
    mulb<D::k + 1, Thr, B, Toom - 1>(wk.p.pt, wk.ea.et, wk.eb.et);
    mulb<D::k + 1, Thr, B, Toom - 1>(wk.p.pt1, wk.ea.et1, wk.eb.et1);
    toom_interpolate<N>(out, wk.p);
    wipe(&wk, sizeof(wk));
  }
}

// Two products sharing b (b evaluated once).
template <std::size_t N, std::size_t Thr, Base B, int Toom>
void mulb2(u64* out1, u64* out2, const u64* a1, const u64* a2, const u64* b) {
  if constexpr (Toom == 0) {
    alignas(32) u64 scratch[kara2_scratch_words(N, Thr) + 4];
    kara2<N, Thr, B>(out1, out2, a1, a2, b, scratch);
    wipe(scratch, sizeof(scratch));
  } else {
    using D = ToomDims<N>;
    struct Work {
      ToomEval<N> ea1, ea2, eb;
      ToomProducts<N> p1, p2;
    };
    Work wk;
    toom_evaluate<N>(wk.ea1, a1);
    toom_evaluate<N>(wk.ea2, a2);
    toom_evaluate<N>(wk.eb, b);
    for (auto* q : {wk.p1.p0, wk.p1.p1, wk.p1.pinf, wk.p2.p0, wk.p2.p1, wk.p2.pinf})
      for (std::size_t i = 2 * D::K; i < D::L; i++) q[i] = 0;
    mulb2<D::k, Thr, B, Toom - 1>(wk.p1.p0, wk.p2.p0, wk.ea1.e0, wk.ea2.e0, wk.eb.e0);
    mulb2<D::k, Thr, B, Toom - 1>(wk.p1.p1, wk.p2.p1, wk.ea1.e1, wk.ea2.e1, wk.eb.e1);
    mulb2<D::k, Thr, B, Toom - 1>(wk.p1.pinf, wk.p2.pinf, wk.ea1.einf, wk.ea2.einf, wk.eb.einf);
    mulb2<D::k + 1, Thr, B, Toom - 1>(wk.p1.pt, wk.p2.pt, wk.ea1.et, wk.ea2.et, wk.eb.et);
    mulb2<D::k + 1, Thr, B, Toom - 1>(wk.p1.pt1, wk.p2.pt1, wk.ea1.et1, wk.ea2.et1, wk.eb.et1);
    toom_interpolate<N>(out1, wk.p1);
    toom_interpolate<N>(out2, wk.p2);
    wipe(&wk, sizeof(wk));
  }
}

// Sizes of one level: operands are read as whole 256-bit blocks (they fit in the padded length).
template <class P>
struct Layout {
  static constexpr std::size_t kBlocks = (P::kNWords + 3) / 4;
  static_assert(4 * kBlocks <= P::kNWordsPadded);
  // The product (8 kBlocks words) plus slack so that the fold may read whole vectors past it.
  static constexpr std::size_t kProdWords = 8 * kBlocks + 16;
};

// out = prod mod (x^n - 1), padding cleared. prod's words past the product are zero.
template <class P>
inline void fold(u64* out, const u64* prod) {
  constexpr std::size_t q = P::kN / 64;
  constexpr int r = static_cast<int>(P::kN % 64);
  static_assert(r != 0);
  const __m128i sr = _mm_cvtsi32_si128(r), sl = _mm_cvtsi32_si128(64 - r);
  for (std::size_t i = 0; i < P::kNWordsPadded; i += 4) {
    const __m256i hi =
        _mm256_or_si256(_mm256_srl_epi64(load256(prod + i + q), sr), _mm256_sll_epi64(load256(prod + i + q + 1), sl));
    store256(out + i, _mm256_xor_si256(load256(prod + i), hi));
  }
  out[P::kNWords - 1] &= P::kLastWordMask;
  for (std::size_t i = P::kNWords; i < P::kNWordsPadded; i++) out[i] = 0;
}

template <class P, std::size_t Thr, Base B, int Toom>
void mul_impl(u64* out, const u64* a, const u64* b) {
  using L = Layout<P>;
  static_assert(L::kProdWords >= P::kNWordsPadded + P::kN / 64 + 8);
  alignas(32) u64 prod[L::kProdWords];
  mulb<L::kBlocks, Thr, B, Toom>(prod, a, b);
  for (std::size_t i = 8 * L::kBlocks; i < L::kProdWords; i++) prod[i] = 0;
  fold<P>(out, prod);
  wipe(prod, sizeof(prod));
}

template <class P, std::size_t Thr, Base B, int Toom>
void mul2_impl(u64* out1, u64* out2, const u64* a1, const u64* a2, const u64* b) {
  using L = Layout<P>;
  alignas(32) u64 prod1[L::kProdWords];
  alignas(32) u64 prod2[L::kProdWords];
  mulb2<L::kBlocks, Thr, B, Toom>(prod1, prod2, a1, a2, b);
  for (std::size_t i = 8 * L::kBlocks; i < L::kProdWords; i++) prod1[i] = prod2[i] = 0;
  fold<P>(out1, prod1);
  fold<P>(out2, prod2);
  wipe(prod1, sizeof(prod1));
  wipe(prod2, sizeof(prod2));
}

}  // namespace
}  // namespace hqc::backend::avx2
