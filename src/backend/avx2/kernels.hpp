// The kernels of the avx2 backend, declared ISA-neutrally so that tests and benchmarks (compiled
// without -mavx2) can call each one directly. Every definition lives in a translation unit of
// this folder; nothing here is inline, so no AVX2 code can leak into other translation units.
// No kernel reads CPU features: the registry (src/backend/registry.cpp) lists one row per
// combination of the optional instructions (VPCLMULQDQ for the multiplier, GFNI for the
// Reed-Solomon decoder), and select_backend() picks one. A caller that uses a kernel directly
// must itself check that the CPU has AVX2 + PCLMULQDQ + BMI2 (and VPCLMULQDQ for *_vpclmul, GFNI
// for *_gfni), e.g. with backend::is_supported() on the row that holds it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "backend/ops.hpp"

namespace hqc::backend::avx2 {

// Ring multiplication (spec §2.2), the production decomposition per level (bench/avx2,
// docs/AVX2.md): kToomLevels<P> Toom-Cook-3 levels, then Karatsuba over 256-bit blocks down to
// one block, the nodes of up to kRegBlocks blocks unrolled on registers, with the base product
// of two blocks made of PCLMULQDQ (any AVX2 CPU) or of VPCLMULQDQ on 256-bit vectors (only if
// the CPU has it).
template <class P>
inline constexpr int kToomLevels = P::kLevel == 3 ? 1 : 0;
inline constexpr std::size_t kRegBlocks = 16;
template <class P>
void mul_pclmul(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b);
template <class P>
void mul2_pclmul(std::uint64_t* out1, std::uint64_t* out2, const std::uint64_t* a1, const std::uint64_t* a2,
                 const std::uint64_t* b);
template <class P>
void mul_vpclmul(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b);
template <class P>
void mul2_vpclmul(std::uint64_t* out1, std::uint64_t* out2, const std::uint64_t* a1, const std::uint64_t* a2,
                  const std::uint64_t* b);
// The VPCLMULQDQ multiplier with `toom` (0 or 1) Toom-Cook-3 levels and a base product of `clmuls`
// (6 or 8) VPCLMULQDQ, for bench/avx2.
template <class P>
void mul_vpclmul_variant(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b, int toom, int clmuls);

// The decompositions compared by bench/avx2 (docs/AVX2.md); all give the same bytes as mul<P>.
enum class MulVariant : int {
  kKaratsubaBase1 = 0,     // Karatsuba over 256-bit blocks down to one block, 9-PCLMUL base
  kKaratsubaBase2 = 1,     // ... down to 2 blocks, schoolbook over blocks
  kKaratsubaBase3 = 2,     // ... down to 3 blocks, schoolbook over blocks
  kKaratsubaBase1S = 3,    // down to one block, 12-PCLMUL base (schoolbook at 128 bits)
  kToom3Karatsuba = 4,     // one Toom-Cook-3 level (points 0, 1, x^64, x^64 + 1, inf), then Karatsuba
  kToom3x2Karatsuba = 5,   // two Toom-Cook-3 levels, then Karatsuba
  kVpclmulKaratsuba = 6,   // VPCLMULQDQ schoolbook base (8 per 256 x 256 bits), Karatsuba (needs VPCLMULQDQ)
  kVpclmul6Karatsuba = 7,  // VPCLMULQDQ Karatsuba base (6 per 256 x 256 bits), Karatsuba (idem)
  kVpclmul6Toom3 = 8,      // VPCLMULQDQ Karatsuba base, one Toom-Cook-3 level, Karatsuba (idem)
  kCount = 9,
};
// The first variant that needs VPCLMULQDQ: the rest need it too.
inline constexpr MulVariant kFirstVpclmulVariant = MulVariant::kVpclmulKaratsuba;
const char* mul_variant_name(MulVariant v);
template <class P>
void mul_variant(MulVariant v, std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b);

// Support expansion (spec §4.4) and the encryption sampler (spec §4.3).
template <class P>
void support_to_vector(std::uint64_t* out, const std::uint32_t* pos, std::size_t w);
// The same as a GF(2) bit-matrix product with GFNI (only if the CPU has it; sampling_gfni.cpp).
template <class P>
void support_to_vector_gfni(std::uint64_t* out, const std::uint32_t* pos, std::size_t w);
template <class P>
void enc_positions(std::uint32_t* pos, const std::uint8_t* rnd, std::size_t w);
// The key-generation sampler's duplicate test (backend/ops.hpp): 8 positions per compare.
std::uint32_t position_taken(const std::uint32_t* pos, std::size_t count, std::uint32_t r);

// Reed-Muller decoding (spec §5.5).
template <class P>
void rm_decode(std::uint8_t* out, const std::uint64_t* in);

// Reed-Solomon decoding (spec §5.6): field arithmetic with PSHUFB nibble tables (any AVX2 CPU)
// or with GFNI (only if the CPU has it).
template <class P>
void rs_decode_avx2(std::uint8_t* msg, const std::uint8_t* cw);
template <class P>
void rs_decode_gfni(std::uint8_t* msg, const std::uint8_t* cw);

// Systematic Reed-Solomon encoding (spec §5.2): the same two field representations as the
// decoder (PSHUFB tables / GFNI), the same bytes as code::rs_encode.
template <class P>
void rs_encode_avx2(std::uint8_t* cw, const std::uint8_t* msg);
template <class P>
void rs_encode_gfni(std::uint8_t* cw, const std::uint8_t* msg);

// Keccak-f[1600], unrolled, scalar with BMI2 rotations.
void keccak_f1600(std::uint64_t state[25]);

}  // namespace hqc::backend::avx2
