// The 256-bit GFNI probes with the real instructions (HQC_MSAN_RAW_INTRINSICS, set by
// tests/ct/CMakeLists.txt for this file). See ct_msan_probes.cpp.
#include "ct_msan_probes_gfni.cpp"
