// The Cortex-M4 backend (device builds only: src/backend/m4, HQC_WITH_M4; the first row of
// backend/device_table.cpp). Kernels chosen by the cycle model (scripts/m4-cycles.py, docs/M4.md):
// the ring multiplication is Karatsuba over 64-bit words down to a Thumb-2 64x64 carry-less
// product (clmul_m4.S, three register-only 32x32 products); support expansion by predicated ORs
// (support_m4.S); every other slot holds the portable kernel. Every kernel is constant time and gives the portable
// backend's bytes (the device test image m4_test checks each against portable; the KAT image runs this row).
#include <cstddef>
#include <cstdint>

#include "backend/generic.hpp"
#include "backend/ops.hpp"
#include "code/reed_muller.hpp"
#include "code/reed_solomon.hpp"
#include "common/ct.hpp"
#include "gf2x/gf2x_portable.hpp"
#include "sampling/sampling.hpp"
#include "sym/keccak.hpp"

// out[0..4) = a[0..2) * b[0..2) as 32-bit little-endian words: one 128-bit carry-less product
// (clmul_m4.S). The operands are read through their addresses only, which are public.
extern "C" void hqc_m4_clmul64(void* out, const void* a, const void* b);
// out[0..8) = a[0..4) * b[0..4): one 256-bit product, nine 32x32 products in one frame.
extern "C" void hqc_m4_clmul128(void* out, const void* a, const void* b);
// ORs bit arg[2q+1] into the 32-bit word at address arg[2q] of out[0 .. end), q = 0..4, by
// predicated ORs over every word (support_m4.S); (end - out) is even.
extern "C" void hqc_m4_support_or5(void* out, const void* end, const std::uint32_t arg[10]);

namespace hqc::backend {
namespace m4 {

// Keccak-f[1600], bit-interleaved (keccak_m4.cpp).
void keccak_f1600(std::uint64_t state[25]);
// RM(1,7) decoding with SIMD32 butterflies (reed_muller_m4.cpp).
template <class P>
void rm_decode(std::uint8_t out[P::kN1], const std::uint64_t in[P::kN1N2Words]);

namespace {

// out[0 .. 2n) = a * b (spec §2.2), the recursion of gf2x::karatsuba with the M4 base case; the
// split points and hence the products are the same, so the bytes are the portable ones.
void karatsuba(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b, std::size_t n,
               std::uint64_t* scratch) {
  if (n == 1) {
    hqc_m4_clmul64(out, a, b);
    return;
  }
  if (n == 2) {
    hqc_m4_clmul128(out, a, b);
    return;
  }
  const std::size_t lo = n / 2, hi = n - lo;
  std::uint64_t* asum = scratch;
  std::uint64_t* bsum = scratch + hi;
  std::uint64_t* z1 = scratch + 2 * hi;
  std::uint64_t* rest = scratch + 4 * hi;
  karatsuba(out, a, b, lo, rest);
  karatsuba(out + 2 * lo, a + lo, b + lo, hi, rest);
  for (std::size_t i = 0; i < lo; i++) {
    asum[i] = a[i] ^ a[lo + i];
    bsum[i] = b[i] ^ b[lo + i];
  }
  if (hi > lo) {
    asum[lo] = a[lo + lo];
    bsum[lo] = b[lo + lo];
  }
  karatsuba(z1, asum, bsum, hi, rest);
  // out[lo .. lo + 2hi) += z1 + z0 + z2 in one pass: with z0 = (L0, L1) and z2's words C, D at
  // the same offsets, iteration i updates L1[i] and C[i] from the original values it reads (the
  // portable kernel's three passes, the same bytes, half the loads and stores).
  std::uint64_t* l1 = out + lo;
  std::uint64_t* c = out + 2 * lo;
  for (std::size_t i = 0; i < lo; i++) {
    const std::uint64_t l0v = out[i], l1v = l1[i], cv = c[i], dv = c[lo + i];
    l1[i] = l1v ^ z1[i] ^ l0v ^ cv;
    c[i] = cv ^ z1[lo + i] ^ l1v ^ dv;
  }
  for (std::size_t i = 2 * lo; i < 2 * hi; i++) out[lo + i] ^= z1[i] ^ c[i];
}

template <class P>
void mul(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b) {
  constexpr std::size_t W = P::kNWords;
  alignas(64) std::uint64_t prod[2 * W];
  alignas(64) std::uint64_t scratch[gf2x::karatsuba_scratch_words(W)];
  karatsuba(prod, a, b, W, scratch);
  gf2x::reduce_mod_xn_minus_1(out, prod, P::kN, W);
  for (std::size_t i = W; i < P::kNWordsPadded; i++) out[i] = 0;
  ct::wipe(prod, sizeof(prod));
  ct::wipe(scratch, sizeof(scratch));
}

template <class P>
void mul2(std::uint64_t* out1, std::uint64_t* out2, const std::uint64_t* a1, const std::uint64_t* a2,
          const std::uint64_t* b) {
  mul<P>(out1, a1, b);
  mul<P>(out2, a2, b);
}

// Support expansion (spec §4.4): the output cleared, then one pass of hqc_m4_support_or5 per five
// positions (about 4 estimated cycles per position and 32-bit word, against 10.5 for the portable
// kernel's 64-bit masks). A position only becomes a word address that is compared, never used
// for an access.
template <class P>
void support_to_vector(std::uint64_t* out, const std::uint32_t* pos, std::size_t w) {
  for (std::size_t i = 0; i < P::kNWordsPadded; i++) out[i] = 0;
  const auto base = reinterpret_cast<std::uintptr_t>(out);
  std::uint32_t arg[10];
  for (std::size_t k = 0; k < w; k += 5) {
    for (std::size_t q = 0; q < 5; q++) {
      const std::uint32_t p = pos[k + q < w ? k + q : w - 1];  // k, q and w are public
      arg[2 * q] = static_cast<std::uint32_t>(base + 4 * (p >> 5));
      arg[2 * q + 1] = std::uint32_t{1} << (p & 31);
    }
    hqc_m4_support_or5(out, out + P::kNWords, arg);
  }
  ct::wipe(arg, sizeof(arg));
}

template <class P>
constexpr KernelTable<P> table() {
  return KernelTable<P>{
      .mul = &mul<P>,
      .mul2 = &mul2<P>,
      .transforms = nullptr,
      .mul_name = "karatsuba (m4: Thumb-2 64x64 carry-less base from 32x32 UMULL)",
      .support_to_vector = &support_to_vector<P>,
      .enc_positions = &sampling::enc_positions_portable<P>,
      .position_taken = &sampling::position_taken_portable,
      .keygen_accept = &sampling::keygen_accept_portable<P>,
      .rm_decode = &rm_decode<P>,
      .rs_encode = &code::rs_encode<P>,
      .rs_decode = [](std::uint8_t* msg, const std::uint8_t* cw) { code::rs_decode_portable<P>(msg, cw); },
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
    .description = "Cortex-M4 (Thumb-2 carry-less base from UMULL under Karatsuba; constant time)",
    .required = 0,
    .variant = false,
    .keccak_f1600 = &m4::keccak_f1600,
    .keccak_f1600_x4 = &generic::keccak_f1600_x4_each<&m4::keccak_f1600>,
    .hqc1 = m4::table_if_enabled<Hqc1>(),
    .hqc3 = m4::table_if_enabled<Hqc3>(),
    .hqc5 = m4::table_if_enabled<Hqc5>(),
};

}  // namespace hqc::backend
