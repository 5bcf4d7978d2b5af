// The instruction-set features that backends require (Backend::required). Freestanding: the
// detection and HQC_CPU_MASK parsing live in cpu.hpp / cpu.cpp (hosted).
#pragma once

#include <cstdint>

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
  kCpuAvx512VBMI2 = 1u << 11,
};
using CpuFeatures = std::uint32_t;

struct FeatureName {
  CpuFeature bit;
  const char* name;  // as in /proc/cpuinfo and HQC_CPU_MASK
};
inline constexpr FeatureName kFeatureNames[] = {
    {kCpuSse2, "sse2"},
    {kCpuPclmul, "pclmulqdq"},
    {kCpuAvx2, "avx2"},
    {kCpuBmi2, "bmi2"},
    {kCpuAvx512F, "avx512f"},
    {kCpuAvx512BW, "avx512bw"},
    {kCpuAvx512VL, "avx512vl"},
    {kCpuAvx512DQ, "avx512dq"},
    {kCpuAvx512VBMI, "avx512vbmi"},
    {kCpuAvx512VBMI2, "avx512_vbmi2"},
    {kCpuVpclmul, "vpclmulqdq"},
    {kCpuGfni, "gfni"},
};

}  // namespace hqc::backend
