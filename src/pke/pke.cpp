// HQC-PKE (spec §6): definitions of pke.hpp, explicitly instantiated for Hqc1, Hqc3 and Hqc5.
#include "pke/pke.hpp"

#include "common/ct.hpp"
#include "common/mem.hpp"
#include "sampling/sampling.hpp"
#include "sym/oracles.hpp"
#include "sym/sponge_lanes.hpp"

namespace hqc::pke {

namespace {

template <class P>
void transform_h_and_s(const backend::KernelTable<P>& k, EncryptionKey<P>& ekx) {
  k.transforms->transform(ekx.kept.data()[0].w, ekx.h.w);
  k.transforms->transform(ekx.kept.data()[1].w, ekx.s.w);
}

}  // namespace

template <class P>
bool prepare_encryption_key(const backend::Backend& be, EncryptionKey<P>& ekx, const TransformStore<P>& store) {
  const auto& k = be.kernels<P>();
  ekx.kept.release();
  if (!ekx.kept.acquire(store, &k, kEncryptionKeyTransforms)) return false;
  transform_h_and_s<P>(k, ekx);
  return true;
}

template <class P>
bool prepare_encryption_key(const backend::Backend& be, EncryptionKey<P>& ekx, Transform<P>* storage) {
  const auto& k = be.kernels<P>();
  ekx.kept.release();
  if (!ekx.kept.attach(storage, &k, kEncryptionKeyTransforms)) return false;
  transform_h_and_s<P>(k, ekx);
  return true;
}

template <class P>
void expand_h(const backend::Backend& be, RingVec<P>& h, const std::uint8_t seed_ek[32]) {
  sym::Xof xof(be, seed_ek);
  sampling::sample_dense<P>(h.w, xof);
}

template <class P>
void hash_pk_and_expand_h(const backend::Backend& be, std::uint8_t hpk[32], RingVec<P>& h,
                          const std::uint8_t pk[P::kPublicKeyBytes]) {
  mem::zero(h.w, sizeof(h.w));
  sym::SpongeLanes lanes(be);
  lanes.start(0, sym::kOracleH, {{pk, P::kPublicKeyBytes}}, hpk, 32);
  lanes.start(1, sym::kOracleXof, {{pk, 32}}, h.bytes(), P::kVecNBytes);  // SampleDense of seed_ek
  lanes.run_all();
  h.w[P::kNWords - 1] &= P::kLastWordMask;
}

template <class P>
void expand_y(const backend::Backend& be, RingVec<P>& y, const std::uint8_t seed_dk[32]) {
  sym::Xof xof(be, seed_dk);
  ct::Wiped<std::uint32_t[P::kW]> pos;
  sampling::sample_keygen_positions<P>(*pos, xof, be.kernels<P>().keygen_accept);
  be.kernels<P>().support_to_vector(y.w, *pos, P::kW);
}

template <class P>
void keygen(const backend::Backend& be, std::uint8_t ek[P::kPublicKeyBytes], std::uint8_t seed_dk[32],
            const std::uint8_t seed_pke[32], EncryptionKey<P>& ekx, RingVec<P>& y, KeptTransforms<P>& y_kept) {
  const auto& k = be.kernels<P>();
  ct::Wiped<std::uint8_t[64]> seeds;
  sym::oracle_i(be, *seeds, seed_pke);
  mem::copy(seed_dk, *seeds, 32);
  const std::uint8_t* seed_ek = *seeds + 32;
  // seed_ek becomes the first 32 bytes of the public key.
  ct::declassify(seed_ek, 32);

  // h = SampleDense(XOF(seed_ek)) and the start of XOF(seed_dk), which the sampler of y and x
  // reads, are independent sponges: squeeze them side by side (avx512_bench: 1.6k / 1.8k / 2.5k
  // cycles less where keccak_f1600_x4 permutes several states at once).
  ct::Wiped<std::uint8_t[kKeygenXofPrefix<P>]> dk_stream;
  {
    mem::zero(ekx.h.w, sizeof(ekx.h.w));
    sym::SpongeLanes lanes(be);
    lanes.start(0, sym::kOracleXof, {{seed_ek, 32}}, ekx.h.bytes(), P::kVecNBytes);
    lanes.start(1, sym::kOracleXof, {{seed_dk, 32}}, *dk_stream, kKeygenXofPrefix<P>);
    lanes.run_all();
    ekx.h.w[P::kNWords - 1] &= P::kLastWordMask;
  }
  ct::Wiped<RingVec<P>> x;
  {
    sym::XofWithPrefix xof(be, seed_dk, *dk_stream, kKeygenXofPrefix<P>);
    ct::Wiped<std::uint32_t[P::kW]> pos;
    sampling::sample_keygen_positions<P>(*pos, xof, k.keygen_accept);  // y first
    k.support_to_vector(y.w, *pos, P::kW);
    sampling::sample_keygen_positions<P>(*pos, xof, k.keygen_accept);  // then x
    k.support_to_vector(x->w, *pos, P::kW);
  }
  Transform<P>* hs = ekx.kept.for_table(k) != nullptr ? ekx.kept.data() : nullptr;
  Transform<P>* yt = y_kept.for_table(k) != nullptr ? y_kept.data() : nullptr;
  if (hs != nullptr && yt != nullptr) {  // prepared while generated: h's and y's transforms kept
    k.transforms->transform(hs[0].w, ekx.h.w);
    k.transforms->transform(yt->w, y.w);
    k.transforms->mul_transforms(ekx.s.w, hs[0].w, yt->w);  // h*y
  } else {
    ekx.kept.release();
    y_kept.release();
    k.mul(ekx.s.w, ekx.h.w, y.w);  // h*y
  }
  for (std::size_t i = 0; i < P::kNWords; i++) ekx.s.w[i] ^= x->w[i];  // s = x + h*y
  // s is published.
  ct::declassify(ekx.s.w, sizeof(ekx.s.w));
  if (hs != nullptr && yt != nullptr) k.transforms->transform(hs[1].w, ekx.s.w);

  mem::copy(ek, seed_ek, 32);
  mem::copy(ek + 32, ekx.s.bytes(), P::kVecNBytes);
}

namespace {

// u = h * r2 and t = s * r2 from h's and s's kept transforms hs[0..2) and r2's (spec §6.2). A
// function of its own, not inlined, so that the transform of r2 (8-16 KB) is on the stack only on
// this path, not in the frame of every encryption (a device whose multiplier has no transforms
// never needs it).
template <class P>
__attribute__((noinline)) void mul2_from_transforms(const backend::KernelTable<P>& k, const Transform<P>* hs,
                                                    RingVec<P>& u, RingVec<P>& t, const RingVec<P>& r2) {
  ct::Wiped<Transform<P>> r2t{ct::kWrittenBeforeRead};  // transform writes all its words (backend/ops.hpp)
  k.transforms->transform(r2t->w, r2.w);
  k.transforms->mul_transforms(u.w, hs[0].w, r2t->w);
  k.transforms->mul_transforms(t.w, hs[1].w, r2t->w);
}

}  // namespace

template <class P>
void encrypt_from_xof(const backend::Backend& be, const EncryptionKey<P>& ekx, RingVec<P>& u, CodeVec<P>& v,
                      const std::uint8_t m[P::kK], const std::uint8_t* xof_bytes) {
  const auto& k = be.kernels<P>();
  struct Tmp {
    RingVec<P> r1, r2, e, t;
    std::uint32_t pos[P::kWr > P::kWe ? P::kWr : P::kWe];
  };
  // Every member is written in full before it is read: r1, r2 and e by support_to_vector, t by
  // the product, pos's first w entries (all that is read) by enc_positions.
  ct::Wiped<Tmp> tmp{ct::kWrittenBeforeRead};
  k.enc_positions(tmp->pos, xof_bytes, P::kWr);
  k.support_to_vector(tmp->r2.w, tmp->pos, P::kWr);
  k.enc_positions(tmp->pos, xof_bytes + 4 * P::kWr, P::kWe);
  k.support_to_vector(tmp->e.w, tmp->pos, P::kWe);
  k.enc_positions(tmp->pos, xof_bytes + 4 * (P::kWr + P::kWe), P::kWr);
  k.support_to_vector(tmp->r1.w, tmp->pos, P::kWr);
  if (const Transform<P>* hs = ekx.kept.for_table(k)) {  // h's and s's transforms kept: r2's once
    mul2_from_transforms<P>(k, hs, u, tmp->t, tmp->r2);
  } else {
    k.mul2(u.w, tmp->t.w, ekx.h.w, ekx.s.w, tmp->r2.w);
  }
  for (std::size_t i = 0; i < P::kNWords; i++) u.w[i] ^= tmp->r1.w[i];
  code_encode<P>(k, v, m);
  for (std::size_t i = 0; i < P::kN1N2Words; i++) v.w[i] ^= tmp->t.w[i] ^ tmp->e.w[i];  // Truncate: low n1*n2 bits
}

template <class P>
void encrypt(const backend::Backend& be, const EncryptionKey<P>& ekx, RingVec<P>& u, CodeVec<P>& v,
             const std::uint8_t m[P::kK], const std::uint8_t theta[32]) {
  ct::Wiped<std::uint8_t[kEncryptXofBytes<P>]> rnd;
  {
    sym::Xof xof(be, theta);
    xof.squeeze(*rnd, kEncryptXofBytes<P>);  // r2, then e, then r1
  }
  encrypt_from_xof<P>(be, ekx, u, v, m, *rnd);
}

template <class P>
void decrypt(const backend::Backend& be, std::uint8_t m[P::kK], const RingVec<P>& y, const RingVec<P>& u,
             const CodeVec<P>& v, const Transform<P>* yt) {
  const auto& k = be.kernels<P>();
  ct::Wiped<RingVec<P>> uy{ct::kWrittenBeforeRead};  // the product writes every word, padding too
  // A prepared secret key brings y's kept transform (pke::KeptTransforms, the one check of the
  // table's capability): u * y from it; otherwise the table's plain product.
  if (yt == nullptr) {
    k.mul(uy->w, u.w, y.w);
  } else {
    k.transforms->mul_transform_plain(uy->w, yt->w, u.w);
  }
  ct::Wiped<CodeVec<P>> recv{ct::kWrittenBeforeRead};  // every word written below
  for (std::size_t i = 0; i < P::kN1N2Words; i++) recv->w[i] = v.w[i] ^ uy->w[i];
  code_decode<P>(k, m, *recv);
}

#define HQC_INSTANTIATE_PKE(P)                                                                                     \
  template bool prepare_encryption_key<P>(const backend::Backend&, EncryptionKey<P>&, const TransformStore<P>&);   \
  template bool prepare_encryption_key<P>(const backend::Backend&, EncryptionKey<P>&, Transform<P>*);              \
  template void expand_h<P>(const backend::Backend&, RingVec<P>&, const std::uint8_t*);                            \
  template void hash_pk_and_expand_h<P>(const backend::Backend&, std::uint8_t*, RingVec<P>&, const std::uint8_t*); \
  template void expand_y<P>(const backend::Backend&, RingVec<P>&, const std::uint8_t*);                            \
  template void keygen<P>(const backend::Backend&, std::uint8_t*, std::uint8_t*, const std::uint8_t*,              \
                          EncryptionKey<P>&, RingVec<P>&, KeptTransforms<P>&);                                     \
  template void encrypt_from_xof<P>(const backend::Backend&, const EncryptionKey<P>&, RingVec<P>&, CodeVec<P>&,    \
                                    const std::uint8_t*, const std::uint8_t*);                                     \
  template void encrypt<P>(const backend::Backend&, const EncryptionKey<P>&, RingVec<P>&, CodeVec<P>&,             \
                           const std::uint8_t*, const std::uint8_t*);                                              \
  template void decrypt<P>(const backend::Backend&, std::uint8_t*, const RingVec<P>&, const RingVec<P>&,           \
                           const CodeVec<P>&, const Transform<P>*);

HQC_INSTANTIATE_PKE(Hqc1)
HQC_INSTANTIATE_PKE(Hqc3)
HQC_INSTANTIATE_PKE(Hqc5)

}  // namespace hqc::pke
