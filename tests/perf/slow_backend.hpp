// perf_ops_slow only: the portable backend with a deliberate slowdown in its multiplier (every
// product computed twice), the regression that perf_guard_catches_slowdown requires the guard to
// report. Built in the test program, so the library itself carries no test hook.
#pragma once

#include <cstdint>

#include "backend/registry.hpp"

namespace hqc::perf {

template <class P>
void slow_mul(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b) {
  const auto& k = backend::portable().kernels<P>();
  k.mul(out, a, b);
  k.mul(out, a, b);  // the same product again (out never aliases a or b: ops.hpp)
}

template <class P>
void slow_mul2(std::uint64_t* out1, std::uint64_t* out2, const std::uint64_t* a1, const std::uint64_t* a2,
               const std::uint64_t* b) {
  slow_mul<P>(out1, a1, b);
  slow_mul<P>(out2, a2, b);
}

// `be` itself, except that the portable backend is replaced by its slowed-down copy (same name, so
// the counts are compared with the reference counts of the real portable backend).
inline const backend::Backend* slowed_down(const backend::Backend* be) {
  if (be != &backend::portable()) return be;
  static const backend::Backend slow = [] {
    backend::Backend s = backend::portable();
    s.hqc1.mul = &slow_mul<Hqc1>;
    s.hqc1.mul2 = &slow_mul2<Hqc1>;
    s.hqc3.mul = &slow_mul<Hqc3>;
    s.hqc3.mul2 = &slow_mul2<Hqc3>;
    s.hqc5.mul = &slow_mul<Hqc5>;
    s.hqc5.mul2 = &slow_mul2<Hqc5>;
    return s;
  }();
  return &slow;
}

}  // namespace hqc::perf
