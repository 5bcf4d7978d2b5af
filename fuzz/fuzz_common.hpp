// Shared helpers of the libFuzzer targets: the level selector, the fixed keys, the backends to
// compare, and a failure that libFuzzer records as a crash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "backend/registry.hpp"
#include "kem/kem.hpp"

namespace hqc::fuzz {

// The seed of the fixed key pair of each level (also used by gen_corpus to write valid inputs).
inline void fixed_seed(int level, std::uint8_t seed[32]) {
  for (int i = 0; i < 32; i++) seed[i] = static_cast<std::uint8_t>(0xF0 ^ (level * 16 + i));
}

// Level from a selector byte: 0 -> HQC-1, 1 -> HQC-3, 2 -> HQC-5.
inline int level_of(std::uint8_t selector) {
  static constexpr int kLevels[3] = {1, 3, 5};
  return kLevels[selector % 3];
}

// A difference between backends (or a broken invariant): reported as a crash with a message.
[[noreturn]] inline void fail(const char* what, const char* backend_name, int level) {
  std::fprintf(stderr, "hqc fuzz: %s (backend %s, HQC-%d)\n", what, backend_name, level);
  std::abort();
}

// Every compiled backend this CPU can run other than portable (the oracle).
inline const std::vector<const backend::Backend*>& other_backends() {
  static const std::vector<const backend::Backend*> list = [] {
    std::vector<const backend::Backend*> v;
    for (const auto* b : backend::all_backends())
      if (b != &backend::portable() && backend::is_supported(*b, backend::effective_cpu_features())) v.push_back(b);
    return v;
  }();
  return list;
}

// The unordered pair number k (k < n(n-1)/2, n >= 2) of the indices 0..n-1, in the order
// (0,1), (0,2), ..., (0,n-1), (1,2), ...: the pairs holding index 0 come first.
struct IndexPair {
  std::size_t i, j;
};
inline IndexPair index_pair(std::size_t k, std::size_t n) {
  for (std::size_t i = 0;; i++) {
    if (k < n - 1 - i) return {i, i + 1 + k};
    k -= n - 1 - i;
  }
}

// Two different backends this CPU runs (portable among the candidates) for one decaps_fuzz
// input. A portable decapsulation under ASan costs about ten times a pair of SIMD backends
// (1-6.5 ms against 0.1-0.6 ms, HQC-1 to HQC-5), so the pairs are drawn from a list in which each
// pair of two SIMD backends has three entries and each pair with portable one: with the eight
// rows of an AVX-512 machine, portable is in 7 of 70 entries, and its pairs still take about 40 %
// of the time (perf, from the committed corpus). Every pair is still compared (a difference in any pair is a
// bug in one of its two members). The portable entries come last, so that the bias of a byte
// selector (values beyond a multiple of the list length) goes to the SIMD pairs. With portable
// alone, portable is compared with itself.
struct BackendPair {
  const backend::Backend* a;
  const backend::Backend* b;
};
inline BackendPair backend_pair_of(unsigned selector) {
  const auto& others = other_backends();
  const std::size_t n = others.size();
  const auto& portable = backend::portable();
  if (n == 0) return {&portable, &portable};
  constexpr std::size_t kSimdWeight = 3;
  const std::size_t simd_entries = kSimdWeight * (n * (n - 1) / 2);
  const std::size_t k = selector % (simd_entries + n);
  if (k >= simd_entries) return {&portable, others[k - simd_entries]};
  const IndexPair p = index_pair(k / kSimdWeight, n);
  return {others[p.i], others[p.j]};
}

// Two different backends this CPU runs, portable included, every unordered pair equally often
// (selector % count of pairs); with portable alone, portable twice.
inline BackendPair any_pair_of(unsigned selector) {
  const auto& others = other_backends();
  const std::size_t n = others.size() + 1;  // index 0: portable
  auto at = [&](std::size_t i) { return i == 0 ? &backend::portable() : others[i - 1]; };
  if (n == 1) return {at(0), at(0)};
  const IndexPair p = index_pair(selector % (n * (n - 1) / 2), n);
  return {at(p.i), at(p.j)};
}

// Any backend this CPU runs, portable included (for checks against an oracle other than portable).
inline const backend::Backend& any_backend_of(unsigned selector) {
  const auto& others = other_backends();
  const std::size_t i = selector % (others.size() + 1);
  return i == others.size() ? backend::portable() : *others[i];
}

// Fills out[0..n) from data (as many bytes as available), then a fill byte chosen by `mode`:
// 0x00, 0xFF, or a counter pattern (edge inputs: all-zero and all-one operands).
inline void fill(std::uint8_t* out, std::size_t n, const std::uint8_t* data, std::size_t size, std::uint8_t mode) {
  const std::size_t k = size < n ? size : n;
  if (k > 0) std::memcpy(out, data, k);
  // The mode is chosen once, not per byte (the target's comparisons are traced for libFuzzer).
  switch (mode % 3) {
    case 0: std::memset(out + k, 0, n - k); break;
    case 1: std::memset(out + k, 0xFF, n - k); break;
    default:
      for (std::size_t i = k; i < n; i++) out[i] = static_cast<std::uint8_t>(i * 0x9D + 0x3B);
      break;
  }
}

}  // namespace hqc::fuzz
