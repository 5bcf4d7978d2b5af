// Several one-shot sponges side by side (SpongeLanes), and an XOF whose first bytes were squeezed
// that way (XofWithPrefix). The sponges are those of sym/oracles.hpp, described once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "backend/ops.hpp"
#include "common/ct.hpp"
#include "common/mem.hpp"
#include "sym/keccak.hpp"
#include "sym/oracles.hpp"

namespace hqc::sym {

// Up to four independent one-shot Keccak sponges run side by side: each lane absorbs its input
// parts and squeezes its output exactly like sym::Sponge (same bytes), but every permutation
// step runs all busy lanes through one Backend::keccak_f1600_x4 call (a single busy lane through
// keccak_f1600). A lane can be started while others are running, so a sponge that depends on
// another one's output (G, then the XOF of theta) can share the steps of a long one (J).
// Loop bounds depend only on lengths, never on data.
class SpongeLanes {
 public:
  static constexpr int kLanes = 4;
  static constexpr std::size_t kMaxParts = 5;
  explicit SpongeLanes(const backend::Backend& be) : be_(be), perm_(be) {}
  ~SpongeLanes() { ct::wipe(lanes_, sizeof(lanes_)); }
  SpongeLanes(const SpongeLanes&) = delete;
  SpongeLanes& operator=(const SpongeLanes&) = delete;

  struct Part {
    const std::uint8_t* p;
    std::size_t len;
  };
  // Starts oracle o in an idle lane: absorbs the parts (at most kMaxParts - 1) and o's domain
  // byte, then squeezes out_len bytes into out.
  void start(int lane, const Oracle& o, std::initializer_list<Part> parts, std::uint8_t* out, std::size_t out_len) {
    Lane& l = begin(lane, o.sponge, parts, out, out_len);
    l.domain = o.domain;
    l.parts[l.nparts++] = Part{&l.domain, 1};
  }
  // Starts a plain sponge of `kind` in an idle lane: absorbs the parts (at most kMaxParts), then
  // squeezes out_len bytes into out.
  void start(int lane, SpongeKind kind, std::initializer_list<Part> parts, std::uint8_t* out, std::size_t out_len) {
    begin(lane, kind, parts, out, out_len);
  }
  bool busy(int lane) const { return lanes_[lane].phase != kIdle; }
  // One step: every absorbing lane takes its next block (and pads after the last byte), every
  // squeezing lane emits its next output block; then one permutation of the lanes that need it.
  void step() {
    bool need[kLanes] = {};
    int count = 0;
    for (int i = 0; i < kLanes; i++) {
      Lane& l = lanes_[i];
      if (l.phase == kAbsorb) {
        absorb_block(l);
        need[i] = true;
      } else if (l.phase == kSqueeze) {
        const std::size_t take = l.out_len - l.out_off < l.rate ? l.out_len - l.out_off : l.rate;
        squeeze_block(l, l.out + l.out_off, take);
        l.out_off += take;
        if (l.out_off < l.out_len) need[i] = true;
        else l.phase = kIdle;
      }
      count += need[i] ? 1 : 0;
    }
    if (count == 0) return;
    if (interleaved()) {  // the states are in the interleaved form (sym::lanes)
      for (int i = 0; i < kLanes; i++)
        if (need[i]) perm_.interleaved(words(lanes_[i]));
      return;
    }
    std::uint64_t* s[kLanes];
    for (int i = 0; i < kLanes; i++) s[i] = need[i] ? lanes_[i].st : nullptr;
    if (count == 1) {  // a multi-state permutation may cost more for one state
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
    Part parts[kMaxParts];
    std::size_t nparts, part, off;  // position in the input parts
    std::uint8_t* out;
    std::size_t out_len, out_off;
    std::uint8_t pad, domain;
    Phase phase = kIdle;
  };
  Lane& begin(int lane, SpongeKind kind, std::initializer_list<Part> parts, std::uint8_t* out, std::size_t out_len) {
    Lane& l = lanes_[lane];
    mem::zero(l.st, sizeof(l.st));
    l.rate = kind.rate;
    l.pad = kind.pad;
    l.nparts = 0;
    for (const Part& p : parts) l.parts[l.nparts++] = p;
    l.part = 0;
    l.off = 0;
    l.out = out;
    l.out_len = out_len;
    l.out_off = 0;
    l.phase = kAbsorb;
    return l;
  }
  bool interleaved() const { return perm_.interleaved != nullptr; }
  static lanes::Word* words(Lane& l) { return reinterpret_cast<lanes::Word*>(l.st); }
  // XORs the next `rate` input bytes into the state (in the permutation's form, sym::lanes): runs
  // of whole lanes straight from a part, a lane that spans parts (or the input's end) gathered
  // byte by byte; pads (and switches to squeezing) when the input ends inside this block.
  void absorb_block(Lane& l) const {
    const bool il = interleaved();
    std::size_t pos = 0;
    bool ended = false;
    while (pos < l.rate && !ended) {
      if (l.part < l.nparts) {
        const Part& p = l.parts[l.part];
        std::size_t n = (p.len - l.off) / 8;
        if (n > (l.rate - pos) / 8) n = (l.rate - pos) / 8;
        if (n > 0) {
          lanes::xor_in(l.st, perm_, pos / 8, p.p + l.off, n);  // little-endian lanes
          pos += 8 * n;
          l.off += 8 * n;
          if (l.off == p.len) {
            l.part++;
            l.off = 0;
          }
          continue;
        }
      }
      std::uint64_t v = 0;
      std::size_t got = 0;
      while (got < 8 && l.part < l.nparts) {
        const Part& p = l.parts[l.part];
        if (l.off == p.len) {  // this part is used up (or empty)
          l.part++;
          l.off = 0;
          continue;
        }
        v |= static_cast<std::uint64_t>(p.p[l.off]) << (8 * got);
        got++;
        l.off++;
      }
      if (got < 8) {  // input exhausted inside this lane: FIPS 202 padding
        v ^= static_cast<std::uint64_t>(l.pad) << (8 * got);
        ended = true;
      }
      lanes::xor_lane(l.st, il, pos / 8, v);
      pos += 8;
    }
    if (ended) {
      lanes::xor_lane(l.st, il, (l.rate - 1) / 8, std::uint64_t{0x80} << (8 * ((l.rate - 1) % 8)));
      l.phase = kSqueeze;
    }
  }
  // out[0 .. take) = the first take bytes of the state's rate: whole lanes, then the bytes of one.
  void squeeze_block(Lane& l, std::uint8_t* out, std::size_t take) const {
    const bool il = interleaved();
    lanes::read_out(l.st, perm_, 0, out, take / 8);
    if (take % 8 != 0) lanes::read_bytes(l.st, il, take - take % 8, out + (take - take % 8), take % 8);
  }

  const backend::Backend& be_;
  Permutation perm_;  // be_'s permutations: perm_.interleaved decides the states' form
  Lane lanes_[kLanes];
};

// XOF(seed) of which the first `len` bytes were already squeezed (side by side with another
// sponge, SpongeLanes) into `prefix`: serves those, and only if a reader wants more, restarts
// XOF(seed) and skips the prefix. Whether that happens depends on how many bytes the reader
// takes, which for the key-generation sampler is its public accept pattern (spec §8).
class XofWithPrefix {
 public:
  XofWithPrefix(Permutation f, const std::uint8_t seed[32], const std::uint8_t* prefix, std::size_t len)
      : seed_(seed), prefix_(prefix), len_(len), rest_(f) {}
  ~XofWithPrefix() = default;
  XofWithPrefix(const XofWithPrefix&) = delete;
  XofWithPrefix& operator=(const XofWithPrefix&) = delete;
  void squeeze(std::uint8_t* out, std::size_t n) {
    const std::size_t take = n < len_ - off_ ? n : len_ - off_;
    mem::copy(out, prefix_ + off_, take);
    off_ += take;
    if (take == n) return;
    if (!restarted_) {  // rest_ becomes XOF(seed) (sym::Xof), advanced past the prefix
      restarted_ = true;
      rest_.absorb(seed_, 32);
      rest_.absorb_byte(kOracleXof.domain);
      std::uint8_t skip[64];
      for (std::size_t done = 0; done < len_; done += sizeof(skip))
        rest_.squeeze(skip, len_ - done < sizeof(skip) ? len_ - done : sizeof(skip));
      ct::wipe(skip, sizeof(skip));
    }
    rest_.squeeze(out + take, n - take);
  }
  bool used_rest() const { return restarted_; }

 private:
  const std::uint8_t* seed_;
  const std::uint8_t* prefix_;
  std::size_t len_, off_ = 0;
  bool restarted_ = false;
  Shake256 rest_;  // kOracleXof's sponge, absorbed only on restart
};

}  // namespace hqc::sym
