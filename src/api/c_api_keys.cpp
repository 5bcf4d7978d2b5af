// Hosted edge of the C API (include/hqc/hqc.h): key objects on the heap, and the backend
// selection's error text. Same conventions as c_api.cpp: lengths first, outputs zeroed on every
// error, nothing thrown, secrets wiped (the SecretKey destructor wipes a key object).
#include <memory>
#include <new>
#include <variant>

#include "api/random.hpp"
#include "backend/registry.hpp"
#include "common/mem.hpp"
#include "hqc/hqc.h"
#include "kem/kem.hpp"

namespace {

using namespace hqc;

void zero(void* p, std::size_t n) {
  if (p != nullptr) ct::wipe(p, n);
}

// Runs f with the selected backend, or reports a backend error.
template <class F>
int with_backend(F&& f) {
  const backend::Backend* be = backend::active();
  if (be == nullptr) return HQC_ERR_BACKEND;
  return f(*be);
}

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

// Key generation into a new heap key object, prepared as it is generated if `prepared` is not
// NULL (kem::keypair_prepared; *prepared then says whether transforms were kept).
int generate_secret_key(const char* alg, const std::uint8_t* coins, std::size_t coins_len, hqc_secret_key** out,
                        int* prepared) {
  if (prepared != nullptr) *prepared = 0;
  if (out == nullptr) return HQC_ERR_NULL_POINTER;
  *out = nullptr;
  const hqc_kem_info* info = hqc_kem_info_by_name(alg);
  if (info == nullptr) return HQC_ERR_UNKNOWN_ALGORITHM;
  std::uint8_t seed[HQC_KEYPAIR_COINS_BYTES];
  if (coins != nullptr) {
    if (coins_len != HQC_KEYPAIR_COINS_BYTES) return HQC_ERR_LENGTH;
    mem::copy(seed, coins, sizeof(seed));
  } else if (int rc = api::random_bytes(seed, sizeof(seed)); rc != HQC_OK) {
    return rc;  // no key object without randomness
  }
  const int rc = make_key_object<hqc_secret_key, kem::SecretKey>(
      info, out, [&]<class P>(const backend::Backend& be, kem::SecretKey<P>& key) {
        if (prepared == nullptr) {
          kem::keypair<P>(be, key, seed);
        } else if (kem::keypair_prepared<P>(be, key, seed, pke::heap_transform_store<P>())) {
          *prepared = 1;
        }
        return kem::Status::kOk;
      });
  ct::wipe(seed, sizeof(seed));
  if (rc != HQC_OK && prepared != nullptr) *prepared = 0;
  return rc;
}

}  // namespace

extern "C" {

const char* hqc_backend_error(void) { return backend::active_error().c_str(); }

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
  const int rc = with_backend([&](const backend::Backend& be) {
    return visit_level(key, [&]<class P>() {
      kem::encaps<P>(be, *get_key<P>(key->key), ct, ss, coins, coins + P::kK);
      return HQC_OK;
    });
  });
  return rc == HQC_OK ? rc : fail(rc);
}

int hqc_public_key_encaps(const hqc_public_key* key, std::uint8_t* ct, std::size_t ct_len, std::uint8_t* ss,
                          std::size_t ss_len) {
  if (key == nullptr || ct == nullptr || ss == nullptr)  // the argument errors, without drawing randomness
    return hqc_public_key_encaps_derand(key, ct, ct_len, ss, ss_len, nullptr, 0);
  const std::size_t n = key->info->encaps_coins_bytes;
  return api::with_random_bytes<HQC_MAX_ENCAPS_COINS_BYTES>(
      n, [&](const std::uint8_t* coins) { return hqc_public_key_encaps_derand(key, ct, ct_len, ss, ss_len, coins, n); },
      [&] {
        zero(ct, ct_len);
        zero(ss, ss_len);
      });
}

int hqc_secret_key_generate(const char* alg, const std::uint8_t* coins, std::size_t coins_len, hqc_secret_key** out) {
  return generate_secret_key(alg, coins, coins_len, out, nullptr);
}

int hqc_secret_key_generate_prepared(const char* alg, const std::uint8_t* coins, std::size_t coins_len,
                                     hqc_secret_key** out, int* prepared) {
  int ignored = 0;
  return generate_secret_key(alg, coins, coins_len, out, prepared != nullptr ? prepared : &ignored);
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
  const int rc = with_backend([&](const backend::Backend& be) {
    return visit_level(key, [&]<class P>() {
      kem::decaps<P>(be, *get_key<P>(key->key), ss, ct);
      return HQC_OK;
    });
  });
  if (rc != HQC_OK) zero(ss, ss_len);
  return rc;
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
    mem::copy(pk, get_key<P>(key->key)->pub.pk, P::kPublicKeyBytes);
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

}  // extern "C"
