// The MemorySanitizer probes (ct_msan_probes.cpp) of the 256-bit GFNI instructions the avx2 kernels
// use, compiled with AVX2 and GFNI alone (tests/ct/CMakeLists.txt): a CPU with GFNI and without
// AVX-512 runs them. Compiled twice: as is, and as ct_msan_probes_raw_gfni.cpp with
// HQC_MSAN_RAW_INTRINSICS (the real instructions; msan_intrinsics.hpp replaces them otherwise).
#include <immintrin.h>

#include <cstdint>
#include <cstring>
#include <iterator>

#include "ct_msan_probe_io.hpp"
#include "ct_msan_probes.hpp"

namespace {

using hqc::backend::CpuFeatures;
using hqc_msan_probes::Probe;
namespace be = hqc::backend;

const Probe kProbes[] = {
    {"gf2p8affineqb256", be::kCpuAvx2 | be::kCpuGfni,
     [](std::uint8_t* o, const std::uint8_t* s, const std::uint8_t* p) {
       st256(o, _mm256_gf2p8affine_epi64_epi8(ld256(s), ld256(p), 0));
     }},
    {"gf2p8affineinvqb256", be::kCpuAvx2 | be::kCpuGfni,
     [](std::uint8_t* o, const std::uint8_t* s, const std::uint8_t* p) {
       st256(o, _mm256_gf2p8affineinv_epi64_epi8(ld256(s), ld256(p), 0));
     }},
};

}  // namespace

#if defined(HQC_MSAN_RAW_INTRINSICS)
const hqc_msan_probes::Table hqc_msan_probes::kRawGfni256 = {kProbes, std::size(kProbes)};
#else
const hqc_msan_probes::Table hqc_msan_probes::kGfni256 = {kProbes, std::size(kProbes)};
#endif
