// The novel-basis conversion (plan.hpp's kConversionPlan) as vector code, for both FAFFT
// implementations: each includes this header into its own translation unit (compiled with its
// own ISA flags) and instantiates ConversionPasses with its vector traits V:
//   V::Vec, V::kWords (64-bit words per vector), V::zero(), V::load / V::store (the register
//   unit's vectors, at multiples of kWords words), V::loadu / V::storeu, V::bxor, V::bor,
//   V::srli / V::slli (count a compile-time constant at every call), V::xor_and(x, s, m) =
//   x ^ (s & m), V::set(m) (kWords mask words of the plan), V::words_from<O>(lo, hi) (words
//   O .. O + kWords - 1 of the pair lo:hi, 0 < O < kWords), and V::xor_range (the run-time
//   form of xor_block for the one block that the bound n cuts). Optionally V::pair_map(x, A, B,
//   D): the PairMap of plan.hpp on every 16-bit lane (lo = A lo + B hi, hi = D hi; A, B, D
//   gf2p8affineqb matrices broadcast to vectors); with it, the ops at the end of a register
//   group whose blocks are at most 16 bits run as that one map. Optionally V::shrd<R>(lo, hi):
//   each word of lo shifted right by R with the low R bits of the same word of hi above it (a
//   funnel shift, AVX-512 VBMI2's vpshrdq), for the two-word sources of the register ops.
// Every loop bound, shift, offset and mask is a function of the plan (public sizes): no branch or
// address depends on data.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "backend/fafft/plan.hpp"

namespace hqc::backend::fafft {

template <class V>
struct ConversionPasses {
  using Vec = typename V::Vec;
  using u64 = std::uint64_t;
  static constexpr int kUnit = kUnitWords / V::kWords;  // vectors per register unit
  static_assert(kUnit * V::kWords == kUnitWords);

  // Words W .. W + kWords - 1 of the unit x (zero beyond the unit); immediates only.
  template <int W>
  [[gnu::always_inline]] static inline Vec words_at(const Vec* x) {
    constexpr int y = W / V::kWords, o = W % V::kWords;
    if constexpr (y >= kUnit) {
      return V::zero();
    } else if constexpr (o == 0) {
      return x[y];
    } else {
      Vec b = V::zero();
      if constexpr (y + 1 < kUnit) b = x[y + 1];
      return V::template words_from<o>(x[y], b);
    }
  }

  // One funnel shift instead of two shifts and an OR (zmm: 0.97 x the HQC-5 product, docs/FAFFT.md).
  static constexpr bool kFunnel = requires(Vec v) { V::template shrd<1>(v, v); };

  // Output vector U of op J: x[U] ^= (x >> delta)[U] & mask[U]. Reads only x[U..] (delta > 0), so
  // ascending U is in place.
  template <unsigned L, int J, int U>
  [[gnu::always_inline]] static inline void apply_unit(Vec* x) {
    constexpr const RegOp& op = kConversionPlan<L>.ops[J];
    constexpr const u64* m = op.mask + V::kWords * U;
    constexpr u64 any = [] {
      u64 a = 0;
      for (int i = 0; i < V::kWords; i++) a |= m[i];
      return a;
    }();
    constexpr u64 all = [] {
      u64 a = ~u64{0};
      for (int i = 0; i < V::kWords; i++) a &= m[i];
      return a;
    }();
    if constexpr (any != 0) {  // plan constants
      Vec s;
      if constexpr (op.in_word()) {
        s = V::srli(x[U], op.r);
      } else {
        constexpr int W = V::kWords * U + static_cast<int>(op.q);
        // Destination bits below 64 - r take their source from the low word, the others from the
        // next one; a part that no destination bit of this vector needs is not computed.
        constexpr u64 low = op.r == 0 ? ~u64{0} : (u64{1} << (64 - op.r)) - 1;
        constexpr bool need_lo = (any & low) != 0, need_hi = (any & ~low) != 0;
        if constexpr (op.r == 0) {
          s = words_at<W>(x);
        } else if constexpr (!need_hi) {
          s = V::srli(words_at<W>(x), op.r);
        } else if constexpr (!need_lo) {
          s = V::slli(words_at<W + 1>(x), 64 - op.r);
        } else if constexpr (kFunnel) {
          s = V::template shrd<op.r>(words_at<W>(x), words_at<W + 1>(x));
        } else {
          s = V::bor(V::srli(words_at<W>(x), op.r), V::slli(words_at<W + 1>(x), 64 - op.r));
        }
      }
      if constexpr (all != ~u64{0}) x[U] = V::xor_and(x[U], s, V::set(m));
      else x[U] = V::bxor(x[U], s);
    }
  }

  template <unsigned L, int J, int... U>
  [[gnu::always_inline]] static inline void apply_op(Vec* x, std::integer_sequence<int, U...> /*units*/) {
    (apply_unit<L, J, U>(x), ...);
  }

  template <unsigned L, bool Inverse, int First, int Count, int... I>
  [[gnu::always_inline]] static inline void apply_ops(Vec* x, std::integer_sequence<int, I...> /*ops*/) {
    (apply_op < L, Inverse ? First + Count - 1 - I : First + I > (x, std::make_integer_sequence<int, kUnit>{}), ...);
  }

  static constexpr bool kPairMaps = requires(Vec v) { V::pair_map(v, v, v, v); };

  // Ops of a register group that run one by one (the group less its fused tail), and the tail.
  template <unsigned L, int First, int Count>
  static constexpr int kTail = [] {
    if constexpr (!kPairMaps) return 0;
    return tail16_count(kConversionPlan<L>, First, Count);
  }();
  // The tail's matrices (instantiated only where the tail is not empty).
  template <unsigned L, bool Inverse, int First, int Count>
  alignas(64) static constexpr std::array<std::array<u64, 8>, 3> kPairMatrices = [] {
    constexpr int T = kTail<L, First, Count>;
    const PairMap m = make_pair_map(kConversionPlan<L>.ops + First + Count - T, T, Inverse);
    std::array<std::array<u64, 8>, 3> out{};  // each matrix eight times: one vector, loaded whole
    for (int i = 0; i < 8; i++) {
      out[0][i] = m.a;
      out[1][i] = m.b;
      out[2][i] = m.d;
    }
    return out;
  }();

  // One register group over the first `words` words (a multiple of the unit).
  template <unsigned L, bool Inverse, int First, int Count>
  static void run_regops(u64* w, std::size_t words) {
    constexpr int T = kTail<L, First, Count>, Single = Count - T;
    Vec a{}, b{}, d{};
    if constexpr (T > 0) {
      constexpr const auto& m = kPairMatrices<L, Inverse, First, Count>;
      a = V::load(m[0].data());
      b = V::load(m[1].data());
      d = V::load(m[2].data());
    }
    for (std::size_t i = 0; i < words; i += kUnitWords) {
      Vec x[kUnit];
      for (int u = 0; u < kUnit; u++) x[u] = V::load(w + i + V::kWords * static_cast<std::size_t>(u));
      if constexpr (T > 0 && Inverse)  // the tail's ops come first in reverse order
        for (int u = 0; u < kUnit; u++) x[u] = V::pair_map(x[u], a, b, d);
      apply_ops<L, Inverse, First, Single>(x, std::make_integer_sequence<int, Single>{});
      if constexpr (T > 0 && !Inverse)
        for (int u = 0; u < kUnit; u++) x[u] = V::pair_map(x[u], a, b, d);
      for (int u = 0; u < kUnit; u++) V::store(w + i + V::kWords * static_cast<std::size_t>(u), x[u]);
    }
  }

  // w[Dst .. Dst+Len) ^= w[Src .. Src+Len) on one whole block (w = the block's first word) with
  // every offset, shift and mask a compile-time constant of the step: the blocks of the large
  // steps are many and their ranges small (e.g. 8 bits per 4096-bit block), so per-call work
  // matters.
  template <std::uint32_t Dst, std::uint32_t Src, std::uint32_t Len>
  [[gnu::always_inline]] static inline void xor_block(u64* w) {
    constexpr std::uint32_t q = (Src - Dst) / 64, r = (Src - Dst) % 64;
    constexpr std::uint32_t dw0 = Dst / 64, dw1 = (Dst + Len - 1) / 64;
    constexpr u64 head = ~u64{0} << (Dst % 64);
    constexpr u64 tail = ((Dst + Len) % 64) ? ((u64{1} << ((Dst + Len) % 64)) - 1) : ~u64{0};
    auto src_word = [w](std::uint32_t dw) {
      if constexpr (r == 0) return w[dw + q];
      else return (w[dw + q] >> r) | (w[dw + q + 1] << (64 - r));
    };
    if constexpr (dw0 == dw1) {
      w[dw0] ^= src_word(dw0) & head & tail;
    } else {
      std::uint32_t dw = dw0;
      if constexpr (head != ~u64{0}) {
        w[dw0] ^= src_word(dw0) & head;
        dw++;
      }
      constexpr std::uint32_t last = tail != ~u64{0} ? dw1 : dw1 + 1;  // whole words [dw, last)
      for (; dw + V::kWords <= last; dw += V::kWords) {
        Vec v = V::loadu(w + dw + q);
        if constexpr (r != 0) v = V::bor(V::srli(v, r), V::slli(V::loadu(w + dw + q + 1), 64 - r));
        V::storeu(w + dw, V::bxor(V::loadu(w + dw), v));
      }
      for (; dw < last; dw++) w[dw] ^= src_word(dw);
      if constexpr (tail != ~u64{0}) w[dw1] ^= src_word(dw1) & tail;
    }
  }

  // Group GI (in execution order) of the plan and the following ones. Bits >= limit are known to
  // be zero (public bound): every step moves bits downwards (src > dst), so they stay zero, memory
  // steps skip the parts whose source lies at or above the limit, register groups run over
  // reg_words (the units below the limit).
  template <unsigned L, bool Inverse, int GI>
  static void run_groups(u64* w, std::size_t words, std::size_t limit, std::size_t reg_words) {
    constexpr const ConversionPlan& p = kConversionPlan<L>;
    if constexpr (GI < p.ngroups) {
      constexpr const Group& g = p.groups[Inverse ? p.ngroups - 1 - GI : GI];
      if constexpr (g.reg) {
        run_regops<L, Inverse, g.first, g.count>(w, reg_words);
      } else {
        constexpr const Step& s = p.steps[g.first];
        static_assert(s.block % 64 == 0);
        for (std::size_t base = 0; base < words * 64 && base + s.src < limit; base += s.block) {
          const std::size_t avail = limit - (base + s.src);
          if (avail >= s.len) xor_block<s.dst, s.src, s.len>(w + base / 64);  // public sizes
          else V::xor_range(w, base + s.dst, base + s.src, avail);
        }
      }
      run_groups<L, Inverse, GI + 1>(w, words, limit, reg_words);
    }
  }

  template <unsigned L, bool Inverse>
  static void run_plan(u64* w, std::size_t limit) {
    constexpr std::size_t words = (std::size_t{1} << L) / 64;
    static_assert(words % kUnitWords == 0);
    const std::size_t reg_words = (limit + 64 * kUnitWords - 1) / (64 * kUnitWords) * kUnitWords;
    run_groups<L, Inverse, 0>(w, words, limit, reg_words < words ? reg_words : words);
  }

  // Novel-basis conversion of 2^L bits (bits >= limit zero) and its inverse. The inverse takes a
  // limit too: every step moves bits downwards (src > dst) and is an involution, so if its result
  // is zero at and above the limit (a product's novel-basis coefficients, limit = its length),
  // so is the state before every step (run the steps forward from the result), and the inverse
  // skips the same parts as the forward conversion.
  template <unsigned L>
  static void to_novel(u64* w, std::size_t limit) {
    run_plan<L, false>(w, limit);
  }
  template <unsigned L>
  static void from_novel(u64* w, std::size_t limit) {
    run_plan<L, true>(w, limit);
  }
};

}  // namespace hqc::backend::fafft
