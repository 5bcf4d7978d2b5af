// The Cortex-M4 backend (device builds only: src/backend/m4, HQC_WITH_M4; the first row of
// backend/device_table.cpp). Kernels chosen by the cycle model (scripts/m4-cycles.py, docs/M4.md):
// the ring multiplication is Toom-3 and two- and three-way Karatsuba over 32-bit words
// (ring_mul_m4.cpp, poly_m4.S) with zero padding to friendlier sizes, down to Thumb-2 carry-less
// products of 1 to 64 words (clmul_m4.S, register-only 32x32 products from UMULL); support expansion by predicated ORs
// (support_m4.S); Reed-Solomon encoding and decoding four field elements per word
// (reed_solomon_m4.cpp); every other slot holds the portable kernel. Every kernel is constant time and gives the portable
// backend's bytes (the device test image m4_test checks each against portable; the KAT image runs this row).
#include <cstddef>
#include <cstdint>

#include "backend/generic.hpp"
#include "backend/m4/ring_mul_m4.hpp"
#include "backend/ops.hpp"
#include "code/reed_muller.hpp"
#include "code/reed_solomon.hpp"
#include "common/ct.hpp"
#include "sampling/sampling.hpp"
#include "sym/keccak.hpp"

// ORs bit arg[2q+1] into the 32-bit word at address arg[2q] of out[0 .. end), q = 0..4, by
// predicated ORs over every word (support_m4.S); (end - out) is even.
extern "C" void hqc_m4_support_or5(void* out, const void* end, const std::uint32_t arg[10]);
// dst[0 .. len) = 0, 32-bit words (poly_m4.S).
extern "C" void hqc_m4_poly_mul_zero(void* dst, std::size_t len);

namespace hqc::backend {
namespace m4 {

// Keccak-f[1600], bit-interleaved (keccak_m4.cpp).
void keccak_f1600(std::uint64_t state[25]);
// RM(1,7) decoding with SIMD32 butterflies (reed_muller_m4.cpp).
template <class P>
void rm_decode(std::uint8_t out[P::kN1], const std::uint64_t in[P::kN1N2Words]);
// Reed-Solomon encoding and decoding, four field elements per word (reed_solomon_m4.cpp).
template <class P>
void rs_encode(std::uint8_t cw[P::kN1], const std::uint8_t msg[P::kK]);
template <class P>
void rs_decode(std::uint8_t msg[P::kK], const std::uint8_t cw[P::kN1]);

namespace {

// a * b mod x^n - 1 (spec §2.2): the operands as 32-bit words (ceil(n/32) of them; the bits of a
// ring vector at and above n are zero), their product by poly_mul (ring_mul_m4.cpp: Toom-3 and
// Karatsuba over the Thumb-2 carry-less leaves, with padded sub-products where the plan finds them
// cheaper), then the reduction: bit n + j of the product folds onto bit j.
template <class P>
void mul(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b) {
  constexpr std::size_t N = (P::kN + 31) / 32;
  constexpr std::size_t q = P::kN / 32;
  constexpr unsigned r = P::kN % 32;
  static_assert(r != 0 && N <= 2 * P::kNWords);
  Word32 prod[2 * N];
  Word32 scratch[poly_mul_scratch_words(N)];
  poly_mul(prod, reinterpret_cast<const Word32*>(a), reinterpret_cast<const Word32*>(b), N, scratch);
  // Bit n + j of the product onto bit j: word i gains words q + i and q + i + 1 shifted down by r.
  auto* o = reinterpret_cast<Word32*>(out);
  for (std::size_t i = 0; i + 1 < N; i++) o[i] = prod[i] ^ (prod[i + q] >> r) ^ (prod[i + q + 1] << (32 - r));
  o[N - 1] = (prod[N - 1] ^ (prod[N - 1 + q] >> r)) & ((Word32{1} << r) - 1);
  for (std::size_t i = N; i < 2 * P::kNWordsPadded; i++) o[i] = 0;
  // The product and the scratch (secret-dependent) wiped eight words per STM (poly_m4.S; a call
  // the compiler cannot drop), against about six cycles a word for ct::wipe's volatile stores.
  hqc_m4_poly_mul_zero(prod, 2 * N);
  hqc_m4_poly_mul_zero(scratch, poly_mul_scratch_words(N));
  __asm__ __volatile__("" : : "r"(prod), "r"(scratch) : "memory");
}

// a1 * b and a2 * b: two products. Sharing b's evaluations would save only the b-side sum passes
// above the leaves (about 1 % of a product, 0.5 % of mul2, by the profile of scripts/m4-mul-bench.py
// --functions), while keeping B(1), B(t), B(t + 1) of the top Toom-3 step alone for the second
// product takes two more evaluation buffers (HQC-5: 2 x 606 words, 4.8 KB of stack) and sharing
// every level about doubles the scratch.
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
      .mul_name = "toom3+karatsuba (m4: Thumb-2 carry-less base from 32x32 UMULL)",
      .support_to_vector = &support_to_vector<P>,
      .enc_positions = &sampling::enc_positions_portable<P>,
      .position_taken = &sampling::position_taken_portable,
      .keygen_accept = &sampling::keygen_accept_portable<P>,
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
    .description = "Cortex-M4 (Thumb-2 carry-less base from UMULL under Toom-3 and Karatsuba; constant time)",
    .required = 0,
    .variant = false,
    .keccak_f1600 = &m4::keccak_f1600,
    .keccak_f1600_x4 = &generic::keccak_f1600_x4_each<&m4::keccak_f1600>,
    .hqc1 = m4::table_if_enabled<Hqc1>(),
    .hqc3 = m4::table_if_enabled<Hqc3>(),
    .hqc5 = m4::table_if_enabled<Hqc5>(),
};

}  // namespace hqc::backend
