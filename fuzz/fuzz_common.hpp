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

// The backend compared with portable for one input: entry selector % count of other_backends().
// One backend per input keeps the cost of an input to two runs (portable and this one); across
// inputs the fuzzer varies the selector, so every backend is compared with portable. On a CPU
// that runs only portable, portable is compared with itself.
inline const backend::Backend& backend_of(unsigned selector) {
  const auto& others = other_backends();
  return others.empty() ? backend::portable() : *others[selector % others.size()];
}

// Two different backends this CPU runs (portable among the candidates) for one input: pair
// selector % count of the unordered pairs. decaps_fuzz compares such a pair instead of portable
// against one backend: portable decapsulation under ASan costs 3-16 ms an input (HQC-1..5) and a
// SIMD pair well under one, so most inputs run fast while every pair, portable's included, is
// still compared across inputs (a difference in any pair is a bug in one of the two). With
// portable alone, portable is compared with itself.
struct BackendPair {
  const backend::Backend* a;
  const backend::Backend* b;
};
inline BackendPair backend_pair_of(unsigned selector) {
  const auto& others = other_backends();
  const std::size_t n = others.size() + 1;  // index 0: portable
  auto at = [&](std::size_t i) { return i == 0 ? &backend::portable() : others[i - 1]; };
  if (n == 1) return {at(0), at(0)};
  std::size_t k = selector % (n * (n - 1) / 2);
  for (std::size_t i = 0;; i++) {
    if (k < n - 1 - i) return {at(i), at(i + 1 + k)};
    k -= n - 1 - i;
  }
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
  for (std::size_t i = k; i < n; i++) {
    switch (mode % 3) {
      case 0: out[i] = 0; break;
      case 1: out[i] = 0xFF; break;
      default: out[i] = static_cast<std::uint8_t>(i * 0x9D + 0x3B); break;
    }
  }
}

}  // namespace hqc::fuzz
