// The backend registry: the one place that lists backends and selects one from the CPU features.
#pragma once

#include <span>
#include <string>

#include "backend/active.hpp"
#include "backend/cpu.hpp"
#include "backend/ops.hpp"

namespace hqc::backend {

// All backends compiled into this library, fastest first. Every entry's table is complete.
std::span<const Backend* const> all_backends();

// Backends whose required features are all in `features`.
bool is_supported(const Backend& b, CpuFeatures features);

// Pure selection function (tested with mocked feature masks): the forced name if given, else
// the first (fastest) supported backend. Returns nullptr and sets *error for an unknown or
// unsupported forced name.
const Backend* select_backend(CpuFeatures features, const char* forced_name, std::string* error);

// Looks up a backend by name, nullptr if not compiled in.
const Backend* find_backend(std::string_view name);

// The backend the library uses (active(), backend/active.hpp): selected once (thread-safe) from
// effective_cpu_features() and HQC_BACKEND. If HQC_BACKEND or HQC_CPU_MASK is invalid, active()
// is nullptr and active_error() says why; the public APIs then fail with HQC_ERR_BACKEND.
const std::string& active_error();

// The portable backend, always present.
const Backend& portable();

}  // namespace hqc::backend
