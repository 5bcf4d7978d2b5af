// The timing loop shared by the avx512 benchmark tools (avx512_bench, avx512_mul_search): `warmup`
// untimed calls, then `runs` calls each timed with rdtscp; the median in TSC cycles.
#pragma once

#include <x86intrin.h>

#include <algorithm>
#include <cstddef>
#include <vector>

namespace hqc::bench {

template <class F>
double median_cycles(F&& f, int runs, int warmup) {
  std::vector<unsigned long long> t(static_cast<std::size_t>(runs));
  for (int i = 0; i < warmup; i++) f();
  for (int i = 0; i < runs; i++) {
    unsigned aux;
    const unsigned long long a = __rdtscp(&aux);
    f();
    const unsigned long long b = __rdtscp(&aux);
    t[static_cast<std::size_t>(i)] = b - a;
  }
  std::sort(t.begin(), t.end());
  return static_cast<double>(t[t.size() / 2]);
}

}  // namespace hqc::bench
