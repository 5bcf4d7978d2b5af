// The Cortex-M4 backend (device builds only: src/backend/m4, HQC_WITH_M4; the first row of
// backend/device_table.cpp). Kernels chosen by the cycle model (scripts/m4-cycles.py, docs/M4.md):
// the ring multiplication is a FAFFT (fafft_m4.cpp) for mul, mul2 and the transforms that
// prepared key objects keep (mul_choice, mul2_choice): on the whole 2^m bits at HQC-5, on half of
// them with a Chinese remainder step at HQC-1 and HQC-3, whose quotient is a product of the
// operands' top words by the tree, Toom-4, Toom-3 and two- and three-way Karatsuba over 32-bit words
// (ring_mul_m4.cpp, toom4_m4.S, poly_m4.S) with zero padding to friendlier sizes, down to Thumb-2
// carry-less products of 1 to 64 words (clmul_m4.S, register-only 32x32 products from UMULL);
// support expansion by an oblivious sort and routing networks over 128-bit blocks
// (support_route_m4.hpp, passes in support_m4.S); the samplers' duplicate test by SIMD32
// compares (sampling_m4.S);
// Reed-Solomon encoding and decoding four field elements per word (reed_solomon_m4.cpp); every
// other slot holds the portable kernel. Every kernel is constant time
// and gives the portable backend's bytes (the device test image m4_test checks each against
// portable; the KAT image runs this row).
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "backend/fafft/plan.hpp"
#include "backend/generic.hpp"
#include "backend/m4/fafft_m4.hpp"
#include "backend/m4/ring_mul_m4.hpp"
#include "backend/m4/support_route_m4.hpp"
#include "backend/ops.hpp"
#include "code/reed_muller.hpp"
#include "code/reed_solomon.hpp"
#include "common/ct.hpp"
#include "sampling/sampling.hpp"
#include "sym/keccak.hpp"

// All-ones if r is one of pos[0 .. count), positions and r below 2^16, by SIMD32 compares of two
// positions at once over every position (sampling_m4.S).
extern "C" std::uint32_t hqc_m4_eq_mask(const std::uint32_t* pos, std::size_t count, std::uint32_t r);
// One refill of the key-generation sampler on its draws' positions (all ones where rejected): each
// appended to pos[count ..] unless rejected or already among pos[0 .. count) (sampling_m4.S;
// keygen_accept below). Returns the new count.
extern "C" std::uint32_t hqc_m4_keygen_accept(std::uint32_t* pos, std::uint32_t* packed, std::uint32_t count,
                                              const std::uint32_t* drawn, std::uint32_t groups);
// The encryption sampler's duplicate fix-up on the drawn pos[0 .. w) (w >= 1), its final positions
// kept two to a word in packed ((w + 1) / 2 words of scratch) for the scans (sampling_m4.S).
extern "C" void hqc_m4_enc_fixup(std::uint32_t* pos, std::uint32_t* packed, std::uint32_t w);
// Keccak-f[1600] (FIPS 202 §3.3) in Thumb-2, bit-interleaved with lazy rotations, the lanes in the
// standard layout in and out (keccak_m4.S, written by scripts/gen-keccak-m4.py).
extern "C" void hqc_m4_keccak_f1600(std::uint64_t state[25]);
// The same permutation on the interleaved form it works in (keccak_m4.S's second entry): the
// sponges keep their states in that form, so the 50 words skip interleaving on every entry and
// exit (about 0.9k estimated cycles of the permutation's 10.9k).
extern "C" void hqc_m4_keccak_f1600_interleaved(std::uint32_t state[50]);
// The sponges' lane conversions to and from that form (keccak_lanes_m4.S): PKH for the
// half-word exchange, no load or store but the lanes' own.
extern "C" void hqc_m4_keccak_xor_lanes_interleaved(std::uint32_t* words, const std::uint8_t* in, std::size_t n);
extern "C" void hqc_m4_keccak_read_lanes_interleaved(std::uint8_t* out, const std::uint32_t* words, std::size_t n);
// The passes of support_route_m4.hpp's routing networks (support_m4.S): one level's steps for
// the slots (five words each) between bottom and top, each from the slot s_bytes / 20 below; and
// the last expansion level, each slot's new mask to the four words below out_top.
extern "C" void hqc_m4_route_pass(std::uint32_t* top, const std::uint32_t* bottom, std::uint32_t s_bytes);
extern "C" void hqc_m4_route_last(const std::uint32_t* top, const std::uint32_t* bottom, std::uint32_t* out_top);
// The steps of the slots between bottom and top that have no source (support_m4.S).
extern "C" void hqc_m4_route_keep(std::uint32_t* top, const std::uint32_t* bottom);
// v[0 .. n) in increasing order by the comparators of route::sort (merge exchange; n even, n >= 2,
// v 4-byte aligned), two 16-bit values to a word.
extern "C" void hqc_m4_sort_merge_exchange(std::uint16_t* v, std::uint32_t n);
// route::items: the items of the sorted positions sorted[0 .. w) (sorted[w] = route::kSentinel,
// w >= 1) in the slots below comp_top.
extern "C" void hqc_m4_route_items(std::uint32_t* comp_top, const std::uint16_t* sorted, std::uint32_t w);
// dst[0 .. len) = 0, 32-bit words (poly_m4.S).
extern "C" void hqc_m4_poly_mul_zero(void* dst, std::size_t len);

namespace hqc::backend {
namespace m4 {

// RM(1,7) decoding with SIMD32 butterflies (reed_muller_m4.cpp).
template <class P>
void rm_decode(std::uint8_t out[P::kN1], const std::uint64_t in[P::kN1N2Words]);
// Reed-Solomon encoding and decoding, four field elements per word (reed_solomon_m4.cpp).
template <class P>
void rs_encode(std::uint8_t cw[P::kN1], const std::uint8_t msg[P::kK]);
template <class P>
void rs_decode(std::uint8_t msg[P::kK], const std::uint8_t cw[P::kN1]);

namespace {

// The routing networks' passes in Thumb-2 (support_m4.S) for support_route_m4.hpp.
struct RouteOps {
  static void pass(std::uint32_t* slots, std::size_t lo, std::size_t hi, std::size_t s) {
    hqc_m4_route_pass(slots + route::kSlotWords * hi, slots + route::kSlotWords * lo,
                      static_cast<std::uint32_t>(4 * route::kSlotWords * s));
  }
  static void last(std::uint32_t* slots, std::uint32_t* out32, std::size_t lo, std::size_t hi) {
    hqc_m4_route_last(slots + route::kSlotWords * hi, slots + route::kSlotWords * lo, out32 + route::kBlockWords * hi);
  }
  static void keep(std::uint32_t* slots, std::size_t lo, std::size_t hi) {
    hqc_m4_route_keep(slots + route::kSlotWords * hi, slots + route::kSlotWords * lo);
  }
  static void zero(std::uint32_t* p, std::size_t words) { hqc_m4_poly_mul_zero(p, words); }
  static void sort(std::uint16_t* v, std::size_t n) { hqc_m4_sort_merge_exchange(v, static_cast<std::uint32_t>(n)); }
  static void items(std::uint32_t* comp_top, const std::uint16_t* sorted, std::size_t w) {
    hqc_m4_route_items(comp_top, sorted, static_cast<std::uint32_t>(w));
  }
};

// Support expansion (spec §4.4) by the sorting and routing networks of support_route_m4.hpp
// (estimated cycles per vector: docs/M4.md, "The m4 backend and where its cycles go"). A weight
// above the spec's (outside the slot's contract, which the scratch is sized for) goes to the
// portable kernel. The choice depends on w (public).
template <class P>
void support_to_vector(std::uint64_t* out, const std::uint32_t* pos, std::size_t w) {
  constexpr std::size_t kWords = 2 * P::kNWordsPadded;  // 32-bit words
  constexpr std::size_t kBlocks = (kWords + route::kBlockWords - 1) / route::kBlockWords;
  constexpr unsigned kLevels = std::bit_width(kBlocks - 1);
  constexpr std::size_t kMaxWeight = std::max({P::kW, P::kWr, P::kWe});
  static_assert(kMaxWeight <= 256 && 32 * kWords <= route::kPositionLimit);
  if (w == 0 || w > kMaxWeight) {  // public
    sampling::support_to_vector_portable<P>(out, pos, w);
    return;
  }
  std::uint32_t slots[route::scratch_words(kBlocks, kMaxWeight)];
  alignas(4) std::uint16_t sorted[kMaxWeight + 1];
  route::support_to_vector<RouteOps>(reinterpret_cast<std::uint32_t*>(out), slots, sorted, pos, w, kWords, kBlocks,
                                     kLevels);
}

// The samplers' duplicate test (spec §4.2, §4.3): two positions per word with SIMD32 compares
// (sampling_m4.S; positions and r below n < 2^16), about 3.6 estimated cycles per position against
// 11 for the portable masks.
std::uint32_t position_taken(const std::uint32_t* pos, std::size_t count, std::uint32_t r) {
  return hqc_m4_eq_mask(pos, count, r);
}

// The encryption sampler (spec §4.3): the draws in C++, the fix-up in one Thumb-2 routine whose
// duplicate tests scan the settled positions two to a word (hqc_m4_enc_fixup; about 40 estimated
// cycles a position less than a call of a scan routine for each from C++). w is public.
template <class P>
void enc_positions(std::uint32_t* pos, const std::uint8_t* rnd, std::size_t w) {
  static_assert(P::kN < 0xFFFF, "positions and the unset halves' 0xFFFF must differ");
  constexpr std::size_t kMax = std::max(P::kWr, P::kWe);
  if (w > kMax) {  // public: more than the scratch holds, the portable kernel
    sampling::enc_positions_portable<P>(pos, rnd, w);
    return;
  }
  sampling::enc_positions_draw<P>(pos, rnd, w);
  if (w == 0) return;
  std::uint32_t packed[(kMax + 1) / 2];
  hqc_m4_enc_fixup(pos, packed, static_cast<std::uint32_t>(w));
  ct::wipe(packed, sizeof(packed));
}

// One refill of the key-generation sampler (spec §4.2): the draws and their rejection test in
// C++ (a rejected draw's position made all ones, which no position is), the duplicate tests and
// the appends in one Thumb-2 routine (hqc_m4_keygen_accept), which keeps the positions two to a
// word in its scratch. count + groups is public; beyond kW (outside the kernel's contract), the
// portable kernel.
template <class P>
std::size_t keygen_accept(std::uint32_t* pos, std::size_t count, const std::uint8_t* draws, std::size_t groups) {
  static_assert(P::kN < 0xFFFF, "positions and the unset halves' 0xFFFF must differ");
  if (groups == 0 || count + groups > P::kW) return sampling::keygen_accept_portable<P>(pos, count, draws, groups);
  std::uint32_t drawn[P::kW], packed[(P::kW + 1) / 2];
  for (std::size_t i = 0; i < groups; i++) {
    std::uint32_t reject;
    drawn[i] = sampling::keygen_draw<P>(draws + 3 * i, reject) | reject;
  }
  count =
      hqc_m4_keygen_accept(pos, packed, static_cast<std::uint32_t>(count), drawn, static_cast<std::uint32_t>(groups));
  ct::wipe(drawn, sizeof(drawn));
  ct::wipe(packed, sizeof(packed));
  return count;
}

// The FAFFT as a transform multiplier for prepared key objects (fafft_m4.hpp), at every level: a
// prepared key's transforms of h and s (and y) leave an encapsulation F(r2) + 2 IP instead of two
// tree products (docs/M4.md). At HQC-5 the product's 2n - 1 bits nearly fill a 2^17-bit
// transform; at HQC-1 and HQC-3 they would fill 54-55 % of theirs, so there the transform has half
// that size and a Chinese remainder step completes the product (fafft_m4.cpp, CrtEntry). The
// one-shot products: mul_choice and mul2_choice below.
template <class P>
inline constexpr TransformMultiplier<P> kFafftTransforms = {
    .transform = &fafft::forward<P>,
    .mul_transforms = &fafft::mul_transformed<P>,
    .mul_transform_plain = &fafft::mul_transformed_plain<P>,
    .mul_is_transform_product = false,
};
template <class P>
inline constexpr TransformMultiplier<P> kFafftCrtTransforms = {
    .transform = &fafft::forward_crt<P>,
    .mul_transforms = &fafft::mul_transformed_crt<P>,
    .mul_transform_plain = &fafft::mul_transformed_plain_crt<P>,
    .mul_is_transform_product = false,
};

static_assert(::hqc::backend::fafft::kTransformWords<Hqc5> == kTransformWords<Hqc5>,
              "at HQC-5 the row keeps the whole 2^m-bit transform: the contract's size (backend/ops.hpp)");
template <class P>
constexpr const TransformMultiplier<P>* transforms() {
  if constexpr (P::kLevel == 5) return &kFafftTransforms<P>;
  else return &kFafftCrtTransforms<P>;
}

// mul and mul2 by measurement (scripts/m4-mul-bench.py; docs/M4.md): at HQC-5 the FAFFT's (two
// transforms and a product, and three and two with b transformed once; the one-shot forms stop
// their transforms early and multiply blocks), at HQC-1 and HQC-3 the CRT form's (the same on
// half-size transforms). The tree's whole product is dearer at every level; at HQC-1, the closest,
// by 0.5 % for mul. (A build of HQC-1 or HQC-3 alone plans the tree for the CRT's top product
// only: ring_mul_m4.hpp, kTreeWholeProduct.)
template <class P>
constexpr auto mul_choice() -> void (*)(std::uint64_t*, const std::uint64_t*, const std::uint64_t*) {
  if constexpr (P::kLevel == 5) return &fafft::mul<P>;
  else return &fafft::mul_crt<P>;
}
template <class P>
constexpr auto mul2_choice()
    -> void (*)(std::uint64_t*, std::uint64_t*, const std::uint64_t*, const std::uint64_t*, const std::uint64_t*) {
  if constexpr (P::kLevel == 5) return &fafft::mul2<P>;
  else return &fafft::mul2_crt<P>;
}
template <class P>
constexpr const char* mul_name() {
  if constexpr (P::kLevel == 5) return "FAFFT (m4: bit-sliced and UMULL butterflies over GF(2^32))";
  else return "FAFFT-CRT (m4: bit-sliced and UMULL butterflies over GF(2^32))";
}

template <class P>
constexpr KernelTable<P> table() {
  return KernelTable<P>{
      .mul = mul_choice<P>(),
      .mul2 = mul2_choice<P>(),
      .transforms = transforms<P>(),
      .mul_name = mul_name<P>(),
      .support_to_vector = &support_to_vector<P>,
      .enc_positions = &enc_positions<P>,
      .position_taken = &position_taken,
      .keygen_accept = &keygen_accept<P>,
      .rm_decode = &rm_decode<P>,
      .rs_encode = &rs_encode<P>,
      .rs_decode = &rs_decode<P>,
  };
}

template <class P>
constexpr KernelTable<P> table_if_enabled() {
  if constexpr (kLevelEnabled<P::kLevel>) return table<P>();
  else return KernelTable<P>{};
}

}  // namespace
}  // namespace m4

extern const Backend kM4Backend;
const Backend kM4Backend = {
    .name = "m4",
    .description = "Cortex-M4 (Thumb-2 carry-less base from UMULL under Toom-4, Toom-3 and Karatsuba; constant time)",
    .required = 0,
    .variant = false,
    .keccak_f1600 = &hqc_m4_keccak_f1600,
    .keccak_f1600_x4 = &generic::keccak_f1600_x4_each<&hqc_m4_keccak_f1600>,
    .keccak_f1600_interleaved = &hqc_m4_keccak_f1600_interleaved,
    .keccak_xor_lanes_interleaved = &hqc_m4_keccak_xor_lanes_interleaved,
    .keccak_read_lanes_interleaved = &hqc_m4_keccak_read_lanes_interleaved,
    .hqc1 = m4::table_if_enabled<Hqc1>(),
    .hqc3 = m4::table_if_enabled<Hqc3>(),
    .hqc5 = m4::table_if_enabled<Hqc5>(),
};

}  // namespace hqc::backend
