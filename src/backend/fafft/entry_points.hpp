// The FAFFT multiplier's entry points (forward, mul_transformed, mul_transformed_plain,
// mul2_transformed_plain, mul, mul2; their contracts: avx512/fafft.hpp), composed once from the
// parts a backend implements with its own vectors. `Parts` has the static member templates
//   to_novel<L>(w, limit), from_novel<L>(w, limit)   novel-basis conversion of 2^L bits whose bits
//                                                 >= limit are zero (plan.hpp steps), and back
//   encode_half<K>(t, bits), decode_full<K, R>(t, tmp)   GF(2) bit-matrix encoding / decoding
//                                                 (returns t or tmp: where the decoded rows are;
//                                                 rows R .. 31 hold no coefficient of the product,
//                                                 and a port may write them as zeros uncomputed)
//   fft<K>(g), ifft_product<K>(g, x, y)          additive FFT; inverse FFT of a pointwise product
//                                                 (and with extra arguments, where a port takes
//                                                 them: see `extra` below)
//   reduce_out<P>(out, c)                        c mod x^n - 1, padding words zeroed
// and wipe(p, len), copy(dst, src, len), zero(p, len) (the port's own memory moves: the device's C
// library may move a byte at a time); Parts::kLogElementBits is log2 of the field's bits (5 for
// GF(2^32), every port), so that a transform has 2^K points, K = m - kLogElementBits, in the same
// 2^m bits. Buffers are
// 64-byte aligned (what the widest part needs). Every size is a function of the parameter set;
// secrets in the scratch buffers are wiped before returning, the caller's transforms (ta, tb, t)
// are the caller's to wipe (docs/FAFFT.md, "Constant time").
// The entry points that run transforms (forward, mul_transformed_plain, mul, mul2) pass any
// trailing `extra` arguments on to every fft and ifft_product they call: what a port computes once
// for several transforms of one size (the m4 port's sliced layers' indices); none on x86.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "backend/fafft/plan.hpp"

namespace hqc::backend::fafft {

template <class P>
inline constexpr std::size_t kHalfWords = (std::size_t{1} << (kLogProduct<P> - 1)) / 64;  // input bits
template <class P>
inline constexpr std::size_t kFullWords = (std::size_t{1} << kLogProduct<P>) / 64;  // product bits
// The decoded rows (32 rows of 2^K bits: row t holds the novel-basis coefficients t 2^K .. t 2^K +
// 2^K - 1) that can hold one of the product's 2n - 1 coefficients; the coefficients from 2n - 1
// on are zero (the novel basis is triangular).
template <class P, unsigned K>
inline constexpr unsigned kProductRows =
    static_cast<unsigned>(std::min<std::size_t>(32, (2 * P::kN - 1 + (std::size_t{1} << K) - 1) >> K));

template <class Parts>
struct EntryPoints {
  using u64 = std::uint64_t;
  template <class P>
  static constexpr unsigned kPoints = kLogProduct<P> - Parts::kLogElementBits;  // K

  // prod (the inverse FFT of a pointwise product, kTransformWords + 16 words, destroyed) -> out.
  // decode_full returns where it left the rows: in prod (decoded in place, tmp as scratch) or in
  // tmp. finish and forward stay out of line, so that a caller's frame never holds both their
  // buffers (inlined, GCC gave bits and tmp separate slots: 8 KiB more stack at 2^17 bits, which a
  // device's RAM feels; one call per transform costs nothing measurable on x86).
  template <class P>
  [[gnu::noinline]] static void finish(u64* out, u64* prod) {
    constexpr unsigned m = kLogProduct<P>, K = kPoints<P>;
    alignas(64) u64 tmp[kFullWords<P> + 16];
    u64* rows = Parts::template decode_full<K, kProductRows<P, K>>(prod, tmp);
    Parts::zero(rows + kFullWords<P>, 16 * sizeof(u64));
    Parts::template from_novel<m>(rows, 2 * P::kN - 1);  // the product has 2n - 1 coefficients
    Parts::template reduce_out<P>(out, rows);
    Parts::wipe(tmp, sizeof(tmp));
  }

  template <class P, class... Extra>
  [[gnu::noinline]] static void forward(u64* t, const u64* a, const Extra&... extra) {
    constexpr unsigned m = kLogProduct<P>, K = kPoints<P>;
    static_assert(kHalfWords<P> >= P::kNWords);
    alignas(64) u64 bits[kHalfWords<P> + 16];
    Parts::copy(bits, a, P::kNWords * sizeof(u64));
    Parts::zero(bits + P::kNWords, (kHalfWords<P> + 16 - P::kNWords) * sizeof(u64));
    Parts::template to_novel<m - 1>(bits, P::kN);
    Parts::template encode_half<K>(t, bits);
    Parts::template fft<K>(t, extra...);
    Parts::wipe(bits, sizeof(bits));
  }

  template <class P>
  static void mul_transformed(u64* out, const u64* ta, const u64* tb) {
    alignas(64) u64 prod[kTransformWords<P> + 16];
    Parts::template ifft_product<kPoints<P>>(prod, ta, tb);
    finish<P>(out, prod);
    Parts::wipe(prod, sizeof(prod));
  }

  template <class P, class... Extra>
  static void mul_transformed_plain(u64* out, const u64* ta, const u64* b, const Extra&... extra) {
    alignas(64) u64 tb[kTransformWords<P> + 16];
    forward<P>(tb, b, extra...);
    Parts::template ifft_product<kPoints<P>>(tb, ta, tb, extra...);
    finish<P>(out, tb);
    Parts::wipe(tb, sizeof(tb));
  }

  template <class P>
  static void mul2_transformed_plain(u64* out1, u64* out2, const u64* ta1, const u64* ta2, const u64* b) {
    alignas(64) u64 tb[kTransformWords<P>];
    alignas(64) u64 prod[kTransformWords<P> + 16];
    forward<P>(tb, b);
    Parts::template ifft_product<kPoints<P>>(prod, ta1, tb);
    finish<P>(out1, prod);
    Parts::template ifft_product<kPoints<P>>(prod, ta2, tb);
    finish<P>(out2, prod);
    Parts::wipe(tb, sizeof(tb));
    Parts::wipe(prod, sizeof(prod));
  }

  template <class P, class... Extra>
  static void mul(u64* out, const u64* a, const u64* b, const Extra&... extra) {
    alignas(64) u64 ta[kTransformWords<P>];
    forward<P>(ta, a, extra...);
    mul_transformed_plain<P>(out, ta, b, extra...);
    Parts::wipe(ta, sizeof(ta));
  }

  template <class P, class... Extra>
  static void mul2(u64* out1, u64* out2, const u64* a1, const u64* a2, const u64* b, const Extra&... extra) {
    alignas(64) u64 tb[kTransformWords<P>];
    forward<P>(tb, b, extra...);
    mul_transformed_plain<P>(out1, tb, a1, extra...);
    mul_transformed_plain<P>(out2, tb, a2, extra...);
    Parts::wipe(tb, sizeof(tb));
  }
};

}  // namespace hqc::backend::fafft
