// hqckit C++ API (namespace hqckit; the library internals use namespace hqc): per-level types over
// the C ABI of hqc.h (one boundary, nothing thrown by the library itself). The stateless
// operations call the per-level C functions (no heap); the key classes hold C key objects.
// Fixed-size buffers are std::array / std::span with extents; secret buffers are SecretBytes<N>,
// which wipe themselves.
//
//   hqckit::Hqc1::PublicKey pk;  hqckit::Hqc1::SecretKey sk;
//   hqckit::Hqc1::keypair(pk, sk);
//   hqckit::Hqc1::Ciphertext ct; hqckit::SharedSecret ss;
//   if (auto st = hqckit::Hqc1::encaps(ct, ss, pk); st != hqckit::Status::kOk) ...
//   hqckit::Hqc1::decaps(ss2, ct, sk);
#ifndef HQC_HQC_HPP
#define HQC_HQC_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string_view>

#include "hqc/hqc.h"

namespace hqckit {

enum class Status : int {
  kOk = HQC_OK,
  kNullPointer = HQC_ERR_NULL_POINTER,
  kLength = HQC_ERR_LENGTH,
  kMalformedKey = HQC_ERR_MALFORMED_KEY,
  kUnknownAlgorithm = HQC_ERR_UNKNOWN_ALGORITHM,
  kRandomness = HQC_ERR_RANDOMNESS,
  kBackend = HQC_ERR_BACKEND,
  kInternal = HQC_ERR_INTERNAL,
};

inline const char* to_string(Status s) { return hqc_status_string(static_cast<int>(s)); }

// A fixed-size secret buffer: no implicit copies, wiped on destruction.
template <std::size_t N>
class SecretBytes {
 public:
  SecretBytes() = default;
  SecretBytes(const SecretBytes&) = delete;
  SecretBytes& operator=(const SecretBytes&) = delete;
  SecretBytes(SecretBytes&& o) noexcept { std::memcpy(b_, o.b_, N), o.wipe(); }
  SecretBytes& operator=(SecretBytes&& o) noexcept {
    std::memcpy(b_, o.b_, N);
    o.wipe();
    return *this;
  }
  ~SecretBytes() { wipe(); }

  static constexpr std::size_t size() { return N; }
  std::uint8_t* data() { return b_; }
  const std::uint8_t* data() const { return b_; }
  std::span<std::uint8_t, N> span() { return std::span<std::uint8_t, N>(b_, N); }
  std::span<const std::uint8_t, N> span() const { return std::span<const std::uint8_t, N>(b_, N); }
  operator std::span<std::uint8_t, N>() { return span(); }
  operator std::span<const std::uint8_t, N>() const { return span(); }
  // Constant-time equality.
  bool equals(std::span<const std::uint8_t, N> o) const {
    std::uint8_t acc = 0;
    for (std::size_t i = 0; i < N; i++) acc |= static_cast<std::uint8_t>(b_[i] ^ o[i]);
    return acc == 0;
  }
  void wipe() {
    volatile std::uint8_t* p = b_;
    for (std::size_t i = 0; i < N; i++) p[i] = 0;
  }

 private:
  std::uint8_t b_[N] = {};
};

using SharedSecret = SecretBytes<HQC_SHARED_SECRET_BYTES>;

namespace detail {
template <int L>
struct Sizes;
// Sizes and the per-level C functions of one level (the stateless operations go straight to
// them, without a name lookup).
#define HQC_DETAIL_LEVEL(L)                                                                                           \
  template <>                                                                                                         \
  struct Sizes<L> {                                                                                                   \
    static constexpr const char* kName = "HQC-" #L;                                                                   \
    static constexpr std::size_t kPk = HQC##L##_PUBLIC_KEY_BYTES, kSk = HQC##L##_SECRET_KEY_BYTES,                    \
                                 kCt = HQC##L##_CIPHERTEXT_BYTES, kCoins = HQC##L##_ENCAPS_COINS_BYTES;               \
    static int keypair(std::uint8_t* pk, std::uint8_t* sk) { return hqc##L##_keypair(pk, sk); }                       \
    static int keypair_derand(std::uint8_t* pk, std::uint8_t* sk, const std::uint8_t* seed) {                         \
      return hqc##L##_keypair_derand(pk, sk, seed);                                                                   \
    }                                                                                                                 \
    static int encaps(std::uint8_t* ct, std::uint8_t* ss, const std::uint8_t* pk) {                                   \
      return hqc##L##_encaps(ct, ss, pk);                                                                             \
    }                                                                                                                 \
    static int encaps_derand(std::uint8_t* ct, std::uint8_t* ss, const std::uint8_t* pk, const std::uint8_t* coins) { \
      return hqc##L##_encaps_derand(ct, ss, pk, coins);                                                               \
    }                                                                                                                 \
    static int decaps(std::uint8_t* ss, const std::uint8_t* ct, const std::uint8_t* sk) {                             \
      return hqc##L##_decaps(ss, ct, sk);                                                                             \
    }                                                                                                                 \
  };
HQC_DETAIL_LEVEL(1)
HQC_DETAIL_LEVEL(3)
HQC_DETAIL_LEVEL(5)
#undef HQC_DETAIL_LEVEL
struct PublicKeyDeleter {
  void operator()(hqc_public_key* k) const { hqc_public_key_free(k); }
};
struct SecretKeyDeleter {
  void operator()(hqc_secret_key* k) const { hqc_secret_key_free(k); }
};
}  // namespace detail

// One HQC parameter set. L is 1, 3 or 5.
template <int L>
class Kem {
  using S = detail::Sizes<L>;

 public:
  static constexpr const char* kName = S::kName;
  static constexpr std::size_t kPublicKeyBytes = S::kPk;
  static constexpr std::size_t kSecretKeyBytes = S::kSk;
  static constexpr std::size_t kCiphertextBytes = S::kCt;
  static constexpr std::size_t kSharedSecretBytes = HQC_SHARED_SECRET_BYTES;
  static constexpr std::size_t kKeypairCoinsBytes = HQC_KEYPAIR_COINS_BYTES;
  static constexpr std::size_t kEncapsCoinsBytes = S::kCoins;

  using PublicKey = std::array<std::uint8_t, kPublicKeyBytes>;
  using SecretKey = SecretBytes<kSecretKeyBytes>;
  using Ciphertext = std::array<std::uint8_t, kCiphertextBytes>;

  static Status keypair(std::span<std::uint8_t, kPublicKeyBytes> pk, std::span<std::uint8_t, kSecretKeyBytes> sk) {
    return Status(S::keypair(pk.data(), sk.data()));
  }
  // Deterministic: seed_kem is the 32-byte randomness of key generation (KATs, tests).
  static Status keypair_derand(std::span<std::uint8_t, kPublicKeyBytes> pk, std::span<std::uint8_t, kSecretKeyBytes> sk,
                               std::span<const std::uint8_t, kKeypairCoinsBytes> seed_kem) {
    return Status(S::keypair_derand(pk.data(), sk.data(), seed_kem.data()));
  }
  // Fails with kMalformedKey if pk has padding bits set (spec §13).
  static Status encaps(std::span<std::uint8_t, kCiphertextBytes> ct, std::span<std::uint8_t, kSharedSecretBytes> ss,
                       std::span<const std::uint8_t, kPublicKeyBytes> pk) {
    return Status(S::encaps(ct.data(), ss.data(), pk.data()));
  }
  // Deterministic: coins = m || salt.
  static Status encaps_derand(std::span<std::uint8_t, kCiphertextBytes> ct,
                              std::span<std::uint8_t, kSharedSecretBytes> ss,
                              std::span<const std::uint8_t, kPublicKeyBytes> pk,
                              std::span<const std::uint8_t, kEncapsCoinsBytes> coins) {
    return Status(S::encaps_derand(ct.data(), ss.data(), pk.data(), coins.data()));
  }
  // Implicit rejection: any ciphertext of the right length yields a key.
  static Status decaps(std::span<std::uint8_t, kSharedSecretBytes> ss,
                       std::span<const std::uint8_t, kCiphertextBytes> ct,
                       std::span<const std::uint8_t, kSecretKeyBytes> sk) {
    return Status(S::decaps(ss.data(), ct.data(), sk.data()));
  }

  // A public key parsed once, keeping H(pk) and the expanded h and s for repeated encapsulation.
  class EncapsulationKey {
   public:
    static Status parse(std::span<const std::uint8_t, kPublicKeyBytes> pk, EncapsulationKey* out) {
      hqc_public_key* k = nullptr;
      const int rc = hqc_public_key_new(kName, pk.data(), pk.size(), &k);
      out->k_.reset(k);
      return Status(rc);
    }
    Status encaps(std::span<std::uint8_t, kCiphertextBytes> ct, std::span<std::uint8_t, kSharedSecretBytes> ss) const {
      return Status(hqc_public_key_encaps(k_.get(), ct.data(), ct.size(), ss.data(), ss.size()));
    }
    Status encaps_derand(std::span<std::uint8_t, kCiphertextBytes> ct, std::span<std::uint8_t, kSharedSecretBytes> ss,
                         std::span<const std::uint8_t, kEncapsCoinsBytes> coins) const {
      return Status(hqc_public_key_encaps_derand(k_.get(), ct.data(), ct.size(), ss.data(), ss.size(), coins.data(),
                                                 coins.size()));
    }
    // Keeps the multiplier's transforms of h and s for many encapsulations (hqc_public_key_prepare);
    // *prepared says whether this backend/level has any.
    Status prepare(bool* prepared = nullptr) {
      int p = 0;
      const int rc = hqc_public_key_prepare(k_.get(), &p);
      if (prepared != nullptr) *prepared = p != 0;
      return Status(rc);
    }
    bool valid() const { return k_ != nullptr; }

   private:
    std::unique_ptr<hqc_public_key, detail::PublicKeyDeleter> k_;
  };

  // A secret key kept expanded (y, H(pk), h, s), wiped when destroyed.
  class DecapsulationKey {
   public:
    // New random key pair (or deterministic from seed_kem if given).
    static Status generate(DecapsulationKey* out, const std::uint8_t* seed_kem = nullptr) {
      hqc_secret_key* k = nullptr;
      const int rc = hqc_secret_key_generate(kName, seed_kem, seed_kem ? kKeypairCoinsBytes : 0, &k);
      out->k_.reset(k);
      return Status(rc);
    }
    // generate, with the key prepared as it is generated (hqc_secret_key_generate_prepared): one
    // transform more than generate, where generate + prepare costs three; pays for a key used once.
    static Status generate_prepared(DecapsulationKey* out, const std::uint8_t* seed_kem = nullptr,
                                    bool* prepared = nullptr) {
      hqc_secret_key* k = nullptr;
      int p = 0;
      const int rc = hqc_secret_key_generate_prepared(kName, seed_kem, seed_kem ? kKeypairCoinsBytes : 0, &k, &p);
      out->k_.reset(k);
      if (prepared != nullptr) *prepared = p != 0;
      return Status(rc);
    }
    static Status parse(std::span<const std::uint8_t, kSecretKeyBytes> sk, DecapsulationKey* out) {
      hqc_secret_key* k = nullptr;
      const int rc = hqc_secret_key_new(kName, sk.data(), sk.size(), &k);
      out->k_.reset(k);
      return Status(rc);
    }
    Status decaps(std::span<std::uint8_t, kSharedSecretBytes> ss,
                  std::span<const std::uint8_t, kCiphertextBytes> ct) const {
      return Status(hqc_secret_key_decaps(k_.get(), ss.data(), ss.size(), ct.data(), ct.size()));
    }
    Status public_key(std::span<std::uint8_t, kPublicKeyBytes> pk) const {
      return Status(hqc_secret_key_public(k_.get(), pk.data(), pk.size()));
    }
    Status serialize(std::span<std::uint8_t, kSecretKeyBytes> sk) const {
      return Status(hqc_secret_key_bytes(k_.get(), sk.data(), sk.size()));
    }
    // Keeps the multiplier's transforms of h, s and y for many decapsulations
    // (hqc_secret_key_prepare); *prepared says whether this backend/level has any.
    Status prepare(bool* prepared = nullptr) {
      int p = 0;
      const int rc = hqc_secret_key_prepare(k_.get(), &p);
      if (prepared != nullptr) *prepared = p != 0;
      return Status(rc);
    }
    bool valid() const { return k_ != nullptr; }

   private:
    std::unique_ptr<hqc_secret_key, detail::SecretKeyDeleter> k_;
  };
};

using Hqc1 = Kem<1>;
using Hqc3 = Kem<3>;
using Hqc5 = Kem<5>;

inline std::string_view backend_name() {
  const char* n = hqc_backend_name();
  return n ? n : "";
}
inline std::string_view version() { return hqc_version(); }
inline std::string_view revision() { return hqc_revision(); }

}  // namespace hqckit

#endif  // HQC_HQC_HPP
