// The MemorySanitizer probes (ct_msan_probes.cpp) of the AVX-512 instructions the avx512 kernels
// use, compiled with the avx512 backend's ISA flags (tests/ct/CMakeLists.txt). Compiled twice: as
// is, and as ct_msan_probes_raw.cpp with HQC_MSAN_RAW_INTRINSICS (the real instructions, and the
// check that msan_intrinsics.hpp's replacements give their bytes).
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

constexpr CpuFeatures kAvx512 = be::kCpuAvx512F | be::kCpuAvx512BW | be::kCpuAvx512VL | be::kCpuAvx512DQ;

const Probe kProbes[] = {
    {"vpclmulqdq512", kAvx512 | be::kCpuVpclmul,
     [](std::uint8_t* o, const std::uint8_t* s, const std::uint8_t* p) {
       st512(o, _mm512_clmulepi64_epi128(ld512(s), ld512(p), 0x10));
     }},
    {"gf2p8affineqb512", kAvx512 | be::kCpuGfni,
     [](std::uint8_t* o, const std::uint8_t* s, const std::uint8_t* p) {
       st512(o, _mm512_gf2p8affine_epi64_epi8(ld512(s), ld512(p), 0x63));
     }},
    {"gf2p8mulb512", kAvx512 | be::kCpuGfni,
     [](std::uint8_t* o, const std::uint8_t* s, const std::uint8_t* p) {
       st512(o, _mm512_gf2p8mul_epi8(ld512(s), ld512(p)));
     }},
    {"vpternlogq512", kAvx512,
     [](std::uint8_t* o, const std::uint8_t* s, const std::uint8_t* p) {
       // A constant third operand: the buffers are 64 bytes, so pub + 32 has no 64 to load.
       st512(o, _mm512_ternarylogic_epi64(ld512(s), ld512(p), _mm512_set1_epi8(0x5A), 0x96));
     }},
    {"vpermq512", kAvx512,
     [](std::uint8_t* o, const std::uint8_t* s, const std::uint8_t*) {
       st512(o, _mm512_maskz_permutexvar_epi64(0xFF, _mm512_set_epi64(0, 1, 2, 3, 4, 5, 6, 7), ld512(s)));
     }},
    {"vpermt2q512", kAvx512,
     [](std::uint8_t* o, const std::uint8_t* s, const std::uint8_t* p) {
       st512(o, _mm512_permutex2var_epi64(ld512(s), _mm512_set_epi64(8, 1, 9, 3, 10, 5, 11, 7), ld512(p)));
     }},
    {"vpermb256", kAvx512 | be::kCpuAvx512VBMI,
     [](std::uint8_t* o, const std::uint8_t* s, const std::uint8_t* p) {
       st256(o, _mm256_maskz_permutexvar_epi8(0xFFFFFFFFu, ld256(p), ld256(s)));
     }},
    {"vpcmpeqd_mask512", kAvx512,
     [](std::uint8_t* o, const std::uint8_t* s, const std::uint8_t* p) {
       const __mmask16 m = _mm512_cmpeq_epi32_mask(ld512(s), ld512(p));
       std::memcpy(o, &m, sizeof(m));
     }},
    {"vpcmpgtw_mask512", kAvx512,
     [](std::uint8_t* o, const std::uint8_t* s, const std::uint8_t* p) {
       const __mmask32 m = _mm512_mask_cmpgt_epi16_mask(0xFFFFFFFFu, ld512(s), ld512(p));
       std::memcpy(o, &m, sizeof(m));
     }},
    {"vpmaxuw512", kAvx512,
     [](std::uint8_t* o, const std::uint8_t* s, const std::uint8_t* p) {
       st512(o, _mm512_max_epu16(ld512(s), ld512(p)));
     }},
    {"vpabsw512", kAvx512,
     [](std::uint8_t* o, const std::uint8_t* s, const std::uint8_t*) {
       st512(o, _mm512_maskz_abs_epi16(0xFFFFFFFFu, ld512(s)));
     }},
    {"vpshrdq512", kAvx512 | be::kCpuAvx512VBMI2,
     [](std::uint8_t* o, const std::uint8_t* s, const std::uint8_t* p) {
       st512(o, _mm512_maskz_shrdi_epi64(0xFF, ld512(s), ld512(p), 13));
     }},
    {"vpblendmq128", kAvx512,
     [](std::uint8_t* o, const std::uint8_t* s, const std::uint8_t* p) {
       st128(o, _mm_mask_blend_epi64(0x2, ld128(s), ld128(p)));
     }},
    {"vpalignr128", kAvx512,
     [](std::uint8_t* o, const std::uint8_t* s, const std::uint8_t* p) {
       st128(o, _mm_alignr_epi8(ld128(p), ld128(s), 8));
     }},
    {"vpunpcklqdq128", kAvx512,
     [](std::uint8_t* o, const std::uint8_t* s, const std::uint8_t* p) {
       st128(o, _mm_unpacklo_epi64(ld128(s), ld128(p)));
     }},
    {"vpshufd128", kAvx512,
     [](std::uint8_t* o, const std::uint8_t* s, const std::uint8_t*) { st128(o, _mm_shuffle_epi32(ld128(s), 0x4E)); }},
    {"vpblendmq256", kAvx512,
     [](std::uint8_t* o, const std::uint8_t* s, const std::uint8_t* p) {
       st256(o, _mm256_mask_blend_epi64(0xA, ld256(s), ld256(p)));
     }},
    {"vpalignr256", kAvx512,
     [](std::uint8_t* o, const std::uint8_t* s, const std::uint8_t* p) {
       st256(o, _mm256_alignr_epi8(ld256(p), ld256(s), 8));
     }},
    {"vpunpckhqdq256", kAvx512,
     [](std::uint8_t* o, const std::uint8_t* s, const std::uint8_t* p) {
       st256(o, _mm256_unpackhi_epi64(ld256(s), ld256(p)));
     }},
    {"vpshufd256", kAvx512,
     [](std::uint8_t* o, const std::uint8_t* s, const std::uint8_t*) {
       st256(o, _mm256_shuffle_epi32(ld256(s), 0x4E));
     }},
    {"vbroadcasti128", kAvx512,
     [](std::uint8_t* o, const std::uint8_t* s, const std::uint8_t*) {
       st256(o, _mm256_broadcastsi128_si256(ld128(s)));
     }},
    {"vprolvq512", kAvx512,
     [](std::uint8_t* o, const std::uint8_t* s, const std::uint8_t* p) {
       st512(o, _mm512_maskz_rolv_epi64(0xFF, ld512(s), _mm512_and_si512(ld512(p), _mm512_set1_epi64(63))));
     }},
};

}  // namespace

#if defined(HQC_MSAN_RAW_INTRINSICS)
const hqc_msan_probes::Table hqc_msan_probes::kRawAvx512 = {kProbes, std::size(kProbes)};
#else
const hqc_msan_probes::Table hqc_msan_probes::kAvx512 = {kProbes, std::size(kProbes)};
#endif

#if defined(HQC_MSAN_RAW_INTRINSICS)
#include "msan_intrinsics.hpp"

// The scalar replacements of msan_intrinsics.hpp give the same bytes as the real instructions
// (clean inputs, every immediate the kernels could use). Returns 0 if so, 1 otherwise. Only on a
// CPU with AVX-512 and GFNI (hqc_msan_shim_check checks first).
int hqc_msan_probes::shim_check() {
  alignas(64) std::uint64_t a[8], b[8], c[8];
  std::uint64_t x = 0x243F6A8885A308D3u;
  int bad = 0;
  for (int it = 0; it < 64; it++) {
    for (int i = 0; i < 8; i++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17, a[i] = x;
      x ^= x << 13, x ^= x >> 7, x ^= x << 17, b[i] = x;
      x ^= x << 13, x ^= x >> 7, x ^= x << 17, c[i] = x;
    }
    const __m512i A = _mm512_load_si512(a), B = _mm512_load_si512(b), C = _mm512_load_si512(c);
    const __m256i A2 = _mm512_castsi512_si256(A), B2 = _mm512_castsi512_si256(B), C2 = _mm512_castsi512_si256(C);
    auto differ512 = [](__m512i p, __m512i q) { return _mm512_cmpneq_epi64_mask(p, q) != 0; };
    auto differ256 = [](__m256i p, __m256i q) { return _mm256_movemask_epi8(_mm256_cmpeq_epi8(p, q)) != -1; };
// A table of macro calls, laid out by hand.
// clang-format off
#define HQC_SHIM_TERNLOG(I)                                                                              \
  bad += differ512(_mm512_ternarylogic_epi64(A, B, C, I), hqc_msan::ternlog<__m512i>(A, B, C, I));       \
  bad += differ256(_mm256_ternarylogic_epi64(A2, B2, C2, I), hqc_msan::ternlog<__m256i>(A2, B2, C2, I));
#define HQC_SHIM_TERNLOG16(H)                                                                            \
  HQC_SHIM_TERNLOG(H + 0) HQC_SHIM_TERNLOG(H + 1) HQC_SHIM_TERNLOG(H + 2) HQC_SHIM_TERNLOG(H + 3)        \
  HQC_SHIM_TERNLOG(H + 4) HQC_SHIM_TERNLOG(H + 5) HQC_SHIM_TERNLOG(H + 6) HQC_SHIM_TERNLOG(H + 7)        \
  HQC_SHIM_TERNLOG(H + 8) HQC_SHIM_TERNLOG(H + 9) HQC_SHIM_TERNLOG(H + 10) HQC_SHIM_TERNLOG(H + 11)      \
  HQC_SHIM_TERNLOG(H + 12) HQC_SHIM_TERNLOG(H + 13) HQC_SHIM_TERNLOG(H + 14) HQC_SHIM_TERNLOG(H + 15)
    HQC_SHIM_TERNLOG16(0x00) HQC_SHIM_TERNLOG16(0x10) HQC_SHIM_TERNLOG16(0x20) HQC_SHIM_TERNLOG16(0x30)
    HQC_SHIM_TERNLOG16(0x40) HQC_SHIM_TERNLOG16(0x50) HQC_SHIM_TERNLOG16(0x60) HQC_SHIM_TERNLOG16(0x70)
    HQC_SHIM_TERNLOG16(0x80) HQC_SHIM_TERNLOG16(0x90) HQC_SHIM_TERNLOG16(0xA0) HQC_SHIM_TERNLOG16(0xB0)
    HQC_SHIM_TERNLOG16(0xC0) HQC_SHIM_TERNLOG16(0xD0) HQC_SHIM_TERNLOG16(0xE0) HQC_SHIM_TERNLOG16(0xF0)
        // clang-format on
        bad += differ512(_mm512_gf2p8affine_epi64_epi8(A, B, 0x00), hqc_msan::gf2p8affine<__m512i>(A, B, 0x00, false));
    bad += differ512(_mm512_gf2p8affine_epi64_epi8(A, B, 0xA5), hqc_msan::gf2p8affine<__m512i>(A, B, 0xA5, false));
    bad += differ256(_mm256_gf2p8affine_epi64_epi8(A2, B2, 0x63), hqc_msan::gf2p8affine<__m256i>(A2, B2, 0x63, false));
    bad +=
        differ256(_mm256_gf2p8affineinv_epi64_epi8(A2, B2, 0x00), hqc_msan::gf2p8affine<__m256i>(A2, B2, 0x00, true));
    bad +=
        differ256(_mm256_gf2p8affineinv_epi64_epi8(A2, B2, 0x3C), hqc_msan::gf2p8affine<__m256i>(A2, B2, 0x3C, true));
  }
  return bad == 0 ? 0 : 1;
}
#endif
