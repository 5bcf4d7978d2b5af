// CPU feature detection. registry.cpp and cpu.cpp are the only places that read CPU features.
#pragma once

#include <cstdint>
#include <string>

namespace hqc::backend {

// Bit set of the instruction-set features that backends care about.
enum CpuFeature : std::uint32_t {
  kCpuSse2 = 1u << 0,
  kCpuPclmul = 1u << 1,
  kCpuAvx2 = 1u << 2,
  kCpuBmi2 = 1u << 3,
  kCpuAvx512F = 1u << 4,
  kCpuAvx512BW = 1u << 5,
  kCpuAvx512VL = 1u << 6,
  kCpuAvx512VBMI = 1u << 7,
  kCpuVpclmul = 1u << 8,
  kCpuGfni = 1u << 9,
  kCpuAvx512DQ = 1u << 10,
};
using CpuFeatures = std::uint32_t;

struct FeatureName {
  CpuFeature bit;
  const char* name;  // as in /proc/cpuinfo and HQC_CPU_MASK
};
inline constexpr FeatureName kFeatureNames[] = {
    {kCpuSse2, "sse2"},         {kCpuPclmul, "pclmulqdq"},   {kCpuAvx2, "avx2"},
    {kCpuBmi2, "bmi2"},         {kCpuAvx512F, "avx512f"},    {kCpuAvx512BW, "avx512bw"},
    {kCpuAvx512VL, "avx512vl"}, {kCpuAvx512DQ, "avx512dq"},  {kCpuAvx512VBMI, "avx512vbmi"},
    {kCpuVpclmul, "vpclmulqdq"}, {kCpuGfni, "gfni"},
};

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
