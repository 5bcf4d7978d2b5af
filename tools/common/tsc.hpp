// The one TSC timing helper of the benchmarks (`hqc bench` and the programs under bench/): a
// timed region is `t0 = tsc_begin(); work(); cycles = tsc_end() - t0`. Counts are TSC ticks (the
// constant-rate reference clock, not core cycles); pin the process to one core.
#pragma once

#include <x86intrin.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace hqc::timing {

// Start of a timed region: everything before it has completed (lfence), then the TSC is read.
inline std::uint64_t tsc_begin() {
  _mm_lfence();
  return __rdtsc();
}

// End of a timed region: rdtscp waits for the timed work to complete; the lfence keeps later
// instructions from starting before the TSC is read.
inline std::uint64_t tsc_end() {
  unsigned aux;
  const std::uint64_t t = __rdtscp(&aux);
  _mm_lfence();
  return t;
}

// `warmup` untimed calls of f, then `runs` timed ones (runs >= 1): the median in TSC ticks.
template <class F>
double median_ticks(F&& f, std::size_t runs, std::size_t warmup) {
  std::vector<std::uint64_t> t(runs);
  for (std::size_t i = 0; i < warmup; i++) f();
  for (std::size_t i = 0; i < runs; i++) {
    const std::uint64_t a = tsc_begin();
    f();
    t[i] = tsc_end() - a;
  }
  std::sort(t.begin(), t.end());
  return static_cast<double>(t[t.size() / 2]);
}

}  // namespace hqc::timing
