// SPDX-License-Identifier: MIT
// Key validation for `openssl pkey -check` / EVP_PKEY_check (the KEYMGMT validate entry): a
// secret key is recomputed from its seeds and compared with what it embeds. Uses the library's
// internal PKE pieces (hqc_internal), so that the public key can be rebuilt from seed_dk alone.
#include <openssl/crypto.h>

#include <cstdint>
#include <cstring>

#include "backend/registry.hpp"
#include "hqc/hqc.h"
#include "params/params.hpp"
#include "pke/pke.hpp"
#include "provider.hpp"
#include "sampling/sampling.hpp"
#include "sym/oracles.hpp"

namespace hqckit::provider {
namespace {

// s' = x + h*y with h = SampleDense(XOF(seed_ek)) and y, x the first two key-generation draws of
// XOF(seed_dk) (spec §6.1, the same order as pke::keygen), compared in constant time with the s
// the key embeds. seed_ek is the first 32 bytes of the embedded public key (spec §7.1).
template <class P>
bool public_key_matches_seed_dk(const hqc::backend::Backend& be, const unsigned char* sk) {
  namespace pke = hqc::pke;
  const auto& k = be.kernels<P>();
  const unsigned char* pk = sk;
  const unsigned char* seed_dk = sk + P::kPublicKeyBytes;
  pke::RingVec<P> h;  // public: expanded from the public seed_ek
  pke::expand_h<P>(be, h, pk);
  hqc::ct::Wiped<pke::RingVec<P>> x, y, s;
  {
    hqc::sym::Xof xof(be.keccak_f1600, seed_dk);
    hqc::ct::Wiped<std::uint32_t[P::kW]> pos;
    hqc::sampling::sample_keygen_positions<P>(*pos, xof, k.keygen_accept);  // y first
    k.support_to_vector(y->w, *pos, P::kW);
    hqc::sampling::sample_keygen_positions<P>(*pos, xof, k.keygen_accept);  // then x
    k.support_to_vector(x->w, *pos, P::kW);
  }
  k.mul(s->w, h.w, y->w);
  for (std::size_t i = 0; i < P::kNWords; i++) s->w[i] ^= x->w[i];
  return CRYPTO_memcmp(s->bytes(), pk + 32, P::kVecNBytes) == 0;
}

}  // namespace

SecretKeyCheck check_secret_key(const Group& g, const unsigned char* sk) {
  const hqc::backend::Backend* be = hqc::backend::active();
  const hqc_kem_info* info = hqc_kem_info_by_name(g.hqc_alg);
  if (be == nullptr || info == nullptr) return SecretKeyCheck::kError;
  // 1. The embedded public key must be the one seed_dk (with the embedded seed_ek) yields.
  bool pk_ok = false;
  hqc::with_params(info->level, [&]<class P>() { pk_ok = public_key_matches_seed_dk<P>(*be, sk); });
  if (!pk_ok) return SecretKeyCheck::kPublicKeyMismatch;
  // 2. The whole key must be what key generation makes from the embedded seed_kem (spec §7.1):
  //    this also covers seed_ek, seed_dk and sigma.
  const std::size_t seed_kem_off = g.hqc_sk_bytes - HQC_KEYPAIR_COINS_BYTES;
  hqc_secret_key* regen = nullptr;
  if (hqc_secret_key_generate(g.hqc_alg, sk + seed_kem_off, HQC_KEYPAIR_COINS_BYTES, &regen) != HQC_OK)
    return SecretKeyCheck::kError;
  auto* buf = static_cast<unsigned char*>(OPENSSL_secure_malloc(g.hqc_sk_bytes));
  SecretKeyCheck rc = SecretKeyCheck::kError;
  if (buf != nullptr && hqc_secret_key_bytes(regen, buf, g.hqc_sk_bytes) == HQC_OK)
    rc = CRYPTO_memcmp(buf, sk, g.hqc_sk_bytes) == 0 ? SecretKeyCheck::kOk : SecretKeyCheck::kSeedMismatch;
  OPENSSL_secure_clear_free(buf, g.hqc_sk_bytes);
  hqc_secret_key_free(regen);
  return rc;
}

bool public_s_is_zero(const Group& g, const unsigned char* hqc_pub) {
  // The public key is public: a branch on it is fine. pk = seed_ek (32 bytes) || s (spec §7.1).
  unsigned char acc = 0;
  for (std::size_t i = 32; i < g.hqc_pk_bytes; ++i) acc |= hqc_pub[i];
  return acc == 0;
}

}  // namespace hqckit::provider
