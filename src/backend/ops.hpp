// The backend contract: every kernel that a SIMD backend may replace, reached through ONE table
// of function pointers per backend. Every slot of every table is filled: where a backend has
// nothing faster it holds the portable kernel or a generic one built from the backend's own
// kernels (backend/generic.hpp), so the algorithm code never branches on a slot and every backend
// runs the same algorithm. The one optional capability is the transform multiplier
// (KernelTable::transforms below). The portable backend is the oracle; every other backend must
// produce identical bytes for every kernel, parameter set and input (tests/conformance_test.cpp).
//
// Conventions for all kernels:
//  * Length-n ring elements are arrays of P::kNWordsPadded little-endian 64-bit words, 64-byte
//    aligned; bits at positions >= n and all padding words are zero on input and on output.
//  * Length-n1*n2 code words are arrays of P::kN1N2Words words (no padding bits).
//  * Every argument may be secret unless stated otherwise: no branch, loop bound or memory
//    address may depend on its value (spec §8). Weights and sizes are public.
//  * Outputs never alias inputs unless stated.
#pragma once

#include <cstddef>
#include <cstdint>

#include "backend/cpu_features.hpp"
#include "params/params.hpp"

namespace hqc::backend {

// Keccak-f[1600] on one state of 25 lanes (FIPS 202 §3). Lane i = A[x][y] with i = x + 5y.
using KeccakF1600Fn = void (*)(std::uint64_t state[25]);
// Keccak-f[1600] on up to four independent states (distinct, non-overlapping buffers of 25
// lanes); a nullptr state is skipped. Lets independent sponges run side by side
// (sym::SpongeLanes, which calls it for two or more busy states and keccak_f1600 for one).
using KeccakF1600x4Fn = void (*)(std::uint64_t* s0, std::uint64_t* s1, std::uint64_t* s2, std::uint64_t* s3);
// Keccak-f[1600] on a bit-interleaved state: lane i is the words 2i (its even bits: bit 2j of the
// lane at bit j) and 2i + 1 (its odd bits), sym::interleave_lane's form. A device whose
// permutation works on that form inside (the m4 one) offers it so that sponges keep their state
// interleaved between permutations and convert only the lanes they absorb or squeeze.
using KeccakF1600InterleavedFn = void (*)(std::uint32_t state[50]);
// The lanes of that form in and out: words[2i], words[2i + 1] ^= the interleaved form of the
// little-endian lane at in + 8i, and out + 8i = the lane of words[2i], words[2i + 1], for i < n
// (n >= 1; in and out of any alignment). sym::lanes has the portable ones.
using KeccakXorLanesInterleavedFn = void (*)(std::uint32_t* words, const std::uint8_t* in, std::size_t n);
using KeccakReadLanesInterleavedFn = void (*)(std::uint8_t* out, const std::uint32_t* words, std::size_t n);
// The key-generation sampler's duplicate test and whole-refill decision (KernelTable below).
using PositionTakenFn = std::uint32_t (*)(const std::uint32_t* pos, std::size_t count, std::uint32_t r);
using KeygenAcceptFn = std::size_t (*)(std::uint32_t* pos, std::size_t count, const std::uint8_t* draws,
                                       std::size_t groups);

// 64-bit words of one operand transform of a transform multiplier (pke::Transform<P>, and the C
// API's HQCL_*_KEY_TRANSFORMS_BYTES): the size of the transforms of this build's rows, 64-byte
// aligned. 2^m is the smallest power of two >= 2n - 1, the product's coefficients.
//  * Hosted builds (the avx512 and avx2 FAFFTs): 2^m bits, 2^(m-5) points in GF(2^32).
//  * Cortex-M4 device builds (HQC_DEVICE_CORTEX_M4): the m4 row's. Where the product fills at most
//    5/8 of 2^m bits (HQC-1, HQC-3) its FAFFT has half that size and a Chinese remainder step
//    (backend/m4/fafft_m4.cpp, CrtEntry): 2^(m-1) bits of points and the operand's top
//    2n - 1 - 2^(m-1) bits, rounded up to 64 bytes; elsewhere 2^m bits. The m4 row checks at
//    compile time that its transforms have exactly this size.
constexpr std::size_t transform_words(std::size_t n) {
  std::size_t m = 0;
  while ((std::size_t{1} << m) < 2 * n - 1) m++;
  const std::size_t full = std::size_t{2} << (m - 7);
#if defined(HQC_DEVICE_CORTEX_M4) && HQC_DEVICE_CORTEX_M4
  const std::size_t product = 2 * n - 1;
  if (8 * product <= 5 * (std::size_t{1} << m)) {
    const std::size_t bits = (std::size_t{1} << (m - 1)) + 32 * ((product - (std::size_t{1} << (m - 1)) + 31) / 32);
    return 8 * ((bits + 511) / 512);
  }
#endif
  return full;
}
template <class P>
inline constexpr std::size_t kTransformWords = transform_words(P::kN);

// A transform multiplier keeps the transform of an operand that is used many times (h, s of a
// public key; y of a secret key): transform(t, a) writes kTransformWords<P> words (64-byte
// aligned) that depend only on a; mul_transforms(out, ta, tb) = a * b; mul_transform_plain(out,
// ta, b) = a * b. All three are set.
template <class P>
struct TransformMultiplier {
  void (*transform)(std::uint64_t* t, const std::uint64_t* a);
  void (*mul_transforms)(std::uint64_t* out, const std::uint64_t* ta, const std::uint64_t* tb);
  void (*mul_transform_plain)(std::uint64_t* out, const std::uint64_t* ta, const std::uint64_t* b);
  // True where the table's one-shot `mul` is this multiplier's own product (both operands
  // transformed, then mul_transforms): the forward transforms of key generation's h*y are then
  // by-products, and a key prepared while it is generated costs one transform more, not three
  // (kem::keypair_prepared). False where `mul` is another algorithm (a tree) and the transforms
  // serve prepared keys only. A cost property: the bytes are the same either way.
  bool mul_is_transform_product;
};

template <class P>
struct KernelTable {
  // out = a * b in GF(2)[x]/(x^n - 1) (spec §2.2).
  void (*mul)(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b);
  // out1 = a1 * b and out2 = a2 * b: the two products of encryption that share r2 (h*r2, s*r2).
  void (*mul2)(std::uint64_t* out1, std::uint64_t* out2, const std::uint64_t* a1, const std::uint64_t* a2,
               const std::uint64_t* b);
  // The level's transform multiplier, or nullptr if its multiplier has none: the one optional
  // capability of a table. It is checked in exactly one place, pke::KeptTransforms::capable (a
  // key object prepared for many operations keeps transforms only where they exist); every use
  // of the transforms goes through kept transforms that record this table as their owner.
  const TransformMultiplier<P>* transforms;
  // A name for the multiplier (`hqc info`, bench output), e.g. "karatsuba {32, 2, {3, 3}}".
  const char* mul_name;
  // out = the vector with ones exactly at pos[0..w) (spec §4.4). Positions are distinct and < n.
  // No position may be used as a memory address.
  void (*support_to_vector)(std::uint64_t* out, const std::uint32_t* pos, std::size_t w);
  // The encryption sampler of spec §4.3 from its 4*w XOF bytes: pos[0..w) distinct, in [0, n).
  void (*enc_positions)(std::uint32_t* pos, const std::uint8_t* xof_bytes, std::size_t w);
  // The duplicate test of the key-generation sampler (spec §4.2): all-ones if r equals one of
  // pos[0..count), else zero. r and the positions are positions of a vector (below n < 2^16).
  // count is public (the sampler's accept pattern is, spec §8); r and the positions are secret.
  PositionTakenFn position_taken;
  // One refill of the key-generation sampler (spec §4.2): `draws` holds groups = w - count
  // three-byte draws; each is appended to pos[count..] iff it is below the rejection threshold
  // and its position is neither in pos[0..count) nor an earlier valid draw of this refill (which
  // is the same set as the positions accepted before it). Returns the new count. The accept
  // pattern is public (spec §8); positions stay secret. Draw by draw with position_taken where a
  // backend has nothing faster (sampling::keygen_accept_portable, generic::keygen_accept_draws).
  KeygenAcceptFn keygen_accept;
  // Duplicated RM(1,7) decoding of every block (spec §5.5): in has n1*n2 bits, out n1 bytes.
  void (*rm_decode)(std::uint8_t* out, const std::uint64_t* in);
  // Systematic RS encoding (spec §5.2): cw[0, 2delta) = parity, cw[2delta, n1) = msg (k bytes).
  // The portable shift register (code::rs_encode) where a backend has nothing faster.
  void (*rs_encode)(std::uint8_t* cw, const std::uint8_t* msg);
  // RS decoding (spec §5.6): cw holds n1 received symbols; msg receives the k message bytes.
  void (*rs_decode)(std::uint8_t* msg, const std::uint8_t* cw);
};

struct Backend {
  const char* name;         // "portable", "avx2", "avx512"
  const char* description;  // one line for `hqc info`
  CpuFeatures required;     // the CPU must have all of these
  // A variant (e.g. avx512 with one fixed multiplier) is never selected automatically, only by
  // HQC_BACKEND: it exists so that tests and benchmarks cover and compare every implementation.
  bool variant;
  KeccakF1600Fn keccak_f1600;
  KeccakF1600x4Fn keccak_f1600_x4;
  // Optional (nullptr where the backend has none): the permutation on the interleaved form. When
  // set, sym::Sponge and sym::SpongeLanes call it instead of keccak_f1600 (same bytes out).
  KeccakF1600InterleavedFn keccak_f1600_interleaved = nullptr;
  // Optional, with keccak_f1600_interleaved only: the sponges' lane conversions (nullptr: the
  // portable ones of sym::lanes).
  KeccakXorLanesInterleavedFn keccak_xor_lanes_interleaved = nullptr;
  KeccakReadLanesInterleavedFn keccak_read_lanes_interleaved = nullptr;
  KernelTable<Hqc1> hqc1;
  KernelTable<Hqc3> hqc3;
  KernelTable<Hqc5> hqc5;

  template <class P>
  const KernelTable<P>& kernels() const {
    if constexpr (P::kLevel == 1) return hqc1;
    else if constexpr (P::kLevel == 3) return hqc3;
    else return hqc5;
  }
};

}  // namespace hqc::backend
