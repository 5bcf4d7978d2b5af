// The backends of a device build (no CPU detection, no environment): a static table fixed at build
// time, the fastest row first. active() (backend/active.hpp) is its first row. Hosted builds use
// the registry (backend/registry.hpp) instead; the two are never linked together.
#pragma once

#include <span>

#include "backend/ops.hpp"

namespace hqc::backend {

// Every row compiled into this device build, the active one first, portable last. Device tests
// compare each row's kernels with portable's (tests/m4/m4_test.cpp).
std::span<const Backend* const> device_backends();

// The portable backend, always present: the oracle.
const Backend& device_portable();

}  // namespace hqc::backend
