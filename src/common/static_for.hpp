// static_for<N>(f): f(integral_constant<0>) .. f(integral_constant<N-1>), unrolled, so that the
// body can index registers and choose constants by compile-time indices (the FAFFT's butterfly
// networks, the lane-pair Keccak). Header-only, no instruction-set code of its own: every
// instantiation takes the caller's lambda type and is compiled with the caller's flags.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

namespace hqc {

template <std::size_t N, class Fn>
[[gnu::always_inline]] inline void static_for(Fn&& f) {
  [&]<std::size_t... k>(std::index_sequence<k...>) __attribute__((always_inline)) {
    (f(std::integral_constant<std::size_t, k>{}), ...);
  }
  (std::make_index_sequence<N>{});
}

}  // namespace hqc
