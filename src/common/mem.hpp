// Copying and clearing bytes in the library's own code paths (serialization, parsing, the ring
// vectors' padding). On hosts these are the C library's memcpy and memset. On the Cortex-M4 (the
// device build) they move 32-bit words: picolibc's memcpy and memset move one byte per iteration
// there (about 7 estimated cycles a byte, docs/M4.md), and a firmware links whatever C library
// its toolchain has. The M4 reads and writes unaligned words in one access (LDR/STR), so the word
// loop needs no alignment prologue. Lengths are public (sizes of the parameter set's objects);
// the bytes may be secret and are only moved, never branched on.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace hqc::mem {

inline void copy(void* dst, const void* src, std::size_t len) {
#if defined(__ARM_ARCH_7EM__)
  auto* d = static_cast<std::uint8_t*>(dst);
  const auto* s = static_cast<const std::uint8_t*>(src);
  std::size_t i = 0;
  for (; i + 4 <= len; i += 4) {
    std::uint32_t w;
    __builtin_memcpy(&w, s + i, 4);  // one LDR
    // Keeps GCC from recognising the loop as a copy and calling the byte-wise memcpy again.
    __asm__("" : "+r"(w));
    __builtin_memcpy(d + i, &w, 4);  // one STR
  }
  for (; i < len; i++) d[i] = s[i];
#else
  std::memcpy(dst, src, len);
#endif
}

inline void zero(void* dst, std::size_t len) {
#if defined(__ARM_ARCH_7EM__)
  auto* d = static_cast<std::uint8_t*>(dst);
  std::size_t i = 0;
  for (; i + 4 <= len; i += 4) {
    std::uint32_t w = 0;
    __asm__("" : "+r"(w));  // as in copy: no call to the byte-wise memset
    __builtin_memcpy(d + i, &w, 4);
  }
  for (; i < len; i++) d[i] = 0;
#else
  std::memset(dst, 0, len);
#endif
}

}  // namespace hqc::mem
