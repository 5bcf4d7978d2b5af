// Copying and clearing bytes in the library's own code paths (serialization, parsing, the ring
// vectors' padding), and unaligned little-endian loads. On hosts these are the C library's memcpy
// and memset. On the Cortex-M4 (the device build, compiled -ffreestanding, so every memcpy and
// memset is a call) they move 32-bit words inline: picolibc's memcpy and memset move one byte per
// iteration there (about 7 estimated cycles a byte, docs/M4.md), and a firmware links whatever C
// library its toolchain has. The M4 reads and writes unaligned words in one access (LDR/STR), so the word
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
  // Four words per iteration: the loop's compare and branch (4 estimated cycles) once per 16 bytes,
  // and the loads and stores pipeline.
  for (; i + 16 <= len; i += 16) {
    std::uint32_t w0, w1, w2, w3;
    __builtin_memcpy(&w0, s + i, 4);  // one LDR each
    __builtin_memcpy(&w1, s + i + 4, 4);
    __builtin_memcpy(&w2, s + i + 8, 4);
    __builtin_memcpy(&w3, s + i + 12, 4);
    // Keeps GCC from recognising the loop as a copy and calling the byte-wise memcpy again.
    __asm__("" : "+r"(w0), "+r"(w1), "+r"(w2), "+r"(w3));
    __builtin_memcpy(d + i, &w0, 4);  // one STR each
    __builtin_memcpy(d + i + 4, &w1, 4);
    __builtin_memcpy(d + i + 8, &w2, 4);
    __builtin_memcpy(d + i + 12, &w3, 4);
  }
  for (; i + 4 <= len; i += 4) {
    std::uint32_t w;
    __builtin_memcpy(&w, s + i, 4);
    __asm__("" : "+r"(w));
    __builtin_memcpy(d + i, &w, 4);
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
  std::uint32_t w = 0;
  __asm__("" : "+r"(w));  // as in copy: no call to the byte-wise memset
  // Eight words per iteration: the stores pipeline (one cycle each after the first), so the loop's
  // add, compare and taken branch (about 5 estimated cycles) are most of the rest; eight halve
  // their share against four (the wipes of ring vectors, ct::wipe, do the same).
  for (; i + 32 <= len; i += 32) {
    for (std::size_t k = 0; k < 32; k += 4) __builtin_memcpy(d + i + k, &w, 4);
  }
  for (; i + 4 <= len; i += 4) __builtin_memcpy(d + i, &w, 4);
  for (; i < len; i++) d[i] = 0;
#else
  std::memset(dst, 0, len);
#endif
}

// The little-endian 32-bit word at p, at any alignment: one LDR on the M4. The device build is
// compiled -ffreestanding, where std::memcpy is a call into the C library even for 4 bytes;
// __builtin_memcpy is expanded inline.
inline std::uint32_t load_le32(const void* p) {
  std::uint32_t v;
  __builtin_memcpy(&v, p, 4);
  return v;
}

// The little-endian 64-bit word at p, at any alignment. On the M4, GCC calls memcpy for an
// unaligned 64-bit load (LDRD needs alignment); two unaligned LDRs do it inline.
inline std::uint64_t load_le64(const void* p) {
#if defined(__ARM_ARCH_7EM__)
  std::uint32_t lo, hi;
  __builtin_memcpy(&lo, p, 4);
  __builtin_memcpy(&hi, static_cast<const std::uint8_t*>(p) + 4, 4);
  return lo | (std::uint64_t{hi} << 32);
#else
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
#endif
}

// Stores v at p as a little-endian 64-bit word, at any alignment (two STRs on the M4, as in
// load_le64).
inline void store_le64(void* p, std::uint64_t v) {
#if defined(__ARM_ARCH_7EM__)
  const auto lo = static_cast<std::uint32_t>(v), hi = static_cast<std::uint32_t>(v >> 32);
  __builtin_memcpy(p, &lo, 4);
  __builtin_memcpy(static_cast<std::uint8_t*>(p) + 4, &hi, 4);
#else
  std::memcpy(p, &v, 8);
#endif
}

}  // namespace hqc::mem
