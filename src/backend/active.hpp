// The backend the library runs on: on hosted builds the registry's selection (registry.cpp: CPU
// features, HQC_BACKEND), on a device the table fixed at build time. The one thing the core's
// API layer needs from the platform besides memcpy and friends.
#pragma once

#include "backend/ops.hpp"

namespace hqc::backend {

// nullptr if no backend is usable (the public APIs then fail with HQC_ERR_BACKEND).
const Backend* active();

}  // namespace hqc::backend
