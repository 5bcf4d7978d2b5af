// HQC-PKE (spec §6) and the concatenated code (spec §5.1, §5.4), templated on the parameter set
// and running on the kernels of one backend.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <new>
#include <optional>

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

// Up to four independent one-shot Keccak sponges run side by side: each lane absorbs its input
// parts and squeezes its output exactly like sym::Sponge (same bytes), but every permutation
// step runs all busy lanes through one Backend::keccak_f1600_x4 call (Backend::keccak_f1600 when
// only one lane is busy: a multi-state permutation may cost more for one state). A lane can be started while others are running, so a sponge that
// depends on another one's output (G, then the XOF of theta) can share the steps of a long one (J).
// Loop bounds depend only on lengths, never on data.
class SpongeLanes {
 public:
  static constexpr int kLanes = 4;
  explicit SpongeLanes(const backend::Backend& be) : be_(be) {}
  ~SpongeLanes() { ct::wipe(lanes_, sizeof(lanes_)); }
  SpongeLanes(const SpongeLanes&) = delete;
  SpongeLanes& operator=(const SpongeLanes&) = delete;

  struct Part {
    const std::uint8_t* p;
    std::size_t len;
  };
  // Starts a sponge with `rate` bytes and domain padding `pad` in an idle lane: absorbs the parts
  // (at most 4) in order, then squeezes out_len bytes into out.
  void start(int lane, std::size_t rate, std::uint8_t pad, std::initializer_list<Part> parts, std::uint8_t* out,
             std::size_t out_len) {
    Lane& l = lanes_[lane];
    std::memset(l.st, 0, sizeof(l.st));
    l.rate = rate;
    l.pad = pad;
    l.nparts = 0;
    for (const Part& p : parts) l.parts[l.nparts++] = p;
    l.part = 0;
    l.off = 0;
    l.out = out;
    l.out_len = out_len;
    l.out_off = 0;
    l.phase = kAbsorb;
  }
  bool busy(int lane) const { return lanes_[lane].phase != kIdle; }
  // One step: every absorbing lane takes its next block (and pads after the last byte), every
  // squeezing lane emits its next output block; then one permutation of the lanes that need it.
  void step() {
    bool need[kLanes] = {};
    bool any = false;
    for (int i = 0; i < kLanes; i++) {
      Lane& l = lanes_[i];
      if (l.phase == kAbsorb) {
        absorb_block(l);
        need[i] = any = true;
      } else if (l.phase == kSqueeze) {
        const std::size_t take = l.out_len - l.out_off < l.rate ? l.out_len - l.out_off : l.rate;
        std::memcpy(l.out + l.out_off, reinterpret_cast<const std::uint8_t*>(l.st), take);
        l.out_off += take;
        if (l.out_off < l.out_len) need[i] = any = true;
        else l.phase = kIdle;
      }
    }
    if (!any) return;
    std::uint64_t* s[kLanes];
    int count = 0;
    for (int i = 0; i < kLanes; i++) {
      s[i] = need[i] ? lanes_[i].st : nullptr;
      count += need[i] ? 1 : 0;
    }
    if (count == 1) {
      for (int i = 0; i < kLanes; i++)
        if (need[i]) be_.keccak_f1600(s[i]);
    } else {
      be_.keccak_f1600_x4(s[0], s[1], s[2], s[3]);
    }
  }
  void run_until_idle(int lane) {
    while (busy(lane)) step();
  }
  void run_all() {
    for (int i = 0; i < kLanes; i++) run_until_idle(i);
  }

 private:
  enum Phase : std::uint8_t { kIdle, kAbsorb, kSqueeze };
  struct Lane {
    std::uint64_t st[25];
    std::size_t rate;
    Part parts[4];
    std::size_t nparts, part, off;  // position in the input parts
    std::uint8_t* out;
    std::size_t out_len, out_off;
    std::uint8_t pad;
    Phase phase = kIdle;
  };
  // XORs the next `rate` input bytes into the state; pads (and switches to squeezing) when the
  // input ends inside this block.
  static void absorb_block(Lane& l) {
    auto* bytes = reinterpret_cast<std::uint8_t*>(l.st);
    std::size_t pos = 0;
    while (pos < l.rate && l.part < l.nparts) {
      const Part& p = l.parts[l.part];
      std::size_t take = p.len - l.off;
      if (take > l.rate - pos) take = l.rate - pos;
      std::size_t i = 0;
      for (; (pos + i) % 8 != 0 && i < take; i++) bytes[pos + i] ^= p.p[l.off + i];
      for (; i + 8 <= take; i += 8) {
        std::uint64_t w;
        std::memcpy(&w, p.p + l.off + i, 8);
        l.st[(pos + i) / 8] ^= w;  // little-endian lanes
      }
      for (; i < take; i++) bytes[pos + i] ^= p.p[l.off + i];
      pos += take;
      l.off += take;
      if (l.off == p.len) {
        l.part++;
        l.off = 0;
      }
    }
    if (pos < l.rate) {  // input exhausted in this block: FIPS 202 padding
      bytes[pos] ^= l.pad;
      bytes[l.rate - 1] ^= 0x80;
      l.phase = kSqueeze;
    }
  }

  const backend::Backend& be_;
  Lane lanes_[kLanes];
};

// XOF(seed) of which the first `len` bytes were already squeezed (side by side with another
// sponge, SpongeLanes) into `prefix`: serves those, and only if a reader wants more, restarts
// XOF(seed) and skips the prefix. Whether that happens depends on how many bytes the reader
// takes, which for the key-generation sampler is its public accept pattern (spec §8).
class XofWithPrefix {
 public:
  XofWithPrefix(backend::KeccakF1600Fn f, const std::uint8_t seed[32], const std::uint8_t* prefix, std::size_t len)
      : f_(f), seed_(seed), prefix_(prefix), len_(len) {}
  XofWithPrefix(const XofWithPrefix&) = delete;
  XofWithPrefix& operator=(const XofWithPrefix&) = delete;
  void squeeze(std::uint8_t* out, std::size_t n) {
    const std::size_t take = n < len_ - off_ ? n : len_ - off_;
    std::memcpy(out, prefix_ + off_, take);
    off_ += take;
    if (take == n) return;
    if (!rest_) {
      rest_.emplace(f_, seed_);
      std::uint8_t skip[64];
      for (std::size_t done = 0; done < len_; done += sizeof(skip))
        rest_->squeeze(skip, len_ - done < sizeof(skip) ? len_ - done : sizeof(skip));
      ct::wipe(skip, sizeof(skip));
    }
    rest_->squeeze(out + take, n - take);
  }
  bool used_rest() const { return rest_.has_value(); }

 private:
  backend::KeccakF1600Fn f_;
  const std::uint8_t* seed_;
  const std::uint8_t* prefix_;
  std::size_t len_, off_ = 0;
  std::optional<sym::Xof> rest_;
};

// Bytes of XOF(seed_dk) that key generation squeezes beside the expansion of h: the 2w three-byte
// draws of y and x plus room for at least 4 rejections or duplicates, rounded up to whole
// SHAKE256 blocks (spare draws: 4 / 26 / 10 at HQC-1/3/5; a key needs about 0.3 on average, and
// one needing more than the spare continues in XofWithPrefix at the cost of re-squeezing the
// prefix, which happens for about 1 key in 50,000). Every extra block would cost one x4 step.
template <class P>
inline constexpr std::size_t kKeygenXofPrefix =
    (3 * (2 * P::kW + 4) + sym::kShake256Rate - 1) / sym::kShake256Rate * sym::kShake256Rate;

// The transform of a ring element for a transform multiplier (backend/ops.hpp, FAFFT).
template <class P>
struct alignas(64) Transform {
  std::uint64_t w[backend::kTransformWords<P>];
};

// The transforms a prepared key object keeps, on the heap (a key that is never prepared, or
// prepared on a backend without transforms, costs nothing): `count` transforms for the kernel
// table `owner`. Copies are deep; the memory is wiped when released (y's transform is secret).
template <class P>
class KeptTransforms {
 public:
  KeptTransforms() = default;
  KeptTransforms(const KeptTransforms& o) { *this = o; }
  KeptTransforms& operator=(const KeptTransforms& o) {
    if (this == &o) return *this;
    release();
    if (o.p_ != nullptr && allocate(o.owner_, o.count_)) std::memcpy(p_, o.p_, bytes());
    return *this;
  }
  ~KeptTransforms() { release(); }
  // Room for `count` transforms of `owner`; false (and nothing kept) if owner's multiplier has no
  // transforms or memory is short. The one place where the optional capability
  // KernelTable::transforms is checked (backend/ops.hpp): whoever holds kept transforms of a
  // table may call that table's transforms.
  bool allocate(const backend::KernelTable<P>* owner, std::size_t count) {
    release();
    if (owner->transforms == nullptr) return false;
    p_ = static_cast<Transform<P>*>(::operator new(count * sizeof(Transform<P>), std::align_val_t{64}, std::nothrow));
    if (p_ == nullptr) return false;
    count_ = count;
    owner_ = owner;
    return true;
  }
  void release() {
    if (p_ != nullptr) {
      ct::wipe(p_, bytes());
      ::operator delete(p_, std::align_val_t{64});
    }
    p_ = nullptr;
    count_ = 0;
    owner_ = nullptr;
  }
  // The kept transforms if they belong to table k, else nullptr.
  const Transform<P>* for_table(const backend::KernelTable<P>& k) const { return owner_ == &k ? p_ : nullptr; }
  Transform<P>* data() { return p_; }
  const backend::KernelTable<P>* owner() const { return owner_; }

 private:
  std::size_t bytes() const { return count_ * sizeof(Transform<P>); }
  Transform<P>* p_ = nullptr;
  std::size_t count_ = 0;
  const backend::KernelTable<P>* owner_ = nullptr;
};

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

// Keeps ekx's transforms of h and s for be's multiplier; false if it has no transform (or the
// memory could not be had), and then nothing is kept.
template <class P>
bool prepare_encryption_key(const backend::Backend& be, EncryptionKey<P>& ekx) {
  const auto& k = be.kernels<P>();
  ekx.kept.release();
  if (!ekx.kept.allocate(&k, 2)) return false;
  k.transforms->transform(ekx.kept.data()[0].w, ekx.h.w);
  k.transforms->transform(ekx.kept.data()[1].w, ekx.s.w);
  return true;
}

// h = SampleDense(XOF(seed_ek)) (spec §4.1).
template <class P>
void expand_h(const backend::Backend& be, RingVec<P>& h, const std::uint8_t seed_ek[32]) {
  sym::Xof xof(be.keccak_f1600, seed_ek);
  sampling::sample_dense<P>(h.w, xof);
}

// H(pk) and h = SampleDense(XOF(seed_ek)) side by side (two lanes, one x4 permutation per step).
template <class P>
void hash_pk_and_expand_h(const backend::Backend& be, std::uint8_t hpk[32], RingVec<P>& h,
                          const std::uint8_t pk[P::kPublicKeyBytes]) {
  static const std::uint8_t kH = sym::kDomainH, kX = sym::kDomainXof;
  std::memset(h.w, 0, sizeof(h.w));
  SpongeLanes lanes(be);
  lanes.start(0, sym::kSha3_256Rate, 0x06, {{pk, P::kPublicKeyBytes}, {&kH, 1}}, hpk, 32);
  lanes.start(1, sym::kShake256Rate, 0x1F, {{pk, 32}, {&kX, 1}}, h.bytes(), P::kVecNBytes);
  lanes.run_all();
  h.w[P::kNWords - 1] &= P::kLastWordMask;
}

// y = first key-generation draw from XOF(seed_dk) (spec §6.3 step 1). Returns the XOF instance's
// byte count for tests via *consumed if given.
template <class P>
void expand_y(const backend::Backend& be, RingVec<P>& y, const std::uint8_t seed_dk[32]) {
  sym::Xof xof(be.keccak_f1600, seed_dk);
  ct::Wiped<std::uint32_t[P::kW]> pos;
  sampling::sample_keygen_positions<P>(*pos, xof, be.kernels<P>().keygen_accept);
  be.kernels<P>().support_to_vector(y.w, *pos, P::kW);
}

// PKE key generation (spec §6.1): writes ek = seed_ek || s and seed_dk; also returns the
// expanded h and y so that a key object can keep them (without transforms: prepare_* adds them).
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

  // h = SampleDense(XOF(seed_ek)) and the start of XOF(seed_dk), which the sampler of y and x
  // reads, are independent sponges: squeeze them side by side (avx512_bench: 1.6k / 1.8k / 2.5k
  // cycles less where keccak_f1600_x4 permutes several states at once).
  ct::Wiped<std::uint8_t[kKeygenXofPrefix<P>]> dk_stream;
  {
    static const std::uint8_t kX = sym::kDomainXof;
    std::memset(ekx.h.w, 0, sizeof(ekx.h.w));
    SpongeLanes lanes(be);
    lanes.start(0, sym::kShake256Rate, 0x1F, {{seed_ek, 32}, {&kX, 1}}, ekx.h.bytes(), P::kVecNBytes);
    lanes.start(1, sym::kShake256Rate, 0x1F, {{seed_dk, 32}, {&kX, 1}}, *dk_stream, kKeygenXofPrefix<P>);
    lanes.run_all();
    ekx.h.w[P::kNWords - 1] &= P::kLastWordMask;
  }
  ct::Wiped<RingVec<P>> x;
  {
    XofWithPrefix xof(be.keccak_f1600, seed_dk, *dk_stream, kKeygenXofPrefix<P>);
    ct::Wiped<std::uint32_t[P::kW]> pos;
    sampling::sample_keygen_positions<P>(*pos, xof, k.keygen_accept);  // y first
    k.support_to_vector(y.w, *pos, P::kW);
    sampling::sample_keygen_positions<P>(*pos, xof, k.keygen_accept);  // then x
    k.support_to_vector(x->w, *pos, P::kW);
  }
  ekx.kept.release();
  k.mul(ekx.s.w, ekx.h.w, y.w);  // s = x + h*y
  for (std::size_t i = 0; i < P::kNWords; i++) ekx.s.w[i] ^= x->w[i];
  // s is published.
  ct::declassify(ekx.s.w, sizeof(ekx.s.w));

  std::memcpy(ek, seed_ek, 32);
  std::memcpy(ek + 32, ekx.s.bytes(), P::kVecNBytes);
}

// Bytes of XOF(theta) that encryption reads: r2, then e, then r1 (spec §6.2).
template <class P>
inline constexpr std::size_t kEncryptXofBytes = 4 * (2 * P::kWr + P::kWe);

// Encrypt (spec §6.2) from the XOF(theta) stream already squeezed (kEncryptXofBytes<P> bytes):
// u = r1 + h*r2, v = Encode(m) + Truncate(s*r2 + e).
template <class P>
void encrypt_from_xof(const backend::Backend& be, const EncryptionKey<P>& ekx, RingVec<P>& u, CodeVec<P>& v,
                      const std::uint8_t m[P::kK], const std::uint8_t* xof_bytes) {
  const auto& k = be.kernels<P>();
  struct Tmp {
    RingVec<P> r1, r2, e, t;
    std::uint32_t pos[P::kWr > P::kWe ? P::kWr : P::kWe];
  };
  ct::Wiped<Tmp> tmp;
  k.enc_positions(tmp->pos, xof_bytes, P::kWr);
  k.support_to_vector(tmp->r2.w, tmp->pos, P::kWr);
  k.enc_positions(tmp->pos, xof_bytes + 4 * P::kWr, P::kWe);
  k.support_to_vector(tmp->e.w, tmp->pos, P::kWe);
  k.enc_positions(tmp->pos, xof_bytes + 4 * (P::kWr + P::kWe), P::kWr);
  k.support_to_vector(tmp->r1.w, tmp->pos, P::kWr);
  if (const Transform<P>* hs = ekx.kept.for_table(k)) {  // h's and s's transforms kept: r2's once
    ct::Wiped<Transform<P>> r2t;
    k.transforms->transform(r2t->w, tmp->r2.w);
    k.transforms->mul_transforms(u.w, hs[0].w, r2t->w);
    k.transforms->mul_transforms(tmp->t.w, hs[1].w, r2t->w);
  } else {
    k.mul2(u.w, tmp->t.w, ekx.h.w, ekx.s.w, tmp->r2.w);
  }
  for (std::size_t i = 0; i < P::kNWords; i++) u.w[i] ^= tmp->r1.w[i];
  code_encode<P>(v, m);
  for (std::size_t i = 0; i < P::kN1N2Words; i++) v.w[i] ^= tmp->t.w[i] ^ tmp->e.w[i];  // Truncate: low n1*n2 bits
}

// Encrypt (spec §6.2): u = r1 + h*r2, v = Encode(m) + Truncate(s*r2 + e).
template <class P>
void encrypt(const backend::Backend& be, const EncryptionKey<P>& ekx, RingVec<P>& u, CodeVec<P>& v,
             const std::uint8_t m[P::kK], const std::uint8_t theta[32]) {
  ct::Wiped<std::uint8_t[kEncryptXofBytes<P>]> rnd;
  {
    sym::Xof xof(be.keccak_f1600, theta);
    xof.squeeze(*rnd, kEncryptXofBytes<P>);  // r2, then e, then r1
  }
  encrypt_from_xof<P>(be, ekx, u, v, m, *rnd);
}

// Decrypt (spec §6.3): m = Decode(v + Truncate(u*y)). yt, if not nullptr, is the transform of y
// kept for be's table (KeptTransforms::for_table), so that table has transforms.
template <class P>
void decrypt(const backend::Backend& be, std::uint8_t m[P::kK], const RingVec<P>& y, const RingVec<P>& u,
             const CodeVec<P>& v, const Transform<P>* yt = nullptr) {
  const auto& k = be.kernels<P>();
  ct::Wiped<RingVec<P>> uy;
  if (yt != nullptr)
    k.transforms->mul_transform_plain(uy->w, yt->w, u.w);
  else
    k.mul(uy->w, u.w, y.w);
  ct::Wiped<CodeVec<P>> recv;
  for (std::size_t i = 0; i < P::kN1N2Words; i++) recv->w[i] = v.w[i] ^ uy->w[i];
  code_decode<P>(k, m, *recv);
}

}  // namespace hqc::pke
