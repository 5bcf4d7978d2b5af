// The probes with the real instructions (HQC_MSAN_RAW_INTRINSICS, set by tests/ct/CMakeLists.txt
// for this file: msan_intrinsics.hpp then replaces nothing here). See ct_msan_probes.cpp.
#include "ct_msan_probes.cpp"
