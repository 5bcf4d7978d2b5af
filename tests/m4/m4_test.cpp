// Test image (label m4), run on the emulated Cortex-M4: the device build's behaviour that the KAT
// image does not cover. Prints one line per failed check and a summary; exit status 0 only if
// every check passed.
//  1. Kernels: Keccak-f[1600] (FIPS 202 digests); the portable kernels against independent
//     references (ring product by a sparse vector as a sum of rotations, support expansion bit by
//     bit, RM and RS decoding of encoded words with errors); every other row of the device's
//     static table against portable on random and edge inputs.
//  2. Round trips at every level, stateless and with key objects in caller storage.
//  3. Hostile ciphertexts: the key equals J(H(pk), sigma, ct), computed here from the sponge.
//  4. Public keys with padding bits set are rejected (spec §13).
//  5. Randomness: no hook, a failing hook, a working hook.
// Argument seed=N (default 0, what ctest runs) varies every random input: scripts/m4-soak.sh runs
// the image for many seeds.
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "backend/device.hpp"
#include "backend/fafft/plan.hpp"
#include "backend/m4/fafft_m4.hpp"
#include "backend/m4/ring_mul_m4.hpp"
#include "backend/m4/support_route_m4.hpp"
#include "code/reed_muller.hpp"
#include "code/reed_solomon.hpp"
#include "hqc/hqc.h"
#include "m4_support.hpp"
#include "pke/ring.hpp"
#include "sym/keccak.hpp"
#include "sym/oracles.hpp"
#include "sym/sponge_lanes.hpp"

namespace {

using namespace hqc;
using m4::check;

// The run's seed (argument seed=N). 0 keeps the streams of the fixed inputs that ctest runs.
std::uint32_t g_seed = 0;

// Deterministic test randomness (public test data): a SHAKE256 stream of the tag, followed by the
// run's seed (four bytes, little-endian) unless that is 0.
class TestRng {
 public:
  explicit TestRng(std::uint8_t tag) : prng_(TestRng::make(tag)) {}
  void fill(void* p, std::size_t n) { prng_.read(static_cast<std::uint8_t*>(p), n); }
  std::uint32_t below(std::uint32_t bound) {
    std::uint32_t r;
    fill(&r, sizeof(r));
    return r % bound;
  }

 private:
  static sym::Prng make(std::uint8_t tag) {
    const std::uint8_t in[5] = {tag, static_cast<std::uint8_t>(g_seed), static_cast<std::uint8_t>(g_seed >> 8),
                                static_cast<std::uint8_t>(g_seed >> 16), static_cast<std::uint8_t>(g_seed >> 24)};
    return sym::Prng(backend::device_portable().keccak_f1600, in, g_seed == 0 ? 1 : sizeof in);
  }
  sym::Prng prng_;
};

// ---- 1. Kernels

bool digest_is(const std::uint8_t d[32], const char* hex) {
  static const char kHex[] = "0123456789abcdef";
  for (int i = 0; i < 32; i++)
    if (hex[2 * i] != kHex[d[i] >> 4] || hex[2 * i + 1] != kHex[d[i] & 15]) return false;
  return true;
}

void test_keccak() {
  for (const backend::Backend* be : backend::device_backends()) {
    std::uint8_t d[32];
    sym::sha3_256(be->keccak_f1600, d, nullptr, 0);
    check(digest_is(d, "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a"), "SHA3-256(\"\")");
    const std::uint8_t abc[3] = {'a', 'b', 'c'};
    sym::sha3_256(be->keccak_f1600, d, abc, 3);
    check(digest_is(d, "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"), "SHA3-256(\"abc\")");
    std::uint64_t s[4][25];
    std::uint64_t t[4][25];
    TestRng rng(1);
    rng.fill(s, sizeof(s));
    std::memcpy(t, s, sizeof(s));
    be->keccak_f1600_x4(s[0], s[1], s[2], s[3]);
    for (auto& st : t) backend::device_portable().keccak_f1600(st);
    check(std::memcmp(s, t, sizeof(s)) == 0, "keccak_f1600_x4 = four keccak_f1600");
    // The one-state permutation against portable's: random states, then the edge states all-zero,
    // all-one, bit 0 of lane 0 alone, and the top bit of lane 24 with bit 31 of lane 12; each
    // permuted twice in a row.
    for (int i = 0; i < 16; i++) {
      std::uint64_t u[25];
      std::uint64_t v[25];
      if (i < 12) {
        rng.fill(u, sizeof(u));
      } else {
        for (auto& l : u) l = i == 13 ? ~std::uint64_t{0} : 0;
      }
      if (i == 14) u[0] = 1;
      if (i == 15) {
        u[24] = std::uint64_t{1} << 63;
        u[12] = std::uint64_t{1} << 31;
      }
      std::memcpy(v, u, sizeof(u));
      be->keccak_f1600(u);
      be->keccak_f1600(u);
      backend::device_portable().keccak_f1600(v);
      backend::device_portable().keccak_f1600(v);
      check(std::memcmp(u, v, sizeof(u)) == 0, "keccak_f1600 = portable's (random and edge states)");
      // The interleaved entry (optional slot) on the same state in the interleaved form.
      if (be->keccak_f1600_interleaved != nullptr) {
        std::uint32_t a[50], b[50];
        for (int l = 0; l < 25; l++) sym::interleave_lane(u[l], a[2 * l], a[2 * l + 1]);
        std::memcpy(b, a, sizeof(a));
        be->keccak_f1600_interleaved(a);
        be->keccak_f1600_interleaved(a);
        sym::keccak_f1600_interleaved_portable(b);
        sym::keccak_f1600_interleaved_portable(b);
        check(std::memcmp(a, b, sizeof(a)) == 0, "keccak_f1600_interleaved = portable's (random and edge states)");
      }
    }
  }
}

// The lane conversions of the interleaved form (optional slots) against the portable ones: every
// count of lanes 1 .. 25, at every byte offset 0 .. 7 of the byte string, on random lanes and the
// edge lanes all ones and single bits; the bytes around the output are left alone.
void test_lane_conversions() {
  TestRng rng(11);
  for (const backend::Backend* be : backend::device_backends()) {
    if (be->keccak_xor_lanes_interleaved == nullptr && be->keccak_read_lanes_interleaved == nullptr) continue;
    check(be->keccak_xor_lanes_interleaved != nullptr && be->keccak_read_lanes_interleaved != nullptr &&
              be->keccak_f1600_interleaved != nullptr,
          "lane conversions come with the interleaved permutation, both of them");
    for (std::size_t n = 1; n <= 25; n++) {
      for (std::size_t off = 0; off < 8; off++) {
        std::uint8_t in[8 * 25 + 8], out_a[8 * 25 + 16], out_b[8 * 25 + 16];
        std::uint32_t a[50], b[50];
        rng.fill(in, sizeof(in));
        rng.fill(a, sizeof(a));
        if (off == 1) std::memset(in, 0xFF, sizeof(in));
        if (off == 2) {
          std::memset(in, 0, sizeof(in));
          for (std::size_t i = 0; i < n; i++) in[off + 8 * i + i % 8] = static_cast<std::uint8_t>(1u << (i % 8));
        }
        std::memcpy(b, a, sizeof(a));
        be->keccak_xor_lanes_interleaved(a, in + off, n);
        sym::xor_lanes_interleaved_portable(b, in + off, n);
        check(std::memcmp(a, b, sizeof(a)) == 0, "keccak_xor_lanes_interleaved = portable's (counts, offsets)");
        std::memset(out_a, 0x5A, sizeof(out_a));
        std::memset(out_b, 0x5A, sizeof(out_b));
        be->keccak_read_lanes_interleaved(out_a + off, a, n);
        sym::read_lanes_interleaved_portable(out_b + off, b, n);
        check(std::memcmp(out_a, out_b, sizeof(out_a)) == 0,
              "keccak_read_lanes_interleaved = portable's (counts, offsets; nothing outside written)");
      }
    }
  }
}

// The sponges through the backend (sym::Permutation: the m4 row's keep their states interleaved)
// against the portable permutation's: every input length 0 .. 3 blocks absorbed in two pieces
// split at a varying point, every output length up to two blocks squeezed in two pieces, for the
// rates of SHA3-256/SHAKE256 (136) and SHA3-512 (72); SpongeLanes with inputs in three parts.
void test_sponges() {
  const backend::Backend& ref = backend::device_portable();
  TestRng rng(7);
  std::uint8_t in[3 * 136 + 8], want[2 * 136], got[2 * 136];
  rng.fill(in, sizeof(in));
  for (const backend::Backend* be : backend::device_backends()) {
    for (const sym::SpongeKind kind : {sym::kShake256, sym::kSha3_512}) {
      for (std::size_t len = 0; len <= 3 * 136; len++) {
        const std::size_t cut = (len * 7) % (len + 1), outlen = 1 + (len * 13) % (2 * 136), ocut = (len * 5) % outlen;
        sym::Sponge a(ref.keccak_f1600, kind), b(*be, kind);
        a.absorb(in, len);
        b.absorb(in, cut);
        b.absorb(in + cut, len - cut);
        a.squeeze(want, outlen);
        b.squeeze(got, ocut);
        b.squeeze(got + ocut, outlen - ocut);
        check(std::memcmp(want, got, outlen) == 0, "Sponge through the backend = portable's (every length, split)");
      }
    }
    for (std::size_t len = 0; len <= 3 * 136; len += 3) {
      const std::size_t c1 = (len * 3) % (len + 1), c2 = c1 + (len * 11) % (len - c1 + 1);
      const std::size_t outlen = 32 + (len * 17) % 300;
      sym::SpongeLanes lanes(*be);
      std::uint8_t h[32], x[332], wh[32], wx[332];
      lanes.start(0, sym::kSha3_256, {{in, c1}, {in + c1, c2 - c1}, {in + c2, len - c2}}, h, 32);
      lanes.start(1, sym::kShake256, {{in + 1, len}}, x, outlen);
      lanes.run_all();
      sym::sha3_256(ref.keccak_f1600, wh, in, len);
      sym::shake256(ref.keccak_f1600, wx, outlen, in + 1, len);
      check(std::memcmp(h, wh, 32) == 0 && std::memcmp(x, wx, outlen) == 0,
            "SpongeLanes through the backend = portable's sponges (parts split anywhere)");
    }
  }
}

template <class P>
bool get_bit(const std::uint64_t* v, std::size_t i) {
  return ((v[i / 64] >> (i % 64)) & 1) != 0;
}
template <class P>
void flip_bit(std::uint64_t* v, std::size_t i) {
  v[i / 64] ^= std::uint64_t{1} << (i % 64);
}

template <class P>
void random_ring(pke::RingVec<P>& v, TestRng& rng) {
  std::memset(v.w, 0, sizeof(v.w));
  rng.fill(v.w, P::kNWords * 8);
  v.w[P::kNWords - 1] &= P::kLastWordMask;
}

// pos[first, w) drawn at random, distinct from each other and from pos[0, first).
template <class P>
void random_support(std::uint32_t* pos, std::size_t w, TestRng& rng, std::size_t first = 0) {
  for (std::size_t i = first; i < w; i++) {
    bool again = true;
    while (again) {
      pos[i] = rng.below(static_cast<std::uint32_t>(P::kN));
      again = false;
      for (std::size_t j = 0; j < i; j++) again = again || pos[j] == pos[i];
    }
  }
}

// a * (sum of x^pos[k]) mod x^n - 1, bit by bit.
template <class P>
void ref_mul_sparse(pke::RingVec<P>& out, const pke::RingVec<P>& a, const std::uint32_t* pos, std::size_t w) {
  std::memset(out.w, 0, sizeof(out.w));
  for (std::size_t k = 0; k < w; k++)
    for (std::size_t j = 0; j < P::kN; j++)
      if (get_bit<P>(a.w, j)) flip_bit<P>(out.w, (j + pos[k]) % P::kN);
}

// A transform multiplier against portable's mul: transform, mul_transforms and mul_transform_plain
// (both ways round) on random operands, a zero one, an all-ones one, and x^(n-1) * x^(n-1) =
// x^(n-2) (the product's top coefficient, which wraps). A transform must stay within its `words`
// 64-bit words (the words after them keep a guard pattern).
template <class P>
void check_transform_multiplier(const backend::TransformMultiplier<P>& t, std::size_t words, TestRng& rng,
                                const char* what) {
  const auto& ref = backend::device_portable().kernels<P>();
  static pke::RingVec<P> a, b, r1, r2, r3;
  constexpr std::size_t kMax = std::max(backend::kTransformWords<P>, backend::fafft::kTransformWords<P>) + 8;
  alignas(64) static std::uint64_t ta[kMax], tb[kMax];
  check(words + 8 <= kMax, "the transform's size is known");
  for (std::size_t i = words; i < kMax; i++) ta[i] = tb[i] = 0xA5A5A5A5A5A5A5A5u ^ i;
  bool ok = true;
  for (int trial = 0; trial < 4; trial++) {
    random_ring<P>(a, rng);
    random_ring<P>(b, rng);
    if (trial == 1) std::memset(b.w, 0, sizeof(b.w));
    if (trial == 2)
      for (std::size_t i = 0; i < P::kNWords; i++) a.w[i] = i + 1 == P::kNWords ? P::kLastWordMask : ~std::uint64_t{0};
    if (trial == 3) {
      std::memset(a.w, 0, sizeof(a.w));
      flip_bit<P>(a.w, P::kN - 1);
      std::memcpy(b.w, a.w, sizeof(b.w));
    }
    t.transform(ta, a.w);
    t.transform(tb, b.w);
    ref.mul(r2.w, a.w, b.w);
    t.mul_transforms(r1.w, ta, tb);
    ok = ok && std::memcmp(r1.w, r2.w, sizeof(r1.w)) == 0;
    t.mul_transform_plain(r3.w, ta, b.w);
    ok = ok && std::memcmp(r3.w, r2.w, sizeof(r3.w)) == 0;
    t.mul_transform_plain(r3.w, tb, a.w);
    ok = ok && std::memcmp(r3.w, r2.w, sizeof(r3.w)) == 0;
  }
  bool guarded = true;
  for (std::size_t i = words; i < kMax; i++) guarded = guarded && ta[i] == (0xA5A5A5A5A5A5A5A5u ^ i) && tb[i] == ta[i];
  check(ok, what);
  check(guarded, "a transform stays within its words");
}

template <class P>
void test_kernels_level(TestRng& rng) {
  const auto& ref = backend::device_portable().kernels<P>();
  static pke::RingVec<P> a, b, r1, r2, r3, r4;
  static std::uint32_t pos[P::kWr];
  // The portable kernels against independent references.
  for (int trial = 0; trial < 3; trial++) {
    random_ring<P>(a, rng);
    if (trial == 0) {  // edges: positions 0 and n-1 (the others distinct from them), a with every bit set
      pos[0] = 0;
      pos[1] = static_cast<std::uint32_t>(P::kN - 1);
      random_support<P>(pos, P::kWr, rng, 2);
      for (std::size_t i = 0; i < P::kNWords; i++) a.w[i] = ~std::uint64_t{0};
      a.w[P::kNWords - 1] = P::kLastWordMask;
    } else {
      random_support<P>(pos, P::kWr, rng);
    }
    ref.support_to_vector(b.w, pos, P::kWr);
    std::memset(r1.w, 0, sizeof(r1.w));
    for (std::size_t k = 0; k < P::kWr; k++) flip_bit<P>(r1.w, pos[k]);
    check(std::memcmp(b.w, r1.w, sizeof(b.w)) == 0, "portable support_to_vector = bit by bit");
    ref.mul(r1.w, a.w, b.w);
    ref_mul_sparse<P>(r2, a, pos, P::kWr);
    check(std::memcmp(r1.w, r2.w, sizeof(r1.w)) == 0, "portable mul = sum of rotations");
    ref.mul(r3.w, b.w, a.w);
    check(std::memcmp(r1.w, r3.w, sizeof(r1.w)) == 0, "portable mul commutes");
  }
  {  // RM and RS: encode, add errors within capacity, decode.
    std::uint8_t msg[P::kK], cw[P::kN1], dec_cw[P::kN1], dec_msg[P::kK];
    static pke::CodeVec<P> word;
    rng.fill(msg, sizeof(msg));
    code::rs_encode<P>(cw, msg);
    std::memcpy(dec_cw, cw, sizeof(cw));
    for (std::size_t e = 0; e < P::kDelta; e++) dec_cw[(e * 7) % P::kN1] ^= static_cast<std::uint8_t>(1 + e);
    ref.rs_decode(dec_msg, dec_cw);
    check(std::memcmp(dec_msg, msg, sizeof(msg)) == 0, "portable rs_decode corrects delta errors");
    code::rm_encode<P>(word.w, cw);
    for (std::size_t j = 0; j < P::kN1; j++)  // a few bit errors in every block
      for (std::size_t e = 0; e < 5 * P::kMult; e++)
        word.w[j * (P::kN2 / 64) + (e % (P::kN2 / 64))] ^= std::uint64_t{1} << ((e * 13 + j) % 64);
    ref.rm_decode(dec_cw, word.w);
    check(std::memcmp(dec_cw, cw, sizeof(cw)) == 0, "portable rm_decode corrects errors");
  }
  // The m4 FAFFT on 2^m bits at every level (the m4 row keeps its transforms at HQC-5; the
  // benchmark measures it at every level), and at HQC-1 and HQC-3 the 2^(m-1)-bit one with the CRT
  // step.
  const backend::TransformMultiplier<P> fafft{&backend::m4::fafft::forward<P>, &backend::m4::fafft::mul_transformed<P>,
                                              &backend::m4::fafft::mul_transformed_plain<P>, false};
  check_transform_multiplier<P>(fafft, backend::fafft::kTransformWords<P>, rng,
                                "m4 FAFFT transform, mul_transforms, mul_transform_plain = portable mul");
  if constexpr (P::kLevel != 5) {
    const backend::TransformMultiplier<P> crt{&backend::m4::fafft::forward_crt<P>,
                                              &backend::m4::fafft::mul_transformed_crt<P>,
                                              &backend::m4::fafft::mul_transformed_plain_crt<P>, false};
    check_transform_multiplier<P>(crt, backend::kTransformWords<P>, rng,
                                  "m4 FAFFT-CRT transform, mul_transforms, mul_transform_plain = portable mul");
  }
  // The FAFFT's one-shot mul and mul2 (and the CRT form's), which the row takes where they
  // measure faster, at every level: random operands, one all ones, one zero.
  for (int trial = 0; trial < 3; trial++) {
    random_ring<P>(a, rng);
    random_ring<P>(b, rng);
    if (trial == 1)
      for (std::size_t i = 0; i < P::kNWords; i++) a.w[i] = i + 1 == P::kNWords ? P::kLastWordMask : ~std::uint64_t{0};
    if (trial == 2) std::memset(b.w, 0, sizeof(b.w));
    ref.mul(r2.w, a.w, b.w);
    ref.mul(r4.w, b.w, b.w);
    backend::m4::fafft::mul<P>(r1.w, a.w, b.w);
    check(std::memcmp(r1.w, r2.w, sizeof(r1.w)) == 0, "m4 FAFFT mul = portable");
    backend::m4::fafft::mul2<P>(r1.w, r3.w, a.w, b.w, b.w);
    check(std::memcmp(r1.w, r2.w, sizeof(r1.w)) == 0 && std::memcmp(r3.w, r4.w, sizeof(r3.w)) == 0,
          "m4 FAFFT mul2 = portable");
    if constexpr (P::kLevel != 5) {
      backend::m4::fafft::mul_crt<P>(r1.w, a.w, b.w);
      check(std::memcmp(r1.w, r2.w, sizeof(r1.w)) == 0, "m4 FAFFT-CRT mul = portable");
      backend::m4::fafft::mul2_crt<P>(r1.w, r3.w, a.w, b.w, b.w);
      check(std::memcmp(r1.w, r2.w, sizeof(r1.w)) == 0 && std::memcmp(r3.w, r4.w, sizeof(r3.w)) == 0,
            "m4 FAFFT-CRT mul2 = portable");
    }
  }
  // Every other row of the device table against portable, on random and edge inputs.
  for (const backend::Backend* be : backend::device_backends()) {
    if (be == &backend::device_portable()) continue;
    const auto& k = be->kernels<P>();
    if (k.transforms != nullptr)
      check_transform_multiplier<P>(*k.transforms, backend::kTransformWords<P>, rng,
                                    "row transform, mul_transforms, mul_transform_plain = portable mul");
    for (int trial = 0; trial < 4; trial++) {
      random_ring<P>(a, rng);
      random_ring<P>(b, rng);
      if (trial == 1) std::memset(b.w, 0, sizeof(b.w));
      if (trial == 2)
        for (std::size_t i = 0; i < P::kNWords; i++)
          a.w[i] = i + 1 == P::kNWords ? P::kLastWordMask : ~std::uint64_t{0};
      k.mul(r1.w, a.w, b.w);
      ref.mul(r2.w, a.w, b.w);
      check(std::memcmp(r1.w, r2.w, sizeof(r1.w)) == 0, "row mul = portable");
      k.mul2(r1.w, r3.w, a.w, b.w, a.w);
      ref.mul(r2.w, a.w, a.w);
      ref.mul(r4.w, b.w, a.w);
      check(std::memcmp(r1.w, r2.w, sizeof(r1.w)) == 0 && std::memcmp(r3.w, r4.w, sizeof(r3.w)) == 0,
            "row mul2 = portable");
      random_support<P>(pos, P::kWr, rng);
      k.support_to_vector(r1.w, pos, P::kWr);
      ref.support_to_vector(r2.w, pos, P::kWr);
      check(std::memcmp(r1.w, r2.w, sizeof(r1.w)) == 0, "row support_to_vector = portable");
      if (trial == 0) {
        // Edge inputs of support_to_vector (the m4 row's routing networks sort the positions,
        // merge those of one 128-bit block and compact the merged items): every w from 0 to kWr;
        // positions in the last bits of the vector and in one word; repeated positions, adjacent
        // and apart (OR semantics, as portable); runs of positions a few bits apart, so that many
        // items merge and the compaction moves items by every amount; an output buffer holding
        // garbage beforehand.
        for (std::size_t w = 0; w <= P::kWr; w++) {
          for (int pattern = 0; pattern < 5; pattern++) {
            random_support<P>(pos, P::kWr, rng);
            for (std::size_t i = 0; i < w; i++) {
              if (pattern == 1) pos[i] = static_cast<std::uint32_t>(P::kN - 1 - i);                     // the last bits
              if (pattern == 2) pos[i] = static_cast<std::uint32_t>(32 * (P::kN / 64) + i % 32);        // few words
              if (pattern == 3 && i % 3 == 2) pos[i] = pos[i / 2];                                      // repeats
              if (pattern == 4) pos[i] = static_cast<std::uint32_t>(P::kN / 3 + 5 * i + (i / 7) * 97);  // dense runs
            }
            std::memset(r1.w, 0xA5, sizeof(r1.w));
            std::memset(r2.w, 0x5A, sizeof(r2.w));
            k.support_to_vector(r1.w, pos, w);
            ref.support_to_vector(r2.w, pos, w);
            check(std::memcmp(r1.w, r2.w, sizeof(r1.w)) == 0, "row support_to_vector = portable (edges)");
          }
        }
      }
      std::uint8_t xof[4 * P::kWr];
      rng.fill(xof, sizeof(xof));
      std::uint32_t p1[P::kWr], p2[P::kWr];
      k.enc_positions(p1, xof, P::kWr);
      ref.enc_positions(p2, xof, P::kWr);
      check(std::memcmp(p1, p2, sizeof(p1)) == 0, "row enc_positions = portable");
      {
        // Weights outside the samplers' own (w = 1, one position and no fix-up; and above the
        // largest, beyond the m4 row's scratch, which hands them to the portable kernel), and a
        // key-generation refill of no draws or past the weight: the same positions and counts.
        constexpr std::size_t kBig = std::max(P::kWr, P::kWe) + 3;
        std::uint8_t bytes[4 * kBig];
        rng.fill(bytes, sizeof(bytes));
        std::uint32_t b1[kBig], b2[kBig];
        bool same = true;
        for (std::size_t w : {std::size_t{1}, std::size_t{2}, kBig}) {
          k.enc_positions(b1, bytes, w);
          ref.enc_positions(b2, bytes, w);
          same &= std::memcmp(b1, b2, w * sizeof(b1[0])) == 0;
        }
        check(same, "row enc_positions = portable (w = 1, 2, above the largest weight)");
        std::uint32_t q3[P::kW + 3] = {}, q4[P::kW + 3] = {};
        const std::size_t n0 = k.keygen_accept(q3, 0, bytes, 0), n1 = ref.keygen_accept(q4, 0, bytes, 0);
        const std::size_t h1 = k.keygen_accept(q3, P::kW - 2, bytes, 5),
                          h2 = ref.keygen_accept(q4, P::kW - 2, bytes, 5);
        check(n0 == 0 && n1 == 0 && h1 == h2 && std::memcmp(q3, q4, sizeof(q3)) == 0,
              "row keygen_accept = portable (no draws; past the weight)");
      }
      check(k.position_taken(p1, P::kWr, p1[3]) == ref.position_taken(p1, P::kWr, p1[3]) &&
                k.position_taken(p1, P::kWr, static_cast<std::uint32_t>(P::kN)) ==
                    ref.position_taken(p1, P::kWr, static_cast<std::uint32_t>(P::kN)),
            "row position_taken = portable");
      // Every count 0 .. 20 (the m4 row's 8-way loop, its 4-way step and its tail, which compare
      // two positions as the halves of a word), with r at every index or at none; and r = 0, which
      // a half that held no position would match.
      for (std::size_t count = 0; count <= 20; count++) {
        for (std::size_t at = 0; at <= count; at++) {
          const std::uint32_t r = at < count ? p1[at] : static_cast<std::uint32_t>(P::kN);
          check(k.position_taken(p1, count, r) == ref.position_taken(p1, count, r) &&
                    k.position_taken(p1, count, r) == (at < count ? ~std::uint32_t{0} : 0),
                "row position_taken = portable (counts 0 .. 20)");
        }
        std::uint32_t nonzero[20];
        for (std::size_t i = 0; i < count; i++) nonzero[i] = p1[i] | 1;
        check(k.position_taken(nonzero, count, 0) == 0 && ref.position_taken(nonzero, count, 0) == 0,
              "row position_taken = portable (r = 0, absent)");
      }
      std::uint8_t draws[3 * P::kW];
      rng.fill(draws, sizeof(draws));
      std::uint32_t q1[P::kW] = {}, q2[P::kW] = {};
      check(k.keygen_accept(q1, 0, draws, P::kW) == ref.keygen_accept(q2, 0, draws, P::kW) &&
                std::memcmp(q1, q2, sizeof(q1)) == 0,
            "row keygen_accept = portable");
      if (trial == 0) {
        // Duplicates on purpose. The encryption sampler's fix-up: multiply-shift inputs chosen so
        // that position i lands on T_i (r = ceil((T_i - i) 2^32 / (n - i))) for T_i all equal, in
        // runs of three, and i + 1 (each the next one's own index, which a replaced position takes).
        for (int pattern = 0; pattern < 3; pattern++) {
          std::uint8_t rnd[4 * P::kWr];
          for (std::size_t i = 0; i < P::kWr; i++) {
            const std::uint64_t target = pattern == 0   ? P::kN / 2
                                         : pattern == 1 ? P::kN / 3 + i / 3
                                                        : i + 1 - (i % 4 == 3 ? 1 : 0);
            const std::uint64_t r = ((target - i) << 32 | (P::kN - i - 1)) / (P::kN - i);  // ceiling
            for (int t = 0; t < 4; t++) rnd[4 * i + t] = static_cast<std::uint8_t>(r >> (8 * t));
          }
          k.enc_positions(p1, rnd, P::kWr);
          ref.enc_positions(p2, rnd, P::kWr);
          check(std::memcmp(p1, p2, sizeof(p1)) == 0, "row enc_positions = portable (duplicates)");
          check(pattern != 0 || (p1[P::kWr - 1] == P::kN / 2 && p1[0] == 0), "enc_positions: all equal -> indices");
        }
        // The key-generation sampler: draws from a few values (repeats across refills), some at
        // or above the rejection threshold, and fresh values each drawn twice in a row (repeats
        // within a refill), taken in refills of 1 .. 7 groups with the count carried over.
        std::uint8_t few[3 * 4 * P::kW];
        const std::uint32_t values[5] = {17, 17 + static_cast<std::uint32_t>(P::kN), 4242,
                                         static_cast<std::uint32_t>(P::kRejectThreshold),
                                         static_cast<std::uint32_t>(P::kRejectThreshold) + 9};
        for (std::size_t g = 0; g < 4 * P::kW; g++) {
          const std::uint32_t v = g % 4 >= 2 ? static_cast<std::uint32_t>(1000 + 31 * (g / 4)) : values[(g * 7) % 5];
          for (int t = 0; t < 3; t++) few[3 * g + t] = static_cast<std::uint8_t>(v >> (8 * t));
        }
        std::size_t c1 = 0, c2 = 0, at = 0;
        for (std::size_t step = 1; at < 4 * P::kW && c1 < P::kW; step = step % 7 + 1) {
          const std::size_t g = std::min({step, 4 * P::kW - at, P::kW - c1});
          c1 = k.keygen_accept(q1, c1, few + 3 * at, g);
          c2 = ref.keygen_accept(q2, c2, few + 3 * at, g);
          at += g;
          check(c1 == c2 && std::memcmp(q1, q2, c1 * sizeof(q1[0])) == 0,
                "row keygen_accept = portable (repeats, rejections, refills)");
        }
      }
      static pke::CodeVec<P> word;
      rng.fill(word.w, sizeof(word.w));
      std::uint8_t m1[P::kN1], m2[P::kN1];
      k.rm_decode(m1, word.w);
      ref.rm_decode(m2, word.w);
      check(std::memcmp(m1, m2, sizeof(m1)) == 0, "row rm_decode = portable");
      if (trial == 0) {
        // Ties of the largest |F|: block j lies halfway between the codewords of two bytes (32 of
        // the 64 bits where they differ flipped in every copy), and the last block is all zero.
        std::uint8_t b1[P::kN1], b2[P::kN1];
        rng.fill(b1, sizeof(b1));
        for (std::size_t j = 0; j < P::kN1; j++) b2[j] = static_cast<std::uint8_t>(b1[j] ^ (1u << (j % 8)) ^ 0x80);
        static pke::CodeVec<P> w2;
        code::rm_encode<P>(word.w, b1);
        code::rm_encode<P>(w2.w, b2);
        for (std::size_t i = 0; i < P::kN1N2Words; i += 2) {
          int flipped = 0;
          for (std::size_t h = 0; h < 2; h++)
            for (unsigned bit = 0; bit < 64 && flipped < 32; bit++)
              if ((word.w[i + h] ^ w2.w[i + h]) >> bit & 1) {
                word.w[i + h] ^= std::uint64_t{1} << bit;
                flipped++;
              }
        }
        for (std::size_t i = P::kN1N2Words - P::kN2 / 64; i < P::kN1N2Words; i++) word.w[i] = 0;
        k.rm_decode(m1, word.w);
        ref.rm_decode(m2, word.w);
        check(std::memcmp(m1, m2, sizeof(m1)) == 0, "row rm_decode = portable (ties of the largest |F|, zero block)");
      }
      std::uint8_t c[P::kN1], d1[P::kK], d2[P::kK];
      rng.fill(c, sizeof(c));
      k.rs_decode(d1, c);
      ref.rs_decode(d2, c);
      check(std::memcmp(d1, d2, sizeof(d1)) == 0, "row rs_decode = portable");
      std::uint8_t e1[P::kN1], e2[P::kN1];
      k.rs_encode(e1, d1);
      ref.rs_encode(e2, d1);
      check(std::memcmp(e1, e2, sizeof(e1)) == 0, "row rs_encode = portable");
    }
    // Reed-Solomon edge inputs: codewords with 0, 1, delta / 2, delta (decodable) and delta + 1,
    // delta + 3 errors (not decodable: the rows must still give portable's bytes), errors at
    // distinct positions (stride 11 is prime to every n1) and with every value 1..255 in turn.
    for (std::size_t errors :
         {std::size_t{0}, std::size_t{1}, P::kDelta / 2, P::kDelta, P::kDelta + 1, P::kDelta + 3}) {
      std::uint8_t msg[P::kK], c1[P::kN1], c2[P::kN1], d1[P::kK], d2[P::kK];
      rng.fill(msg, sizeof(msg));
      if (errors == 1) std::memset(msg, 0xFF, sizeof(msg));
      k.rs_encode(c1, msg);
      ref.rs_encode(c2, msg);
      check(std::memcmp(c1, c2, sizeof(c1)) == 0, "row rs_encode = portable (edge messages)");
      for (std::size_t e = 0; e < errors; e++)
        c1[(e * 11) % P::kN1] ^= static_cast<std::uint8_t>(1 + (e * 37 + errors) % 255);
      k.rs_decode(d1, c1);
      ref.rs_decode(d2, c1);
      check(std::memcmp(d1, d2, sizeof(d1)) == 0, "row rs_decode = portable (0 .. delta + 3 errors)");
      if (errors <= P::kDelta) check(std::memcmp(d1, msg, sizeof(msg)) == 0, "row rs_decode corrects delta errors");
    }
  }
}

// ---- 2-5. The KEM through the C API

struct LevelApi {
  int level;
  std::size_t pk_bytes, sk_len, ct_bytes, k;
  int (*keypair)(std::uint8_t*, std::uint8_t*);
  int (*keypair_derand)(std::uint8_t*, std::uint8_t*, const std::uint8_t*);
  int (*encaps)(std::uint8_t*, std::uint8_t*, const std::uint8_t*);
  int (*encaps_derand)(std::uint8_t*, std::uint8_t*, const std::uint8_t*, const std::uint8_t*);
  int (*decaps)(std::uint8_t*, const std::uint8_t*, const std::uint8_t*);
  // Key objects, through type-erased storage of the largest level.
  int (*pk_parse)(void*, const std::uint8_t*);
  int (*pk_prepare)(void*, void*, std::size_t, int*);
  int (*pk_encaps)(const void*, std::uint8_t*, std::uint8_t*);
  int (*pk_encaps_derand)(const void*, std::uint8_t*, std::uint8_t*, const std::uint8_t*);
  int (*sk_generate)(void*, const std::uint8_t*);
  int (*sk_parse)(void*, const std::uint8_t*);
  int (*sk_prepare)(void*, void*, std::size_t, int*);
  int (*sk_decaps)(const void*, std::uint8_t*, const std::uint8_t*);
  int (*sk_public)(const void*, std::uint8_t*);
  int (*sk_bytes)(const void*, std::uint8_t*);
  void (*sk_wipe)(void*);
  std::size_t pk_transforms_bytes, sk_transforms_bytes;
};

#define HQC_LEVEL_API(L)                                                                                             \
  LevelApi {                                                                                                         \
    L, HQC##L##_PUBLIC_KEY_BYTES, HQC##L##_SECRET_KEY_BYTES, HQC##L##_CIPHERTEXT_BYTES, HQC##L##_MESSAGE_BYTES,      \
        &hqc##L##_keypair, &hqc##L##_keypair_derand, &hqc##L##_encaps, &hqc##L##_encaps_derand, &hqc##L##_decaps,    \
        [](void* o, const std::uint8_t* pk) {                                                                        \
          return hqc##L##_public_key_object_parse(static_cast<hqc##L##_public_key_object*>(o), pk);                  \
        },                                                                                                           \
        [](void* o, void* t, std::size_t n, int* p) {                                                                \
          return hqc##L##_public_key_object_prepare(static_cast<hqc##L##_public_key_object*>(o), t, n, p);           \
        },                                                                                                           \
        [](const void* o, std::uint8_t* ct, std::uint8_t* ss) {                                                      \
          return hqc##L##_public_key_object_encaps(static_cast<const hqc##L##_public_key_object*>(o), ct, ss);       \
        },                                                                                                           \
        [](const void* o, std::uint8_t* ct, std::uint8_t* ss, const std::uint8_t* c) {                               \
          return hqc##L##_public_key_object_encaps_derand(static_cast<const hqc##L##_public_key_object*>(o), ct, ss, \
                                                          c);                                                        \
        },                                                                                                           \
        [](void* o, const std::uint8_t* s) {                                                                         \
          return hqc##L##_secret_key_object_generate(static_cast<hqc##L##_secret_key_object*>(o), s);                \
        },                                                                                                           \
        [](void* o, const std::uint8_t* sk) {                                                                        \
          return hqc##L##_secret_key_object_parse(static_cast<hqc##L##_secret_key_object*>(o), sk);                  \
        },                                                                                                           \
        [](void* o, void* t, std::size_t n, int* p) {                                                                \
          return hqc##L##_secret_key_object_prepare(static_cast<hqc##L##_secret_key_object*>(o), t, n, p);           \
        },                                                                                                           \
        [](const void* o, std::uint8_t* ss, const std::uint8_t* ct) {                                                \
          return hqc##L##_secret_key_object_decaps(static_cast<const hqc##L##_secret_key_object*>(o), ss, ct);       \
        },                                                                                                           \
        [](const void* o, std::uint8_t* pk) {                                                                        \
          return hqc##L##_secret_key_object_public(static_cast<const hqc##L##_secret_key_object*>(o), pk);           \
        },                                                                                                           \
        [](const void* o, std::uint8_t* sk) {                                                                        \
          return hqc##L##_secret_key_object_bytes(static_cast<const hqc##L##_secret_key_object*>(o), sk);            \
        },                                                                                                           \
        [](void* o) { hqc##L##_secret_key_object_wipe(static_cast<hqc##L##_secret_key_object*>(o)); },               \
        HQC##L##_PUBLIC_KEY_TRANSFORMS_BYTES, HQC##L##_SECRET_KEY_TRANSFORMS_BYTES                                   \
  }

// Buffers of the largest level, and key objects in static storage (zero-initialised).
std::uint8_t g_pk[HQC5_PUBLIC_KEY_BYTES], g_sk[HQC5_SECRET_KEY_BYTES], g_ct[HQC5_CIPHERTEXT_BYTES];
std::uint8_t g_pk2[HQC5_PUBLIC_KEY_BYTES], g_sk2[HQC5_SECRET_KEY_BYTES], g_ct2[HQC5_CIPHERTEXT_BYTES];
hqc5_public_key_object g_pk_obj;
hqc5_secret_key_object g_sk_obj;
alignas(64) std::uint8_t g_transforms[HQC5_SECRET_KEY_TRANSFORMS_BYTES];

bool all_zero(const std::uint8_t* p, std::size_t n) {
  std::uint8_t acc = 0;
  for (std::size_t i = 0; i < n; i++) acc = static_cast<std::uint8_t>(acc | p[i]);
  return acc == 0;
}

// The test's randomness hook: a SHAKE256 stream; counts its calls. The failing hook writes part
// of its output and fails.
int g_hook_calls = 0;
int good_hook(void* ctx, std::uint8_t* out, std::size_t len) {
  g_hook_calls++;
  static_cast<TestRng*>(ctx)->fill(out, len);
  return 0;
}
int failing_hook(void*, std::uint8_t* out, std::size_t len) {
  g_hook_calls++;
  std::memset(out, 0x77, len / 2);
  return -1;
}

void test_round_trip(const LevelApi& api, TestRng& rng) {
  std::uint8_t ss[32], ss2[32], seed[32], coins[HQC_MAX_ENCAPS_COINS_BYTES];
  hqc_set_randombytes(&good_hook, &rng);
  check(api.keypair(g_pk, g_sk) == HQC_OK, "keypair with a hook");
  check(api.encaps(g_ct, ss, g_pk) == HQC_OK, "encaps with a hook");
  check(api.decaps(ss2, g_ct, g_sk) == HQC_OK && std::memcmp(ss, ss2, 32) == 0, "decaps recovers the key");
  // Key objects in caller storage agree with the stateless functions.
  rng.fill(seed, sizeof(seed));
  rng.fill(coins, sizeof(coins));
  check(api.keypair_derand(g_pk, g_sk, seed) == HQC_OK, "keypair_derand");
  check(api.sk_generate(&g_sk_obj, seed) == HQC_OK, "secret key object generate");
  check(api.sk_public(&g_sk_obj, g_pk2) == HQC_OK && std::memcmp(g_pk, g_pk2, api.pk_bytes) == 0,
        "object's public key = keypair_derand's");
  check(api.sk_bytes(&g_sk_obj, g_sk2) == HQC_OK && std::memcmp(g_sk, g_sk2, api.sk_len) == 0,
        "object's secret key = keypair_derand's");
  check(api.encaps_derand(g_ct, ss, g_pk, coins) == HQC_OK, "encaps_derand");
  check(api.pk_parse(&g_pk_obj, g_pk) == HQC_OK, "public key object parse");
  check(api.pk_encaps_derand(&g_pk_obj, g_ct2, ss2, coins) == HQC_OK && std::memcmp(g_ct, g_ct2, api.ct_bytes) == 0 &&
            std::memcmp(ss, ss2, 32) == 0,
        "object encaps_derand = stateless");
  std::memset(ss2, 0, 32);
  check(api.sk_decaps(&g_sk_obj, ss2, g_ct) == HQC_OK && std::memcmp(ss, ss2, 32) == 0, "object decaps");
  check(api.sk_parse(&g_sk_obj, g_sk) == HQC_OK, "secret key object parse");
  std::memset(ss2, 0, 32);
  check(api.sk_decaps(&g_sk_obj, ss2, g_ct) == HQC_OK && std::memcmp(ss, ss2, 32) == 0, "parsed object decaps");
  check(api.pk_encaps(&g_pk_obj, g_ct2, ss2) == HQC_OK && api.decaps(ss, g_ct2, g_sk) == HQC_OK &&
            std::memcmp(ss, ss2, 32) == 0,
        "object encaps with the hook");
  // Prepare: where the row's multiplier has no transforms (portable) nothing is kept and the buffer
  // is not touched; m4 keeps them at every level (at HQC-1 and HQC-3 the half-size transform with
  // the CRT step).
  const int kept = std::strcmp(hqc_backend_name(), "m4") == 0 ? 1 : 0;
  std::memset(g_transforms, 0x5A, sizeof(g_transforms));
  int prepared = -1;
  const int rc = api.sk_prepare(&g_sk_obj, g_transforms, api.sk_transforms_bytes, &prepared);
  bool untouched = true;
  for (std::uint8_t b : g_transforms) untouched = untouched && b == 0x5A;
  check(rc == HQC_OK && prepared == kept && (kept == 1 || untouched), "prepare into the caller's buffer");
  std::memset(ss2, 0, 32);
  check(api.sk_decaps(&g_sk_obj, ss2, g_ct2) == HQC_OK && std::memcmp(ss, ss2, 32) == 0, "prepared object decaps");
  // The public key object prepared into the same buffer (the secret key object is wiped first:
  // its transforms were there), against the stateless encapsulation of the same coins.
  api.sk_wipe(&g_sk_obj);
  std::uint8_t want[32];
  check(api.decaps(want, g_ct, g_sk) == HQC_OK, "stateless decaps of the coins' ciphertext");
  int pk_prepared = -1;
  check(api.pk_prepare(&g_pk_obj, g_transforms, api.pk_transforms_bytes, &pk_prepared) == HQC_OK && pk_prepared == kept,
        "public key prepare keeps transforms exactly where the row has them");
  check(api.pk_encaps_derand(&g_pk_obj, g_ct2, ss2, coins) == HQC_OK && std::memcmp(g_ct, g_ct2, api.ct_bytes) == 0 &&
            std::memcmp(want, ss2, 32) == 0,
        "prepared object encaps_derand = stateless");
  if (kept == 1) {
    // Where prepare keeps transforms, a buffer too short, misaligned or missing is refused with
    // nothing written to it, nothing kept, and the object still usable.
    api.pk_parse(&g_pk_obj, g_pk);
    int p2 = -1;
    std::memset(g_transforms, 0x5A, sizeof(g_transforms));
    const int short_rc = api.pk_prepare(&g_pk_obj, g_transforms, api.pk_transforms_bytes - 1, &p2);
    const int short_p = p2;
    const int misaligned_rc = api.pk_prepare(&g_pk_obj, g_transforms + 4, api.pk_transforms_bytes, &p2);
    const int misaligned_p = p2;
    const int null_rc = api.pk_prepare(&g_pk_obj, nullptr, api.pk_transforms_bytes, &p2);
    bool untouched_bad = true;
    for (std::uint8_t b : g_transforms) untouched_bad = untouched_bad && b == 0x5A;
    check(short_rc == HQC_ERR_LENGTH && misaligned_rc == HQC_ERR_LENGTH && null_rc == HQC_ERR_NULL_POINTER &&
              short_p == 0 && misaligned_p == 0 && p2 == 0 && untouched_bad,
          "prepare refuses a short, misaligned or missing buffer and writes nothing");
    check(api.pk_encaps_derand(&g_pk_obj, g_ct2, ss2, coins) == HQC_OK && std::memcmp(g_ct, g_ct2, api.ct_bytes) == 0 &&
              std::memcmp(want, ss2, 32) == 0,
          "an object whose prepare was refused encapsulates as before");
    // A larger buffer (here 48 KiB, as large as any hosted build's) is accepted, and the
    // transforms take exactly this build's HQCL_PUBLIC_KEY_TRANSFORMS_BYTES of it.
    std::memset(g_transforms, 0x5A, sizeof(g_transforms));
    p2 = -1;
    const int large_rc = api.pk_prepare(&g_pk_obj, g_transforms, sizeof(g_transforms), &p2);
    bool tail_untouched = true, end_written = false;
    for (std::size_t i = api.pk_transforms_bytes; i < sizeof(g_transforms); i++)
      tail_untouched = tail_untouched && g_transforms[i] == 0x5A;
    for (std::size_t i = api.pk_transforms_bytes - 64; i < api.pk_transforms_bytes; i++)
      end_written = end_written || g_transforms[i] != 0x5A;
    check(large_rc == HQC_OK && p2 == 1 && tail_untouched && end_written,
          "prepare into a larger buffer writes this build's transform bytes only");
    check(api.pk_encaps_derand(&g_pk_obj, g_ct2, ss2, coins) == HQC_OK && std::memcmp(g_ct, g_ct2, api.ct_bytes) == 0 &&
              std::memcmp(want, ss2, 32) == 0,
          "an object prepared into a larger buffer encapsulates as before");
  }
  check(api.sk_parse(&g_sk_obj, g_sk) == HQC_OK, "secret key object parsed again");
  api.sk_wipe(&g_sk_obj);
  check(all_zero(reinterpret_cast<const std::uint8_t*>(&g_sk_obj), sizeof(g_sk_obj)), "wiped object is zero");
  check(api.sk_decaps(&g_sk_obj, ss2, g_ct2) == HQC_ERR_MALFORMED_KEY && all_zero(ss2, 32),
        "a wiped object holds no key");
  hqc_set_randombytes(nullptr, nullptr);
}

// K_bar = J(H(pk), sigma, ct) = SHA3-256(SHA3-256(pk || 0x01) || sigma || ct || 0x03), from the
// sponge directly (spec §3, §7.3), not through the decapsulation code.
void implicit_rejection_key(const LevelApi& api, std::uint8_t out[32], const std::uint8_t* sk, const std::uint8_t* ct) {
  const auto f = backend::device_portable().keccak_f1600;
  std::uint8_t hpk[32];
  sym::Sha3_256 h(f);
  h.absorb(sk, api.pk_bytes);
  h.absorb_byte(0x01);
  h.squeeze(hpk, 32);
  sym::Sha3_256 j(f);
  j.absorb(hpk, 32);
  j.absorb(sk + api.pk_bytes + 32, api.k);
  j.absorb(ct, api.ct_bytes);
  j.absorb_byte(0x03);
  j.squeeze(out, 32);
}

void test_hostile(const LevelApi& api, TestRng& rng) {
  std::uint8_t seed[32], coins[HQC_MAX_ENCAPS_COINS_BYTES], ss[32], got[32], want[32];
  rng.fill(seed, sizeof(seed));
  rng.fill(coins, sizeof(coins));
  api.keypair_derand(g_pk, g_sk, seed);
  api.encaps_derand(g_ct, ss, g_pk, coins);
  api.sk_parse(&g_sk_obj, g_sk);
  const std::size_t u_bytes = api.ct_bytes - 16 - (api.ct_bytes - 16 - (api.pk_bytes - 32));
  for (int kind = 0; kind < 7; kind++) {
    std::memcpy(g_ct2, g_ct, api.ct_bytes);
    switch (kind) {
      case 0: g_ct2[0] ^= 1; break;                                          // u
      case 1: g_ct2[u_bytes + 5] ^= 0x80; break;                             // v
      case 2: g_ct2[api.ct_bytes - 1] ^= 1; break;                           // salt
      case 3: std::memset(g_ct2, 0, api.ct_bytes); break;                    // all zero
      case 4: std::memset(g_ct2, 0xFF, api.ct_bytes); break;                 // padding bits of u set
      case 5: rng.fill(g_ct2, api.ct_bytes); break;                          // random
      case 6: g_ct2[u_bytes - 1] |= static_cast<std::uint8_t>(0x80); break;  // only u's top padding bit
    }
    implicit_rejection_key(api, want, g_sk, g_ct2);
    check(api.decaps(got, g_ct2, g_sk) == HQC_OK && std::memcmp(got, want, 32) == 0,
          "hostile ciphertext: decaps = J(H(pk), sigma, ct)");
    check(std::memcmp(got, ss, 32) != 0, "hostile ciphertext: not the encapsulated key");
    std::memset(got, 0, 32);
    check(api.sk_decaps(&g_sk_obj, got, g_ct2) == HQC_OK && std::memcmp(got, want, 32) == 0,
          "hostile ciphertext: object decaps = J(H(pk), sigma, ct)");
  }
  api.sk_wipe(&g_sk_obj);
}

void test_padding(const LevelApi& api, TestRng& rng) {
  std::uint8_t seed[32], coins[HQC_MAX_ENCAPS_COINS_BYTES], ss[32];
  rng.fill(seed, sizeof(seed));
  rng.fill(coins, sizeof(coins));
  api.keypair_derand(g_pk, g_sk, seed);
  for (unsigned bit = 7; bit >= 5; bit--) {  // bits beyond n in the last byte (n mod 8 <= 5 at every level)
    std::memcpy(g_pk2, g_pk, api.pk_bytes);
    g_pk2[api.pk_bytes - 1] = static_cast<std::uint8_t>(g_pk2[api.pk_bytes - 1] | (1u << bit));
    std::memset(g_ct2, 0xAA, api.ct_bytes);
    std::memset(ss, 0xAA, 32);
    check(api.encaps_derand(g_ct2, ss, g_pk2, coins) == HQC_ERR_MALFORMED_KEY && all_zero(g_ct2, api.ct_bytes) &&
              all_zero(ss, 32),
          "padding bits: encaps_derand rejects, outputs zeroed");
    check(
        hqc_kem_check_public_key(hqc_kem_info_by_level(api.level)->name, g_pk2, api.pk_bytes) == HQC_ERR_MALFORMED_KEY,
        "padding bits: check_public_key rejects");
    check(api.pk_parse(&g_pk_obj, g_pk2) == HQC_ERR_MALFORMED_KEY, "padding bits: object parse rejects");
    check(api.pk_encaps_derand(&g_pk_obj, g_ct2, ss, coins) == HQC_ERR_MALFORMED_KEY && all_zero(ss, 32),
          "padding bits: the rejected object holds no key");
    std::memcpy(g_sk2, g_sk, api.sk_len);
    std::memcpy(g_sk2, g_pk2, api.pk_bytes);
    std::memset(ss, 0xAA, 32);
    check(api.decaps(ss, g_ct, g_sk2) == HQC_ERR_MALFORMED_KEY && all_zero(ss, 32),
          "padding bits: decaps with such a secret key rejects");
    check(api.sk_parse(&g_sk_obj, g_sk2) == HQC_ERR_MALFORMED_KEY, "padding bits: secret object parse rejects");
  }
  check(api.encaps_derand(g_ct2, ss, g_pk, coins) == HQC_OK, "the unmodified key is accepted");
}

void test_randomness(const LevelApi& api, TestRng& rng) {
  std::uint8_t ss[32], seed[32];
  for (int hook = 0; hook < 2; hook++) {  // 0: none registered, 1: a failing one
    hqc_set_randombytes(hook == 0 ? nullptr : &failing_hook, nullptr);
    g_hook_calls = 0;
    std::memset(g_pk2, 0xAA, api.pk_bytes);
    std::memset(g_sk2, 0xAA, api.sk_len);
    check(
        api.keypair(g_pk2, g_sk2) == HQC_ERR_RANDOMNESS && all_zero(g_pk2, api.pk_bytes) && all_zero(g_sk2, api.sk_len),
        "no randomness: keypair fails, outputs zeroed");
    rng.fill(seed, sizeof(seed));
    api.keypair_derand(g_pk, g_sk, seed);  // the deterministic functions need no hook
    std::memset(g_ct2, 0xAA, api.ct_bytes);
    std::memset(ss, 0xAA, 32);
    check(api.encaps(g_ct2, ss, g_pk) == HQC_ERR_RANDOMNESS && all_zero(g_ct2, api.ct_bytes) && all_zero(ss, 32),
          "no randomness: encaps fails, outputs zeroed");
    check(api.sk_generate(&g_sk_obj, nullptr) == HQC_ERR_RANDOMNESS, "no randomness: object generate fails");
    check(api.sk_decaps(&g_sk_obj, ss, g_ct) == HQC_ERR_MALFORMED_KEY, "no randomness: the object holds no key");
    check(api.pk_parse(&g_pk_obj, g_pk) == HQC_OK, "object parse needs no randomness");
    std::memset(ss, 0xAA, 32);
    check(
        api.pk_encaps(&g_pk_obj, g_ct2, ss) == HQC_ERR_RANDOMNESS && all_zero(ss, 32) && all_zero(g_ct2, api.ct_bytes),
        "no randomness: object encaps fails, outputs zeroed");
    check(hook == 0 ? g_hook_calls == 0 : g_hook_calls == 4, "the failing hook was asked each time");
  }
  hqc_set_randombytes(&good_hook, &rng);
  check(api.keypair(g_pk2, g_sk2) == HQC_OK && !all_zero(g_pk2, api.pk_bytes), "a working hook: keypair");
  hqc_set_randombytes(nullptr, nullptr);
}

}  // namespace

// The m4 polynomial product (backend/m4/ring_mul_m4.cpp) at sizes beyond the three of the ring
// products: every leaf (1, 2, 4, 8, 12, 16, 24, 32 words), Karatsuba (balanced and unbalanced),
// three-way Karatsuba, Toom-3 and padded plan from 1 to 40 words and larger sizes whose plans
// nest them (36, 72: three-way Karatsuba; 69, 70: padded to 72; 108, 144: Toom-3 over them; 181:
// Toom-3 with a short top part), and the plan's own sizes up to 200 (among them Toom-3 at
// t = x^16: 33, 41-45, 91-96, 118, 187, 189, with a top part shorter than m - 1 at 41, 42 and 118),
// on random and all-ones operands, against a schoolbook of bitwise 32x32 products.
void ref_clmul32(std::uint32_t a, std::uint32_t b, std::uint32_t* lo, std::uint32_t* hi) {
  std::uint64_t r = 0;
  for (int i = 0; i < 32; i++) r ^= ((b >> i) & 1) != 0 ? std::uint64_t{a} << i : 0;
  *lo ^= static_cast<std::uint32_t>(r);
  *hi ^= static_cast<std::uint32_t>(r >> 32);
}

// The sizes 1..40 and kLarge, and every size of the compact plan (backend::m4::kPlan) up to
// kMax: a listed size is multiplied by its own entry (poly_mul by the plan, poly_mul_direct by its
// split), any other by poly_mul's padding to the smallest listed size above it.
void test_poly_mul_sizes(TestRng& rng) {
  using backend::m4::Word32;
  constexpr std::size_t kMax = 200;
  static Word32 a[kMax], b[kMax], out[2 * kMax + 1], ref[2 * kMax], scratch[4096];  // out: one guard word
  static const std::size_t kLarge[] = {48, 57, 62, 64, 65, 66, 69, 70, 72, 96, 108, 128, 130, 144, 181, 192, 200};
  constexpr std::size_t kFixed = 40 + sizeof(kLarge) / sizeof(kLarge[0]);
  const auto& plan = backend::m4::kPlan;
  for (std::size_t k = 0; k < kFixed + plan.size(); k++) {
    const std::size_t n = k < 40 ? k + 1 : k < kFixed ? kLarge[k - 40] : plan[k - kFixed].n;
    const bool listed = k >= kFixed;
    if (n > kMax || n > backend::m4::kMaxPolyWords || backend::m4::poly_mul_scratch_words(n) > 4096) continue;
    for (int trial = 0; trial < 2; trial++) {
      rng.fill(a, sizeof(a));
      rng.fill(b, sizeof(b));
      if (trial == 1)
        for (std::size_t i = 0; i < n; i++) a[i] = b[i] = ~Word32{0};
      std::memset(ref, 0, sizeof(ref));
      for (std::size_t i = 0; i < n; i++)
        for (std::size_t j = 0; j < n; j++) ref_clmul32(a[i], b[j], &ref[i + j], &ref[i + j + 1]);
      std::memset(out, 0xA5, sizeof(out));
      backend::m4::poly_mul(out, a, b, n, scratch);
      check(std::memcmp(out, ref, 2 * n * sizeof(Word32)) == 0 && out[2 * n] == 0xA5A5A5A5u,
            "m4 poly_mul = schoolbook (sizes 1..40, larger, and the plan's)");
      if (!listed || backend::m4::direct_scratch_words(n) > 4096) continue;
      std::memset(out, 0xA5, sizeof(out));
      backend::m4::poly_mul_direct(out, a, b, n, scratch);
      check(std::memcmp(out, ref, 2 * n * sizeof(Word32)) == 0 && out[2 * n] == 0xA5A5A5A5u,
            "m4 poly_mul_direct = schoolbook (the plan's sizes)");
    }
  }
}

// The product's copy and zeroing routines (poly_m4.S; the zeroing also wipes the product's buffers
// and clears the support expansion's scratch) at every length 0..70, which covers every remainder
// of their eight- and sixteen-word loops: exactly the len words written, the guard words around
// them untouched.
extern "C" void hqc_m4_poly_mul_copy(void* dst, const void* src, std::size_t len);
extern "C" void hqc_m4_poly_mul_zero(void* dst, std::size_t len);
void test_copy_zero(TestRng& rng) {
  constexpr std::size_t kMax = 70;
  static std::uint32_t src[kMax], buf[kMax + 2], before[kMax + 2];
  bool copy_ok = true, zero_ok = true;
  for (std::size_t len = 0; len <= kMax; len++) {
    rng.fill(src, sizeof(src));
    rng.fill(buf, sizeof(buf));
    std::memcpy(before, buf, sizeof(buf));
    hqc_m4_poly_mul_copy(buf + 1, src, len);
    copy_ok &= buf[0] == before[0] && std::memcmp(buf + 1, src, len * 4) == 0 &&
               std::memcmp(buf + 1 + len, before + 1 + len, (kMax + 1 - len) * 4) == 0;
    rng.fill(buf, sizeof(buf));
    std::memcpy(before, buf, sizeof(buf));
    hqc_m4_poly_mul_zero(buf + 1, len);
    bool zeroed = true;
    for (std::size_t i = 0; i < len; i++) zeroed &= buf[1 + i] == 0;
    zero_ok &= buf[0] == before[0] && zeroed && std::memcmp(buf + 1 + len, before + 1 + len, (kMax + 1 - len) * 4) == 0;
  }
  check(copy_ok, "m4 hqc_m4_poly_mul_copy: exactly len words copied (len 0..70)");
  check(zero_ok, "m4 hqc_m4_poly_mul_zero: exactly len words zeroed (len 0..70)");
}

// The product's XOR routines (poly_m4.S) at every length 0..70, which covers every remainder of
// their eight-word loops and their four-word block: dst = x + y and dst = x + y + z, into a
// separate buffer and in place (dst = x), and xor4 with z ahead of dst in the same buffer, as
// karatsuba calls it; exactly the len words written, the guard words around them untouched.
extern "C" void hqc_m4_xor3(std::uint32_t* dst, const std::uint32_t* x, const std::uint32_t* y, std::size_t len);
extern "C" void hqc_m4_xor4(std::uint32_t* dst, const std::uint32_t* x, const std::uint32_t* y, const std::uint32_t* z,
                            std::size_t len);
void test_xor_routines(TestRng& rng) {
  constexpr std::size_t kMax = 70, kAhead = 5;
  static std::uint32_t x[kMax], y[kMax], z[kMax], buf[kMax + kAhead + 2], before[kMax + kAhead + 2], want[kMax];
  bool ok3 = true, ok3_in_place = true, ok4 = true, ok4_in_place = true, ok4_ahead = true;
  // buf[1, 1 + len) must be want[0, len) and every other word of buf as before.
  auto exact = [&](std::size_t len) {
    return buf[0] == before[0] && std::memcmp(buf + 1, want, len * 4) == 0 &&
           std::memcmp(buf + 1 + len, before + 1 + len, (kMax + kAhead + 1 - len) * 4) == 0;
  };
  auto fresh = [&] {
    rng.fill(buf, sizeof(buf));
    std::memcpy(before, buf, sizeof(buf));
  };
  for (std::size_t len = 0; len <= kMax; len++) {
    rng.fill(x, sizeof(x));
    rng.fill(y, sizeof(y));
    rng.fill(z, sizeof(z));
    for (std::size_t i = 0; i < len; i++) want[i] = x[i] ^ y[i];
    fresh();
    hqc_m4_xor3(buf + 1, x, y, len);
    ok3 &= exact(len);
    fresh();
    for (std::size_t i = 0; i < len; i++) want[i] = buf[1 + i] ^ y[i];
    hqc_m4_xor3(buf + 1, buf + 1, y, len);
    ok3_in_place &= exact(len);
    for (std::size_t i = 0; i < len; i++) want[i] = x[i] ^ y[i] ^ z[i];
    fresh();
    hqc_m4_xor4(buf + 1, x, y, z, len);
    ok4 &= exact(len);
    fresh();
    for (std::size_t i = 0; i < len; i++) want[i] = buf[1 + i] ^ y[i] ^ z[i];
    hqc_m4_xor4(buf + 1, buf + 1, y, z, len);
    ok4_in_place &= exact(len);
    // z = dst + kAhead: word i reads z[i] = buf[1 + kAhead + i] as it was before the call.
    fresh();
    for (std::size_t i = 0; i < len; i++) want[i] = x[i] ^ y[i] ^ before[1 + kAhead + i];
    hqc_m4_xor4(buf + 1, x, y, buf + 1 + kAhead, len);
    ok4_ahead &= exact(len);
  }
  check(ok3, "m4 hqc_m4_xor3: exactly len words of x + y (len 0..70)");
  check(ok3_in_place, "m4 hqc_m4_xor3: in place, dst = x (len 0..70)");
  check(ok4, "m4 hqc_m4_xor4: exactly len words of x + y + z (len 0..70)");
  check(ok4_in_place, "m4 hqc_m4_xor4: in place, dst = x (len 0..70)");
  check(ok4_ahead, "m4 hqc_m4_xor4: z ahead of dst in the same buffer (len 0..70)");
}

// The support expansion's sort (support_m4.S), which keeps two values to a word, against the
// route::sort it stands for, at every even count from 2 to 300: values from a small range (many
// ties), the whole 16-bit range (0xFFFF included), in increasing and in decreasing order; exactly
// the n values sorted, the guard halfwords around them untouched.
extern "C" void hqc_m4_sort_merge_exchange(std::uint16_t* v, std::uint32_t n);
void test_sort(TestRng& rng) {
  constexpr std::size_t kMax = 300;
  alignas(4) static std::uint16_t got[kMax + 4], want[kMax + 4];
  bool ok[4] = {true, true, true, true};
  for (std::size_t n = 2; n <= kMax; n += 2)
    for (int form = 0; form < 4; form++) {
      rng.fill(got, sizeof(got));
      for (std::size_t i = 0; i < n; i++) {
        if (form == 0) got[2 + i] = static_cast<std::uint16_t>(got[2 + i] & 3);
        if (form == 2) got[2 + i] = static_cast<std::uint16_t>(i);
        if (form == 3) got[2 + i] = static_cast<std::uint16_t>(0xFFFF - i);
      }
      std::memcpy(want, got, sizeof(got));
      backend::m4::route::sort(want + 2, n);
      hqc_m4_sort_merge_exchange(got + 2, static_cast<std::uint32_t>(n));
      ok[form] &= std::memcmp(got, want, sizeof(got)) == 0;
    }
  check(ok[0], "m4 sort: = route::sort, values 0..3 (even n 2..300)");
  check(ok[1], "m4 sort: = route::sort, 16-bit values (even n 2..300)");
  check(ok[2], "m4 sort: = route::sort, increasing input (even n 2..300)");
  check(ok[3], "m4 sort: = route::sort, decreasing input (even n 2..300)");
}

int main(int argc, char** argv) {
  g_seed = m4::arg_uint(argc, argv, "seed", 0);
  m4::out("m4_test: seed ");
  m4::out_uint(g_seed);
  m4::out("\n");
  TestRng rng(7);
  test_copy_zero(rng);
  test_xor_routines(rng);
  test_sort(rng);
  test_poly_mul_sizes(rng);
  test_keccak();
  test_lane_conversions();
  test_sponges();
  m4::out("m4_test: rows in the device table: ");
  for (const backend::Backend* be : backend::device_backends()) {
    m4::out(be->name);
    m4::out(" ");
  }
  m4::out("\n");
  test_kernels_level<Hqc1>(rng);
  test_kernels_level<Hqc3>(rng);
  test_kernels_level<Hqc5>(rng);
  const LevelApi apis[3] = {HQC_LEVEL_API(1), HQC_LEVEL_API(3), HQC_LEVEL_API(5)};
  for (const LevelApi& api : apis) {
    test_round_trip(api, rng);
    test_hostile(api, rng);
    test_padding(api, rng);
    test_randomness(api, rng);
    m4::out("m4_test: HQC-");
    m4::out_uint(static_cast<std::uint64_t>(api.level));
    m4::out(" done\n");
  }
  m4::out(m4::failures() == 0 ? "m4_test: all checks passed\n" : "m4_test: FAILED checks: ");
  if (m4::failures() != 0) {
    m4::out_uint(static_cast<std::uint64_t>(m4::failures()));
    m4::out("\n");
  }
  m4::flush();
  std::exit(m4::failures() == 0 ? 0 : 1);
}
