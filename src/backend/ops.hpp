// The backend contract: every kernel that a SIMD backend may replace, reached through ONE table
// of function pointers per backend. The portable backend is the oracle; every other backend must
// produce identical bytes for every kernel, parameter set and input (tests/backend_diff_test.cpp).
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

#include "backend/cpu.hpp"
#include "params/params.hpp"

namespace hqc::backend {

// Keccak-f[1600] on one state of 25 lanes (FIPS 202 §3). Lane i = A[x][y] with i = x + 5y.
using KeccakF1600Fn = void (*)(std::uint64_t state[25]);
// Keccak-f[1600] on up to four independent states (distinct, non-overlapping buffers of 25
// lanes); a nullptr state is skipped. Lets independent sponges run side by side
// (pke::SpongeLanes). A nullptr function in a table means "not provided": callers then run
// keccak_f1600 once per state.
using KeccakF1600x4Fn = void (*)(std::uint64_t* s0, std::uint64_t* s1, std::uint64_t* s2, std::uint64_t* s3);

template <class P>
struct KernelTable {
  // out = a * b in GF(2)[x]/(x^n - 1) (spec §2.2).
  void (*mul)(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b);
  // out1 = a1 * b and out2 = a2 * b: the two products of encryption that share r2 (h*r2, s*r2).
  void (*mul2)(std::uint64_t* out1, std::uint64_t* out2, const std::uint64_t* a1, const std::uint64_t* a2,
               const std::uint64_t* b);
  // out = the vector with ones exactly at pos[0..w) (spec §4.4). Positions are distinct and < n.
  // No position may be used as a memory address.
  void (*support_to_vector)(std::uint64_t* out, const std::uint32_t* pos, std::size_t w);
  // The encryption sampler of spec §4.3 from its 4*w XOF bytes: pos[0..w) distinct, in [0, n).
  void (*enc_positions)(std::uint32_t* pos, const std::uint8_t* xof_bytes, std::size_t w);
  // The duplicate test of the key-generation sampler (spec §4.2): all-ones if r equals one of
  // pos[0..count), else zero. count is public (the sampler's accept pattern is, spec §8); r and
  // the positions are secret.
  std::uint32_t (*position_taken)(const std::uint32_t* pos, std::size_t count, std::uint32_t r);
  // Duplicated RM(1,7) decoding of every block (spec §5.5): in has n1*n2 bits, out n1 bytes.
  void (*rm_decode)(std::uint8_t* out, const std::uint64_t* in);
  // RS decoding (spec §5.6): cw holds n1 received symbols; msg receives the k message bytes.
  void (*rs_decode)(std::uint8_t* msg, const std::uint8_t* cw);
};

struct Backend {
  const char* name;            // "portable", "avx2", "avx512"
  const char* description;     // one line for `hqc info`
  CpuFeatures required;        // the CPU must have all of these
  KeccakF1600Fn keccak_f1600;
  KeccakF1600x4Fn keccak_f1600_x4;  // may be nullptr (see KeccakF1600x4Fn)
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
