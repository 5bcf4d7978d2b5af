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
// The row with both VPCLMULQDQ and GFNI also has the FAFFT multiplier (fafft_avx2.cpp) as the
// transform multiplier of HQC-5: prepared key objects keep the transforms of h, s and y
// (docs/AVX2.md, docs/FAFFT.md). Every other row and level has no transforms.
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

// The avx2 FAFFT as a transform multiplier (needs VPCLMULQDQ and GFNI).
template <class P>
constexpr TransformMultiplier<P> kFafftTransforms = {
    .transform = &fafft::forward<P>,
    .mul_transforms = &fafft::mul_transformed<P>,
    .mul_transform_plain = &fafft::mul_transformed_plain<P>,
    .mul_is_transform_product = false,  // one-shot products stay on the VPCLMULQDQ trees (below)
};

// Where the FAFFT is used: prepared keys at HQC-5 on the VPCLMULQDQ + GFNI row. Measured side by
// side in one process (AMD Zen 4, core 1, TSC cycles, medians of 1001 rounds, rotating order, two
// runs; docs/AVX2.md): HQC-5 encryption with kept h, s transforms (forward + 2 products,
// mul2_transformed_plain) 129-130k against 171-173k for Karatsuba mul2_vpclmul; decryption with
// kept y (mul_transformed_plain) 82-83k against 85-86k for mul_vpclmul. hqc bench: encaps_cached
// 307-348k -> 207-216k, decaps_cached 541-621k -> 427-438k. Fresh products stay Karatsuba: FAFFT
// mul 117-119k against 85-86k, mul2 198-207k against 171-173k (and encaps 375-378k against
// 366-367k with the FAFFT mul2 in the KEM, hqc bench; with the other vCPU busy the FAFFT mul2
// is about even: 216-238k against 221-248k). HQC-1 and HQC-3 lose everywhere (2^16-
// and 2^17-bit transforms for 35k- and 72k-bit products): no transforms there.
template <class P>
constexpr bool fafft_keys(bool vpclmul, bool gfni) {
  return vpclmul && gfni && P::kLevel == 5;
}

template <class P>
constexpr KernelTable<P> table(bool vpclmul, bool gfni) {
  const bool keys = fafft_keys<P>(vpclmul, gfni);
  return KernelTable<P>{
      .mul = vpclmul ? &mul_vpclmul<P> : &mul_pclmul<P>,
      .mul2 = vpclmul ? &mul2_vpclmul<P> : &mul2_pclmul<P>,
      .transforms = keys ? &kFafftTransforms<P> : nullptr,
      .mul_name = keys ? "karatsuba over 256-bit blocks (VPCLMULQDQ); prepared keys: fafft (GF(2^128), 2^17-bit "
                         "product, AVX2 + GFNI)"
                       : kMulName<P>[vpclmul ? 1 : 0],
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
    "AVX2 + BMI2; VPCLMULQDQ Karatsuba on 256-bit blocks (FAFFT for prepared keys at HQC-5), GFNI Reed-Solomon "
    "and support expansion",
    true, true);
constinit const Backend kAvx2VpclmulBackend =
    avx2::row("avx2-vpclmul", "AVX2 + BMI2; VPCLMULQDQ Karatsuba on 256-bit blocks, PSHUFB Reed-Solomon", true, false);
constinit const Backend kAvx2GfniBackend = avx2::row(
    "avx2-gfni", "AVX2 + BMI2; PCLMULQDQ Karatsuba on 256-bit blocks, GFNI Reed-Solomon and support expansion", false,
    true);
constinit const Backend kAvx2BaseBackend =
    avx2::row("avx2-base", "AVX2 + BMI2; PCLMULQDQ Karatsuba on 256-bit blocks, PSHUFB Reed-Solomon", false, false);

}  // namespace hqc::backend
