// Unaligned loads and stores of the probes' buffers, for the probe files (ct_msan_probes_*.cpp).
// Each probe file compiles them with its own ISA flags (tests/ct/CMakeLists.txt), so they have
// internal linkage: one inline definition shared across the files could leave the linker with the
// copy compiled for AVX-512, which a CPU without it cannot run. Each width is declared only where
// the file's flags enable it.
#pragma once

#include <immintrin.h>

#include <cstdint>

namespace {  // NOLINT(cert-dcl59-cpp,google-build-namespaces): a copy per file, on purpose (above)

[[maybe_unused]] __m128i ld128(const std::uint8_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
[[maybe_unused]] void st128(std::uint8_t* p, __m128i v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v); }
#if defined(__AVX2__)
[[maybe_unused]] __m256i ld256(const std::uint8_t* p) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}
[[maybe_unused]] void st256(std::uint8_t* p, __m256i v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
#endif
#if defined(__AVX512F__)
[[maybe_unused]] __m512i ld512(const std::uint8_t* p) { return _mm512_loadu_si512(p); }
[[maybe_unused]] void st512(std::uint8_t* p, __m512i v) { _mm512_storeu_si512(p, v); }
#endif

}  // namespace
