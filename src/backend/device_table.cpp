// The static backend table of a device build (backend/device.hpp). A device has one CPU known at
// build time, so there is nothing to detect: the first row is the one that runs. A backend for the
// device's core adds its row before portable here, under the macro its folder's CMake sets.
#include <array>

#include "backend/active.hpp"
#include "backend/device.hpp"

namespace hqc::backend {

extern const Backend kPortableBackend;

namespace {

constexpr std::array kDeviceBackends = {
    &kPortableBackend,
};

}  // namespace

std::span<const Backend* const> device_backends() { return kDeviceBackends; }
const Backend& device_portable() { return kPortableBackend; }
const Backend* active() { return kDeviceBackends.front(); }

}  // namespace hqc::backend
