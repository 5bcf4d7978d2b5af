// Kernel conformance suite (labels unit, conformance, and avx2/avx512 for those backends' rows):
// every kernel slot of every backend row in the registry (backend::all_backends(): backends and
// variants alike), at every parameter set, against the portable backend (the oracle) on edge and
// random inputs, plus properties that hold for every backend, portable included (decoders correct
// what they must, samplers give distinct positions below n, x^i * x^j = x^(i+j mod n), ...).
//
// Tests are registered from the registry at start-up, one per (row, level, slot), named
//   Conformance/<backend>/HQC<level>.<slot>      e.g. Conformance/avx512/HQC1.mul
//   Conformance/<backend>/AllLevels.<slot>       for the level-independent Keccak slots
// (a '-' in a backend name becomes '_': GoogleTest filters treat '-' as "exclude"). A new row in
// src/backend/registry.cpp needs no change here. A row this CPU (or HQC_CPU_MASK) cannot run is
// reported as skipped with the missing features. A new kernel slot needs a test here: the
// static_asserts below count the slots so that one cannot be added without this suite noticing.
//
// Conventions checked for every kernel (backend/ops.hpp): outputs are written in full (output
// buffers start filled with garbage), nothing is written past the documented length (canaries),
// variable-length inputs are exact-size heap buffers (ASan reports reads past them), ring
// outputs keep their padding zero.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "backend/registry.hpp"
#include "code/reed_muller.hpp"
#include "code/reed_solomon.hpp"
#include "kem/kem.hpp"
#include "sampling/sampling.hpp"
#include "sym/keccak.hpp"
#include "test_util.hpp"

namespace hqc {
namespace {

using backend::Backend;
using backend::KernelTable;

// The slots of the contract (backend/ops.hpp), mirrored: if a slot is added to KernelTable or
// Backend, these sizes differ and this suite does not compile until the new slot has its test
// (then update the mirror).
struct KernelTableSlots {
  void* mul;
  void* mul2;
  void* transforms;  // the optional capability: TransformMultiplier (three slots, mirrored below)
  const char* mul_name;
  void* support_to_vector;
  void* enc_positions;
  void* position_taken;
  void* keygen_accept;
  void* rm_decode;
  void* rs_encode;
  void* rs_decode;
};
static_assert(sizeof(KernelTable<Hqc1>) == sizeof(KernelTableSlots),
              "KernelTable changed: add the new slot's conformance test and update KernelTableSlots");
struct TransformMultiplierSlots {
  void* transform;
  void* mul_transforms;
  void* mul_transform_plain;
  bool mul_is_transform_product;  // a cost property, no kernel: nothing to compare
};
static_assert(sizeof(backend::TransformMultiplier<Hqc1>) == sizeof(TransformMultiplierSlots),
              "TransformMultiplier changed: add the new slot's conformance test and update the mirror");
struct BackendSlots {
  const char* name;
  const char* description;
  backend::CpuFeatures required;
  bool variant;
  void* keccak_f1600;
  void* keccak_f1600_x4;
  void* keccak_f1600_interleaved;       // optional
  void* keccak_xor_lanes_interleaved;   // optional, with keccak_f1600_interleaved
  void* keccak_read_lanes_interleaved;  // optional, with keccak_f1600_interleaved
  KernelTableSlots hqc1, hqc3, hqc5;
};
static_assert(sizeof(Backend) == sizeof(BackendSlots),
              "Backend changed: add the new slot's conformance test and update BackendSlots");

constexpr std::uint64_t kGarbage = 0xA5A5A5A5A5A5A5A5u;
constexpr std::uint32_t kCanary = 0xDEADBEEFu;

template <class P>
struct alignas(64) Ring {
  std::uint64_t w[P::kNWordsPadded] = {};
};
template <class P>
struct alignas(64) Code {
  std::uint64_t w[P::kN1N2Words] = {};
};
template <class P>
struct alignas(64) Tr {
  std::uint64_t w[backend::kTransformWords<P>] = {};
};

template <class P>
const KernelTable<P>& ref() {
  return backend::portable().kernels<P>();
}

// Index of the first differing byte (for messages), or -1.
long first_diff(const void* a, const void* b, std::size_t bytes) {
  const auto* x = static_cast<const std::uint8_t*>(a);
  const auto* y = static_cast<const std::uint8_t*>(b);
  for (std::size_t i = 0; i < bytes; i++)
    if (x[i] != y[i]) return static_cast<long>(i);
  return -1;
}
#define ASSERT_SAME_BYTES(a, b, n, what)                                                                             \
  do {                                                                                                               \
    const long d_ = first_diff((a), (b), (n));                                                                       \
    ASSERT_EQ(d_, -1)                                                                                                \
        << what /* NOLINT(bugprone-macro-parentheses): a stream expression */ << ": first difference at byte " << d_ \
        << " of " << (n);                                                                                            \
  } while (0)

// ---- Ring inputs: the edge cases, then random ones, each with a name for messages.

template <class P>
struct Named {
  std::string name;
  Ring<P> v;
};

template <class P>
void set_bit(Ring<P>& v, std::size_t i) {
  v.w[i / 64] |= std::uint64_t{1} << (i % 64);
}

template <class P>
Ring<P> random_dense(std::mt19937_64& rng) {
  Ring<P> v;
  for (std::size_t i = 0; i < P::kNWords; i++) v.w[i] = rng();
  v.w[P::kNWords - 1] &= P::kLastWordMask;
  return v;
}

template <class P>
std::vector<std::uint32_t> random_support(std::mt19937_64& rng, std::size_t w) {
  std::vector<std::uint32_t> pos;
  while (pos.size() < w) {
    const auto p = static_cast<std::uint32_t>(rng() % P::kN);
    if (std::find(pos.begin(), pos.end(), p) == pos.end()) pos.push_back(p);
  }
  return pos;
}

template <class P>
Ring<P> from_support(const std::vector<std::uint32_t>& pos) {
  Ring<P> v;
  for (auto p : pos) set_bit(v, p);
  return v;
}

template <class P>
std::vector<Named<P>> ring_inputs(std::mt19937_64& rng) {
  std::vector<Named<P>> vs;
  auto add = [&](std::string name, const Ring<P>& v) { vs.push_back({std::move(name), v}); };
  add("zero", Ring<P>{});
  Ring<P> ones;
  for (std::size_t i = 0; i < P::kN; i++) set_bit(ones, i);
  add("all-ones", ones);
  for (std::size_t bit : {std::size_t{0}, std::size_t{63}, std::size_t{64}, P::kN - 2, P::kN - 1}) {
    Ring<P> v;
    set_bit(v, bit);
    add("x^" + std::to_string(bit), v);
  }
  {
    Ring<P> v;  // a burst across a word boundary in the middle
    for (std::size_t i = 64 * (P::kNWords / 2) - 37; i < 64 * (P::kNWords / 2) + 90; i++) set_bit(v, i);
    add("burst-middle", v);
    Ring<P> t;  // the top 130 bits (the partial last word and the one before)
    for (std::size_t i = P::kN - 130; i < P::kN; i++) set_bit(t, i);
    add("burst-top", t);
  }
  {
    std::vector<std::uint32_t> hi, lo;
    for (std::size_t i = 0; i < P::kWr; i++) {
      hi.push_back(static_cast<std::uint32_t>(P::kN - 1 - i));
      lo.push_back(static_cast<std::uint32_t>(i));
    }
    add("weight-wr-top", from_support<P>(hi));
    add("weight-wr-bottom", from_support<P>(lo));
  }
  {
    Ring<P> v;  // alternating bits
    for (std::size_t i = 0; i < P::kNWords; i++) v.w[i] = 0x5555555555555555u;
    v.w[P::kNWords - 1] &= P::kLastWordMask;
    add("alternating", v);
  }
  for (int i = 0; i < 3; i++) add("dense-" + std::to_string(i), random_dense<P>(rng));
  add("sparse-w", from_support<P>(random_support<P>(rng, P::kW)));
  add("sparse-wr", from_support<P>(random_support<P>(rng, P::kWr)));
  return vs;
}

template <class P>
void expect_padding_zero(const Ring<P>& v, const std::string& what) {
  EXPECT_EQ(v.w[P::kNWords - 1] & ~P::kLastWordMask, 0u) << what << ": bits at or above n set";
  for (std::size_t i = P::kNWords; i < P::kNWordsPadded; i++) EXPECT_EQ(v.w[i], 0u) << what << ": padding word " << i;
}

template <class P>
Ring<P> garbage_ring() {
  Ring<P> v;
  std::fill(std::begin(v.w), std::end(v.w), kGarbage);
  return v;
}

// ---- mul, mul2, and the products of the transform slots, on the same pairs of operands.

// Ordered pairs (a, b) of ring_inputs: every input times each partner (all ones, x^(n-1), a dense
// and a sparse random vector) and each partner times every input, every input squared. Grouped by
// b (mul2 pairs two operands that share b).
template <class P>
std::vector<std::pair<std::size_t, std::size_t>> operand_pairs(const std::vector<Named<P>>& vs) {
  const std::string kPartners[] = {"all-ones", "x^" + std::to_string(P::kN - 1), "dense-0", "sparse-wr"};
  std::vector<std::size_t> partners;
  for (std::size_t j = 0; j < vs.size(); j++)
    if (std::find(std::begin(kPartners), std::end(kPartners), vs[j].name) != std::end(kPartners)) partners.push_back(j);
  EXPECT_EQ(partners.size(), std::size(kPartners));
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  for (std::size_t b = 0; b < vs.size(); b++)
    for (std::size_t a = 0; a < vs.size(); a++) {
      const bool a_partner = std::find(partners.begin(), partners.end(), a) != partners.end();
      const bool b_partner = std::find(partners.begin(), partners.end(), b) != partners.end();
      if (a == b || a_partner || b_partner) pairs.emplace_back(a, b);
    }
  return pairs;
}

template <class P>
void test_mul(const Backend& be) {
  const auto& k = be.kernels<P>();
  ASSERT_NE(k.mul, nullptr);
  ASSERT_NE(k.mul_name, nullptr);
  std::mt19937_64 rng(0x6d756c + P::kLevel);
  const auto vs = ring_inputs<P>(rng);
  // For the portable row itself (the oracle) a difference is impossible: only the squares then,
  // for the output conventions; the properties below hold for every row.
  const bool oracle = &k == &ref<P>();
  for (auto [i, j] : operand_pairs(vs)) {
    if (oracle && i != j) continue;
    const auto &a = vs[i], &b = vs[j];
    Ring<P> want, got = garbage_ring<P>();
    ref<P>().mul(want.w, a.v.w, b.v.w);
    k.mul(got.w, a.v.w, b.v.w);  // for a == b: both inputs at one address
    ASSERT_SAME_BYTES(want.w, got.w, sizeof(want.w), "mul " << a.name << " * " << b.name);
    expect_padding_zero(got, "mul " + a.name + " * " + b.name);
  }
  // The ring itself (true for every backend, portable included): x^i * x^j = x^((i + j) mod n).
  for (int it = 0; it < 40; it++) {
    const std::size_t i = it < 4 ? (it < 2 ? P::kN - 1 : 0) : rng() % P::kN;
    const std::size_t j = it < 4 ? (it % 2 ? P::kN - 1 : 1) : rng() % P::kN;
    Ring<P> a, b, want, got = garbage_ring<P>();
    set_bit(a, i);
    set_bit(b, j);
    set_bit(want, (i + j) % P::kN);
    k.mul(got.w, a.w, b.w);
    ASSERT_SAME_BYTES(want.w, got.w, sizeof(want.w), "x^" << i << " * x^" << j);
  }
  // Random operands, and commutativity.
  for (int it = 0; it < 10; it++) {
    const Ring<P> a = random_dense<P>(rng);
    const Ring<P> b = it % 2 ? random_dense<P>(rng) : from_support<P>(random_support<P>(rng, P::kWr));
    Ring<P> want, got = garbage_ring<P>(), swapped = garbage_ring<P>();
    ref<P>().mul(want.w, a.w, b.w);
    k.mul(got.w, a.w, b.w);
    k.mul(swapped.w, b.w, a.w);
    ASSERT_SAME_BYTES(want.w, got.w, sizeof(want.w), "mul random " << it);
    ASSERT_SAME_BYTES(want.w, swapped.w, sizeof(want.w), "mul random " << it << " swapped");
  }
}

template <class P>
void test_mul2(const Backend& be) {
  const auto& k = be.kernels<P>();
  ASSERT_NE(k.mul2, nullptr);
  std::mt19937_64 rng(0x6d756c32 + P::kLevel);
  const auto vs = ring_inputs<P>(rng);
  const auto pairs = operand_pairs(vs);
  std::vector<Ring<P>> want(pairs.size());
  for (std::size_t p = 0; p < pairs.size(); p++)
    ref<P>().mul(want[p].w, vs[pairs[p].first].v.w, vs[pairs[p].second].v.w);
  // (a1, a2) * b for consecutive pairs that share b, and a1 = a2 (both at one address).
  for (std::size_t p = 0; p < pairs.size(); p++) {
    const std::size_t q = p + 1 < pairs.size() && pairs[p + 1].second == pairs[p].second ? p + 1 : p;
    const auto &a1 = vs[pairs[p].first], &a2 = vs[pairs[q].first], &b = vs[pairs[p].second];
    Ring<P> g1 = garbage_ring<P>(), g2 = garbage_ring<P>();
    k.mul2(g1.w, g2.w, a1.v.w, a2.v.w, b.v.w);
    const std::string what = "mul2 (" + a1.name + ", " + a2.name + ") * " + b.name;
    ASSERT_SAME_BYTES(want[p].w, g1.w, sizeof(g1.w), what << " first");
    ASSERT_SAME_BYTES(want[q].w, g2.w, sizeof(g2.w), what << " second");
    expect_padding_zero(g1, what + " first");
    expect_padding_zero(g2, what + " second");
  }
  for (int it = 0; it < 5; it++) {
    const Ring<P> a1 = random_dense<P>(rng), a2 = random_dense<P>(rng);
    const Ring<P> b = from_support<P>(random_support<P>(rng, P::kWr));
    Ring<P> w1, w2, g1 = garbage_ring<P>(), g2 = garbage_ring<P>();
    ref<P>().mul(w1.w, a1.w, b.w);
    ref<P>().mul(w2.w, a2.w, b.w);
    k.mul2(g1.w, g2.w, a1.w, a2.w, b.w);
    ASSERT_SAME_BYTES(w1.w, g1.w, sizeof(w1.w), "mul2 random " << it << " first");
    ASSERT_SAME_BYTES(w2.w, g2.w, sizeof(w2.w), "mul2 random " << it << " second");
  }
}

// ---- The transform capability (KernelTable::transforms: transform, mul_transforms,
// mul_transform_plain), the one optional part of a table: all three set where present.

#define REQUIRE_TRANSFORMS(k)                                                                      \
  if ((k).transforms == nullptr)                                                                   \
    GTEST_SKIP() << "this row's multiplier has no transforms at this level (optional capability)"; \
  const backend::TransformMultiplier<P>& tm = *(k).transforms;                                     \
  ASSERT_NE(tm.transform, nullptr);                                                                \
  ASSERT_NE(tm.mul_transforms, nullptr);                                                           \
  ASSERT_NE(tm.mul_transform_plain, nullptr)

template <class P>
std::unique_ptr<Tr<P>> transform_of(const backend::TransformMultiplier<P>& tm, const Ring<P>& a) {
  auto t = std::make_unique<Tr<P>>();
  std::fill(std::begin(t->w), std::end(t->w), kGarbage);
  tm.transform(t->w, a.w);
  return t;
}

template <class P>
void test_transform(const Backend& be) {
  const auto& k = be.kernels<P>();
  REQUIRE_TRANSFORMS(k);
  std::mt19937_64 rng(0x7472 + P::kLevel);
  const auto vs = ring_inputs<P>(rng);
  // The transform depends only on its input: the same words whatever the buffer held before.
  for (const auto& a : vs) {
    auto t1 = transform_of(tm, a.v);
    auto t2 = std::make_unique<Tr<P>>();
    std::fill(std::begin(t2->w), std::end(t2->w), ~kGarbage);
    tm.transform(t2->w, a.v.w);
    ASSERT_SAME_BYTES(t1->w, t2->w, sizeof(t1->w), "transform of " << a.name << " (buffer contents leaked in)");
  }
  // Distinct inputs give distinct transforms (a transform that drops part of its input cannot
  // multiply correctly; this names the culprit before the product tests do).
  for (std::size_t i = 0; i + 1 < vs.size(); i++) {
    auto t1 = transform_of(tm, vs[i].v);
    auto t2 = transform_of(tm, vs[i + 1].v);
    EXPECT_NE(0, std::memcmp(t1->w, t2->w, sizeof(t1->w))) << vs[i].name << " and " << vs[i + 1].name;
  }
}

template <class P>
void test_mul_transforms(const Backend& be) {
  const auto& k = be.kernels<P>();
  REQUIRE_TRANSFORMS(k);
  std::mt19937_64 rng(0x74727332 + P::kLevel);
  const auto vs = ring_inputs<P>(rng);
  std::vector<std::unique_ptr<Tr<P>>> ts;
  ts.reserve(vs.size());
  for (const auto& a : vs) ts.push_back(transform_of(tm, a.v));
  for (auto [i, j] : operand_pairs(vs)) {
    Ring<P> want, got = garbage_ring<P>();
    ref<P>().mul(want.w, vs[i].v.w, vs[j].v.w);
    tm.mul_transforms(got.w, ts[i]->w, ts[j]->w);
    ASSERT_SAME_BYTES(want.w, got.w, sizeof(want.w), "mul_transforms " << vs[i].name << " * " << vs[j].name);
    expect_padding_zero(got, "mul_transforms " + vs[i].name + " * " + vs[j].name);
  }
}

template <class P>
void test_mul_transform_plain(const Backend& be) {
  const auto& k = be.kernels<P>();
  REQUIRE_TRANSFORMS(k);
  std::mt19937_64 rng(0x74727033 + P::kLevel);
  const auto vs = ring_inputs<P>(rng);
  std::vector<std::unique_ptr<Tr<P>>> ts;
  ts.reserve(vs.size());
  for (const auto& a : vs) ts.push_back(transform_of(tm, a.v));
  for (auto [i, j] : operand_pairs(vs)) {
    Ring<P> want, got = garbage_ring<P>();
    ref<P>().mul(want.w, vs[i].v.w, vs[j].v.w);
    tm.mul_transform_plain(got.w, ts[i]->w, vs[j].v.w);
    ASSERT_SAME_BYTES(want.w, got.w, sizeof(want.w), "mul_transform_plain T(" << vs[i].name << ") * " << vs[j].name);
    expect_padding_zero(got, "mul_transform_plain T(" + vs[i].name + ") * " + vs[j].name);
  }
}

// ---- Samplers

template <class P>
void test_support_to_vector(const Backend& be) {
  const auto& k = be.kernels<P>();
  ASSERT_NE(k.support_to_vector, nullptr);
  std::mt19937_64 rng(0x737570 + P::kLevel);
  auto check = [&](const std::vector<std::uint32_t>& pos, const std::string& what) {
    const auto& in = pos;  // exact size: ASan reports a read past w
    Ring<P> want = from_support<P>(pos), r = garbage_ring<P>(), got = garbage_ring<P>();
    ref<P>().support_to_vector(r.w, in.data(), in.size());
    k.support_to_vector(got.w, in.data(), in.size());
    ASSERT_SAME_BYTES(want.w, r.w, sizeof(want.w), "portable support_to_vector, " << what);
    ASSERT_SAME_BYTES(want.w, got.w, sizeof(want.w), "support_to_vector " << what << ", w = " << pos.size());
  };
  for (std::size_t w : {std::size_t{1}, std::size_t{2}, std::size_t{7}, std::size_t{8}, std::size_t{9}, std::size_t{16},
                        std::size_t{17}, P::kW, P::kWr, P::kWe}) {
    std::vector<std::uint32_t> lo, hi, edges;
    for (std::size_t i = 0; i < w; i++) {
      lo.push_back(static_cast<std::uint32_t>(i));
      hi.push_back(static_cast<std::uint32_t>(P::kN - 1 - i));
      // word boundaries (bits 0 and 63 of successive words), then positions at both ends
      edges.push_back(static_cast<std::uint32_t>(i % 2 ? 64 * (i / 2) + 63 : 64 * (i / 2)));
    }
    edges[0] = static_cast<std::uint32_t>(P::kN - 1);
    check(lo, "lowest positions");
    check(hi, "highest positions (maximum weight at the top)");
    check(edges, "word boundaries and n-1");
    std::reverse(hi.begin(), hi.end());
    check(hi, "highest positions ascending");
    for (int it = 0; it < 20; it++) check(random_support<P>(rng, w), "random positions");
  }
  for (std::uint32_t p : {0u, 1u, 63u, 64u, 511u, 512u, static_cast<std::uint32_t>(P::kN - 1)})
    check({p}, "single position " + std::to_string(p));
}

template <class P>
void test_enc_positions(const Backend& be) {
  const auto& k = be.kernels<P>();
  ASSERT_NE(k.enc_positions, nullptr);
  std::mt19937_64 rng(0x656e63 + P::kLevel);
  auto check = [&](const std::vector<std::uint8_t>& bytes, std::size_t w, const std::string& what) {
    const auto& in = bytes;  // exactly 4 w bytes
    std::vector<std::uint32_t> want(w + 16, kCanary), got(w + 16, kCanary);
    ref<P>().enc_positions(want.data(), in.data(), w);
    k.enc_positions(got.data(), in.data(), w);
    EXPECT_EQ(want, got) << "enc_positions " << what << ", w = " << w << " (entries past w are canaries)";
    for (std::size_t i = w; i < got.size(); i++) ASSERT_EQ(got[i], kCanary) << "enc_positions wrote past w = " << w;
    std::vector<std::uint32_t> s(got.begin(), got.begin() + static_cast<std::ptrdiff_t>(w));
    std::sort(s.begin(), s.end());
    EXPECT_TRUE(std::adjacent_find(s.begin(), s.end()) == s.end())
        << "enc_positions " << what << ": duplicate positions";
    EXPECT_LT(s.back(), P::kN) << "enc_positions " << what << ": position >= n";
  };
  for (std::size_t w :
       {std::size_t{1}, std::size_t{2}, std::size_t{9}, std::size_t{16}, std::size_t{17}, P::kWe, P::kWr}) {
    std::vector<std::uint8_t> bytes(4 * w);
    std::fill(bytes.begin(), bytes.end(), 0x00);  // p_i = i
    check(bytes, w, "all-zero bytes");
    std::fill(bytes.begin(), bytes.end(), 0xFF);  // every p_i = n - 1: a chain of replacements
    check(bytes, w, "all-0xFF bytes");
    for (int it = 0; it < 20; it++) {  // few distinct values: duplicates, replacements colliding again
      for (std::size_t i = 0; i < w; i++) {
        const std::uint32_t r = static_cast<std::uint32_t>(rng() % 3) << 30;
        std::memcpy(&bytes[4 * i], &r, 4);
      }
      check(bytes, w, "three distinct values");
    }
    for (std::size_t i = 0; i < bytes.size(); i++) bytes[i] = static_cast<std::uint8_t>(i / 8);
    check(bytes, w, "pairs of equal draws");
    // p_i = i + d_i with R_i = ceil(d_i 2^32 / (n - i)): draws equal to later indices, so that a
    // replacement (p_j becomes j) makes an earlier draw a duplicate, in chains. The longest: every
    // draw the next index and p_(w-2) = p_(w-1) = w, so that each replacement causes the next
    // one down, w - 1 in a row.
    auto near = [&](auto pick_d) {
      for (std::size_t i = 0; i < w; i++) {
        const std::uint64_t d = pick_d(i);
        const std::uint64_t left = P::kN - i;
        const auto r = static_cast<std::uint32_t>(((d << 32) + left - 1) / left);
        std::memcpy(&bytes[4 * i], &r, 4);
      }
    };
    near([&](std::size_t i) { return std::uint64_t{i + 2 == w ? 2u : 1u}; });
    check(bytes, w, "a chain of w - 1 replacements");
    for (int it = 0; it < 30; it++) {
      near([&](std::size_t) { return rng() % 4; });
      check(bytes, w, "draws within 3 of their index (replacement chains)");
    }
    for (int it = 0; it < 30; it++) {
      for (auto& x : bytes) x = static_cast<std::uint8_t>(rng());
      check(bytes, w, "random bytes");
    }
  }
}

template <class P>
void test_position_taken(const Backend& be) {
  const auto& k = be.kernels<P>();
  ASSERT_NE(k.position_taken, nullptr);
  std::mt19937_64 rng(0x706f73 + P::kLevel);
  // Every count 0..w; r absent, at the first, last and every other place, equal to n-1, and equal
  // to the entries past count (which must not count: the caller's array holds w entries).
  for (std::size_t count = 0; count <= P::kW; count++) {
    for (int variant = 0; variant < 3; variant++) {
      std::vector<std::uint32_t> pos(P::kW);
      for (auto& p : pos) p = static_cast<std::uint32_t>(rng() % P::kN);
      if (variant == 1) pos[count ? count - 1 : 0] = static_cast<std::uint32_t>(P::kN - 1);
      if (variant == 2 && count > 1) pos[1] = pos[0];  // a duplicate inside the list
      std::vector<std::uint32_t> probes = {static_cast<std::uint32_t>(rng() % P::kN), 0u,
                                           static_cast<std::uint32_t>(P::kN - 1)};
      for (std::size_t i = 0; i < count; i += 1 + count / 8) probes.push_back(pos[i]);
      if (count > 0) probes.push_back(pos[count - 1]);
      if (count < P::kW) probes.push_back(pos[count]);  // only past count: not taken
      for (std::uint32_t r : probes) {
        std::uint32_t naive = 0;
        for (std::size_t i = 0; i < count; i++) naive |= pos[i] == r ? ~0u : 0u;
        EXPECT_EQ(naive, ref<P>().position_taken(pos.data(), count, r)) << "portable, count " << count;
        EXPECT_EQ(naive, k.position_taken(pos.data(), count, r)) << "position_taken count " << count << " r " << r;
      }
    }
  }
}

// The key-generation refill (backend/ops.hpp keygen_accept), from its definition.
template <class P>
std::size_t naive_keygen_accept(std::uint32_t* pos, std::size_t count, const std::uint8_t* draws, std::size_t groups) {
  for (std::size_t g = 0; g < groups; g++) {
    const std::uint32_t c =
        draws[3 * g] | (std::uint32_t{draws[3 * g + 1]} << 8) | (std::uint32_t{draws[3 * g + 2]} << 16);
    if (c >= P::kRejectThreshold) continue;
    const std::uint32_t r = c % static_cast<std::uint32_t>(P::kN);
    if (std::find(pos, pos + count, r) == pos + count) pos[count++] = r;
  }
  return count;
}

template <class P>
void put_draw(std::uint8_t* p, std::uint32_t c) {
  p[0] = static_cast<std::uint8_t>(c);
  p[1] = static_cast<std::uint8_t>(c >> 8);
  p[2] = static_cast<std::uint8_t>(c >> 16);
}

// A byte stream for the sampler (the squeeze interface of sym::Xof).
struct Stream {
  const std::vector<std::uint8_t>* b;
  std::size_t off = 0;
  void squeeze(std::uint8_t* out, std::size_t n) {
    if (off + n > b->size()) {  // a test stream must hold enough distinct positions
      std::fprintf(stderr, "keygen sampler test: stream exhausted\n");
      std::abort();
    }
    std::memcpy(out, b->data() + off, n);
    off += n;
  }
};

template <class P>
void test_keygen_accept(const Backend& be) {
  const auto& k = be.kernels<P>();
  ASSERT_NE(k.keygen_accept, nullptr);
  std::mt19937_64 rng(0x6b6579 + P::kLevel);
  // Direct calls: every count, draws that are rejected (at and above the threshold), duplicates of
  // earlier positions, of each other, r = c mod n collisions (c and c + n), the largest position.
  const std::uint32_t T = P::kRejectThreshold, n = static_cast<std::uint32_t>(P::kN);
  for (std::size_t count = 0; count < P::kW; count += (count < 20 ? 1 : 7)) {
    for (int mode = 0; mode < 7; mode++) {
      std::vector<std::uint32_t> pos(P::kW, kCanary);
      const auto init = random_support<P>(rng, count);
      std::copy(init.begin(), init.end(), pos.begin());
      const std::size_t groups = P::kW - count;
      std::vector<std::uint8_t> draws(3 * P::kW);  // the caller's buffer holds 3 w bytes
      for (std::size_t g = 0; g < P::kW; g++) {
        std::uint32_t c = static_cast<std::uint32_t>(rng()) & 0xFFFFFF;
        switch (mode) {
          case 1: c = T - 1 + static_cast<std::uint32_t>(g % 2); break;                            // at the threshold
          case 2: c = 0xFFFFFF - static_cast<std::uint32_t>(g % 3); break;                         // all rejected
          case 3: c = count ? init[g % count] + n * static_cast<std::uint32_t>(g % 3) : 5; break;  // all taken
          case 4: c = static_cast<std::uint32_t>(g % 5); break;              // duplicates of each other
          case 5: c = n - 1 + n * static_cast<std::uint32_t>(g % 4); break;  // n-1, collisions mod n
          case 6: c = g % 3 == 0 ? T + static_cast<std::uint32_t>(g) : static_cast<std::uint32_t>(rng() % n); break;
          default: break;
        }
        if (g >= groups) c = static_cast<std::uint32_t>(g);  // past `groups`: valid draws that must be ignored
        put_draw<P>(&draws[3 * g], c);
      }
      std::vector<std::uint32_t> want(pos), got(pos);
      const std::size_t cw = naive_keygen_accept<P>(want.data(), count, draws.data(), groups);
      std::vector<std::uint32_t> oracle(pos);
      ASSERT_EQ(cw, ref<P>().keygen_accept(oracle.data(), count, draws.data(), groups)) << "portable keygen_accept";
      EXPECT_TRUE(std::equal(want.begin(), want.begin() + static_cast<std::ptrdiff_t>(cw), oracle.begin()));
      const std::size_t cg = k.keygen_accept(got.data(), count, draws.data(), groups);
      ASSERT_EQ(cw, cg) << "keygen_accept count " << count << " mode " << mode;
      EXPECT_TRUE(std::equal(want.begin(), want.begin() + static_cast<std::ptrdiff_t>(cw), got.begin()))
          << "keygen_accept positions, count " << count << " mode " << mode;
    }
  }
  // The whole sampler with this row's refill against portable's, on streams with no, many and
  // only duplicates and rejections.
  for (int mode = 0; mode < 5; mode++) {
    std::vector<std::uint8_t> bytes(3 * 40 * P::kW);
    for (std::size_t i = 0; i < bytes.size() / 3; i++) {
      std::uint32_t c = static_cast<std::uint32_t>(rng()) & 0xFFFFFF;
      if (mode == 1) c = static_cast<std::uint32_t>(i % (P::kW + 3));  // many duplicates
      if (mode == 2 && rng() % 3 == 0) c = T + (c % 1000);             // rejections
      if (mode == 3) c = (i % 2) ? 0xFFFFFF : static_cast<std::uint32_t>(i / 2 % (P::kW + 1)) * 7;
      if (mode == 4) c = static_cast<std::uint32_t>(i % 5 == 0 ? n + i % 7 : i % (P::kW + 11));  // c mod n collisions
      put_draw<P>(&bytes[3 * i], c);
    }
    Stream s1{&bytes}, s2{&bytes};
    std::uint32_t p1[P::kW], p2[P::kW];
    for (int draw = 0; draw < 2; draw++) {
      const std::size_t u1 = sampling::sample_keygen_positions<P>(p1, s1);
      const std::size_t u2 = sampling::sample_keygen_positions<P>(p2, s2, k.keygen_accept);
      ASSERT_EQ(u1, u2) << "keygen sampler bytes consumed, mode " << mode;
      EXPECT_EQ(0, std::memcmp(p1, p2, sizeof(p1))) << "keygen sampler positions, mode " << mode;
    }
  }
}

// ---- Decoders

template <class P>
void flip_bits_in_block(Code<P>& c, std::size_t block, std::size_t flips, std::mt19937_64& rng) {
  constexpr std::size_t kBits = 128 * P::kMult;
  std::vector<std::size_t> idx(kBits);
  for (std::size_t i = 0; i < kBits; i++) idx[i] = i;
  std::shuffle(idx.begin(), idx.end(), rng);
  for (std::size_t f = 0; f < flips; f++) {
    const std::size_t bit = block * kBits + idx[f];
    c.w[bit / 64] ^= std::uint64_t{1} << (bit % 64);
  }
}

template <class P>
void test_rm_decode(const Backend& be) {
  const auto& k = be.kernels<P>();
  ASSERT_NE(k.rm_decode, nullptr);
  std::mt19937_64 rng(0x726d + P::kLevel);
  // Each block is 128 * mult bits at distance >= 64 * mult from every other codeword: up to
  // 32 * mult - 1 flips per block always decode to the sent byte (the correction radius).
  const std::size_t radius = 32 * P::kMult - 1;
  auto check = [&](const Code<P>& in, const std::string& what, const std::uint8_t* sent) {
    std::vector<std::uint8_t> want(P::kN1), got(P::kN1, 0xEE);  // exact size: ASan sees overflows
    ref<P>().rm_decode(want.data(), in.w);
    k.rm_decode(got.data(), in.w);
    EXPECT_EQ(want, got) << "rm_decode " << what;
    if (sent != nullptr) {
      EXPECT_EQ(0, std::memcmp(got.data(), sent, P::kN1)) << "rm_decode " << what << ": not corrected";
    }
  };
  Code<P> c;
  check(c, "all-zero word", nullptr);
  std::fill(std::begin(c.w), std::end(c.w), ~std::uint64_t{0});
  check(c, "all-one word", nullptr);
  std::fill(std::begin(c.w), std::end(c.w), 0x5555555555555555u);
  check(c, "alternating bits", nullptr);
  for (std::size_t i = 0; i < P::kN1N2Words; i++) c.w[i] = i % 2 ? 0 : ~std::uint64_t{0};
  check(c, "alternating words", nullptr);
  for (int it = 0; it < 12; it++) {
    std::uint8_t msg[P::kN1];
    for (auto& b : msg) b = static_cast<std::uint8_t>(rng());
    if (it == 0) std::memset(msg, 0, sizeof(msg));
    if (it == 1) std::memset(msg, 0xFF, sizeof(msg));
    Code<P> clean;
    code::rm_encode<P>(clean.w, msg);
    check(clean, "clean codeword", msg);
    Code<P> at = clean, beyond = clean, far = clean;
    for (std::size_t b = 0; b < P::kN1; b++) {
      flip_bits_in_block(at, b, radius, rng);
      flip_bits_in_block(beyond, b, radius + 1 + rng() % 2, rng);  // at and past half the distance
      flip_bits_in_block(far, b, 64 * P::kMult - rng() % 8, rng);
    }
    check(at, "at the correction radius (" + std::to_string(radius) + " flips per block)", msg);
    check(beyond, "just beyond the correction radius", nullptr);
    check(far, "near the next codeword", nullptr);
    Code<P> rnd;
    for (auto& w : rnd.w) w = rng();
    check(rnd, "random word", nullptr);
  }
  // Ties: each block half one codeword, half another (every copy alike), so several |F| peak at
  // the same height and the smallest index must win, with its own sign; and copies split between
  // a codeword and its complement.
  for (int it = 0; it < 10; it++) {
    Code<P> half, comp;
    for (std::size_t j = 0; j < P::kN1; j++) {
      std::uint64_t c1[2], c2[2];
      code::rm_encode_byte(static_cast<std::uint8_t>(rng()), c1);
      code::rm_encode_byte(static_cast<std::uint8_t>(rng()), c2);
      const std::uint64_t m0 = rng(), m1 = rng();
      const std::uint64_t blk[2] = {(c1[0] & m0) | (c2[0] & ~m0), (c1[1] & m1) | (c2[1] & ~m1)};
      for (std::size_t t = 0; t < P::kMult; t++) {
        const std::uint64_t flip = (t & 1) ? ~std::uint64_t{0} : 0;
        half.w[j * (P::kN2 / 64) + 2 * t] = blk[0];
        half.w[j * (P::kN2 / 64) + 2 * t + 1] = blk[1];
        comp.w[j * (P::kN2 / 64) + 2 * t] = c1[0] ^ flip;
        comp.w[j * (P::kN2 / 64) + 2 * t + 1] = c1[1] ^ flip;
      }
    }
    check(half, "blocks half one codeword, half another (ties)", nullptr);
    check(comp, "copies alternating between a codeword and its complement", nullptr);
  }
}

template <class P>
void test_rs_encode(const Backend& be) {
  const auto& k = be.kernels<P>();
  ASSERT_NE(k.rs_encode, nullptr);
  std::mt19937_64 rng(0x7265 + P::kLevel);
  auto check = [&](const std::vector<std::uint8_t>& msg, const std::string& what) {
    const auto& in = msg;  // exactly k bytes
    std::vector<std::uint8_t> want(P::kN1 + 16, 0xA5), got(P::kN1 + 16, 0xA5);
    code::rs_encode<P>(want.data(), in.data());  // the shift register of spec §5.2
    for (std::size_t i = 0; i < P::kN1; i++) got[i] = static_cast<std::uint8_t>(0x5A ^ i);  // garbage
    k.rs_encode(got.data(), in.data());
    EXPECT_EQ(want, got) << "rs_encode " << what << " (bytes past n1 are canaries)";
    EXPECT_EQ(0, std::memcmp(got.data() + P::kRsParity, in.data(), P::kK))
        << "rs_encode " << what << ": not systematic";
  };
  std::vector<std::uint8_t> msg(P::kK, 0);
  check(msg, "all-zero message");
  std::fill(msg.begin(), msg.end(), 0xFF);
  check(msg, "all-0xFF message");
  // Every symbol value at every position alone: the encoder is linear, so these span every input.
  for (std::size_t i = 0; i < P::kK; i++)
    for (unsigned v = 1; v < 256; v++) {
      std::fill(msg.begin(), msg.end(), 0);
      msg[i] = static_cast<std::uint8_t>(v);
      check(msg, "symbol " + std::to_string(v) + " alone at position " + std::to_string(i));
    }
  for (int it = 0; it < 200; it++) {
    for (auto& b : msg) b = static_cast<std::uint8_t>(rng());
    check(msg, "random message");
  }
}

template <class P>
void test_rs_decode(const Backend& be) {
  const auto& k = be.kernels<P>();
  ASSERT_NE(k.rs_decode, nullptr);
  std::mt19937_64 rng(0x7273 + P::kLevel);
  auto check = [&](const std::vector<std::uint8_t>& word, const std::string& what, const std::uint8_t* sent) {
    const auto& in = word;  // exactly n1 bytes
    std::vector<std::uint8_t> want(P::kK), got(P::kK, 0xEE);
    ref<P>().rs_decode(want.data(), in.data());
    k.rs_decode(got.data(), in.data());
    EXPECT_EQ(want, got) << "rs_decode " << what;
    if (sent != nullptr) {
      EXPECT_EQ(0, std::memcmp(got.data(), sent, P::kK)) << "rs_decode " << what << ": not corrected";
    }
  };
  std::vector<std::uint8_t> word(P::kN1, 0);
  check(word, "all-zero word", nullptr);
  std::fill(word.begin(), word.end(), 0xFF);
  check(word, "all-0xFF word", nullptr);
  const std::size_t d = P::kDelta;
  // Error counts up to the correction capacity delta (corrected), and beyond it (compared only).
  for (std::size_t errors : {std::size_t{0}, std::size_t{1}, d - 1, d, d + 1, d + 2, 2 * d, 2 * d + 3, P::kN1}) {
    for (int it = 0; it < 12; it++) {
      std::uint8_t msg[P::kK];
      for (auto& b : msg) b = static_cast<std::uint8_t>(rng());
      std::uint8_t cw[P::kN1];
      code::rs_encode<P>(cw, msg);
      word.assign(cw, cw + P::kN1);
      // Where the errors sit: anywhere, on the parity symbols only, on the message symbols only
      // (when they fit there), a burst at the start, a burst at the end.
      const int place = it % 5;
      std::vector<std::size_t> where;
      const std::size_t lo = place == 2 && errors <= P::kK ? P::kRsParity : 0;
      const std::size_t hi = place == 1 && errors <= P::kRsParity ? P::kRsParity : P::kN1;
      for (std::size_t i = lo; i < hi; i++) where.push_back(i);
      if (place <= 2) std::shuffle(where.begin(), where.end(), rng);
      if (place == 4) std::reverse(where.begin(), where.end());
      for (std::size_t e = 0; e < errors; e++) word[where[e]] ^= static_cast<std::uint8_t>(1 + rng() % 255);
      static const char* const kPlaces[] = {"anywhere", "on parity symbols", "on message symbols", "burst at the start",
                                            "burst at the end"};
      const std::string what = std::to_string(errors) + " errors, " + kPlaces[place];
      check(word, what, errors <= d ? msg : nullptr);
    }
  }
  for (int it = 0; it < 20; it++) {
    for (auto& b : word) b = static_cast<std::uint8_t>(rng());
    check(word, "random word", nullptr);
  }
}

// ---- Keccak (level-independent slots of Backend)

// A permutation of N words against its reference on 150 states: all ones, one bit in each word,
// then random (seeded by seed).
template <class Word, std::size_t N, class Ref, class Fn>
void compare_permutation(Ref reference, Fn under_test, std::uint64_t seed, const char* name) {
  std::mt19937_64 rng(seed);
  for (int it = 0; it < 150; it++) {
    Word s1[N], s2[N];
    for (auto& x : s1) x = it == 0 ? static_cast<Word>(~Word{0}) : static_cast<Word>(rng());
    if (it >= 1 && it <= static_cast<int>(N)) {  // one bit in each word
      std::fill(std::begin(s1), std::end(s1), 0);
      s1[it - 1] = Word{1} << (it * 7 % (8 * sizeof(Word)));
    }
    std::memcpy(s2, s1, sizeof(s1));
    reference(s1);
    under_test(s2);
    ASSERT_SAME_BYTES(s1, s2, sizeof(s1), name << " state " << it);
  }
}

void test_keccak_f1600(const Backend& be) {
  ASSERT_NE(be.keccak_f1600, nullptr);
  // Keccak-f[1600] of the zero state (FIPS 202; the first lane of the well-known result).
  std::uint64_t z[25] = {};
  be.keccak_f1600(z);
  EXPECT_EQ(z[0], 0xF1258F7940E1DDE7u);
  compare_permutation<std::uint64_t, 25>(sym::keccak_f1600_portable, be.keccak_f1600, 0x6b6563, "keccak_f1600");
}

void test_keccak_f1600_x4(const Backend& be) {
  ASSERT_NE(be.keccak_f1600_x4, nullptr);
  std::mt19937_64 rng(0x6b78);
  for (int it = 0; it < 40; it++) {
    // Every subset of the four states (a nullptr state is skipped), in exact-size heap buffers.
    const unsigned present = static_cast<unsigned>(it % 16);
    std::vector<std::vector<std::uint64_t>> s(4, std::vector<std::uint64_t>(25)), want(4);
    for (auto& st : s)
      for (auto& x : st) x = it == 0 ? 0 : rng();
    for (int i = 0; i < 4; i++) {
      want[i] = s[i];
      if (present >> i & 1) sym::keccak_f1600_portable(want[i].data());
    }
    auto arg = [&](int i) { return (present >> i & 1) ? s[i].data() : nullptr; };
    be.keccak_f1600_x4(arg(0), arg(1), arg(2), arg(3));
    for (int i = 0; i < 4; i++)
      EXPECT_EQ(want[i], s[i]) << "keccak_f1600_x4 state " << i << ", present mask " << present;
  }
}

// The optional permutation on the interleaved form (sym::interleave_lane): the portable
// permutation between a deinterleave and an interleave, on the same states as keccak_f1600's test.
void test_keccak_f1600_interleaved(const Backend& be) {
  if (be.keccak_f1600_interleaved == nullptr)
    GTEST_SKIP() << "backend " << be.name << " has no interleaved permutation (an optional slot)";
  compare_permutation<std::uint32_t, 50>(sym::keccak_f1600_interleaved_portable, be.keccak_f1600_interleaved, 0x696c,
                                         "keccak_f1600_interleaved");
}

// The optional lane conversions of the interleaved form (sym::lanes' portable ones): every count of
// lanes 1 .. 25 at every byte offset of the byte string, on random and edge lanes; nothing outside
// the output is written. They come with the interleaved permutation, both of them.
void test_keccak_lanes_interleaved(const Backend& be) {
  if (be.keccak_xor_lanes_interleaved == nullptr && be.keccak_read_lanes_interleaved == nullptr)
    GTEST_SKIP() << "backend " << be.name << " has no lane conversions of its own (optional slots)";
  ASSERT_NE(be.keccak_xor_lanes_interleaved, nullptr);
  ASSERT_NE(be.keccak_read_lanes_interleaved, nullptr);
  ASSERT_NE(be.keccak_f1600_interleaved, nullptr);
  std::mt19937_64 rng(0x6c616e);
  for (std::size_t n = 1; n <= 25; n++) {
    for (std::size_t off = 0; off < 8; off++) {
      std::uint8_t in[8 * 25 + 8], out_ref[8 * 25 + 16], out_be[8 * 25 + 16];
      std::uint32_t w_ref[50], w_be[50];
      for (auto& x : in) x = static_cast<std::uint8_t>(off == 1 ? 0xFF : rng());
      for (auto& x : w_ref) x = static_cast<std::uint32_t>(rng());
      std::memcpy(w_be, w_ref, sizeof(w_ref));
      sym::xor_lanes_interleaved_portable(w_ref, in + off, n);
      be.keccak_xor_lanes_interleaved(w_be, in + off, n);
      ASSERT_SAME_BYTES(w_ref, w_be, sizeof(w_ref),
                        "keccak_xor_lanes_interleaved, " << n << " lanes at offset " << off);
      std::memset(out_ref, 0x5A, sizeof(out_ref));
      std::memset(out_be, 0x5A, sizeof(out_be));
      sym::read_lanes_interleaved_portable(out_ref + off, w_ref, n);
      be.keccak_read_lanes_interleaved(out_be + off, w_be, n);
      ASSERT_SAME_BYTES(out_ref, out_be, sizeof(out_ref),
                        "keccak_read_lanes_interleaved, " << n << " lanes at offset " << off);
    }
  }
}

// ---- The whole KEM on this row (what the kernels add up to): same bytes as portable for keys,
// encapsulations and valid and invalid decapsulations, with key objects prepared or not.

template <class P>
void test_kem(const Backend& be) {
  std::mt19937_64 rng(99 + P::kLevel);
  for (int iter = 0; iter < 6; iter++) {
    std::uint8_t seed[32], m[P::kK], salt[16];
    for (auto& x : seed) x = static_cast<std::uint8_t>(rng());
    for (auto& x : m) x = static_cast<std::uint8_t>(rng());
    for (auto& x : salt) x = static_cast<std::uint8_t>(rng());
    auto k1 = std::make_unique<kem::SecretKey<P>>();
    auto k2 = std::make_unique<kem::SecretKey<P>>();
    kem::keypair<P>(backend::portable(), *k1, seed);
    kem::keypair<P>(be, *k2, seed);
    ASSERT_EQ(0, std::memcmp(k1->pub.pk, k2->pub.pk, P::kPublicKeyBytes)) << "public key";
    std::vector<std::uint8_t> c1(P::kCiphertextBytes), c2(P::kCiphertextBytes), c3(P::kCiphertextBytes);
    std::uint8_t s1[32], s2[32];
    kem::encaps<P>(backend::portable(), k1->pub, c1.data(), s1, m, salt);
    kem::encaps<P>(be, k2->pub, c2.data(), s2, m, salt);
    ASSERT_EQ(c1, c2) << "ciphertext";
    ASSERT_EQ(0, std::memcmp(s1, s2, 32)) << "shared secret";
    if (iter % 2) c1[rng() % c1.size()] ^= static_cast<std::uint8_t>(1 + rng() % 255);
    kem::decaps<P>(backend::portable(), *k1, s1, c1.data());
    kem::decaps<P>(be, *k2, s2, c1.data());
    ASSERT_EQ(0, std::memcmp(s1, s2, 32)) << (iter % 2 ? "implicit rejection" : "decapsulation");

    // Key objects prepared for many operations (transforms of h, s, y where the multiplier has
    // them), prepared after keypair or after parsing, and unprepared ones give the same bytes.
    const bool transforms = be.kernels<P>().transforms != nullptr;
    std::vector<std::uint8_t> sk(P::kSecretKeyBytes);
    k2->serialize(sk.data());
    auto parsed = std::make_unique<kem::SecretKey<P>>();
    ASSERT_EQ(kem::Status::kOk, kem::parse_secret_key<P>(be, *parsed, sk.data()));
    ASSERT_EQ(transforms, kem::prepare_secret_key<P>(be, *parsed));
    ASSERT_EQ(transforms, kem::prepare_secret_key<P>(be, *k2));
    if (transforms) {
      // The kept transforms are really used: a corrupted one changes the ciphertext.
      auto bent = std::make_unique<kem::PublicKey<P>>(parsed->pub);
      bent->ek.kept.data()[0].w[3] ^= 1;  // a deep copy: parsed stays intact
      std::uint8_t s4[32];
      kem::encaps<P>(be, *bent, c3.data(), s4, m, salt);
      ASSERT_NE(c2, c3) << "a corrupted kept transform went unused";
    }
    auto plain = std::make_unique<kem::SecretKey<P>>();
    ASSERT_EQ(kem::Status::kOk, kem::parse_secret_key<P>(be, *plain, sk.data()));
    // A key prepared while it is generated (the product h*y through the transforms it keeps),
    // where the table's products are its transform products: the same key, and it keeps them.
    auto generated = std::make_unique<kem::SecretKey<P>>();
    const bool by_product = transforms && be.kernels<P>().transforms->mul_is_transform_product;
    ASSERT_EQ(by_product, kem::keypair_prepared<P>(be, *generated, seed, pke::heap_transform_store<P>()));
    ASSERT_EQ(0, std::memcmp(k1->pub.pk, generated->pub.pk, P::kPublicKeyBytes)) << "public key, prepared keypair";
    std::vector<std::uint8_t> sk2(P::kSecretKeyBytes);
    generated->serialize(sk2.data());
    ASSERT_EQ(sk, sk2) << "secret key, prepared keypair";
    ASSERT_EQ(0, std::memcmp(k2->pub.hpk, generated->pub.hpk, 32)) << "H(pk), prepared keypair";
    if (by_product) {
      // Its transforms are h's, s's and y's: the same words as a later prepare's.
      for (std::size_t t = 0; t < kem::kPublicKeyTransforms; t++)
        ASSERT_EQ(
            0, std::memcmp(generated->pub.ek.kept.data()[t].w, k2->pub.ek.kept.data()[t].w, sizeof(pke::Transform<P>)))
            << "kept transform " << t << " of a prepared keypair";
      ASSERT_EQ(0, std::memcmp(generated->y_kept.data()[0].w, k2->y_kept.data()[0].w, sizeof(pke::Transform<P>)))
          << "y's kept transform of a prepared keypair";
    }
    for (const kem::SecretKey<P>* key : {parsed.get(), plain.get(), k2.get(), generated.get()}) {
      std::uint8_t s3[32];
      kem::encaps<P>(be, key->pub, c3.data(), s3, m, salt);
      ASSERT_EQ(c2, c3) << "ciphertext from a prepared or parsed key";
      kem::decaps<P>(be, *key, s3, c1.data());
      ASSERT_EQ(0, std::memcmp(s1, s3, 32)) << "decapsulation with a prepared or parsed key";
    }
  }
}

// ---- Registration

using LevelFn = void (*)(const Backend&);
struct PerLevel {
  const char* slot;
  LevelFn hqc1, hqc3, hqc5;
};
#define HQC_PER_LEVEL(name) \
  PerLevel { #name, &test_##name < Hqc1>, &test_##name < Hqc3>, &test_##name < Hqc5> }

// Every slot of KernelTable (mul_name is checked by test_mul), then the whole KEM.
const PerLevel kPerLevel[] = {
    HQC_PER_LEVEL(mul),
    HQC_PER_LEVEL(mul2),
    HQC_PER_LEVEL(transform),
    HQC_PER_LEVEL(mul_transforms),
    HQC_PER_LEVEL(mul_transform_plain),
    HQC_PER_LEVEL(support_to_vector),
    HQC_PER_LEVEL(enc_positions),
    HQC_PER_LEVEL(position_taken),
    HQC_PER_LEVEL(keygen_accept),
    HQC_PER_LEVEL(rm_decode),
    HQC_PER_LEVEL(rs_encode),
    HQC_PER_LEVEL(rs_decode),
    HQC_PER_LEVEL(kem),
};
struct AllLevels {
  const char* slot;
  LevelFn fn;
};
const AllLevels kAllLevels[] = {{"keccak_f1600", &test_keccak_f1600},
                                {"keccak_f1600_x4", &test_keccak_f1600_x4},
                                {"keccak_f1600_interleaved", &test_keccak_f1600_interleaved},
                                {"keccak_lanes_interleaved", &test_keccak_lanes_interleaved}};

class Conformance : public testing::Test {
 public:
  Conformance(const Backend* be, LevelFn fn) : be_(be), fn_(fn) {}
  void TestBody() override {
    const backend::CpuFeatures have = backend::effective_cpu_features();
    if (!backend::is_supported(*be_, have))
      GTEST_SKIP() << "backend " << be_->name << " needs CPU features "
                   << backend::feature_list_string(be_->required & ~have) << " that this CPU (or HQC_CPU_MASK) lacks";
    fn_(*be_);
  }

 private:
  const Backend* be_;
  LevelFn fn_;
};

void register_tests() {
  for (const Backend* be : backend::all_backends()) {
    const std::string row = "Conformance/" + test::param_name(be->name);
    auto add = [&](const std::string& suite, const char* slot, LevelFn fn) {
      testing::RegisterTest(suite.c_str(), slot, nullptr, nullptr, __FILE__, __LINE__,
                            [be, fn]() -> testing::Test* { return new Conformance(be, fn); });
    };
    for (const PerLevel& t : kPerLevel) {
      add(row + "/HQC1", t.slot, t.hqc1);
      add(row + "/HQC3", t.slot, t.hqc3);
      add(row + "/HQC5", t.slot, t.hqc5);
    }
    for (const AllLevels& t : kAllLevels) add(row + "/AllLevels", t.slot, t.fn);
  }
}

}  // namespace
}  // namespace hqc

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  hqc::register_tests();
  return RUN_ALL_TESTS();
}
