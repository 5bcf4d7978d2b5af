#include "backend/cpu.hpp"

#include <cstdlib>
#include <sstream>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace hqc::backend {

namespace {

#if defined(__x86_64__) || defined(__i386__)
std::uint64_t read_xcr0() {
  std::uint32_t eax = 0, edx = 0;
  __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  return (static_cast<std::uint64_t>(edx) << 32) | eax;
}

CpuFeatures probe() {
  CpuFeatures f = 0;
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
  if (d & (1u << 26)) f |= kCpuSse2;
  if (c & (1u << 1)) f |= kCpuPclmul;
  const bool osxsave = (c & (1u << 27)) != 0;
  const bool avx = (c & (1u << 28)) != 0;
  std::uint64_t xcr0 = osxsave ? read_xcr0() : 0;
  const bool ymm_os = osxsave && avx && (xcr0 & 0x6) == 0x6;
  const bool zmm_os = ymm_os && (xcr0 & 0xe0) == 0xe0;
  if (__get_cpuid_max(0, nullptr) < 7) return f;
  __cpuid_count(7, 0, a, b, c, d);
  if (ymm_os && (b & (1u << 5))) f |= kCpuAvx2;
  if (b & (1u << 8)) f |= kCpuBmi2;
  if (zmm_os) {
    if (b & (1u << 16)) f |= kCpuAvx512F;
    if (b & (1u << 17)) f |= kCpuAvx512DQ;
    if (b & (1u << 30)) f |= kCpuAvx512BW;
    if (b & (1u << 31)) f |= kCpuAvx512VL;
    if (c & (1u << 1)) f |= kCpuAvx512VBMI;
    if (c & (1u << 6)) f |= kCpuAvx512VBMI2;
  }
  if (ymm_os && (c & (1u << 10))) f |= kCpuVpclmul;
  if (c & (1u << 8)) f |= kCpuGfni;
  return f;
}
#else
CpuFeatures probe() { return 0; }
#endif

}  // namespace

CpuFeatures detect_cpu_features() {
  static const CpuFeatures features = probe();
  return features;
}

bool parse_feature_list(const std::string& list, CpuFeatures* out, std::string* error) {
  CpuFeatures f = 0;
  std::stringstream ss(list);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item.empty()) continue;
    bool found = false;
    for (const auto& fn : kFeatureNames) {
      if (item == fn.name) {
        f |= fn.bit;
        found = true;
      }
    }
    if (!found) {
      if (error) *error = "unknown CPU feature '" + item + "'";
      return false;
    }
  }
  *out = f;
  return true;
}

CpuFeatures effective_cpu_features() {
  static const CpuFeatures features = [] {
    CpuFeatures f = detect_cpu_features();
    if (const char* mask = std::getenv("HQC_CPU_MASK")) {
      CpuFeatures hidden = 0;
      // An invalid mask is reported by the registry (select_backend); here it hides nothing.
      if (parse_feature_list(mask, &hidden, nullptr)) f &= ~hidden;
    }
    return f;
  }();
  return features;
}

std::string feature_list_string(CpuFeatures f) {
  std::string s;
  for (const auto& fn : kFeatureNames) {
    if (f & fn.bit) {
      if (!s.empty()) s += ",";
      s += fn.name;
    }
  }
  return s;
}

}  // namespace hqc::backend
