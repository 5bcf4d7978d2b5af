// Private helpers of the avx2 backend, included only by the translation units of this folder
// (all compiled with -mavx2 -mpclmul -mbmi2). Everything is in an anonymous namespace, so each
// translation unit has its own copy and none can be merged with code of another ISA.
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace hqc::backend::avx2 {
namespace {

// Hides a value from the optimiser so that mask arithmetic stays arithmetic (spec §8).
template <class T>
inline T barrier(T x) {
  __asm__("" : "+r"(x));
  return x;
}

inline __m256i barrier256(__m256i x) {
  __asm__("" : "+x"(x));
  return x;
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
