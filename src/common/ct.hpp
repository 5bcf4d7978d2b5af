// Constant-time helpers: value barriers, masks, selection, comparison, secret wiping, and the
// markers of the valgrind constant-time harness (docs/SIDE-CHANNELS.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "common/mem.hpp"

#if defined(HQC_CT_VALGRIND) && HQC_CT_VALGRIND
#include <valgrind/memcheck.h>
#elif defined(HQC_CT_MSAN) && HQC_CT_MSAN
// MemorySanitizer variant of the markers (tests/ct/ct_msan.cpp): for backends valgrind cannot run.
#include <sanitizer/msan_interface.h>
#endif

namespace hqc::ct {

// Hides a value from the optimiser so that mask arithmetic is not turned back into a branch
// (spec §8: compilers have been seen to do that to HQC's masks).
template <class T>
inline T value_barrier(T x) {
  static_assert(std::is_integral_v<T>);
#if defined(HQC_CT_MSAN) && HQC_CT_MSAN
  // MemorySanitizer reports any poisoned input of an asm statement; a volatile round trip is just
  // as opaque to the optimiser and keeps the value's shadow (MSan harness builds only).
  volatile T v = x;
  return v;
#else
  __asm__("" : "+r"(x));
  return x;
#endif
}

// All-ones if x != 0, else 0.
inline std::uint64_t mask_nonzero64(std::uint64_t x) { return value_barrier<std::uint64_t>(0 - ((x | (0 - x)) >> 63)); }
inline std::uint32_t mask_nonzero32(std::uint32_t x) { return value_barrier<std::uint32_t>(0 - ((x | (0 - x)) >> 31)); }
// All-ones if a == b, else 0.
inline std::uint64_t mask_eq64(std::uint64_t a, std::uint64_t b) { return ~mask_nonzero64(a ^ b); }
inline std::uint32_t mask_eq32(std::uint32_t a, std::uint32_t b) { return ~mask_nonzero32(a ^ b); }
// All-ones if a < b (unsigned, values < 2^63), else 0.
inline std::uint64_t mask_lt64(std::uint64_t a, std::uint64_t b) {
  return value_barrier<std::uint64_t>(0 - ((a - b) >> 63));
}
// All-ones if bit 0 of b is set (64- and 32-bit).
inline std::uint64_t mask_bit64(std::uint64_t b) { return value_barrier<std::uint64_t>(0 - (b & 1)); }
inline std::uint32_t mask_bit32(std::uint32_t b) { return value_barrier<std::uint32_t>(0 - (b & 1)); }

// OR of all byte differences, turned into 0 (equal) / 0xFF.. (different) without branching.
// Eight bytes per step (two word loads on the M4, where a byte loop costs about 8 cycles a byte).
inline std::uint8_t neq_mask_bytes(const std::uint8_t* a, const std::uint8_t* b, std::size_t len) {
  std::uint64_t acc = 0;
  std::size_t i = 0;
#if defined(__ARM_ARCH_7EM__)
  // The M4: sixteen bytes per step, so that the eight loads pipeline and the loop's test and branch
  // are paid once per four words (the re-encryption's comparison in decapsulation).
  std::uint32_t acc32 = 0;
  for (; i + 16 <= len; i += 16)
    acc32 |= (mem::load_le32(a + i) ^ mem::load_le32(b + i)) | (mem::load_le32(a + i + 4) ^ mem::load_le32(b + i + 4)) |
             (mem::load_le32(a + i + 8) ^ mem::load_le32(b + i + 8)) |
             (mem::load_le32(a + i + 12) ^ mem::load_le32(b + i + 12));
  acc = acc32;
#endif
  for (; i + 8 <= len; i += 8) acc |= mem::load_le64(a + i) ^ mem::load_le64(b + i);
  for (; i < len; i++) acc |= static_cast<std::uint64_t>(a[i] ^ b[i]);
  return static_cast<std::uint8_t>(mask_nonzero64(acc));
}

// out[i] = mask ? a[i] : b[i] (mask is 0x00 or 0xFF).
inline void select_bytes(std::uint8_t* out, const std::uint8_t* a, const std::uint8_t* b, std::size_t len,
                         std::uint8_t mask) {
  for (std::size_t i = 0; i < len; i++)
    out[i] = static_cast<std::uint8_t>((a[i] & mask) | (b[i] & static_cast<std::uint8_t>(~mask)));
}

// Wipes memory in a way the compiler may not remove.
inline void wipe(void* p, std::size_t len) {
  if (len == 0 || p == nullptr) return;
#if defined(__ARM_ARCH_7EM__)
  // Cortex-M4 (the device build): the C library's memset may store one byte per iteration
  // (picolibc's: about 7 estimated cycles a byte, docs/M4.md), so whole words where aligned,
  // through volatile so that no store is removed.
  typedef std::uint32_t __attribute__((may_alias)) alias_word;
  auto* b = static_cast<volatile std::uint8_t*>(p);
  std::size_t i = 0;
  for (; i < len && (reinterpret_cast<std::uintptr_t>(b + i) & 3) != 0; i++) b[i] = 0;
  auto* w = reinterpret_cast<volatile alias_word*>(reinterpret_cast<std::uintptr_t>(b + i));  // aligned
  const std::size_t words = (len - i) / 4;
  for (std::size_t q = words / 8; q > 0; q--, w += 8) {  // eight stores per iteration: they pipeline
    w[0] = 0;
    w[1] = 0;
    w[2] = 0;
    w[3] = 0;
    w[4] = 0;
    w[5] = 0;
    w[6] = 0;
    w[7] = 0;
  }
  for (std::size_t r = words % 8; r > 0; r--, w++) w[0] = 0;
  for (i += 4 * words; i < len; i++) b[i] = 0;
#else
  std::memset(p, 0, len);
#endif
  __asm__ __volatile__("" : : "r"(p) : "memory");
}

// Constant-time harness markers: with HQC_CT_VALGRIND, `poison` makes memcheck treat the bytes
// as undefined, so any branch or address computed from them is reported; `declassify` marks a
// value as public again, and every call states why that is safe.
inline void poison([[maybe_unused]] const void* p, [[maybe_unused]] std::size_t len) {
#if defined(HQC_CT_VALGRIND) && HQC_CT_VALGRIND
  VALGRIND_MAKE_MEM_UNDEFINED(p, len);
#elif defined(HQC_CT_MSAN) && HQC_CT_MSAN
  __msan_poison(p, len);
#endif
}
inline void declassify([[maybe_unused]] const void* p, [[maybe_unused]] std::size_t len) {
#if defined(HQC_CT_VALGRIND) && HQC_CT_VALGRIND
  VALGRIND_MAKE_MEM_DEFINED(p, len);
#elif defined(HQC_CT_MSAN) && HQC_CT_MSAN
  __msan_unpoison(p, len);
#endif
}

// The tag of a Wiped temporary whose every byte its owner writes before reading any (see there).
struct WrittenBeforeRead {};
inline constexpr WrittenBeforeRead kWrittenBeforeRead{};

// A secret value of type T that wipes itself on destruction and cannot be copied.
template <class T>
struct Wiped {
  T v;  // zeroed by the constructor, except with kWrittenBeforeRead
  // Trivial types (the arrays and plain structs the library keeps its secrets in) are zeroed by
  // mem::zero: on the M4 by words rather than by the C library's byte-wise memset.
  Wiped() requires std::is_trivially_default_constructible_v<T> { mem::zero(&v, sizeof(v)); }
  // Not zeroed, for the large scratch structs of the KEM whose owner writes every byte before it
  // reads any (each such use says why): the zeroing would only be overwritten (on the M4 about
  // two estimated cycles a word, 5.6k for decapsulation's scratch at HQC-1). Still wiped on
  // destruction.
  explicit Wiped(WrittenBeforeRead) requires std::is_trivially_default_constructible_v<T> {}
  Wiped() requires(!std::is_trivially_default_constructible_v<T>) : v{} {}
  Wiped(const Wiped&) = delete;
  Wiped& operator=(const Wiped&) = delete;
  ~Wiped() { wipe(&v, sizeof(v)); }
  T* operator->() { return &v; }
  const T* operator->() const { return &v; }
  T& operator*() { return v; }
  const T& operator*() const { return v; }
};

}  // namespace hqc::ct
