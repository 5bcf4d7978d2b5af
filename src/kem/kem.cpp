#include "kem/kem.hpp"

#include "common/mem.hpp"
#include "sym/oracles.hpp"
#include "sym/sponge_lanes.hpp"

namespace hqc::kem {

template <class P>
void SecretKey<P>::serialize(std::uint8_t sk[P::kSecretKeyBytes]) const {
  mem::copy(sk, pub.pk, P::kPublicKeyBytes);
  mem::copy(sk + P::kPublicKeyBytes, seed_dk, 32);
  mem::copy(sk + P::kPublicKeyBytes + 32, sigma, P::kK);
  mem::copy(sk + P::kPublicKeyBytes + 32 + P::kK, seed_kem, 32);
}

template <class P>
Status parse_public_key(const backend::Backend& be, PublicKey<P>& out, const std::uint8_t pk[P::kPublicKeyBytes]) {
  // The public key is public: its validity may be decided with a branch.
  if (pke::load_ring_vec<P>(out.ek.s, pk + 32) != 0) return Status::kMalformedKey;
  mem::copy(out.pk, pk, P::kPublicKeyBytes);
  // H(pk) and the expansion of h are independent sponges: run them side by side.
  pke::hash_pk_and_expand_h<P>(be, out.hpk, out.ek.h, pk);
  out.ek.kept.release();
  return Status::kOk;
}

template <class P>
Status parse_secret_key(const backend::Backend& be, SecretKey<P>& out, const std::uint8_t sk[P::kSecretKeyBytes]) {
  // The embedded pk is public data (it is the first part of sk in the NIST format).
  ct::declassify(sk, P::kPublicKeyBytes);
  if (parse_public_key<P>(be, out.pub, sk) != Status::kOk) return Status::kMalformedKey;
  mem::copy(out.seed_dk, sk + P::kPublicKeyBytes, 32);
  mem::copy(out.sigma, sk + P::kPublicKeyBytes + 32, P::kK);
  mem::copy(out.seed_kem, sk + P::kPublicKeyBytes + 32 + P::kK, 32);
  pke::expand_y<P>(be, out.y, out.seed_dk);
  out.y_kept.release();
  return Status::kOk;
}

namespace {

// Key generation (spec §7.1) without H(pk): every field of `out` but pub.hpk. The stateless layer
// serializes pk and sk and never reads H(pk) (decapsulation from bytes hashes the embedded pk
// again while it parses, side by side with the expansion of h), so only a key object pays for it.
template <class P>
void keypair_without_hpk(const backend::Backend& be, SecretKey<P>& out, const std::uint8_t seed_kem[32]) {
  // seed_pke || sigma = first 32 + k bytes of XOF(seed_kem) (spec §7.1 step 2).
  ct::Wiped<std::uint8_t[32 + P::kK]> z;
  {
    sym::Xof xof(be, seed_kem);
    xof.squeeze(*z, 32 + P::kK);
  }
  mem::copy(out.seed_kem, seed_kem, 32);
  mem::copy(out.sigma, *z + 32, P::kK);
  // Keeps h's, s's and y's transforms if out's kept transforms have room (keypair_prepared).
  pke::keygen<P>(be, out.pub.pk, out.seed_dk, *z, out.pub.ek, out.y, out.y_kept);
}

}  // namespace

template <class P>
void keypair(const backend::Backend& be, SecretKey<P>& out, const std::uint8_t seed_kem[32]) {
  out.pub.ek.kept.release();
  out.y_kept.release();
  keypair_without_hpk<P>(be, out, seed_kem);
  // A key object is used next (encapsulation to it, decapsulation with it): H(pk) once, here.
  sym::oracle_h(be, out.pub.hpk, out.pub.pk, P::kPublicKeyBytes);
}

template <class P>
bool keypair_prepared(const backend::Backend& be, SecretKey<P>& out, const std::uint8_t seed_kem[32],
                      const pke::TransformStore<P>& store) {
  const auto& k = be.kernels<P>();
  out.pub.ek.kept.release();
  out.y_kept.release();
  // Room first: pke::keygen multiplies through the transforms only if both are there. Only where
  // the table's products compute them anyway: elsewhere keeping them would cost three transforms.
  if (pke::KeptTransforms<P>::by_product_of_mul(k) && out.pub.ek.kept.acquire(store, &k, kPublicKeyTransforms))
    out.y_kept.acquire(store, &k, 1);
  keypair_without_hpk<P>(be, out, seed_kem);
  sym::oracle_h(be, out.pub.hpk, out.pub.pk, P::kPublicKeyBytes);
  return out.y_kept.for_table(k) != nullptr;
}

template <class P>
bool prepare_public_key(const backend::Backend& be, PublicKey<P>& key, const pke::TransformStore<P>& store) {
  return pke::prepare_encryption_key<P>(be, key.ek, store);
}

template <class P>
bool prepare_public_key(const backend::Backend& be, PublicKey<P>& key, pke::Transform<P>* storage) {
  return pke::prepare_encryption_key<P>(be, key.ek, storage);
}

template <class P>
bool prepare_secret_key(const backend::Backend& be, SecretKey<P>& key, const pke::TransformStore<P>& store) {
  const auto& k = be.kernels<P>();
  key.y_kept.release();
  if (!prepare_public_key<P>(be, key.pub, store)) return false;
  if (!key.y_kept.acquire(store, &k, 1)) {
    key.pub.ek.kept.release();
    return false;
  }
  k.transforms->transform(key.y_kept.data()[0].w, key.y.w);
  return true;
}

template <class P>
bool prepare_secret_key(const backend::Backend& be, SecretKey<P>& key, pke::Transform<P>* storage) {
  const auto& k = be.kernels<P>();
  key.y_kept.release();
  if (!prepare_public_key<P>(be, key.pub, storage)) return false;
  key.y_kept.attach(storage + kPublicKeyTransforms, &k, 1);  // h's were kept: the table has transforms
  k.transforms->transform(key.y_kept.data()[0].w, key.y.w);
  return true;
}

template <class P>
void encaps(const backend::Backend& be, const PublicKey<P>& pub, std::uint8_t ct[P::kCiphertextBytes],
            std::uint8_t ss[32], const std::uint8_t m[P::kK], const std::uint8_t salt[16]) {
  ct::Wiped<std::uint8_t[64]> g;  // K || theta
  sym::oracle_g(be, *g, pub.hpk, m, P::kK, salt);
  ct::Wiped<pke::RingVec<P>> u;
  ct::Wiped<pke::CodeVec<P>> v;
  pke::encrypt<P>(be, pub.ek, *u, *v, m, *g + 32);
  mem::copy(ct, u->bytes(), P::kVecNBytes);
  mem::copy(ct + P::kVecNBytes, v->bytes(), P::kVecN1N2Bytes);
  mem::copy(ct + P::kVecNBytes + P::kVecN1N2Bytes, salt, 16);
  mem::copy(ss, *g, 32);
}

template <class P>
void decaps(const backend::Backend& be, const SecretKey<P>& key, std::uint8_t ss[32],
            const std::uint8_t ct[P::kCiphertextBytes]) {
  constexpr std::size_t kUV = P::kVecNBytes + P::kVecN1N2Bytes;
  const std::uint8_t* salt = ct + kUV;
  struct Tmp {
    pke::RingVec<P> u, u2;
    pke::CodeVec<P> v, v2;
    std::uint8_t m[P::kK];
    std::uint8_t g[64];  // K' || theta'
    std::uint8_t kbar[32];
    std::uint8_t xof[pke::kEncryptXofBytes<P>];
  };
  // Every member is written in full before it is read: u by load_ring_vec, v by the copy (n1 n2
  // bits, whole words at every level), m by decryption, g, kbar and xof by their sponges, u2 and v2
  // by encrypt_from_xof.
  ct::Wiped<Tmp> t{ct::kWrittenBeforeRead};
  static_assert(P::kVecN1N2Bytes == sizeof(t->v.w));
  // 2-3. Parse ct (u's padding bits are cleared for the product; J and the comparison use the raw
  //      bytes, so a ciphertext with padding bits set always yields K_bar) and decrypt.
  pke::load_ring_vec<P>(t->u, ct);
  mem::copy(t->v.w, ct + P::kVecNBytes, P::kVecN1N2Bytes);
  pke::decrypt<P>(be, t->m, key.y, t->u, t->v, key.y_kept.for_table(be.kernels<P>()));
  // 4-7. (K', theta') = G(H(pk), m', salt), the XOF(theta') stream of re-encryption, and
  //      K_bar = J(H(pk), sigma, ct). J does not depend on the others, so it runs in lane 0 while
  //      lane 1 computes G and then the XOF: their permutations share J's steps.
  {
    sym::SpongeLanes lanes(be);
    lanes.start(0, sym::kOracleJ, {{key.pub.hpk, 32}, {key.sigma, P::kK}, {ct, P::kCiphertextBytes}}, t->kbar, 32);
    lanes.start(1, sym::kOracleG, {{key.pub.hpk, 32}, {t->m, P::kK}, {salt, 16}}, t->g, 64);
    lanes.run_until_idle(1);
    lanes.start(1, sym::kOracleXof, {{t->g + 32, 32}}, t->xof, pke::kEncryptXofBytes<P>);
    lanes.run_all();
  }
  pke::encrypt_from_xof<P>(be, key.pub.ek, t->u2, t->v2, t->m, t->xof);
  // 8. Constant-time comparison of (u', v') with the received bytes (u' and v' in place, as
  //    encapsulation serializes them: no copy of the re-encrypted ciphertext on the stack), and
  //    selection.
  const std::uint8_t differ =
      static_cast<std::uint8_t>(ct::neq_mask_bytes(t->u2.bytes(), ct, P::kVecNBytes) |
                                ct::neq_mask_bytes(t->v2.bytes(), ct + P::kVecNBytes, P::kVecN1N2Bytes));
  ct::select_bytes(ss, t->kbar, t->g, 32, differ);
}

template <class P>
void stateless_keypair(const backend::Backend& be, std::uint8_t pk[P::kPublicKeyBytes],
                       std::uint8_t sk[P::kSecretKeyBytes], const std::uint8_t seed_kem[32]) {
  SecretKey<P> key;  // wiped by its destructor; its hpk stays unset (nothing reads it here)
  keypair_without_hpk<P>(be, key, seed_kem);
  mem::copy(pk, key.pub.pk, P::kPublicKeyBytes);
  key.serialize(sk);
}

template <class P>
Status stateless_encaps(const backend::Backend& be, std::uint8_t ct[P::kCiphertextBytes], std::uint8_t ss[32],
                        const std::uint8_t pk[P::kPublicKeyBytes], const std::uint8_t m[P::kK],
                        const std::uint8_t salt[16]) {
  PublicKey<P> key;  // public: nothing to wipe
  if (parse_public_key<P>(be, key, pk) != Status::kOk) {
    ct::wipe(ct, P::kCiphertextBytes);
    ct::wipe(ss, 32);
    return Status::kMalformedKey;
  }
  encaps<P>(be, key, ct, ss, m, salt);
  return Status::kOk;
}

template <class P>
Status stateless_decaps(const backend::Backend& be, std::uint8_t ss[32], const std::uint8_t ct[P::kCiphertextBytes],
                        const std::uint8_t sk[P::kSecretKeyBytes]) {
  SecretKey<P> key;  // wiped by its destructor
  if (parse_secret_key<P>(be, key, sk) != Status::kOk) {
    ct::wipe(ss, 32);
    return Status::kMalformedKey;
  }
  decaps<P>(be, key, ss, ct);
  return Status::kOk;
}

#define HQC_INSTANTIATE_KEM(P)                                                                                    \
  template struct SecretKey<P>;                                                                                   \
  template Status parse_public_key<P>(const backend::Backend&, PublicKey<P>&, const std::uint8_t*);               \
  template Status parse_secret_key<P>(const backend::Backend&, SecretKey<P>&, const std::uint8_t*);               \
  template void keypair<P>(const backend::Backend&, SecretKey<P>&, const std::uint8_t*);                          \
  template bool keypair_prepared<P>(const backend::Backend&, SecretKey<P>&, const std::uint8_t*,                  \
                                    const pke::TransformStore<P>&);                                               \
  template bool prepare_public_key<P>(const backend::Backend&, PublicKey<P>&, const pke::TransformStore<P>&);     \
  template bool prepare_public_key<P>(const backend::Backend&, PublicKey<P>&, pke::Transform<P>*);                \
  template bool prepare_secret_key<P>(const backend::Backend&, SecretKey<P>&, const pke::TransformStore<P>&);     \
  template bool prepare_secret_key<P>(const backend::Backend&, SecretKey<P>&, pke::Transform<P>*);                \
  template void encaps<P>(const backend::Backend&, const PublicKey<P>&, std::uint8_t*, std::uint8_t*,             \
                          const std::uint8_t*, const std::uint8_t*);                                              \
  template void decaps<P>(const backend::Backend&, const SecretKey<P>&, std::uint8_t*, const std::uint8_t*);      \
  template void stateless_keypair<P>(const backend::Backend&, std::uint8_t*, std::uint8_t*, const std::uint8_t*); \
  template Status stateless_encaps<P>(const backend::Backend&, std::uint8_t*, std::uint8_t*, const std::uint8_t*, \
                                      const std::uint8_t*, const std::uint8_t*);                                  \
  template Status stateless_decaps<P>(const backend::Backend&, std::uint8_t*, const std::uint8_t*, const std::uint8_t*);

HQC_INSTANTIATE_KEM(Hqc1)
HQC_INSTANTIATE_KEM(Hqc3)
HQC_INSTANTIATE_KEM(Hqc5)

}  // namespace hqc::kem
