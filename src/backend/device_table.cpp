// The static backend table of a device build (backend/device.hpp). A device has one CPU known at
// build time, so there is nothing to detect: the first row is the one that runs. A backend for the
// device's core adds its row before portable here, under the macro its folder's CMake sets
// (HQC_WITH_M4 for src/backend/m4, as HQC_WITH_AVX2 for the registry's rows).
#include <array>

#include "backend/active.hpp"
#include "backend/device.hpp"

namespace hqc::backend {

extern const Backend kPortableBackend;
#if defined(HQC_WITH_M4)
extern const Backend kM4Backend;  // src/backend/m4/, when that backend is built
#endif

namespace {

// The active row first, portable (the oracle) last.
constexpr std::array kDeviceBackends = {
#if defined(HQC_WITH_M4)
    &kM4Backend,
#endif
    &kPortableBackend,
};

}  // namespace

// The row that runs, named on its own rather than read from the table: an image that only runs
// it (the firmware) then references neither the table nor the rows behind the first, and the
// linker's --gc-sections drops the portable row's kernels that the active row replaces (about
// 11 KB at each level). Images that compare rows (the device tests) call device_backends() or
// device_portable(), which keep them.
#if defined(HQC_WITH_M4)
const Backend* active() { return &kM4Backend; }
#else
const Backend* active() { return &kPortableBackend; }
#endif
static_assert(kDeviceBackends.size() >= 1);

std::span<const Backend* const> device_backends() { return kDeviceBackends; }
const Backend& device_portable() { return kPortableBackend; }

}  // namespace hqc::backend
