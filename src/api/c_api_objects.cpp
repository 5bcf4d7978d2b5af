// The C API's key objects in caller-provided storage (include/hqc/hqc.h, hqcL_*_key_object): the
// kem::PublicKey / kem::SecretKey of the heap objects, constructed in place in the caller's
// memory, behind a tag that says whether the object holds a key. Freestanding: no heap, no OS
// call (a device build's way to keep a key and its derived values in static RAM). Same
// conventions as c_api.cpp: arguments checked first, outputs zeroed on every error, secrets wiped.
#include <new>

#include "api/random.hpp"
#include "backend/active.hpp"
#include "common/mem.hpp"
#include "hqc/hqc.h"
#include "kem/kem.hpp"

namespace {

using namespace hqc;

void zero(void* p, std::size_t n) {
  if (p != nullptr) ct::wipe(p, n);
}

// The tag of an object that holds a parsed or generated key of level L ('H' 'Q' 'C' L, and the
// kind): anything else (zero-initialised, failed, wiped) holds none.
template <class P>
constexpr std::uint32_t kPublicTag = 0x48514300u | static_cast<std::uint32_t>(P::kLevel);
template <class P>
constexpr std::uint32_t kSecretTag = 0x48514380u | static_cast<std::uint32_t>(P::kLevel);

template <class P>
struct PublicObject {
  std::uint32_t tag;
  kem::PublicKey<P> key;
};
template <class P>
struct SecretObject {
  std::uint32_t tag;
  kem::SecretKey<P> key;  // wipes itself (and its kept transforms) in wipe()
};

// The C storage types of level P, and their sizes checked against the objects they hold.
template <class P>
struct Storage;
#define HQC_STORAGE(L)                                                                                               \
  template <>                                                                                                        \
  struct Storage<Hqc##L> {                                                                                           \
    using Public = hqc##L##_public_key_object;                                                                       \
    using Secret = hqc##L##_secret_key_object;                                                                       \
    static constexpr std::size_t kPublicTransformsBytes = HQC##L##_PUBLIC_KEY_TRANSFORMS_BYTES;                      \
    static constexpr std::size_t kSecretTransformsBytes = HQC##L##_SECRET_KEY_TRANSFORMS_BYTES;                      \
  };                                                                                                                 \
  static_assert(sizeof(PublicObject<Hqc##L>) <= sizeof(hqc##L##_public_key_object));                                 \
  static_assert(sizeof(SecretObject<Hqc##L>) <= sizeof(hqc##L##_secret_key_object));                                 \
  static_assert(alignof(hqc##L##_public_key_object) >= alignof(PublicObject<Hqc##L>));                               \
  static_assert(alignof(hqc##L##_secret_key_object) >= alignof(SecretObject<Hqc##L>));                               \
  static_assert(HQC##L##_PUBLIC_KEY_TRANSFORMS_BYTES == kem::kPublicKeyTransforms * sizeof(pke::Transform<Hqc##L>)); \
  static_assert(HQC##L##_SECRET_KEY_TRANSFORMS_BYTES == kem::kSecretKeyTransforms * sizeof(pke::Transform<Hqc##L>));
HQC_STORAGE(1)
HQC_STORAGE(3)
HQC_STORAGE(5)
#undef HQC_STORAGE

template <class P>
PublicObject<P>* as_public(typename Storage<P>::Public* s) {
  return std::launder(static_cast<PublicObject<P>*>(static_cast<void*>(s->opaque_)));
}
template <class P>
const PublicObject<P>* as_public(const typename Storage<P>::Public* s) {
  return std::launder(static_cast<const PublicObject<P>*>(static_cast<const void*>(s->opaque_)));
}
template <class P>
SecretObject<P>* as_secret(typename Storage<P>::Secret* s) {
  return std::launder(static_cast<SecretObject<P>*>(static_cast<void*>(s->opaque_)));
}
template <class P>
const SecretObject<P>* as_secret(const typename Storage<P>::Secret* s) {
  return std::launder(static_cast<const SecretObject<P>*>(static_cast<const void*>(s->opaque_)));
}

// Wipes a secret object that holds a key (its transforms too), then the whole storage.
template <class P>
void wipe_secret(typename Storage<P>::Secret* s) {
  if (as_secret<P>(s)->tag == kSecretTag<P>) as_secret<P>(s)->key.~SecretKey();
  ct::wipe(s, sizeof(*s));
}

template <class P>
int public_parse(typename Storage<P>::Public* s, const std::uint8_t* pk) {
  if (s == nullptr) return HQC_ERR_NULL_POINTER;
  ct::wipe(s, sizeof(*s));  // public content: no transforms to release first (they are the caller's)
  const backend::Backend* be = backend::active();
  if (pk == nullptr) return HQC_ERR_NULL_POINTER;
  if (be == nullptr) return HQC_ERR_BACKEND;
  auto* o = new (s->opaque_) PublicObject<P>{};
  if (kem::parse_public_key<P>(*be, o->key, pk) != kem::Status::kOk) {
    ct::wipe(s, sizeof(*s));
    return HQC_ERR_MALFORMED_KEY;
  }
  o->tag = kPublicTag<P>;
  return HQC_OK;
}

// Keeps transforms in the caller's buffer where the active backend's multiplier has them.
template <class P, class Key, class Prepare>
int prepare(Key* key, void* transforms, std::size_t len, std::size_t need, int* prepared, Prepare&& fn) {
  const backend::Backend* be = backend::active();
  if (be == nullptr) return HQC_ERR_BACKEND;
  if (!pke::KeptTransforms<P>::capable(be->kernels<P>())) return HQC_OK;  // nothing to keep: buffer untouched
  if (transforms == nullptr) return HQC_ERR_NULL_POINTER;
  if (len < need || reinterpret_cast<std::uintptr_t>(transforms) % alignof(pke::Transform<P>) != 0)
    return HQC_ERR_LENGTH;
  const bool kept = fn(*be, *key, static_cast<pke::Transform<P>*>(transforms));
  if (prepared != nullptr) *prepared = kept ? 1 : 0;
  return HQC_OK;
}

template <class P>
int public_prepare(typename Storage<P>::Public* s, void* transforms, std::size_t len, int* prepared) {
  if (prepared != nullptr) *prepared = 0;
  if (s == nullptr) return HQC_ERR_NULL_POINTER;
  PublicObject<P>* o = as_public<P>(s);
  if (o->tag != kPublicTag<P>) return HQC_ERR_MALFORMED_KEY;
  return prepare<P>(&o->key, transforms, len, Storage<P>::kPublicTransformsBytes, prepared,
                    [](const backend::Backend& be, kem::PublicKey<P>& k, pke::Transform<P>* t) {
                      return kem::prepare_public_key<P>(be, k, t);
                    });
}

template <class P>
int public_encaps_derand(const typename Storage<P>::Public* s, std::uint8_t* ct, std::uint8_t* ss,
                         const std::uint8_t* coins) {
  const backend::Backend* be = backend::active();
  int rc = HQC_OK;
  if (s == nullptr || ct == nullptr || ss == nullptr || coins == nullptr) rc = HQC_ERR_NULL_POINTER;
  else if (as_public<P>(s)->tag != kPublicTag<P>) rc = HQC_ERR_MALFORMED_KEY;
  else if (be == nullptr) rc = HQC_ERR_BACKEND;
  if (rc != HQC_OK) {
    zero(ct, P::kCiphertextBytes);
    zero(ss, HQC_SHARED_SECRET_BYTES);
    return rc;
  }
  kem::encaps<P>(*be, as_public<P>(s)->key, ct, ss, coins, coins + P::kK);
  return HQC_OK;
}

template <class P>
int public_encaps(const typename Storage<P>::Public* s, std::uint8_t* ct, std::uint8_t* ss) {
  if (s == nullptr || ct == nullptr || ss == nullptr || as_public<P>(s)->tag != kPublicTag<P>)
    return public_encaps_derand<P>(s, ct, ss, nullptr);  // the argument errors, without drawing randomness
  return api::with_random_bytes<P::kEncapsCoinsBytes>(
      P::kEncapsCoinsBytes, [&](const std::uint8_t* coins) { return public_encaps_derand<P>(s, ct, ss, coins); },
      [&] {
        zero(ct, P::kCiphertextBytes);
        zero(ss, HQC_SHARED_SECRET_BYTES);
      });
}

template <class P>
int secret_generate(typename Storage<P>::Secret* s, const std::uint8_t* seed_kem) {
  if (s == nullptr) return HQC_ERR_NULL_POINTER;
  wipe_secret<P>(s);
  const backend::Backend* be = backend::active();
  if (be == nullptr) return HQC_ERR_BACKEND;
  std::uint8_t seed[HQC_KEYPAIR_COINS_BYTES];
  if (seed_kem != nullptr) mem::copy(seed, seed_kem, sizeof(seed));
  else if (const int rc = api::random_bytes(seed, sizeof(seed)); rc != HQC_OK) return rc;  // no key without randomness
  auto* o = new (s->opaque_) SecretObject<P>{};
  kem::keypair<P>(*be, o->key, seed);
  ct::wipe(seed, sizeof(seed));
  o->tag = kSecretTag<P>;
  return HQC_OK;
}

template <class P>
int secret_parse(typename Storage<P>::Secret* s, const std::uint8_t* sk) {
  if (s == nullptr) return HQC_ERR_NULL_POINTER;
  wipe_secret<P>(s);
  const backend::Backend* be = backend::active();
  if (sk == nullptr) return HQC_ERR_NULL_POINTER;
  if (be == nullptr) return HQC_ERR_BACKEND;
  auto* o = new (s->opaque_) SecretObject<P>{};
  if (kem::parse_secret_key<P>(*be, o->key, sk) != kem::Status::kOk) {
    wipe_secret<P>(s);
    return HQC_ERR_MALFORMED_KEY;
  }
  o->tag = kSecretTag<P>;
  return HQC_OK;
}

template <class P>
int secret_prepare(typename Storage<P>::Secret* s, void* transforms, std::size_t len, int* prepared) {
  if (prepared != nullptr) *prepared = 0;
  if (s == nullptr) return HQC_ERR_NULL_POINTER;
  SecretObject<P>* o = as_secret<P>(s);
  if (o->tag != kSecretTag<P>) return HQC_ERR_MALFORMED_KEY;
  return prepare<P>(&o->key, transforms, len, Storage<P>::kSecretTransformsBytes, prepared,
                    [](const backend::Backend& be, kem::SecretKey<P>& k, pke::Transform<P>* t) {
                      return kem::prepare_secret_key<P>(be, k, t);
                    });
}

template <class P>
int secret_decaps(const typename Storage<P>::Secret* s, std::uint8_t* ss, const std::uint8_t* ct) {
  const backend::Backend* be = backend::active();
  int rc = HQC_OK;
  if (s == nullptr || ss == nullptr || ct == nullptr) rc = HQC_ERR_NULL_POINTER;
  else if (as_secret<P>(s)->tag != kSecretTag<P>) rc = HQC_ERR_MALFORMED_KEY;
  else if (be == nullptr) rc = HQC_ERR_BACKEND;
  if (rc != HQC_OK) {
    zero(ss, HQC_SHARED_SECRET_BYTES);
    return rc;
  }
  kem::decaps<P>(*be, as_secret<P>(s)->key, ss, ct);
  return HQC_OK;
}

template <class P>
int secret_public(const typename Storage<P>::Secret* s, std::uint8_t* pk) {
  if (s == nullptr || pk == nullptr || as_secret<P>(s)->tag != kSecretTag<P>) {
    zero(pk, P::kPublicKeyBytes);
    return s == nullptr || pk == nullptr ? HQC_ERR_NULL_POINTER : HQC_ERR_MALFORMED_KEY;
  }
  mem::copy(pk, as_secret<P>(s)->key.pub.pk, P::kPublicKeyBytes);
  return HQC_OK;
}

template <class P>
int secret_bytes(const typename Storage<P>::Secret* s, std::uint8_t* sk) {
  if (s == nullptr || sk == nullptr || as_secret<P>(s)->tag != kSecretTag<P>) {
    zero(sk, P::kSecretKeyBytes);
    return s == nullptr || sk == nullptr ? HQC_ERR_NULL_POINTER : HQC_ERR_MALFORMED_KEY;
  }
  as_secret<P>(s)->key.serialize(sk);
  return HQC_OK;
}

}  // namespace

extern "C" {

#define HQC_DEFINE_LEVEL_OBJECTS(L)                                                                                  \
  int hqc##L##_public_key_object_parse(hqc##L##_public_key_object* obj, const std::uint8_t* pk) {                    \
    return public_parse<Hqc##L>(obj, pk);                                                                            \
  }                                                                                                                  \
  int hqc##L##_public_key_object_prepare(hqc##L##_public_key_object* obj, void* transforms, std::size_t len,         \
                                         int* prepared) {                                                            \
    return public_prepare<Hqc##L>(obj, transforms, len, prepared);                                                   \
  }                                                                                                                  \
  int hqc##L##_public_key_object_encaps(const hqc##L##_public_key_object* obj, std::uint8_t* ct, std::uint8_t* ss) { \
    return public_encaps<Hqc##L>(obj, ct, ss);                                                                       \
  }                                                                                                                  \
  int hqc##L##_public_key_object_encaps_derand(const hqc##L##_public_key_object* obj, std::uint8_t* ct,              \
                                               std::uint8_t* ss, const std::uint8_t* coins) {                        \
    return public_encaps_derand<Hqc##L>(obj, ct, ss, coins);                                                         \
  }                                                                                                                  \
  int hqc##L##_secret_key_object_generate(hqc##L##_secret_key_object* obj, const std::uint8_t* seed_kem) {           \
    return secret_generate<Hqc##L>(obj, seed_kem);                                                                   \
  }                                                                                                                  \
  int hqc##L##_secret_key_object_parse(hqc##L##_secret_key_object* obj, const std::uint8_t* sk) {                    \
    return secret_parse<Hqc##L>(obj, sk);                                                                            \
  }                                                                                                                  \
  int hqc##L##_secret_key_object_prepare(hqc##L##_secret_key_object* obj, void* transforms, std::size_t len,         \
                                         int* prepared) {                                                            \
    return secret_prepare<Hqc##L>(obj, transforms, len, prepared);                                                   \
  }                                                                                                                  \
  int hqc##L##_secret_key_object_decaps(const hqc##L##_secret_key_object* obj, std::uint8_t* ss,                     \
                                        const std::uint8_t* ct) {                                                    \
    return secret_decaps<Hqc##L>(obj, ss, ct);                                                                       \
  }                                                                                                                  \
  int hqc##L##_secret_key_object_public(const hqc##L##_secret_key_object* obj, std::uint8_t* pk) {                   \
    return secret_public<Hqc##L>(obj, pk);                                                                           \
  }                                                                                                                  \
  int hqc##L##_secret_key_object_bytes(const hqc##L##_secret_key_object* obj, std::uint8_t* sk) {                    \
    return secret_bytes<Hqc##L>(obj, sk);                                                                            \
  }                                                                                                                  \
  void hqc##L##_secret_key_object_wipe(hqc##L##_secret_key_object* obj) {                                            \
    if (obj != nullptr) wipe_secret<Hqc##L>(obj);                                                                    \
  }
// A single-level device build (HQC_ONLY_LEVEL) defines only its level's objects (c_api.cpp).
#if HQC_ONLY_LEVEL == 0 || HQC_ONLY_LEVEL == 1
HQC_DEFINE_LEVEL_OBJECTS(1)
#endif
#if HQC_ONLY_LEVEL == 0 || HQC_ONLY_LEVEL == 3
HQC_DEFINE_LEVEL_OBJECTS(3)
#endif
#if HQC_ONLY_LEVEL == 0 || HQC_ONLY_LEVEL == 5
HQC_DEFINE_LEVEL_OBJECTS(5)
#endif
#undef HQC_DEFINE_LEVEL_OBJECTS

}  // extern "C"
