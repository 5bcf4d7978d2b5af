// Private helpers of the avx2 backend, included only by the translation units of this folder
// (all compiled with -mavx2 -mpclmul -mbmi2). Everything is in an anonymous namespace, so each
// translation unit has its own copy and none can be merged with code of another ISA.
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace hqc::backend::avx2 {
// Included once per ISA-flagged translation unit; internal linkage keeps each unit's copy
// (built with its own -m flags) out of the others.
namespace {  // NOLINT(cert-dcl59-cpp)

// Hides a value from the optimiser so that mask arithmetic stays arithmetic (spec §8).
// Under MemorySanitizer (the constant-time harness for SIMD code), an asm statement with a secret
// input is reported as a use of it; a volatile round trip is as opaque to the optimiser and keeps
// the secret's shadow.
#if defined(__has_feature)
#if __has_feature(memory_sanitizer)
#define HQC_AVX2_MSAN 1
#endif
#endif
template <class T>
inline T barrier(T x) {
#if defined(HQC_AVX2_MSAN)
  volatile T v = x;
  return v;
#else
  __asm__("" : "+r"(x));
  return x;
#endif
}

inline __m256i barrier256(__m256i x) {
#if defined(HQC_AVX2_MSAN)
  volatile __m256i v = x;
  return v;
#else
  __asm__("" : "+x"(x));
  return x;
#endif
}

// Wipes a buffer in a way the compiler may not remove.
inline void wipe(void* p, std::size_t len) {
  std::memset(p, 0, len);
  __asm__ __volatile__("" : : "r"(p) : "memory");
}

inline __m256i load256(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }
inline void store256(void* p, __m256i v) { _mm256_storeu_si256(static_cast<__m256i*>(p), v); }

}  // namespace
}  // namespace hqc::backend::avx2
