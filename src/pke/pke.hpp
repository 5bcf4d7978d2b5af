// HQC-PKE (spec §6) and the concatenated code (spec §5.1, §5.4), templated on the parameter set
// and running on the kernels of one backend.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "backend/ops.hpp"
#include "code/reed_muller.hpp"
#include "code/reed_solomon.hpp"
#include "common/ct.hpp"
#include "params/params.hpp"
#include "sampling/sampling.hpp"
#include "sym/oracles.hpp"

namespace hqc::pke {

// A length-n ring element (see backend/ops.hpp for the layout invariants).
template <class P>
struct alignas(64) RingVec {
  std::uint64_t w[P::kNWordsPadded];
  std::uint8_t* bytes() { return reinterpret_cast<std::uint8_t*>(w); }
  const std::uint8_t* bytes() const { return reinterpret_cast<const std::uint8_t*>(w); }
};

// A length-n1*n2 code word.
template <class P>
struct alignas(64) CodeVec {
  std::uint64_t w[P::kN1N2Words];
  std::uint8_t* bytes() { return reinterpret_cast<std::uint8_t*>(w); }
  const std::uint8_t* bytes() const { return reinterpret_cast<const std::uint8_t*>(w); }
};

// Loads a packed length-n vector; returns all-ones if a padding bit was set (the bits are
// cleared in `out` either way). Constant time.
template <class P>
std::uint64_t load_ring_vec(RingVec<P>& out, const std::uint8_t* in) {
  std::memset(out.w, 0, sizeof(out.w));
  std::memcpy(out.w, in, P::kVecNBytes);
  const std::uint64_t extra = out.w[P::kNWords - 1] & ~P::kLastWordMask;
  out.w[P::kNWords - 1] &= P::kLastWordMask;
  return ct::mask_nonzero64(extra);
}

// Encode(m) (spec §5.1): RS then duplicated RM.
template <class P>
void code_encode(CodeVec<P>& out, const std::uint8_t m[P::kK]) {
  std::uint8_t cw[P::kN1];
  code::rs_encode<P>(cw, m);
  code::rm_encode<P>(out.w, cw);
  ct::wipe(cw, sizeof(cw));
}

// Decode(w) (spec §5.4).
template <class P>
void code_decode(const backend::KernelTable<P>& k, std::uint8_t m[P::kK], const CodeVec<P>& in) {
  std::uint8_t cw[P::kN1];
  k.rm_decode(cw, in.w);
  k.rs_decode(m, cw);
  ct::wipe(cw, sizeof(cw));
}

// The public values encryption needs: h (expanded from seed_ek) and s.
template <class P>
struct EncryptionKey {
  RingVec<P> h;
  RingVec<P> s;
};

// h = SampleDense(XOF(seed_ek)) (spec §4.1).
template <class P>
void expand_h(const backend::Backend& be, RingVec<P>& h, const std::uint8_t seed_ek[32]) {
  sym::Xof xof(be.keccak_f1600, seed_ek);
  sampling::sample_dense<P>(h.w, xof);
}

// y = first key-generation draw from XOF(seed_dk) (spec §6.3 step 1). Returns the XOF instance's
// byte count for tests via *consumed if given.
template <class P>
void expand_y(const backend::Backend& be, RingVec<P>& y, const std::uint8_t seed_dk[32]) {
  sym::Xof xof(be.keccak_f1600, seed_dk);
  ct::Wiped<std::uint32_t[P::kW]> pos;
  sampling::sample_keygen_positions<P>(*pos, xof);
  be.kernels<P>().support_to_vector(y.w, *pos, P::kW);
}

// PKE key generation (spec §6.1): writes ek = seed_ek || s and seed_dk; also returns the
// expanded h and y so that a key object can keep them.
template <class P>
void keygen(const backend::Backend& be, std::uint8_t ek[P::kPublicKeyBytes], std::uint8_t seed_dk[32],
            const std::uint8_t seed_pke[32], EncryptionKey<P>& ekx, RingVec<P>& y) {
  const auto& k = be.kernels<P>();
  ct::Wiped<std::uint8_t[64]> seeds;
  sym::oracle_i(be.keccak_f1600, *seeds, seed_pke);
  std::memcpy(seed_dk, *seeds, 32);
  const std::uint8_t* seed_ek = *seeds + 32;
  // seed_ek becomes the first 32 bytes of the public key.
  ct::declassify(seed_ek, 32);

  ct::Wiped<RingVec<P>> x;
  {
    sym::Xof xof(be.keccak_f1600, seed_dk);
    ct::Wiped<std::uint32_t[P::kW]> pos;
    sampling::sample_keygen_positions<P>(*pos, xof);  // y first
    k.support_to_vector(y.w, *pos, P::kW);
    sampling::sample_keygen_positions<P>(*pos, xof);  // then x
    k.support_to_vector(x->w, *pos, P::kW);
  }
  expand_h<P>(be, ekx.h, seed_ek);
  k.mul(ekx.s.w, ekx.h.w, y.w);  // s = x + h*y
  for (std::size_t i = 0; i < P::kNWords; i++) ekx.s.w[i] ^= x->w[i];
  // s is published.
  ct::declassify(ekx.s.w, sizeof(ekx.s.w));

  std::memcpy(ek, seed_ek, 32);
  std::memcpy(ek + 32, ekx.s.bytes(), P::kVecNBytes);
}

// Encrypt (spec §6.2): u = r1 + h*r2, v = Encode(m) + Truncate(s*r2 + e).
template <class P>
void encrypt(const backend::Backend& be, const EncryptionKey<P>& ekx, RingVec<P>& u, CodeVec<P>& v,
             const std::uint8_t m[P::kK], const std::uint8_t theta[32]) {
  const auto& k = be.kernels<P>();
  struct Tmp {
    RingVec<P> r1, r2, e, t;
    std::uint32_t pos[P::kWr > P::kWe ? P::kWr : P::kWe];
    std::uint8_t rnd[4 * (P::kWr > P::kWe ? P::kWr : P::kWe)];
  };
  ct::Wiped<Tmp> tmp;
  {
    sym::Xof xof(be.keccak_f1600, theta);
    xof.squeeze(tmp->rnd, 4 * P::kWr);  // r2, then e, then r1
    k.enc_positions(tmp->pos, tmp->rnd, P::kWr);
    k.support_to_vector(tmp->r2.w, tmp->pos, P::kWr);
    xof.squeeze(tmp->rnd, 4 * P::kWe);
    k.enc_positions(tmp->pos, tmp->rnd, P::kWe);
    k.support_to_vector(tmp->e.w, tmp->pos, P::kWe);
    xof.squeeze(tmp->rnd, 4 * P::kWr);
    k.enc_positions(tmp->pos, tmp->rnd, P::kWr);
    k.support_to_vector(tmp->r1.w, tmp->pos, P::kWr);
  }
  k.mul2(u.w, tmp->t.w, ekx.h.w, ekx.s.w, tmp->r2.w);
  for (std::size_t i = 0; i < P::kNWords; i++) u.w[i] ^= tmp->r1.w[i];
  code_encode<P>(v, m);
  for (std::size_t i = 0; i < P::kN1N2Words; i++) v.w[i] ^= tmp->t.w[i] ^ tmp->e.w[i];  // Truncate: low n1*n2 bits
}

// Decrypt (spec §6.3): m = Decode(v + Truncate(u*y)).
template <class P>
void decrypt(const backend::Backend& be, std::uint8_t m[P::kK], const RingVec<P>& y, const RingVec<P>& u,
             const CodeVec<P>& v) {
  const auto& k = be.kernels<P>();
  ct::Wiped<RingVec<P>> uy;
  k.mul(uy->w, u.w, y.w);
  ct::Wiped<CodeVec<P>> recv;
  for (std::size_t i = 0; i < P::kN1N2Words; i++) recv->w[i] = v.w[i] ^ uy->w[i];
  code_decode<P>(k, m, *recv);
}

}  // namespace hqc::pke
