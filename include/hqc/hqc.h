/* hqckit C API: the HQC key-encapsulation mechanism (HQC 2025-08-22, as in liboqs 0.16).
 *
 * Conventions (see docs/API-CONVENTIONS.md):
 *  - Every function returns HQC_OK (0) or a negative hqc_status; nothing is thrown.
 *  - On any error every output buffer is zeroed (as far as its given length), and no work is done
 *    on inputs of the wrong length.
 *  - Decapsulation never fails on a ciphertext of the right length: a malformed or tampered
 *    ciphertext yields the implicit-rejection key J(H(pk), sigma, ct), in constant time.
 *  - Encapsulation rejects a public key whose padding bits (beyond n) are set (HQC_ERR_MALFORMED_KEY).
 *  - Secret-dependent work is constant time; secret temporaries are wiped before returning.
 *  - Functions are thread-safe; the backend is chosen once, on first use, from the CPU features,
 *    HQC_BACKEND=<name> forces one and HQC_CPU_MASK=<feature,...> hides CPU features.
 *  - Randomness comes from one source: the function registered with hqc_set_randombytes, else the
 *    OS RNG (getrandom) on hosted builds. Without a working source, every call that needs
 *    randomness returns HQC_ERR_RANDOMNESS with its outputs zeroed and produces no key.
 *  - The stateless functions (by name and per level) use no heap; nor do the key objects in caller
 *    storage (hqcL_*_key_object); only the hqc_public_key / hqc_secret_key objects do.
 */
#ifndef HQC_HQC_H
#define HQC_HQC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif
/* A C header: typedef, not C++ `using` (clang-tidy). */
/* NOLINTBEGIN(modernize-use-using) */

#if defined(_WIN32)
#define HQC_API
#else
#define HQC_API __attribute__((visibility("default")))
#endif

/* Sizes in bytes (spec §1.2). */
#define HQC1_PUBLIC_KEY_BYTES 2241
#define HQC1_SECRET_KEY_BYTES 2321
#define HQC1_CIPHERTEXT_BYTES 4433
#define HQC1_MESSAGE_BYTES 16
#define HQC3_PUBLIC_KEY_BYTES 4514
#define HQC3_SECRET_KEY_BYTES 4602
#define HQC3_CIPHERTEXT_BYTES 8978
#define HQC3_MESSAGE_BYTES 24
#define HQC5_PUBLIC_KEY_BYTES 7237
#define HQC5_SECRET_KEY_BYTES 7333
#define HQC5_CIPHERTEXT_BYTES 14421
#define HQC5_MESSAGE_BYTES 32
#define HQC_SHARED_SECRET_BYTES 32
#define HQC_SALT_BYTES 16
/* Randomness of the deterministic variants: keypair takes seed_kem (32 bytes); encaps takes
 * m || salt (message bytes + 16). */
#define HQC_KEYPAIR_COINS_BYTES 32
#define HQC1_ENCAPS_COINS_BYTES (HQC1_MESSAGE_BYTES + HQC_SALT_BYTES)
#define HQC3_ENCAPS_COINS_BYTES (HQC3_MESSAGE_BYTES + HQC_SALT_BYTES)
#define HQC5_ENCAPS_COINS_BYTES (HQC5_MESSAGE_BYTES + HQC_SALT_BYTES)
#define HQC_MAX_ENCAPS_COINS_BYTES HQC5_ENCAPS_COINS_BYTES

typedef enum hqc_status {
  HQC_OK = 0,
  HQC_ERR_NULL_POINTER = -1,      /* a required pointer is NULL */
  HQC_ERR_LENGTH = -2,            /* a buffer has the wrong length */
  HQC_ERR_MALFORMED_KEY = -3,     /* public key with padding bits set (spec §13) */
  HQC_ERR_UNKNOWN_ALGORITHM = -4, /* name is not "HQC-1", "HQC-3" or "HQC-5" */
  HQC_ERR_RANDOMNESS = -5,        /* the random source failed, or none is registered */
  HQC_ERR_BACKEND = -6,           /* HQC_BACKEND / HQC_CPU_MASK invalid or unsupported */
  HQC_ERR_INTERNAL = -7
} hqc_status;

/* A static description of one parameter set. */
typedef struct hqc_kem_info {
  const char *name; /* "HQC-1" */
  int level;        /* 1, 3, 5 */
  size_t public_key_bytes;
  size_t secret_key_bytes;
  size_t ciphertext_bytes;
  size_t shared_secret_bytes;
  size_t keypair_coins_bytes;
  size_t encaps_coins_bytes;
  int claimed_nist_level;
} hqc_kem_info;

/* Library information. */
HQC_API const char *hqc_version(void);       /* "0.1.0" */
HQC_API const char *hqc_revision(void);      /* the HQC specification revision implemented */
HQC_API const char *hqc_backend_name(void);  /* selected backend, or NULL if selection failed */
HQC_API const char *hqc_backend_error(void); /* why selection failed, "" otherwise */
HQC_API const char *hqc_status_string(int status);

/* The randomness hook. fn(ctx, out, len) must fill out[0..len) with len bytes from a
 * cryptographically secure source (a TRNG or a DRBG seeded from one) and return 0; any other
 * return value means failure, and the calling operation then returns HQC_ERR_RANDOMNESS with its
 * outputs zeroed (the library also wipes out[0..len)). len is at most 48. fn is called with the
 * ctx given here, from the thread that called the operation, and must be thread-safe if the
 * library is used from several threads. Register once, before any concurrent use (the
 * registration itself is not synchronised). hqc_set_randombytes(NULL, NULL) restores the
 * default: the OS RNG on hosted builds, none on a freestanding (device) build, where
 * HQC_ERR_RANDOMNESS is returned until a function is registered. The *_derand functions never
 * call it. */
typedef int (*hqc_randombytes_fn)(void *ctx, uint8_t *out, size_t len);
HQC_API void hqc_set_randombytes(hqc_randombytes_fn fn, void *ctx);

/* By name: "HQC-1", "HQC-3", "HQC-5" (also accepted: "hqc1", "hqc-1", "1"). NULL if unknown. */
HQC_API const hqc_kem_info *hqc_kem_info_by_name(const char *name);
HQC_API const hqc_kem_info *hqc_kem_info_by_level(int level);

HQC_API int hqc_kem_keypair(const char *alg, uint8_t *pk, size_t pk_len, uint8_t *sk, size_t sk_len);
HQC_API int hqc_kem_keypair_derand(const char *alg, uint8_t *pk, size_t pk_len, uint8_t *sk, size_t sk_len,
                                   const uint8_t *coins, size_t coins_len);
HQC_API int hqc_kem_encaps(const char *alg, uint8_t *ct, size_t ct_len, uint8_t *ss, size_t ss_len, const uint8_t *pk,
                           size_t pk_len);
HQC_API int hqc_kem_encaps_derand(const char *alg, uint8_t *ct, size_t ct_len, uint8_t *ss, size_t ss_len,
                                  const uint8_t *pk, size_t pk_len, const uint8_t *coins, size_t coins_len);
HQC_API int hqc_kem_decaps(const char *alg, uint8_t *ss, size_t ss_len, const uint8_t *ct, size_t ct_len,
                           const uint8_t *sk, size_t sk_len);
/* Checks a public key (length and padding bits) without encapsulating. */
HQC_API int hqc_kem_check_public_key(const char *alg, const uint8_t *pk, size_t pk_len);

/* Per level, fixed sizes (buffers must have the sizes of the macros above). */
#define HQC_DECLARE_LEVEL(L)                                                                             \
  HQC_API int hqc##L##_keypair(uint8_t *pk, uint8_t *sk);                                                \
  HQC_API int hqc##L##_keypair_derand(uint8_t *pk, uint8_t *sk, const uint8_t *seed_kem);                \
  HQC_API int hqc##L##_encaps(uint8_t *ct, uint8_t *ss, const uint8_t *pk);                              \
  HQC_API int hqc##L##_encaps_derand(uint8_t *ct, uint8_t *ss, const uint8_t *pk, const uint8_t *coins); \
  HQC_API int hqc##L##_decaps(uint8_t *ss, const uint8_t *ct, const uint8_t *sk);
HQC_DECLARE_LEVEL(1)
HQC_DECLARE_LEVEL(3)
HQC_DECLARE_LEVEL(5)
#undef HQC_DECLARE_LEVEL

/* Key objects that keep derived values (H(pk), the expanded h and s, the secret vector y), so
 * that repeated operations with one key skip that work. The serialized formats do not change. */
typedef struct hqc_public_key hqc_public_key;
typedef struct hqc_secret_key hqc_secret_key;

/* Parses and validates pk; *out is NULL on error. */
HQC_API int hqc_public_key_new(const char *alg, const uint8_t *pk, size_t pk_len, hqc_public_key **out);
HQC_API void hqc_public_key_free(hqc_public_key *key);
HQC_API int hqc_public_key_encaps(const hqc_public_key *key, uint8_t *ct, size_t ct_len, uint8_t *ss, size_t ss_len);
HQC_API int hqc_public_key_encaps_derand(const hqc_public_key *key, uint8_t *ct, size_t ct_len, uint8_t *ss,
                                         size_t ss_len, const uint8_t *coins, size_t coins_len);
HQC_API const hqc_kem_info *hqc_public_key_info(const hqc_public_key *key);

/* Generates a key pair and keeps the expanded secret key: from coins (seed_kem, coins_len = 32)
 * if coins is not NULL, else from the randomness hook. hqc_secret_key_public gives its pk. */
HQC_API int hqc_secret_key_generate(const char *alg, const uint8_t *coins, size_t coins_len, hqc_secret_key **out);
/* Parses a serialized secret key. */
HQC_API int hqc_secret_key_new(const char *alg, const uint8_t *sk, size_t sk_len, hqc_secret_key **out);
HQC_API void hqc_secret_key_free(hqc_secret_key *key); /* wipes it */
HQC_API int hqc_secret_key_decaps(const hqc_secret_key *key, uint8_t *ss, size_t ss_len, const uint8_t *ct,
                                  size_t ct_len);
HQC_API int hqc_secret_key_public(const hqc_secret_key *key, uint8_t *pk, size_t pk_len);

/* Prepares a key object for many operations: it also keeps the transforms of h and s (and y)
 * where the selected backend's multiplier has them (today: the FAFFT of the avx512 backend at
 * HQC-5), so that every later encapsulation / decapsulation with it is cheaper. Costs two (three)
 * transforms once, so it does not pay for a key used once (a TLS key share; but see
 * hqc_secret_key_generate_prepared). *prepared (may be NULL) is set to 1 if transforms were kept,
 * 0 if this backend/level has none (still HQC_OK). Idempotent. Not thread-safe against
 * concurrent use of the same key: prepare before sharing. */
HQC_API int hqc_public_key_prepare(hqc_public_key *key, int *prepared);
HQC_API int hqc_secret_key_prepare(hqc_secret_key *key, int *prepared);
HQC_API int hqc_secret_key_bytes(const hqc_secret_key *key, uint8_t *sk, size_t sk_len);
HQC_API const hqc_kem_info *hqc_secret_key_info(const hqc_secret_key *key);
/* hqc_secret_key_generate, with the key prepared as it is generated where that is nearly free
 * (since HQC_0.3): where the backend's one-shot product is its transform product (the FAFFT of the
 * avx512 backend at HQC-5), the product h*y of key generation keeps the transforms of h and y it
 * computes anyway, and s's is added: one transform more than hqc_secret_key_generate instead of
 * three. This pays even for a key used once: a TLS client's key share then decapsulates its one
 * ciphertext transforming only u and r2. Elsewhere it is hqc_secret_key_generate and sets
 * *prepared = 0 (hqc_secret_key_prepare still prepares a key used many times there). The same
 * key, byte for byte; *prepared (may be NULL) is 1 if transforms were kept. */
HQC_API int hqc_secret_key_generate_prepared(const char *alg, const uint8_t *coins, size_t coins_len,
                                             hqc_secret_key **out, int *prepared);

/* Key objects in storage the caller provides (no heap: firmware keeps them in static RAM or on its
 * stack). Same content and behaviour as the heap objects above, per level, with sizes fixed at
 * compile time. An object must be zero-initialised (static storage is) or have been used with
 * these functions before; parse / generate may be called again on it (the old key is wiped
 * first). A failed parse or generate leaves an object that holds no key: every operation on it
 * returns HQC_ERR_MALFORMED_KEY with its outputs zeroed. Do not copy an object byte-wise (a
 * prepared one points into its transform buffer); parse the serialized key again instead.
 *  - *_object_parse: parses and validates a serialized key (padding bits, spec §13).
 *  - hqcL_secret_key_object_generate: a new key pair from seed_kem (32 bytes), or from the
 *    randomness hook if seed_kem is NULL; *_public / *_bytes give the serialized pk / sk.
 *  - *_object_prepare: keeps the multiplier's transforms of h and s (and y) in the caller's
 *    buffer `transforms` (64-byte aligned, at least HQCL_*_KEY_TRANSFORMS_BYTES; it must stay
 *    with the object until the object is wiped or parsed again). *prepared (may be NULL) is 1
 *    if transforms were kept, 0 if the backend's multiplier has none at this level (the buffer
 *    is then not touched; still HQC_OK). For a multiplier that has transforms, a NULL buffer is
 *    HQC_ERR_NULL_POINTER and a short or misaligned one HQC_ERR_LENGTH (nothing kept).
 *  - hqcL_secret_key_object_wipe: wipes the secret key and its transforms; the object then
 *    holds no key. */
#if defined(__cplusplus)
#define HQC_ALIGN64 alignas(64)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define HQC_ALIGN64 _Alignas(64)
#else
#define HQC_ALIGN64 __attribute__((aligned(64)))
#endif
#define HQC1_PUBLIC_KEY_OBJECT_BYTES 7040
#define HQC1_SECRET_KEY_OBJECT_BYTES 9472
#define HQC3_PUBLIC_KEY_OBJECT_BYTES 13952
#define HQC3_SECRET_KEY_OBJECT_BYTES 18688
#define HQC5_PUBLIC_KEY_OBJECT_BYTES 22016
#define HQC5_SECRET_KEY_OBJECT_BYTES 29440
/* Transform buffers of *_object_prepare: two transforms for a public key, three for a secret key
 * (spec §2.2: the multiplier's transform of h, s, y). The Cortex-M4 device library (built with
 * HQC_DEVICE_CORTEX_M4=1, which its CMake target passes on to firmware that links it) keeps
 * smaller transforms at HQC-1 and HQC-3 (half size with a Chinese remainder step). A buffer of
 * the hosted sizes is also accepted there; one of the device sizes given to a hosted library is
 * HQC_ERR_LENGTH. */
#if defined(HQC_DEVICE_CORTEX_M4) && HQC_DEVICE_CORTEX_M4
#define HQC1_PUBLIC_KEY_TRANSFORMS_BYTES 8960
#define HQC1_SECRET_KEY_TRANSFORMS_BYTES 13440
#define HQC3_PUBLIC_KEY_TRANSFORMS_BYTES 18048
#define HQC3_SECRET_KEY_TRANSFORMS_BYTES 27072
#else
#define HQC1_PUBLIC_KEY_TRANSFORMS_BYTES 16384
#define HQC1_SECRET_KEY_TRANSFORMS_BYTES 24576
#define HQC3_PUBLIC_KEY_TRANSFORMS_BYTES 32768
#define HQC3_SECRET_KEY_TRANSFORMS_BYTES 49152
#endif
#define HQC5_PUBLIC_KEY_TRANSFORMS_BYTES 32768
#define HQC5_SECRET_KEY_TRANSFORMS_BYTES 49152

#define HQC_DECLARE_LEVEL_OBJECTS(L)                                                                              \
  typedef struct hqc##L##_public_key_object {                                                                     \
    HQC_ALIGN64 uint64_t opaque_[HQC##L##_PUBLIC_KEY_OBJECT_BYTES / 8];                                           \
  } hqc##L##_public_key_object;                                                                                   \
  typedef struct hqc##L##_secret_key_object {                                                                     \
    HQC_ALIGN64 uint64_t opaque_[HQC##L##_SECRET_KEY_OBJECT_BYTES / 8];                                           \
  } hqc##L##_secret_key_object;                                                                                   \
  HQC_API int hqc##L##_public_key_object_parse(hqc##L##_public_key_object *obj, const uint8_t *pk);               \
  HQC_API int hqc##L##_public_key_object_prepare(hqc##L##_public_key_object *obj, void *transforms,               \
                                                 size_t transforms_len, int *prepared);                           \
  HQC_API int hqc##L##_public_key_object_encaps(const hqc##L##_public_key_object *obj, uint8_t *ct, uint8_t *ss); \
  HQC_API int hqc##L##_public_key_object_encaps_derand(const hqc##L##_public_key_object *obj, uint8_t *ct,        \
                                                       uint8_t *ss, const uint8_t *coins);                        \
  HQC_API int hqc##L##_secret_key_object_generate(hqc##L##_secret_key_object *obj, const uint8_t *seed_kem);      \
  HQC_API int hqc##L##_secret_key_object_parse(hqc##L##_secret_key_object *obj, const uint8_t *sk);               \
  HQC_API int hqc##L##_secret_key_object_prepare(hqc##L##_secret_key_object *obj, void *transforms,               \
                                                 size_t transforms_len, int *prepared);                           \
  HQC_API int hqc##L##_secret_key_object_decaps(const hqc##L##_secret_key_object *obj, uint8_t *ss,               \
                                                const uint8_t *ct);                                               \
  HQC_API int hqc##L##_secret_key_object_public(const hqc##L##_secret_key_object *obj, uint8_t *pk);              \
  HQC_API int hqc##L##_secret_key_object_bytes(const hqc##L##_secret_key_object *obj, uint8_t *sk);               \
  HQC_API void hqc##L##_secret_key_object_wipe(hqc##L##_secret_key_object *obj);
HQC_DECLARE_LEVEL_OBJECTS(1)
HQC_DECLARE_LEVEL_OBJECTS(3)
HQC_DECLARE_LEVEL_OBJECTS(5)
#undef HQC_DECLARE_LEVEL_OBJECTS

/* NOLINTEND(modernize-use-using) */
#ifdef __cplusplus
}
#endif

#endif /* HQC_HQC_H */
