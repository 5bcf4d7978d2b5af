// HQC-PKE (spec §6), templated on the parameter set and running on the kernels of one backend.
// Defined in pke.cpp and explicitly instantiated there for Hqc1, Hqc3 and Hqc5. Its parts live
// beside it: the vectors in pke/ring.hpp, the concatenated code in pke/code.hpp, the transforms
// a prepared key keeps in pke/kept_transforms.hpp; the oracles and the side-by-side sponges in
// sym/.
#pragma once

#include <cstddef>
#include <cstdint>

#include "backend/ops.hpp"
#include "params/params.hpp"
#include "pke/code.hpp"
#include "pke/kept_transforms.hpp"
#include "pke/ring.hpp"
#include "sym/keccak.hpp"

namespace hqc::pke {

// Bytes of XOF(seed_dk) that key generation squeezes beside the expansion of h: the 2w three-byte
// draws of y and x plus room for at least 4 rejections or duplicates, rounded up to whole
// SHAKE256 blocks (spare draws: 4 / 26 / 10 at HQC-1/3/5; a key needs about 0.3 on average, and
// one needing more than the spare continues in sym::XofWithPrefix at the cost of re-squeezing the
// prefix, which happens for about 1 key in 50,000). Every extra block would cost one x4 step.
template <class P>
inline constexpr std::size_t kKeygenXofPrefix =
    (3 * (2 * P::kW + 4) + sym::kShake256Rate - 1) / sym::kShake256Rate* sym::kShake256Rate;

// Bytes of XOF(theta) that encryption reads: r2, then e, then r1 (spec §6.2).
template <class P>
inline constexpr std::size_t kEncryptXofBytes = 4 * (2 * P::kWr + P::kWe);

// Transforms a prepared key keeps: h and s of a public key, and y of a secret key.
inline constexpr std::size_t kEncryptionKeyTransforms = 2;

// The public values encryption needs: h (expanded from seed_ek) and s, and, once a key object is
// prepared for many operations (prepare_encryption_key) on a backend whose multiplier has
// transforms, the transforms of h and s (kept[0], kept[1]); any other kernel table ignores them
// and multiplies h and s directly.
template <class P>
struct EncryptionKey {
  RingVec<P> h;
  RingVec<P> s;
  KeptTransforms<P> kept;
};

// Keeps ekx's transforms of h and s for be's multiplier, in memory from `store` or in the
// caller's storage[kEncryptionKeyTransforms]; false if the multiplier has no transform (or the
// store had no memory), and then nothing is kept.
template <class P>
bool prepare_encryption_key(const backend::Backend& be, EncryptionKey<P>& ekx, const TransformStore<P>& store);
template <class P>
bool prepare_encryption_key(const backend::Backend& be, EncryptionKey<P>& ekx, Transform<P>* storage);

// h = SampleDense(XOF(seed_ek)) (spec §4.1).
template <class P>
void expand_h(const backend::Backend& be, RingVec<P>& h, const std::uint8_t seed_ek[32]);

// H(pk) and h = SampleDense(XOF(seed_ek)) side by side (two lanes, one x4 permutation per step).
template <class P>
void hash_pk_and_expand_h(const backend::Backend& be, std::uint8_t hpk[32], RingVec<P>& h,
                          const std::uint8_t pk[P::kPublicKeyBytes]);

// y = first key-generation draw from XOF(seed_dk) (spec §6.3 step 1).
template <class P>
void expand_y(const backend::Backend& be, RingVec<P>& y, const std::uint8_t seed_dk[32]);

// PKE key generation (spec §6.1): writes ek = seed_ek || s and seed_dk; also returns the
// expanded h and y so that a key object can keep them.
//
// Transforms: if ekx.kept and y_kept both hold room for this backend's table on entry (a key
// prepared while it is generated, kem::keypair_prepared, which asks for room only where the
// table's product is its transform product), h*y is computed from the transforms of h and y,
// written there, and s's transform is added: the two forward transforms the product computes
// anyway are kept, so the key is prepared for one transform more instead of three. Otherwise
// both are released and h*y is one plain product. The bytes are the same either way.
template <class P>
void keygen(const backend::Backend& be, std::uint8_t ek[P::kPublicKeyBytes], std::uint8_t seed_dk[32],
            const std::uint8_t seed_pke[32], EncryptionKey<P>& ekx, RingVec<P>& y, KeptTransforms<P>& y_kept);

// Encrypt (spec §6.2) from the XOF(theta) stream already squeezed (kEncryptXofBytes<P> bytes):
// u = r1 + h*r2, v = Encode(m) + Truncate(s*r2 + e).
template <class P>
void encrypt_from_xof(const backend::Backend& be, const EncryptionKey<P>& ekx, RingVec<P>& u, CodeVec<P>& v,
                      const std::uint8_t m[P::kK], const std::uint8_t* xof_bytes);

// Encrypt (spec §6.2): u = r1 + h*r2, v = Encode(m) + Truncate(s*r2 + e), r1, r2, e from XOF(theta).
template <class P>
void encrypt(const backend::Backend& be, const EncryptionKey<P>& ekx, RingVec<P>& u, CodeVec<P>& v,
             const std::uint8_t m[P::kK], const std::uint8_t theta[32]);

// Decrypt (spec §6.3): m = Decode(v + Truncate(u*y)). yt, if not nullptr, is the transform of y
// kept for be's table (KeptTransforms::for_table), so that table has transforms.
template <class P>
void decrypt(const backend::Backend& be, std::uint8_t m[P::kK], const RingVec<P>& y, const RingVec<P>& u,
             const CodeVec<P>& v, const Transform<P>* yt = nullptr);

}  // namespace hqc::pke
