// The avx2 backend tables: AVX2 + PCLMULQDQ + BMI2 for every kernel, and one table per
// combination of the two optional instruction sets that a kernel can use:
//   VPCLMULQDQ  the ring multiplier's base product on 256-bit vectors (gf2x_vpclmul.cpp) instead
//               of PCLMULQDQ (gf2x_avx2.cpp);
//   GFNI        the Reed-Solomon encoder's and decoder's field arithmetic (reed_solomon_gfni.cpp) instead of
//               PSHUFB nibble tables (reed_solomon_avx2.cpp), and support expansion as a bit-matrix
//               product (sampling_gfni.cpp) instead of one shift per position and chunk (sampling_avx2.cpp).
// src/backend/registry.cpp lists the four rows (avx2-vpclmul-gfni, avx2-vpclmul, avx2-gfni,
// avx2-base) and resolves the name "avx2" to the first of them that the CPU supports; no kernel
// here looks at the CPU. All four give the portable kernels' bytes.
//
// The rows with GFNI multiply with the FAFFT over GF(2^32) (fafft_avx2.cpp) at HQC-5, where it
// measured faster than either Karatsuba: every product, and prepared key objects keep the
// transforms of h, s and y (docs/AVX2.md, docs/FAFFT.md). Every other level has no transforms.
#include "backend/avx2/fafft_avx2.hpp"
#include "backend/avx2/kernels.hpp"
#include "backend/cpu.hpp"
#include "backend/generic.hpp"

namespace hqc::backend {

namespace avx2 {
namespace {

constexpr CpuFeatures kRequired = kCpuAvx2 | kCpuPclmul | kCpuBmi2;

template <class P>
inline constexpr const char* kMulName[2] = {
    kToomLevels<P> == 1 ? "toom-3 + karatsuba over 256-bit blocks (PCLMULQDQ)"
                        : "karatsuba over 256-bit blocks (PCLMULQDQ)",
    kToomLevels<P> == 1 ? "toom-3 + karatsuba over 256-bit blocks (VPCLMULQDQ)"
                        : "karatsuba over 256-bit blocks (VPCLMULQDQ)",
};

// The avx2 FAFFT (GF(2^32), needs GFNI) as a transform multiplier. The one-shot product is the
// FAFFT's too, so key generation's h*y computes h's and y's transforms anyway, and a key
// generated prepared keeps them.
template <class P>
constexpr TransformMultiplier<P> kFafftTransforms = {
    .transform = &fafft::forward<P>,
    .mul_transforms = &fafft::mul_transformed<P>,
    .mul_transform_plain = &fafft::mul_transformed_plain<P>,
    .mul_is_transform_product = true,
};

// Where the FAFFT is used: every product at HQC-5 on the rows with GFNI. Measured side by side in
// one process (avx2_bench, AMD Zen 4, core 1, TSC cycles, medians of 301 interleaved rounds, a
// quiet run; docs/AVX2.md): HQC-5 mul 68.8k against 78.8k (VPCLMULQDQ Karatsuba) and 109.5k
// (PCLMULQDQ), mul2 119.8k against 156.7k and 218.8k; with kept transforms, encryption's two
// products 81.4k and decryption's 50.3k. At HQC-1 the FAFFT loses in every use (2^16-bit
// transforms for 35k-bit products: mul 28.0k against 12.6k), and at HQC-3 it is mixed even with
// kept transforms (encryption 68.6k against the VPCLMULQDQ tree's mul2 of 71.1k, decryption 42.5k
// against its mul of 36.6k; one-shot mul 58.2k): no transforms there.
template <class P>
constexpr bool fafft_level(bool gfni) {
  return gfni && P::kLevel == 5;
}

template <class P>
constexpr KernelTable<P> table(bool vpclmul, bool gfni) {
  const bool fafft = fafft_level<P>(gfni);
  return KernelTable<P>{
      .mul = fafft     ? &fafft::mul<P>
             : vpclmul ? &mul_vpclmul<P>
                       : &mul_pclmul<P>,
      .mul2 = fafft     ? &fafft::mul2<P>
              : vpclmul ? &mul2_vpclmul<P>
                        : &mul2_pclmul<P>,
      .transforms = fafft ? &kFafftTransforms<P> : nullptr,
      .mul_name = fafft ? "fafft (GF(2^32), 2^17-bit product, AVX2 + GFNI)" : kMulName<P>[vpclmul ? 1 : 0],
      .support_to_vector = gfni ? &support_to_vector_gfni<P> : &support_to_vector<P>,
      .enc_positions = &enc_positions<P>,
      .position_taken = &position_taken,
      .keygen_accept = &generic::keygen_accept_draws<P, &position_taken>,
      .rm_decode = &rm_decode<P>,
      .rs_encode = gfni ? &rs_encode_gfni<P> : &rs_encode_avx2<P>,
      .rs_decode = gfni ? &rs_decode_gfni<P> : &rs_decode_avx2<P>,
  };
}

constexpr Backend row(const char* name, const char* description, bool vpclmul, bool gfni) {
  return Backend{
      .name = name,
      .description = description,
      .required = kRequired | (vpclmul ? kCpuVpclmul : 0u) | (gfni ? kCpuGfni : 0u),
      .variant = false,
      .keccak_f1600 = &keccak_f1600,
      // The busy states one after the other: a 4-way AVX2 permutation costs about as much as
      // three of the scalar BMI2 permutations, and the sponges run side by side use two lanes.
      .keccak_f1600_x4 = &generic::keccak_f1600_x4_each<&keccak_f1600>,
      .hqc1 = table<Hqc1>(vpclmul, gfni),
      .hqc3 = table<Hqc3>(vpclmul, gfni),
      .hqc5 = table<Hqc5>(vpclmul, gfni),
  };
}

}  // namespace
}  // namespace avx2

extern const Backend kAvx2VpclmulGfniBackend, kAvx2VpclmulBackend, kAvx2GfniBackend, kAvx2BaseBackend;
constinit const Backend kAvx2VpclmulGfniBackend = avx2::row(
    "avx2-vpclmul-gfni",
    "AVX2 + BMI2; VPCLMULQDQ Karatsuba on 256-bit blocks (GFNI FAFFT at HQC-5), GFNI Reed-Solomon and support "
    "expansion",
    true, true);
constinit const Backend kAvx2VpclmulBackend =
    avx2::row("avx2-vpclmul", "AVX2 + BMI2; VPCLMULQDQ Karatsuba on 256-bit blocks, PSHUFB Reed-Solomon", true, false);
constinit const Backend kAvx2GfniBackend =
    avx2::row("avx2-gfni",
              "AVX2 + BMI2; PCLMULQDQ Karatsuba on 256-bit blocks (GFNI FAFFT at HQC-5), GFNI Reed-Solomon and support "
              "expansion",
              false, true);
constinit const Backend kAvx2BaseBackend =
    avx2::row("avx2-base", "AVX2 + BMI2; PCLMULQDQ Karatsuba on 256-bit blocks, PSHUFB Reed-Solomon", false, false);

}  // namespace hqc::backend
