// Parameter sets of HQC (spec §1). A parameter set is a type; every algorithm in the library is a
// template on it, explicitly instantiated for Hqc1, Hqc3 and Hqc5 (no per-level copies).
#pragma once

#include <cstddef>
#include <cstdint>

namespace hqc {

// Words of 64 bits needed for `bits` bits.
constexpr std::size_t words_for_bits(std::size_t bits) { return (bits + 63) / 64; }
// Round a word count up to a whole number of 512-bit blocks, so SIMD kernels may load full
// vectors; padding words are always zero (invariant of every vector buffer in the library).
constexpr std::size_t pad_words(std::size_t words) { return (words + 7) / 8 * 8; }

template <int Level, std::size_t N, std::size_t N1, std::size_t N2, std::size_t K, std::size_t Delta, std::size_t W,
          std::size_t WR, std::size_t WE>
struct ParamSet {
  static constexpr int kLevel = Level;
  static constexpr const char* kName = Level == 1 ? "HQC-1" : Level == 3 ? "HQC-3" : "HQC-5";

  static constexpr std::size_t kN = N;            // ring length (prime)
  static constexpr std::size_t kN1 = N1;          // RS length (bytes)
  static constexpr std::size_t kN2 = N2;          // duplicated RM length (bits per RS symbol)
  static constexpr std::size_t kK = K;            // message / sigma bytes
  static constexpr std::size_t kDelta = Delta;    // RS correction capacity
  static constexpr std::size_t kW = W;            // weight of x, y
  static constexpr std::size_t kWr = WR;          // weight of r1, r2
  static constexpr std::size_t kWe = WE;          // weight of e
  static constexpr std::size_t kMult = N2 / 128;  // RM duplication factor
  static constexpr std::size_t kN1N2 = N1 * N2;   // concatenated code length (bits)

  static constexpr std::size_t kRsParity = 2 * Delta;  // n1 - k
  static_assert(kRsParity == N1 - K);

  // Word layout of vectors.
  static constexpr std::size_t kNWords = words_for_bits(N);
  static constexpr std::size_t kNWordsPadded = pad_words(kNWords);
  static constexpr std::size_t kN1N2Words = kN1N2 / 64;
  static constexpr std::uint64_t kLastWordMask = (N % 64) ? ((std::uint64_t{1} << (N % 64)) - 1) : ~std::uint64_t{0};

  // Byte sizes (spec §1.2).
  static constexpr std::size_t kSeedBytes = 32;
  static constexpr std::size_t kSaltBytes = 16;
  static constexpr std::size_t kSharedSecretBytes = 32;
  static constexpr std::size_t kVecNBytes = (N + 7) / 8;
  static constexpr std::size_t kVecN1N2Bytes = kN1N2 / 8;
  static constexpr std::size_t kPublicKeyBytes = kSeedBytes + kVecNBytes;
  static constexpr std::size_t kSecretKeyBytes = kPublicKeyBytes + kSeedBytes + K + kSeedBytes;
  static constexpr std::size_t kCiphertextBytes = kVecNBytes + kVecN1N2Bytes + kSaltBytes;
  static constexpr std::size_t kKeypairCoinsBytes = kSeedBytes;     // seed_kem
  static constexpr std::size_t kEncapsCoinsBytes = K + kSaltBytes;  // m || salt

  // Key-generation sampler threshold T = floor(2^24 / n) * n (spec §1.3).
  static constexpr std::uint32_t kRejectThreshold = static_cast<std::uint32_t>((1u << 24) / N * N);
};

using Hqc1 = ParamSet<1, 17669, 46, 384, 16, 15, 66, 75, 75>;
using Hqc3 = ParamSet<3, 35851, 56, 640, 24, 16, 100, 114, 114>;
using Hqc5 = ParamSet<5, 57637, 90, 640, 32, 29, 131, 149, 149>;

// Sizes from spec §1.2, checked so that a typo in the table above cannot go unnoticed.
static_assert(Hqc1::kPublicKeyBytes == 2241 && Hqc1::kSecretKeyBytes == 2321 && Hqc1::kCiphertextBytes == 4433);
static_assert(Hqc3::kPublicKeyBytes == 4514 && Hqc3::kSecretKeyBytes == 4602 && Hqc3::kCiphertextBytes == 8978);
static_assert(Hqc5::kPublicKeyBytes == 7237 && Hqc5::kSecretKeyBytes == 7333 && Hqc5::kCiphertextBytes == 14421);
static_assert(Hqc1::kRejectThreshold == 16767881 && Hqc3::kRejectThreshold == 16742417 &&
              Hqc5::kRejectThreshold == 16772367);
static_assert(Hqc1::kN1N2 == 17664 && Hqc3::kN1N2 == 35840 && Hqc5::kN1N2 == 57600);

// The levels compiled in: all three, unless a device build keeps a single one to save flash
// (HQC_ONLY_LEVEL = 1, 3 or 5; CMake HQC_DEVICE_LEVEL). A level that is not compiled in is an
// unknown level everywhere (with_params returns false) and its kernel table is empty.
#if !defined(HQC_ONLY_LEVEL)
#define HQC_ONLY_LEVEL 0
#endif
static_assert(HQC_ONLY_LEVEL == 0 || HQC_ONLY_LEVEL == 1 || HQC_ONLY_LEVEL == 3 || HQC_ONLY_LEVEL == 5);
template <int Level>
inline constexpr bool kLevelEnabled = HQC_ONLY_LEVEL == 0 || HQC_ONLY_LEVEL == Level;

// Calls f.template operator()<P>() with the parameter set of `level`; returns false for an
// unknown level (or one not compiled in). The one place where a run-time level becomes a type.
template <class F>
constexpr bool with_params(int level, F&& f) {
  switch (level) {
    case 1:
      if constexpr (kLevelEnabled<1>) {
        f.template operator()<Hqc1>();
        return true;
      }
      return false;
    case 3:
      if constexpr (kLevelEnabled<3>) {
        f.template operator()<Hqc3>();
        return true;
      }
      return false;
    case 5:
      if constexpr (kLevelEnabled<5>) {
        f.template operator()<Hqc5>();
        return true;
      }
      return false;
    default: return false;
  }
}

// Specification revision implemented (spec §13: kept in one place).
inline constexpr const char* kHqcRevision = "HQC 2025-08-22 (upstream 161cd4f, as in liboqs 0.16 / oqs-provider)";

}  // namespace hqc
