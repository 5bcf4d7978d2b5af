// The stateless C API (include/hqc/hqc.h): library information and the operations on serialized
// keys, by name and per level. Lengths are checked before any work, every output is zeroed on
// every error, nothing is thrown, and secrets are wiped. No heap and no OS call: the operations
// run kem::stateless_* on the selected backend, and randomness comes from api::random_bytes
// (the hook of hqc_set_randombytes). The per-level functions go straight to their parameter set.
#include "hqc/hqc.h"

#include <cstring>

#include "api/random.hpp"
#include "backend/active.hpp"
#include "kem/kem.hpp"

namespace {

using namespace hqc;

constexpr hqc_kem_info make_info(int level) {
  hqc_kem_info i{};
  with_params(level, [&]<class P>() {
    i = hqc_kem_info{P::kName,
                     P::kLevel,
                     P::kPublicKeyBytes,
                     P::kSecretKeyBytes,
                     P::kCiphertextBytes,
                     32,
                     P::kKeypairCoinsBytes,
                     P::kEncapsCoinsBytes,
                     P::kLevel};
  });
  return i;
}
const hqc_kem_info kInfos[3] = {make_info(1), make_info(3), make_info(5)};

static_assert(HQC1_PUBLIC_KEY_BYTES == Hqc1::kPublicKeyBytes && HQC1_SECRET_KEY_BYTES == Hqc1::kSecretKeyBytes &&
              HQC1_CIPHERTEXT_BYTES == Hqc1::kCiphertextBytes && HQC1_MESSAGE_BYTES == Hqc1::kK);
static_assert(HQC3_PUBLIC_KEY_BYTES == Hqc3::kPublicKeyBytes && HQC3_SECRET_KEY_BYTES == Hqc3::kSecretKeyBytes &&
              HQC3_CIPHERTEXT_BYTES == Hqc3::kCiphertextBytes && HQC3_MESSAGE_BYTES == Hqc3::kK);
static_assert(HQC5_PUBLIC_KEY_BYTES == Hqc5::kPublicKeyBytes && HQC5_SECRET_KEY_BYTES == Hqc5::kSecretKeyBytes &&
              HQC5_CIPHERTEXT_BYTES == Hqc5::kCiphertextBytes && HQC5_MESSAGE_BYTES == Hqc5::kK);
static_assert(HQC_KEYPAIR_COINS_BYTES == Hqc1::kKeypairCoinsBytes && HQC_SHARED_SECRET_BYTES == 32);

const hqc_kem_info* info_for_level(int level) {
  switch (level) {
    case 1: return kLevelEnabled<1> ? &kInfos[0] : nullptr;
    case 3: return kLevelEnabled<3> ? &kInfos[1] : nullptr;
    case 5: return kLevelEnabled<5> ? &kInfos[2] : nullptr;
    default: return nullptr;
  }
}

// Accepted spellings of level L's name: "HQC-L", "hqc-L", "HQCL", "hqcL", "L".
bool name_matches(const char* name, char digit) {
  const char* p = name;
  if ((p[0] == 'H' && p[1] == 'Q' && p[2] == 'C') || (p[0] == 'h' && p[1] == 'q' && p[2] == 'c')) {
    p += 3;
    if (*p == '-') p++;
  }
  return p[0] == digit && p[1] == '\0';
}

void zero(void* p, std::size_t n) {
  if (p != nullptr) ct::wipe(p, n);
}

// ---- One implementation per operation, templated on the parameter set; the by-name functions
// check lengths and dispatch to them, the per-level functions call them directly.

template <class P>
int keypair_derand(std::uint8_t* pk, std::uint8_t* sk, const std::uint8_t* coins) {
  const backend::Backend* be = backend::active();
  int rc = HQC_OK;
  if (pk == nullptr || sk == nullptr || coins == nullptr) rc = HQC_ERR_NULL_POINTER;
  else if (be == nullptr) rc = HQC_ERR_BACKEND;
  if (rc != HQC_OK) {
    zero(pk, P::kPublicKeyBytes);
    zero(sk, P::kSecretKeyBytes);
    return rc;
  }
  kem::stateless_keypair<P>(*be, pk, sk, coins);
  return HQC_OK;
}

template <class P>
int keypair(std::uint8_t* pk, std::uint8_t* sk) {
  if (pk == nullptr || sk == nullptr) return keypair_derand<P>(pk, sk, nullptr);
  return api::with_random_bytes<HQC_KEYPAIR_COINS_BYTES>(
      HQC_KEYPAIR_COINS_BYTES, [&](const std::uint8_t* seed) { return keypair_derand<P>(pk, sk, seed); },
      [&] {
        zero(pk, P::kPublicKeyBytes);
        zero(sk, P::kSecretKeyBytes);
      });
}

template <class P>
int encaps_derand(std::uint8_t* ct, std::uint8_t* ss, const std::uint8_t* pk, const std::uint8_t* coins) {
  const backend::Backend* be = backend::active();
  int rc = HQC_OK;
  if (ct == nullptr || ss == nullptr || pk == nullptr || coins == nullptr) rc = HQC_ERR_NULL_POINTER;
  else if (be == nullptr) rc = HQC_ERR_BACKEND;
  else if (kem::stateless_encaps<P>(*be, ct, ss, pk, coins, coins + P::kK) != kem::Status::kOk)
    rc = HQC_ERR_MALFORMED_KEY;  // stateless_encaps zeroed ct and ss
  if (rc != HQC_OK) {
    zero(ct, P::kCiphertextBytes);
    zero(ss, HQC_SHARED_SECRET_BYTES);
  }
  return rc;
}

template <class P>
int encaps(std::uint8_t* ct, std::uint8_t* ss, const std::uint8_t* pk) {
  if (ct == nullptr || ss == nullptr || pk == nullptr) return encaps_derand<P>(ct, ss, pk, nullptr);
  return api::with_random_bytes<P::kEncapsCoinsBytes>(
      P::kEncapsCoinsBytes, [&](const std::uint8_t* coins) { return encaps_derand<P>(ct, ss, pk, coins); },
      [&] {
        zero(ct, P::kCiphertextBytes);
        zero(ss, HQC_SHARED_SECRET_BYTES);
      });
}

template <class P>
int decaps(std::uint8_t* ss, const std::uint8_t* ct, const std::uint8_t* sk) {
  const backend::Backend* be = backend::active();
  int rc = HQC_OK;
  if (ss == nullptr || ct == nullptr || sk == nullptr) rc = HQC_ERR_NULL_POINTER;
  else if (be == nullptr) rc = HQC_ERR_BACKEND;
  else if (kem::stateless_decaps<P>(*be, ss, ct, sk) != kem::Status::kOk) rc = HQC_ERR_MALFORMED_KEY;
  if (rc != HQC_OK) zero(ss, HQC_SHARED_SECRET_BYTES);
  return rc;
}

// Runs f.template operator()<P>() for the level of `info` (never null here).
template <class F>
int dispatch(const hqc_kem_info* info, F&& f) {
  int rc = HQC_ERR_INTERNAL;
  with_params(info->level, [&]<class P>() { rc = f.template operator()<P>(); });
  return rc;
}

}  // namespace

extern "C" {

const char* hqc_version(void) { return "0.1.0"; }
const char* hqc_revision(void) { return hqc::kHqcRevision; }
const char* hqc_backend_name(void) {
  const auto* be = backend::active();
  return be ? be->name : nullptr;
}

const char* hqc_status_string(int status) {
  switch (status) {
    case HQC_OK: return "ok";
    case HQC_ERR_NULL_POINTER: return "a required pointer is NULL";
    case HQC_ERR_LENGTH: return "a buffer has the wrong length";
    case HQC_ERR_MALFORMED_KEY: return "malformed key (padding bits beyond n are set)";
    case HQC_ERR_UNKNOWN_ALGORITHM: return "unknown algorithm (expected HQC-1, HQC-3 or HQC-5)";
    case HQC_ERR_RANDOMNESS: return "no randomness: the random source failed or none is registered";
    case HQC_ERR_BACKEND: return "no usable backend (see HQC_BACKEND / HQC_CPU_MASK)";
    case HQC_ERR_INTERNAL: return "internal error";
    default: return "unknown status";
  }
}

const hqc_kem_info* hqc_kem_info_by_level(int level) { return info_for_level(level); }

const hqc_kem_info* hqc_kem_info_by_name(const char* name) {
  if (name == nullptr) return nullptr;
  for (int level : {1, 3, 5})
    if (name_matches(name, static_cast<char>('0' + level))) return info_for_level(level);
  return nullptr;
}

int hqc_kem_keypair_derand(const char* alg, std::uint8_t* pk, std::size_t pk_len, std::uint8_t* sk, std::size_t sk_len,
                           const std::uint8_t* coins, std::size_t coins_len) {
  const hqc_kem_info* info = hqc_kem_info_by_name(alg);
  int rc = HQC_OK;
  if (info == nullptr) rc = HQC_ERR_UNKNOWN_ALGORITHM;
  else if (pk == nullptr || sk == nullptr || coins == nullptr) rc = HQC_ERR_NULL_POINTER;
  else if (pk_len != info->public_key_bytes || sk_len != info->secret_key_bytes || coins_len != HQC_KEYPAIR_COINS_BYTES)
    rc = HQC_ERR_LENGTH;
  if (rc != HQC_OK) {
    zero(pk, pk_len);
    zero(sk, sk_len);
    return rc;
  }
  return dispatch(info, [&]<class P>() { return keypair_derand<P>(pk, sk, coins); });
}

int hqc_kem_keypair(const char* alg, std::uint8_t* pk, std::size_t pk_len, std::uint8_t* sk, std::size_t sk_len) {
  const hqc_kem_info* info = hqc_kem_info_by_name(alg);
  int rc = HQC_OK;
  if (info == nullptr) rc = HQC_ERR_UNKNOWN_ALGORITHM;
  else if (pk == nullptr || sk == nullptr) rc = HQC_ERR_NULL_POINTER;
  else if (pk_len != info->public_key_bytes || sk_len != info->secret_key_bytes) rc = HQC_ERR_LENGTH;
  if (rc != HQC_OK) {
    zero(pk, pk_len);
    zero(sk, sk_len);
    return rc;
  }
  return dispatch(info, [&]<class P>() { return keypair<P>(pk, sk); });
}

int hqc_kem_check_public_key(const char* alg, const std::uint8_t* pk, std::size_t pk_len) {
  const hqc_kem_info* info = hqc_kem_info_by_name(alg);
  if (info == nullptr) return HQC_ERR_UNKNOWN_ALGORITHM;
  if (pk == nullptr) return HQC_ERR_NULL_POINTER;
  if (pk_len != info->public_key_bytes) return HQC_ERR_LENGTH;
  return dispatch(info, [&]<class P>() {
    return kem::check_public_key<P>(pk) == kem::Status::kOk ? HQC_OK : HQC_ERR_MALFORMED_KEY;
  });
}

int hqc_kem_encaps_derand(const char* alg, std::uint8_t* ct, std::size_t ct_len, std::uint8_t* ss, std::size_t ss_len,
                          const std::uint8_t* pk, std::size_t pk_len, const std::uint8_t* coins,
                          std::size_t coins_len) {
  const hqc_kem_info* info = hqc_kem_info_by_name(alg);
  int rc = HQC_OK;
  if (info == nullptr) rc = HQC_ERR_UNKNOWN_ALGORITHM;
  else if (ct == nullptr || ss == nullptr || pk == nullptr || coins == nullptr) rc = HQC_ERR_NULL_POINTER;
  else if (ct_len != info->ciphertext_bytes || ss_len != HQC_SHARED_SECRET_BYTES || pk_len != info->public_key_bytes ||
           coins_len != info->encaps_coins_bytes)
    rc = HQC_ERR_LENGTH;
  if (rc != HQC_OK) {
    zero(ct, ct_len);
    zero(ss, ss_len);
    return rc;
  }
  return dispatch(info, [&]<class P>() { return encaps_derand<P>(ct, ss, pk, coins); });
}

int hqc_kem_encaps(const char* alg, std::uint8_t* ct, std::size_t ct_len, std::uint8_t* ss, std::size_t ss_len,
                   const std::uint8_t* pk, std::size_t pk_len) {
  const hqc_kem_info* info = hqc_kem_info_by_name(alg);
  int rc = HQC_OK;
  if (info == nullptr) rc = HQC_ERR_UNKNOWN_ALGORITHM;
  else if (ct == nullptr || ss == nullptr || pk == nullptr) rc = HQC_ERR_NULL_POINTER;
  else if (ct_len != info->ciphertext_bytes || ss_len != HQC_SHARED_SECRET_BYTES || pk_len != info->public_key_bytes)
    rc = HQC_ERR_LENGTH;
  if (rc != HQC_OK) {
    zero(ct, ct_len);
    zero(ss, ss_len);
    return rc;
  }
  return dispatch(info, [&]<class P>() { return encaps<P>(ct, ss, pk); });
}

int hqc_kem_decaps(const char* alg, std::uint8_t* ss, std::size_t ss_len, const std::uint8_t* ct, std::size_t ct_len,
                   const std::uint8_t* sk, std::size_t sk_len) {
  const hqc_kem_info* info = hqc_kem_info_by_name(alg);
  int rc = HQC_OK;
  if (info == nullptr) rc = HQC_ERR_UNKNOWN_ALGORITHM;
  else if (ss == nullptr || ct == nullptr || sk == nullptr) rc = HQC_ERR_NULL_POINTER;
  else if (ss_len != HQC_SHARED_SECRET_BYTES || ct_len != info->ciphertext_bytes || sk_len != info->secret_key_bytes)
    rc = HQC_ERR_LENGTH;
  if (rc != HQC_OK) {
    zero(ss, ss_len);
    return rc;
  }
  return dispatch(info, [&]<class P>() { return decaps<P>(ss, ct, sk); });
}

#define HQC_DEFINE_LEVEL(L)                                                                                           \
  int hqc##L##_keypair(std::uint8_t* pk, std::uint8_t* sk) { return keypair<Hqc##L>(pk, sk); }                        \
  int hqc##L##_keypair_derand(std::uint8_t* pk, std::uint8_t* sk, const std::uint8_t* seed_kem) {                     \
    return keypair_derand<Hqc##L>(pk, sk, seed_kem);                                                                  \
  }                                                                                                                   \
  int hqc##L##_encaps(std::uint8_t* ct, std::uint8_t* ss, const std::uint8_t* pk) {                                   \
    return encaps<Hqc##L>(ct, ss, pk);                                                                                \
  }                                                                                                                   \
  int hqc##L##_encaps_derand(std::uint8_t* ct, std::uint8_t* ss, const std::uint8_t* pk, const std::uint8_t* coins) { \
    return encaps_derand<Hqc##L>(ct, ss, pk, coins);                                                                  \
  }                                                                                                                   \
  int hqc##L##_decaps(std::uint8_t* ss, const std::uint8_t* ct, const std::uint8_t* sk) {                             \
    return decaps<Hqc##L>(ss, ct, sk);                                                                                \
  }
// A single-level device build (HQC_ONLY_LEVEL) defines only its level's functions: calling
// another level's is a link error, not a run-time surprise.
#if HQC_ONLY_LEVEL == 0 || HQC_ONLY_LEVEL == 1
HQC_DEFINE_LEVEL(1)
#endif
#if HQC_ONLY_LEVEL == 0 || HQC_ONLY_LEVEL == 3
HQC_DEFINE_LEVEL(3)
#endif
#if HQC_ONLY_LEVEL == 0 || HQC_ONLY_LEVEL == 5
HQC_DEFINE_LEVEL(5)
#endif
#undef HQC_DEFINE_LEVEL

}  // extern "C"
