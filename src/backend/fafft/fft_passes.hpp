// The additive FFT of the GF(2^32) FAFFT (docs/FAFFT.md), written once for both ports
// (avx512/fafft.cpp on zmm, avx2/fafft_avx2.cpp on ymm) over the port's vector operations V:
//   V::Vec; V::kLogLanes (log2 of the field elements per vector: 4 zmm, 3 ymm); V::kMaxPassLayers
//   (layers one pass over memory may take, as many as leave registers for the twiddles: 4, 3);
//   V::load(const u32*), V::store(u32*, Vec); V::bxor(a, b), V::bxor3(a, b, c); V::gmul(a, b)
//   (gf2p8mulb); V::template rotl_bytes<R>(x) (each dword rotated left by 8 R bits, R = 1..3);
//   V::bcast(u32); V::mul(a, b) (the general field product, for the pointwise products); and
//   V::transpose(z) (the E x E dword transpose of E registers, E = 2^kLogLanes: z[l] lane r <-
//   z[r] lane l).
// Included by each port after its target options, so that these templates get its instructions.
//
// Layer i, block b (elements [b 2^(i+1), (b+1) 2^(i+1)), u the first half, v the second):
// u += tau v, v += u with tau = s_i(beta_31 + sum_l b_l beta_(i+1+l)) (field32.hpp), undone by
// v += u, u += tau v. With E elements per register and groups of E^2 consecutive elements:
// layers K-1 .. 2 log E pair elements of different groups and run in passes over memory of at most
// kMaxPassLayers layers each; then each group in E registers: layers 2 log E - 1 .. log E pair
// registers (register k holds elements E k .. E k + E - 1), the transpose makes the last log E
// layers pair registers too (lane r of register l holds element E r + l), with twiddles that
// differ per lane. The transform stays in that order: within each group, dword E l + r holds
// point E r + l (each port's point_dword), which the pointwise products do not mind and the
// inverse transform undoes.
//
// Constant time: every loop bound, index and twiddle address depends on K, the layer and the
// block (public) only; the data meet gf2p8mulb, fixed rotations and XOR.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "backend/fafft/field32.hpp"
#include "common/static_for.hpp"

namespace hqc::backend::fafft {

// The butterfly networks index registers and choose twiddles by compile-time indices.
using ::hqc::static_for;

template <class V>
struct FftPasses {
  using Vec = typename V::Vec;
  using u32 = std::uint32_t;
  static constexpr unsigned kLog = V::kLogLanes;
  static constexpr std::size_t kLanes = std::size_t{1} << kLog;  // E
  static constexpr unsigned kGroupLog = 2 * kLog;                // groups of E^2 elements

  // A constant of the products (a twiddle) by its four diagonals (field32::Diagonals):
  // c * a = sum_d D_d (*) rotl(a, 8 d), one broadcast register per diagonal.
  struct Twiddle {
    Vec d[4];
  };
  [[gnu::always_inline]] static Twiddle twiddle(unsigned layer, std::size_t block) {
    const field32::Diagonals& t = field32::kTwiddles.t[field32::twiddle_index(layer, block)];
    return {{V::bcast(t.d[0]), V::bcast(t.d[1]), V::bcast(t.d[2]), V::bcast(t.d[3])}};
  }

  // u += tau v: four gf2p8mulb by the diagonals on v rotated by 0, 8, 16 and 24 bits.
  [[gnu::always_inline]] static Vec add_product(Vec u, Vec v, const Twiddle& t) {
    const Vec p0 = V::gmul(v, t.d[0]);
    const Vec p1 = V::gmul(V::template rotl_bytes<1>(v), t.d[1]);
    const Vec p2 = V::gmul(V::template rotl_bytes<2>(v), t.d[2]);
    const Vec p3 = V::gmul(V::template rotl_bytes<3>(v), t.d[3]);
    return V::bxor3(V::bxor3(u, p0, p1), p2, p3);
  }
  template <bool Inverse>
  [[gnu::always_inline]] static void butterfly(Vec& u, Vec& v, const Twiddle& t) {
    if constexpr (Inverse) {
      v = V::bxor(v, u);
      u = add_product(u, v, t);
    } else {
      u = add_product(u, v, t);
      v = V::bxor(v, u);
    }
  }

  // Layers Hi .. Lo (Lo >= 2 log E) in one pass over memory, element j at dword j: groups of
  // 2^(Hi-Lo+1) registers, 2^Lo elements apart. The twiddles depend on the block row (high) only,
  // as the offset low < 2^Lo lies below every layer's block size: broadcast once per row.
  template <unsigned K, unsigned Hi, unsigned Lo, bool Inverse>
  static void pass(u32* g) {
    static_assert(Lo >= kGroupLog && Hi < K && Hi - Lo < V::kMaxPassLayers);
    constexpr unsigned R = Hi - Lo + 1;
    constexpr std::size_t n = std::size_t{1} << R, stride = std::size_t{1} << Lo;
    for (std::size_t high = 0; high < (std::size_t{1} << (K - 1 - Hi)); high++) {
      Twiddle tw[R][n / 2];
      static_for<R>([&](auto step) __attribute__((always_inline)) {
        constexpr unsigned i = Inverse ? Lo + unsigned{step} : Hi - unsigned{step};
        constexpr std::size_t h = std::size_t{1} << (i - Lo);
        static_for<n>([&](auto k) __attribute__((always_inline)) {
          if constexpr ((k & h) == 0)
            tw[step][((k >> (i - Lo + 1)) << (i - Lo)) | (k & (h - 1))] =
                twiddle(i, ((high << (Hi + 1)) | (k * stride)) >> (i + 1));
        });
      });
      for (std::size_t low = 0; low < stride; low += kLanes) {
        const std::size_t base = (high << (Hi + 1)) | low;
        Vec z[n];
        static_for<n>([&](auto k) __attribute__((always_inline)) { z[k] = V::load(g + base + k * stride); });
        static_for<R>([&](auto step) __attribute__((always_inline)) {
          constexpr unsigned i = Inverse ? Lo + unsigned{step} : Hi - unsigned{step};
          constexpr std::size_t h = std::size_t{1} << (i - Lo);
          static_for<n>([&](auto k) __attribute__((always_inline)) {
            if constexpr ((k & h) == 0)
              butterfly<Inverse>(z[k], z[k + h], tw[step][((k >> (i - Lo + 1)) << (i - Lo)) | (k & (h - 1))]);
          });
        });
        static_for<n>([&](auto k) __attribute__((always_inline)) { V::store(g + base + k * stride, z[k]); });
      }
    }
  }

  // The passes over memory for layers Top .. 2 log E: the top kMaxPassLayers layers first
  // (forward) or last (inverse).
  template <unsigned K, unsigned Top, bool Inverse>
  static void passes(u32* g) {
    constexpr unsigned Lo = Top + 1 >= kGroupLog + V::kMaxPassLayers ? Top + 1 - V::kMaxPassLayers : kGroupLog;
    if constexpr (Inverse) {
      if constexpr (Lo > kGroupLog) passes<K, Lo - 1, true>(g);
      pass<K, Top, Lo, true>(g);
    } else {
      pass<K, Top, Lo, false>(g);
      if constexpr (Lo > kGroupLog) passes<K, Lo - 1, false>(g);
    }
  }

  // The twiddles of the last log E layers after the transpose: lane r of register l holds element
  // E r + l of group g, in block g 2^(2 log E - 1 - i) + r 2^(log E - 1 - i) + (l >> (i+1)) of
  // layer i. tau is GF(2)-linear in the block's bits and the diagonals in tau, so lane r adds the
  // diagonals of sum_q r_q beta_(log E - i + q) to those of lane 0's block.
  struct LaneTwiddles {
    alignas(64) u32 v[kLog][4][kLanes];  // [layer][diagonal][lane]
  };
  static constexpr LaneTwiddles make_lane_twiddles() {
    LaneTwiddles t{};
    for (unsigned i = 0; i < kLog; i++)
      for (unsigned r = 0; r < kLanes; r++) {
        u32 c = 0;
        for (unsigned q = 0; q < kLog; q++)
          if ((r >> q) & 1) c ^= field32::kBeta[kLog - i + q];
        const field32::Diagonals d = field32::diagonals(c);
        for (unsigned k = 0; k < 4; k++) t.v[i][k][r] = d.d[k];
      }
    return t;
  }
  alignas(64) static constexpr LaneTwiddles kLaneTwiddles = make_lane_twiddles();
  [[gnu::always_inline]] static Twiddle twiddle_lanes(unsigned layer, std::size_t block0) {
    const Twiddle u = twiddle(layer, block0);
    const auto& v = kLaneTwiddles.v[layer];
    return {{V::bxor(u.d[0], V::load(v[0])), V::bxor(u.d[1], V::load(v[1])), V::bxor(u.d[2], V::load(v[2])),
             V::bxor(u.d[3], V::load(v[3]))}};
  }

  // Layers 2 log E - 1 .. log E of group grp (register k holds elements E k .. E k + E - 1), one
  // twiddle per register pair.
  template <bool Inverse>
  [[gnu::always_inline]] static void middle_layers(Vec* z, std::size_t grp) {
    static_for<kLog>([&](auto step) __attribute__((always_inline)) {
      constexpr unsigned i = Inverse ? kLog + unsigned{step} : kGroupLog - 1 - unsigned{step};
      constexpr std::size_t h = std::size_t{1} << (i - kLog);
      static_for<kLanes>([&](auto k) __attribute__((always_inline)) {
        if constexpr ((k & h) == 0)
          butterfly<Inverse>(z[k], z[k + h], twiddle(i, ((grp << kGroupLog) + kLanes * k) >> (i + 1)));
      });
    });
  }

  // Layers log E - 1 .. 0 of group grp, transposed (lane r of register l holds element E r + l).
  template <bool Inverse>
  [[gnu::always_inline]] static void low_layers(Vec* z, std::size_t grp) {
    static_for<kLog>([&](auto step) __attribute__((always_inline)) {
      constexpr unsigned i = Inverse ? unsigned{step} : kLog - 1 - unsigned{step};
      constexpr std::size_t h = std::size_t{1} << i;
      static_for<kLanes>([&](auto l) __attribute__((always_inline)) {
        if constexpr ((l & h) == 0)
          butterfly<Inverse>(z[l], z[l + h], twiddle_lanes(i, (grp << (kGroupLog - 1 - i)) + (l >> (i + 1))));
      });
    });
  }

  // The forward FFT of g (2^K elements in layout A: element j at dword j) into the transform's
  // order.
  template <unsigned K>
  static void fft(u32* g) {
    passes<K, K - 1, false>(g);
    for (std::size_t grp = 0; grp < (std::size_t{1} << (K - kGroupLog)); grp++) {
      u32* p = g + (grp << kGroupLog);
      Vec z[kLanes];
      static_for<kLanes>([&](auto k) __attribute__((always_inline)) { z[k] = V::load(p + kLanes * k); });
      middle_layers<false>(z, grp);
      V::transpose(z);
      low_layers<false>(z, grp);
      static_for<kLanes>([&](auto k) __attribute__((always_inline)) { V::store(p + kLanes * k, z[k]); });
    }
  }

  // g = the inverse FFT of the pointwise products x * y (g may be x or y; the transform's order
  // in, layout A out); the products are computed in the first pass.
  template <unsigned K>
  static void ifft_product(u32* g, const u32* x, const u32* y) {
    for (std::size_t grp = 0; grp < (std::size_t{1} << (K - kGroupLog)); grp++) {
      const std::size_t o = grp << kGroupLog;
      Vec z[kLanes];
      static_for<kLanes>([&](auto k) __attribute__((always_inline)) {
        z[k] = V::mul(V::load(x + o + kLanes * k), V::load(y + o + kLanes * k));
      });
      low_layers<true>(z, grp);
      V::transpose(z);
      middle_layers<true>(z, grp);
      static_for<kLanes>([&](auto k) __attribute__((always_inline)) { V::store(g + o + kLanes * k, z[k]); });
    }
    passes<K, K - 1, true>(g);
  }
};

}  // namespace hqc::backend::fafft
