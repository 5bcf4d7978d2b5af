// The timing loop of the avx512 benchmark tools (avx512_bench, avx512_mul_search): `warmup`
// untimed calls, then `runs` timed calls; the median in TSC ticks (tools/common/tsc.hpp).
#pragma once

#include <cstddef>

#include "tsc.hpp"

namespace hqc::bench {

template <class F>
double median_cycles(F&& f, int runs, int warmup) {
  return timing::median_ticks(f, static_cast<std::size_t>(runs), static_cast<std::size_t>(warmup));
}

}  // namespace hqc::bench
