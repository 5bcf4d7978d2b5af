// CPU feature detection. registry.cpp and cpu.cpp are the only places that read CPU features.
#pragma once

#include <string>

#include "backend/cpu_features.hpp"

namespace hqc::backend {

// Features of this CPU that the OS also enables (XGETBV for YMM/ZMM state), read once.
CpuFeatures detect_cpu_features();

// Parses HQC_CPU_MASK: a comma-separated list of feature names to hide, e.g. "gfni,avx512f".
// Returns false (and sets *error) on an unknown name.
bool parse_feature_list(const std::string& list, CpuFeatures* out, std::string* error);

// detect_cpu_features() minus the features named in HQC_CPU_MASK (the mechanism that lets tests
// exercise the fallback kernels on a CPU that has everything). Read once.
CpuFeatures effective_cpu_features();

std::string feature_list_string(CpuFeatures f);

}  // namespace hqc::backend
