// The C API (include/hqc/hqc.h): length checks before any work, outputs zeroed on every error,
// no exceptions across the boundary, secrets wiped.
#include "hqc/hqc.h"

#include <sys/random.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <new>
#include <string_view>
#include <variant>

#include "backend/registry.hpp"
#include "kem/kem.hpp"

namespace {

using namespace hqc;

constexpr hqc_kem_info make_info(int level) {
  hqc_kem_info i{};
  with_params(level, [&]<class P>() {
    i = hqc_kem_info{P::kName,           P::kLevel,      P::kPublicKeyBytes,   P::kSecretKeyBytes,
                     P::kCiphertextBytes, 32,            P::kKeypairCoinsBytes, P::kEncapsCoinsBytes,
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

const hqc_kem_info* info_for_level(int level) {
  switch (level) {
    case 1: return &kInfos[0];
    case 3: return &kInfos[1];
    case 5: return &kInfos[2];
    default: return nullptr;
  }
}

void zero(void* p, std::size_t n) {
  if (p != nullptr) ct::wipe(p, n);
}

int system_random(std::uint8_t* out, std::size_t len) {
  while (len > 0) {
    ssize_t r = getrandom(out, len, 0);
    if (r < 0) {
      if (errno == EINTR) continue;
      return HQC_ERR_RANDOMNESS;
    }
    out += r;
    len -= static_cast<std::size_t>(r);
  }
  return HQC_OK;
}

// Runs f with the selected backend, or reports a backend error.
template <class F>
int with_backend(F&& f) {
  const backend::Backend* be = backend::active();
  if (be == nullptr) return HQC_ERR_BACKEND;
  return f(*be);
}

template <class T>
struct Deleter {
  void operator()(T* p) const { delete p; }
};

}  // namespace

// Key objects: one variant over the parameter sets. The SecretKey destructor wipes it.
struct hqc_public_key {
  const hqc_kem_info* info;
  std::variant<std::unique_ptr<kem::PublicKey<Hqc1>>, std::unique_ptr<kem::PublicKey<Hqc3>>,
               std::unique_ptr<kem::PublicKey<Hqc5>>>
      key;
};
struct hqc_secret_key {
  const hqc_kem_info* info;
  std::variant<std::unique_ptr<kem::SecretKey<Hqc1>>, std::unique_ptr<kem::SecretKey<Hqc3>>,
               std::unique_ptr<kem::SecretKey<Hqc5>>>
      key;
};

namespace {

// Variant index of a parameter set: HQC-1 -> 0, HQC-3 -> 1, HQC-5 -> 2.
template <class P, class V>
auto* get_key(V& variant) {
  return std::get<P::kLevel / 2>(variant).get();
}

// Dispatches on a key object's level.
template <class K, class F>
int visit_level(K* key, F&& f) {
  int rc = HQC_ERR_INTERNAL;
  with_params(key->info->level, [&]<class P>() { rc = f.template operator()<P>(); });
  return rc;
}

// Creates a key object Obj holding a new Key<P> that `fill` sets up (returning kem::Status): the
// common part of hqc_public_key_new, hqc_secret_key_new and hqc_secret_key_generate.
template <class Obj, template <class> class Key, class Fill>
int make_key_object(const hqc_kem_info* info, Obj** out, Fill&& fill) {
  return with_backend([&](const backend::Backend& be) {
    int rc = HQC_ERR_INTERNAL;
    with_params(info->level, [&]<class P>() {
      auto key = std::unique_ptr<Key<P>>(new (std::nothrow) Key<P>);
      if (!key) return;
      if (fill.template operator()<P>(be, *key) != kem::Status::kOk) {
        rc = HQC_ERR_MALFORMED_KEY;
        return;
      }
      auto* obj = new (std::nothrow) Obj{info, std::move(key)};
      if (obj == nullptr) return;
      *out = obj;
      rc = HQC_OK;
    });
    return rc;
  });
}

}  // namespace

extern "C" {

const char* hqc_version(void) { return "0.1.0"; }
const char* hqc_revision(void) { return hqc::kHqcRevision; }
const char* hqc_backend_name(void) {
  const auto* be = backend::active();
  return be ? be->name : nullptr;
}
const char* hqc_backend_error(void) { return backend::active_error().c_str(); }

const char* hqc_status_string(int status) {
  switch (status) {
    case HQC_OK: return "ok";
    case HQC_ERR_NULL_POINTER: return "a required pointer is NULL";
    case HQC_ERR_LENGTH: return "a buffer has the wrong length";
    case HQC_ERR_MALFORMED_KEY: return "malformed key (padding bits beyond n are set)";
    case HQC_ERR_UNKNOWN_ALGORITHM: return "unknown algorithm (expected HQC-1, HQC-3 or HQC-5)";
    case HQC_ERR_RANDOMNESS: return "the system random number generator failed";
    case HQC_ERR_BACKEND: return "no usable backend (see HQC_BACKEND / HQC_CPU_MASK)";
    case HQC_ERR_INTERNAL: return "internal error";
    default: return "unknown status";
  }
}

const hqc_kem_info* hqc_kem_info_by_level(int level) { return info_for_level(level); }

const hqc_kem_info* hqc_kem_info_by_name(const char* name) {
  if (name == nullptr) return nullptr;
  const std::string_view n(name);
  for (int level : {1, 3, 5}) {
    const std::string digit(1, static_cast<char>('0' + level));
    if (n == "HQC-" + digit || n == "hqc-" + digit || n == "hqc" + digit || n == "HQC" + digit || n == digit)
      return info_for_level(level);
  }
  return nullptr;
}

int hqc_public_key_new(const char* alg, const std::uint8_t* pk, std::size_t pk_len, hqc_public_key** out) {
  if (out == nullptr) return HQC_ERR_NULL_POINTER;
  *out = nullptr;
  const hqc_kem_info* info = hqc_kem_info_by_name(alg);
  if (info == nullptr) return HQC_ERR_UNKNOWN_ALGORITHM;
  if (pk == nullptr) return HQC_ERR_NULL_POINTER;
  if (pk_len != info->public_key_bytes) return HQC_ERR_LENGTH;
  return make_key_object<hqc_public_key, kem::PublicKey>(
      info, out, [&]<class P>(const backend::Backend& be, kem::PublicKey<P>& key) {
        return kem::parse_public_key<P>(be, key, pk);
      });
}

void hqc_public_key_free(hqc_public_key* key) { delete key; }
const hqc_kem_info* hqc_public_key_info(const hqc_public_key* key) { return key ? key->info : nullptr; }

int hqc_public_key_encaps_derand(const hqc_public_key* key, std::uint8_t* ct, std::size_t ct_len, std::uint8_t* ss,
                                 std::size_t ss_len, const std::uint8_t* coins, std::size_t coins_len) {
  auto fail = [&](int rc) {
    zero(ct, ct_len);
    zero(ss, ss_len);
    return rc;
  };
  if (key == nullptr || ct == nullptr || ss == nullptr || coins == nullptr) return fail(HQC_ERR_NULL_POINTER);
  if (ct_len != key->info->ciphertext_bytes || ss_len != HQC_SHARED_SECRET_BYTES ||
      coins_len != key->info->encaps_coins_bytes)
    return fail(HQC_ERR_LENGTH);
  return with_backend([&](const backend::Backend& be) {
    return visit_level(key, [&]<class P>() {
      kem::encaps<P>(be, *get_key<P>(key->key), ct, ss, coins, coins + P::kK);
      return HQC_OK;
    });
  });
}

int hqc_public_key_encaps(const hqc_public_key* key, std::uint8_t* ct, std::size_t ct_len, std::uint8_t* ss,
                          std::size_t ss_len) {
  std::uint8_t coins[HQC_MAX_ENCAPS_COINS_BYTES];
  const std::size_t n = key ? key->info->encaps_coins_bytes : 0;
  int rc = key ? system_random(coins, n) : HQC_ERR_NULL_POINTER;
  if (rc == HQC_OK) {
    rc = hqc_public_key_encaps_derand(key, ct, ct_len, ss, ss_len, coins, n);
  } else {
    zero(ct, ct_len);
    zero(ss, ss_len);
  }
  ct::wipe(coins, sizeof(coins));
  return rc;
}

int hqc_secret_key_generate(const char* alg, const std::uint8_t* coins, std::size_t coins_len, hqc_secret_key** out) {
  if (out == nullptr) return HQC_ERR_NULL_POINTER;
  *out = nullptr;
  const hqc_kem_info* info = hqc_kem_info_by_name(alg);
  if (info == nullptr) return HQC_ERR_UNKNOWN_ALGORITHM;
  std::uint8_t seed[HQC_KEYPAIR_COINS_BYTES];
  if (coins != nullptr) {
    if (coins_len != HQC_KEYPAIR_COINS_BYTES) return HQC_ERR_LENGTH;
    std::memcpy(seed, coins, sizeof(seed));
  } else if (int rc = system_random(seed, sizeof(seed)); rc != HQC_OK) {
    return rc;
  }
  const int rc = make_key_object<hqc_secret_key, kem::SecretKey>(
      info, out, [&]<class P>(const backend::Backend& be, kem::SecretKey<P>& key) {
        kem::keypair<P>(be, key, seed);
        return kem::Status::kOk;
      });
  ct::wipe(seed, sizeof(seed));
  return rc;
}

int hqc_secret_key_new(const char* alg, const std::uint8_t* sk, std::size_t sk_len, hqc_secret_key** out) {
  if (out == nullptr) return HQC_ERR_NULL_POINTER;
  *out = nullptr;
  const hqc_kem_info* info = hqc_kem_info_by_name(alg);
  if (info == nullptr) return HQC_ERR_UNKNOWN_ALGORITHM;
  if (sk == nullptr) return HQC_ERR_NULL_POINTER;
  if (sk_len != info->secret_key_bytes) return HQC_ERR_LENGTH;
  return make_key_object<hqc_secret_key, kem::SecretKey>(
      info, out, [&]<class P>(const backend::Backend& be, kem::SecretKey<P>& key) {
        return kem::parse_secret_key<P>(be, key, sk);
      });
}

void hqc_secret_key_free(hqc_secret_key* key) { delete key; }
const hqc_kem_info* hqc_secret_key_info(const hqc_secret_key* key) { return key ? key->info : nullptr; }

int hqc_secret_key_decaps(const hqc_secret_key* key, std::uint8_t* ss, std::size_t ss_len, const std::uint8_t* ct,
                          std::size_t ct_len) {
  if (key == nullptr || ss == nullptr || ct == nullptr) {
    zero(ss, ss_len);
    return HQC_ERR_NULL_POINTER;
  }
  if (ss_len != HQC_SHARED_SECRET_BYTES || ct_len != key->info->ciphertext_bytes) {
    zero(ss, ss_len);
    return HQC_ERR_LENGTH;
  }
  return with_backend([&](const backend::Backend& be) {
    return visit_level(key, [&]<class P>() {
      kem::decaps<P>(be, *get_key<P>(key->key), ss, ct);
      return HQC_OK;
    });
  });
}

int hqc_public_key_prepare(hqc_public_key* key, int* prepared) {
  if (prepared != nullptr) *prepared = 0;
  if (key == nullptr) return HQC_ERR_NULL_POINTER;
  return with_backend([&](const backend::Backend& be) {
    return visit_level(key, [&]<class P>() {
      const bool kept = kem::prepare_public_key<P>(be, *get_key<P>(key->key));
      if (prepared != nullptr) *prepared = kept ? 1 : 0;
      return HQC_OK;
    });
  });
}

int hqc_secret_key_prepare(hqc_secret_key* key, int* prepared) {
  if (prepared != nullptr) *prepared = 0;
  if (key == nullptr) return HQC_ERR_NULL_POINTER;
  return with_backend([&](const backend::Backend& be) {
    return visit_level(key, [&]<class P>() {
      const bool kept = kem::prepare_secret_key<P>(be, *get_key<P>(key->key));
      if (prepared != nullptr) *prepared = kept ? 1 : 0;
      return HQC_OK;
    });
  });
}

int hqc_secret_key_public(const hqc_secret_key* key, std::uint8_t* pk, std::size_t pk_len) {
  if (key == nullptr || pk == nullptr) {
    zero(pk, pk_len);
    return HQC_ERR_NULL_POINTER;
  }
  if (pk_len != key->info->public_key_bytes) {
    zero(pk, pk_len);
    return HQC_ERR_LENGTH;
  }
  return visit_level(key, [&]<class P>() {
    std::memcpy(pk, get_key<P>(key->key)->pub.pk, P::kPublicKeyBytes);
    return HQC_OK;
  });
}

int hqc_secret_key_bytes(const hqc_secret_key* key, std::uint8_t* sk, std::size_t sk_len) {
  if (key == nullptr || sk == nullptr) {
    zero(sk, sk_len);
    return HQC_ERR_NULL_POINTER;
  }
  if (sk_len != key->info->secret_key_bytes) {
    zero(sk, sk_len);
    return HQC_ERR_LENGTH;
  }
  return visit_level(key, [&]<class P>() {
    get_key<P>(key->key)->serialize(sk);
    return HQC_OK;
  });
}

// ---- Stateless by-name API (built on the key objects' algorithms, without heap allocation).

int hqc_kem_keypair_derand(const char* alg, std::uint8_t* pk, std::size_t pk_len, std::uint8_t* sk,
                           std::size_t sk_len, const std::uint8_t* coins, std::size_t coins_len) {
  auto fail = [&](int rc) {
    zero(pk, pk_len);
    zero(sk, sk_len);
    return rc;
  };
  const hqc_kem_info* info = hqc_kem_info_by_name(alg);
  if (info == nullptr) return fail(HQC_ERR_UNKNOWN_ALGORITHM);
  if (pk == nullptr || sk == nullptr || coins == nullptr) return fail(HQC_ERR_NULL_POINTER);
  if (pk_len != info->public_key_bytes || sk_len != info->secret_key_bytes || coins_len != HQC_KEYPAIR_COINS_BYTES)
    return fail(HQC_ERR_LENGTH);
  int rc = with_backend([&](const backend::Backend& be) {
    int r = HQC_OK;
    with_params(info->level, [&]<class P>() {
      auto key = std::unique_ptr<kem::SecretKey<P>>(new (std::nothrow) kem::SecretKey<P>);
      if (!key) {
        r = HQC_ERR_INTERNAL;
        return;
      }
      kem::keypair<P>(be, *key, coins);
      std::memcpy(pk, key->pub.pk, P::kPublicKeyBytes);
      key->serialize(sk);
    });
    return r;
  });
  return rc == HQC_OK ? rc : fail(rc);
}

int hqc_kem_keypair(const char* alg, std::uint8_t* pk, std::size_t pk_len, std::uint8_t* sk, std::size_t sk_len) {
  std::uint8_t seed[HQC_KEYPAIR_COINS_BYTES];
  int rc = system_random(seed, sizeof(seed));
  if (rc == HQC_OK) {
    rc = hqc_kem_keypair_derand(alg, pk, pk_len, sk, sk_len, seed, sizeof(seed));
  } else {
    zero(pk, pk_len);
    zero(sk, sk_len);
  }
  ct::wipe(seed, sizeof(seed));
  return rc;
}

int hqc_kem_check_public_key(const char* alg, const std::uint8_t* pk, std::size_t pk_len) {
  const hqc_kem_info* info = hqc_kem_info_by_name(alg);
  if (info == nullptr) return HQC_ERR_UNKNOWN_ALGORITHM;
  if (pk == nullptr) return HQC_ERR_NULL_POINTER;
  if (pk_len != info->public_key_bytes) return HQC_ERR_LENGTH;
  int rc = HQC_OK;
  with_params(info->level, [&]<class P>() {
    pke::RingVec<P> s;
    if (pke::load_ring_vec<P>(s, pk + 32) != 0) rc = HQC_ERR_MALFORMED_KEY;
  });
  return rc;
}

int hqc_kem_encaps_derand(const char* alg, std::uint8_t* ct, std::size_t ct_len, std::uint8_t* ss, std::size_t ss_len,
                          const std::uint8_t* pk, std::size_t pk_len, const std::uint8_t* coins, std::size_t coins_len) {
  auto fail = [&](int rc) {
    zero(ct, ct_len);
    zero(ss, ss_len);
    return rc;
  };
  const hqc_kem_info* info = hqc_kem_info_by_name(alg);
  if (info == nullptr) return fail(HQC_ERR_UNKNOWN_ALGORITHM);
  if (ct == nullptr || ss == nullptr || pk == nullptr || coins == nullptr) return fail(HQC_ERR_NULL_POINTER);
  if (ct_len != info->ciphertext_bytes || ss_len != HQC_SHARED_SECRET_BYTES || pk_len != info->public_key_bytes ||
      coins_len != info->encaps_coins_bytes)
    return fail(HQC_ERR_LENGTH);
  int rc = with_backend([&](const backend::Backend& be) {
    int r = HQC_OK;
    with_params(info->level, [&]<class P>() {
      auto key = std::unique_ptr<kem::PublicKey<P>>(new (std::nothrow) kem::PublicKey<P>);
      if (!key) {
        r = HQC_ERR_INTERNAL;
        return;
      }
      if (kem::parse_public_key<P>(be, *key, pk) != kem::Status::kOk) {
        r = HQC_ERR_MALFORMED_KEY;
        return;
      }
      kem::encaps<P>(be, *key, ct, ss, coins, coins + P::kK);
    });
    return r;
  });
  return rc == HQC_OK ? rc : fail(rc);
}

int hqc_kem_encaps(const char* alg, std::uint8_t* ct, std::size_t ct_len, std::uint8_t* ss, std::size_t ss_len,
                   const std::uint8_t* pk, std::size_t pk_len) {
  std::uint8_t coins[HQC_MAX_ENCAPS_COINS_BYTES];
  const hqc_kem_info* info = hqc_kem_info_by_name(alg);
  const std::size_t n = info ? info->encaps_coins_bytes : 0;
  int rc = system_random(coins, n);
  if (rc == HQC_OK) {
    rc = hqc_kem_encaps_derand(alg, ct, ct_len, ss, ss_len, pk, pk_len, coins, n);
  } else {
    zero(ct, ct_len);
    zero(ss, ss_len);
  }
  ct::wipe(coins, sizeof(coins));
  return rc;
}

int hqc_kem_decaps(const char* alg, std::uint8_t* ss, std::size_t ss_len, const std::uint8_t* ct, std::size_t ct_len,
                   const std::uint8_t* sk, std::size_t sk_len) {
  auto fail = [&](int rc) {
    zero(ss, ss_len);
    return rc;
  };
  const hqc_kem_info* info = hqc_kem_info_by_name(alg);
  if (info == nullptr) return fail(HQC_ERR_UNKNOWN_ALGORITHM);
  if (ss == nullptr || ct == nullptr || sk == nullptr) return fail(HQC_ERR_NULL_POINTER);
  if (ss_len != HQC_SHARED_SECRET_BYTES || ct_len != info->ciphertext_bytes || sk_len != info->secret_key_bytes)
    return fail(HQC_ERR_LENGTH);
  int rc = with_backend([&](const backend::Backend& be) {
    int r = HQC_OK;
    with_params(info->level, [&]<class P>() {
      auto key = std::unique_ptr<kem::SecretKey<P>>(new (std::nothrow) kem::SecretKey<P>);
      if (!key) {
        r = HQC_ERR_INTERNAL;
        return;
      }
      if (kem::parse_secret_key<P>(be, *key, sk) != kem::Status::kOk) {
        r = HQC_ERR_MALFORMED_KEY;
        return;
      }
      kem::decaps<P>(be, *key, ss, ct);
    });
    return r;
  });
  return rc == HQC_OK ? rc : fail(rc);
}

#define HQC_DEFINE_LEVEL(L)                                                                                        \
  int hqc##L##_keypair(std::uint8_t* pk, std::uint8_t* sk) {                                                       \
    return hqc_kem_keypair("HQC-" #L, pk, HQC##L##_PUBLIC_KEY_BYTES, sk, HQC##L##_SECRET_KEY_BYTES);               \
  }                                                                                                                \
  int hqc##L##_keypair_derand(std::uint8_t* pk, std::uint8_t* sk, const std::uint8_t* seed_kem) {                  \
    return hqc_kem_keypair_derand("HQC-" #L, pk, HQC##L##_PUBLIC_KEY_BYTES, sk, HQC##L##_SECRET_KEY_BYTES,         \
                                  seed_kem, HQC_KEYPAIR_COINS_BYTES);                                              \
  }                                                                                                                \
  int hqc##L##_encaps(std::uint8_t* ct, std::uint8_t* ss, const std::uint8_t* pk) {                                \
    return hqc_kem_encaps("HQC-" #L, ct, HQC##L##_CIPHERTEXT_BYTES, ss, HQC_SHARED_SECRET_BYTES, pk,               \
                          HQC##L##_PUBLIC_KEY_BYTES);                                                              \
  }                                                                                                                \
  int hqc##L##_encaps_derand(std::uint8_t* ct, std::uint8_t* ss, const std::uint8_t* pk, const std::uint8_t* coins) { \
    return hqc_kem_encaps_derand("HQC-" #L, ct, HQC##L##_CIPHERTEXT_BYTES, ss, HQC_SHARED_SECRET_BYTES, pk,        \
                                 HQC##L##_PUBLIC_KEY_BYTES, coins, HQC##L##_ENCAPS_COINS_BYTES);                   \
  }                                                                                                                \
  int hqc##L##_decaps(std::uint8_t* ss, const std::uint8_t* ct, const std::uint8_t* sk) {                          \
    return hqc_kem_decaps("HQC-" #L, ss, HQC_SHARED_SECRET_BYTES, ct, HQC##L##_CIPHERTEXT_BYTES, sk,               \
                          HQC##L##_SECRET_KEY_BYTES);                                                              \
  }
HQC_DEFINE_LEVEL(1)
HQC_DEFINE_LEVEL(3)
HQC_DEFINE_LEVEL(5)

}  // extern "C"
