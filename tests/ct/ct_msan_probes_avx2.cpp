// The MemorySanitizer probes (ct_msan_probes.cpp) of the SSE4.1, PCLMULQDQ and AVX2 instructions the
// avx2 kernels use, compiled with those ISA flags alone (tests/ct/CMakeLists.txt), so that a CPU with
// AVX2 and without AVX-512 runs them: each needs AVX2 (the compiler may encode even the 128-bit ones
// with VEX).
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
    {"pclmulqdq", be::kCpuAvx2 | be::kCpuPclmul,
     [](std::uint8_t* o, const std::uint8_t* s, const std::uint8_t* p) {
       st128(o, _mm_clmulepi64_si128(ld128(s), ld128(p), 0x01));
     }},
    {"phminposuw", be::kCpuAvx2,  // SSE4.1; VEX-encoded in this file
     [](std::uint8_t* o, const std::uint8_t* s, const std::uint8_t*) { st128(o, _mm_minpos_epu16(ld128(s))); }},
    {"vpshufb256", be::kCpuAvx2,
     [](std::uint8_t* o, const std::uint8_t* s, const std::uint8_t* p) {
       st256(o, _mm256_shuffle_epi8(ld256(p), ld256(s)));  // secret indices into a public table
     }},
    {"vpblendvb256", be::kCpuAvx2,
     [](std::uint8_t* o, const std::uint8_t* s, const std::uint8_t* p) {
       st256(o, _mm256_blendv_epi8(ld256(p), ld256(p + 32), ld256(s)));  // secret selector
     }},
    {"vpmovmskb256", be::kCpuAvx2,
     [](std::uint8_t* o, const std::uint8_t* s, const std::uint8_t*) {
       const int m = _mm256_movemask_epi8(ld256(s));
       std::memcpy(o, &m, sizeof(m));
     }},
    {"vpsignw256", be::kCpuAvx2,
     [](std::uint8_t* o, const std::uint8_t* s, const std::uint8_t* p) {
       st256(o, _mm256_sign_epi16(ld256(p), ld256(s)));
     }},
};

}  // namespace

const hqc_msan_probes::Table hqc_msan_probes::kAvx2 = {kProbes, std::size(kProbes)};
