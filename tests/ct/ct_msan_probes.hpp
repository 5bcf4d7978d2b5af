// The MemorySanitizer harness's single-instruction probes (ct_msan_probes.cpp). Each group of
// instructions is compiled in a file of its own with that group's ISA flags alone
// (tests/ct/CMakeLists.txt): the dispatcher, compiled without them, checks the CPU before it calls
// into a group, so a CPU without AVX-512 runs the AVX2 and GFNI probes and skips the rest.
#pragma once

#include <cstddef>
#include <cstdint>

#include "backend/cpu.hpp"

namespace hqc_msan_probes {

struct Probe {
  const char* name;
  hqc::backend::CpuFeatures needs;  // every feature the probe's file was compiled for
  void (*run)(std::uint8_t out[64], const std::uint8_t secret[64], const std::uint8_t pub[64]);
};
struct Table {
  const Probe* probes;
  std::size_t count;
};

// With msan_intrinsics.hpp's replacements (as the kernels are built here):
extern const Table kAvx2;     // SSE4.1, PCLMULQDQ and AVX2 (ct_msan_probes_avx2.cpp)
extern const Table kGfni256;  // 256-bit GFNI (ct_msan_probes_gfni.cpp)
extern const Table kAvx512;   // AVX-512 (ct_msan_probes_avx512.cpp)
// With the real instructions (HQC_MSAN_RAW_INTRINSICS):
extern const Table kRawGfni256;  // ct_msan_probes_raw_gfni.cpp
extern const Table kRawAvx512;   // ct_msan_probes_raw.cpp
// The replacements give the real instructions' bytes: 0 if so, 1 otherwise. Needs AVX-512 and GFNI.
int shim_check();

}  // namespace hqc_msan_probes
