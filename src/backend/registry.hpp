// The backend registry: the one place that lists backends and selects one from the CPU features.
// A backend (row) is one complete kernel table with the CPU features it requires; every choice
// that depends on the CPU is a row here (e.g. avx2 with or without VPCLMULQDQ and GFNI), and no
// kernel reads CPU features.
#pragma once

#include <span>
#include <string>

#include "backend/ops.hpp"

namespace hqc::backend {

// All backends compiled into this library, fastest first. Every entry's table is complete.
std::span<const Backend* const> all_backends();

// Backends whose required features are all in `features`.
bool is_supported(const Backend& b, CpuFeatures features);

// A name that stands for a family of rows, fastest first: it means the first of them that the
// CPU supports. "avx2" = avx2-vpclmul-gfni, avx2-vpclmul, avx2-gfni, avx2-base.
struct BackendAlias {
  const char* name;
  std::span<const Backend* const> rows;
};
std::span<const BackendAlias> backend_aliases();

// Pure selection function (tested with mocked feature masks): the forced name (row or alias,
// find_backend) if given, else the first (fastest) supported backend that is not a variant.
// Returns nullptr and sets *error for an unknown or unsupported forced name.
const Backend* select_backend(CpuFeatures features, const char* forced_name, std::string* error);

// Looks up a backend by row name or alias, nullptr if not compiled in. An alias resolves to its
// first row supported by `features` (or, if none is, its last row, so that is_supported() then
// fails and names what is missing). The one-argument form uses effective_cpu_features().
const Backend* find_backend(std::string_view name, CpuFeatures features);
const Backend* find_backend(std::string_view name);

// The backend the library uses: selected once (thread-safe) from effective_cpu_features() and
// HQC_BACKEND. If HQC_BACKEND or HQC_CPU_MASK is invalid, active() is nullptr and
// active_error() says why; the public APIs then fail with HQC_ERR_BACKEND.
const Backend* active();
const std::string& active_error();

// The portable backend, always present.
const Backend& portable();

}  // namespace hqc::backend
