// Ring multiplication in GF(2)[x]/(x^n - 1) (spec §2.2) with PCLMULQDQ: Karatsuba over 256-bit
// blocks, recursion unrolled at compile time for each level's block count, a fixed base product
// of 256 x 256 bits, then one vectorised fold. Every step is data-independent: the operands are
// only XORed, carry-less multiplied and stored at public offsets.
#include "backend/avx2/kernels.hpp"
#include "backend/avx2/simd.hpp"

namespace hqc::backend::avx2 {
namespace {

using u64 = std::uint64_t;

// The base product of two 256-bit blocks.
enum class Base {
  kK9,   // Karatsuba at 256 bits over Karatsuba at 128 bits: 9 PCLMULQDQ
  kK12,  // Karatsuba at 256 bits over schoolbook at 128 bits: 12 PCLMULQDQ, fewer XORs
};

template <Base B>
inline void clmul128(__m128i x, __m128i y, __m128i& lo, __m128i& hi) {
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
inline void mul256(__m256i a, __m256i b, __m256i& r0, __m256i& r1) {
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

// Scratch words needed by kara<N> below (sums of both operands and the middle product per level).
constexpr std::size_t kara_scratch_words(std::size_t n, std::size_t thr) {
  if (n <= thr) return 0;
  const std::size_t lo = (n + 1) / 2;
  return 16 * lo + kara_scratch_words(lo, thr);
}

// out[0, 8N) = a[0, 4N) * b[0, 4N), N blocks of 256 bits; schoolbook over blocks at N <= Thr.
template <std::size_t N, std::size_t Thr, Base B>
void kara(u64* out, const u64* a, const u64* b, u64* scratch) {
  if constexpr (N <= Thr) {
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
    kara<lo, Thr, B>(out, a, b, rest);                       // z0 -> out[0, 8lo)
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
  if constexpr (N <= Thr) {
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
        store256(z + 4 * k, _mm256_xor_si256(load256(z + 4 * k), _mm256_xor_si256(load256(out + 4 * k),
                                                                                  load256(out + 4 * (2 * lo + k)))));
      for (std::size_t k = 2 * hi; k < 2 * lo; k++)
        store256(z + 4 * k, _mm256_xor_si256(load256(z + 4 * k), load256(out + 4 * k)));
      for (std::size_t k = 0; k < 2 * lo; k++)
        store256(out + 4 * (lo + k), _mm256_xor_si256(load256(out + 4 * (lo + k)), load256(z + 4 * k)));
    }
  }
}

constexpr std::size_t kara2_scratch_words(std::size_t n, std::size_t thr) {
  if (n <= thr) return 0;
  const std::size_t lo = (n + 1) / 2;
  return 28 * lo + kara2_scratch_words(lo, thr);
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
    const __m256i hi = _mm256_or_si256(_mm256_srl_epi64(load256(prod + i + q), sr),
                                       _mm256_sll_epi64(load256(prod + i + q + 1), sl));
    store256(out + i, _mm256_xor_si256(load256(prod + i), hi));
  }
  out[P::kNWords - 1] &= P::kLastWordMask;
  for (std::size_t i = P::kNWords; i < P::kNWordsPadded; i++) out[i] = 0;
}

template <class P, std::size_t Thr, Base B>
void mul_impl(u64* out, const u64* a, const u64* b) {
  using L = Layout<P>;
  static_assert(L::kProdWords >= P::kNWordsPadded + P::kN / 64 + 8);
  alignas(32) u64 prod[L::kProdWords];
  alignas(32) u64 scratch[kara_scratch_words(L::kBlocks, Thr) + 4];
  kara<L::kBlocks, Thr, B>(prod, a, b, scratch);
  for (std::size_t i = 8 * L::kBlocks; i < L::kProdWords; i++) prod[i] = 0;
  fold<P>(out, prod);
  wipe(prod, sizeof(prod));
  wipe(scratch, sizeof(scratch));
}

// The production choice (bench/avx2, docs/AVX2.md).
constexpr std::size_t kThr = 1;
constexpr Base kBase = Base::kK9;

}  // namespace

template <class P>
void mul(u64* out, const u64* a, const u64* b) {
  mul_impl<P, kThr, kBase>(out, a, b);
}

template <class P>
void mul2(u64* out1, u64* out2, const u64* a1, const u64* a2, const u64* b) {
  using L = Layout<P>;
  alignas(32) u64 prod1[L::kProdWords];
  alignas(32) u64 prod2[L::kProdWords];
  alignas(32) u64 scratch[kara2_scratch_words(L::kBlocks, kThr) + 4];
  kara2<L::kBlocks, kThr, kBase>(prod1, prod2, a1, a2, b, scratch);
  for (std::size_t i = 8 * L::kBlocks; i < L::kProdWords; i++) prod1[i] = prod2[i] = 0;
  fold<P>(out1, prod1);
  fold<P>(out2, prod2);
  wipe(prod1, sizeof(prod1));
  wipe(prod2, sizeof(prod2));
  wipe(scratch, sizeof(scratch));
}

const char* mul_variant_name(MulVariant v) {
  switch (v) {
    case MulVariant::kKaratsubaBase1: return "karatsuba/256-bit base, 9 clmul";
    case MulVariant::kKaratsubaBase2: return "karatsuba/2x256 schoolbook base";
    case MulVariant::kKaratsubaBase3: return "karatsuba/3x256 schoolbook base";
    case MulVariant::kKaratsubaBase1S: return "karatsuba/256-bit base, 12 clmul";
    default: return "?";
  }
}

template <class P>
void mul_variant(MulVariant v, u64* out, const u64* a, const u64* b) {
  switch (v) {
    case MulVariant::kKaratsubaBase1: mul_impl<P, 1, Base::kK9>(out, a, b); break;
    case MulVariant::kKaratsubaBase2: mul_impl<P, 2, Base::kK9>(out, a, b); break;
    case MulVariant::kKaratsubaBase3: mul_impl<P, 3, Base::kK9>(out, a, b); break;
    case MulVariant::kKaratsubaBase1S: mul_impl<P, 1, Base::kK12>(out, a, b); break;
    default: mul_impl<P, kThr, kBase>(out, a, b); break;
  }
}

#define HQC_AVX2_MUL_INSTANTIATE(P)                                                                   \
  template void mul<P>(u64*, const u64*, const u64*);                                                 \
  template void mul2<P>(u64*, u64*, const u64*, const u64*, const u64*);                              \
  template void mul_variant<P>(MulVariant, u64*, const u64*, const u64*);
HQC_AVX2_MUL_INSTANTIATE(Hqc1)
HQC_AVX2_MUL_INSTANTIATE(Hqc3)
HQC_AVX2_MUL_INSTANTIATE(Hqc5)
#undef HQC_AVX2_MUL_INSTANTIATE

}  // namespace hqc::backend::avx2
