// The AVX-512 probes with the real instructions (HQC_MSAN_RAW_INTRINSICS, set by
// tests/ct/CMakeLists.txt for this file: msan_intrinsics.hpp then replaces nothing here), and the
// check of the replacements. See ct_msan_probes.cpp.
#include "ct_msan_probes_avx512.cpp"
