// The avx512 backend tables (AVX-512 F/BW/VL/DQ/VBMI/VBMI2, VPCLMULQDQ, GFNI, PCLMULQDQ, AVX2).
//
// Two ring multipliers exist: the Karatsuba/Toom tree on VPCLMULQDQ (gf2x.cpp, plans in
// mul_plans.hpp) and the Frobenius additive FFT (fafft.cpp), which can also keep the transforms
// of a key's h, s and y. Three tables are registered:
//   "avx512"           the production choice per level, kAvx512Multiplier<P> (mul_plans.hpp;
//                      CMake option HQC_AVX512_MULTIPLIER overrides it for the whole build);
//   "avx512-karatsuba" the tree multiplier at every level;
//   "avx512-fafft"     the FAFFT at every level.
// The last two are variants: never selected automatically, only by HQC_BACKEND, so that the KATs,
// the kernel tests and `hqc bench --backend all` cover and compare both multipliers.
#include "backend/avx512/fafft.hpp"
#include "backend/avx512/kernels.hpp"
#include "backend/avx512/mul_plans.hpp"
#include "backend/avx512/multiplier.hpp"
#include "backend/registry.hpp"

namespace hqc::backend {

namespace avx512 {
namespace {

// The FAFFT as a transform multiplier (prepared key objects keep the transforms of h, s and y).
template <class P>
constexpr TransformMultiplier<P> kFafftTransforms = {
    .transform = &fafft::forward<P>,
    .mul_transforms = &fafft::mul_transformed<P>,
    .mul_transform_plain = &fafft::mul_transformed_plain<P>,
    .mul_is_transform_product = true,  // table(kFafft) below multiplies one-shot with the FAFFT too
};

// Support expansion: the GFNI bit-matrix product of sampling.cpp, on 512-bit vectors.
template <class P>
constexpr decltype(KernelTable<P>::support_to_vector) kSupportToVector = &support_to_vector<P>;

template <class P>
constexpr KernelTable<P> table(Multiplier m) {
  const bool fft = m == Multiplier::kFafft;
  return KernelTable<P>{
      .mul = fft ? &fafft::mul<P> : &mul<P>,
      .mul2 = fft ? &fafft::mul2<P> : &mul2<P>,
      .transforms = fft ? &kFafftTransforms<P> : nullptr,  // prepared key objects keep them
      .mul_name = fft ? kFafftName<P> : kMulPlanName<P>,
      .support_to_vector = kSupportToVector<P>,
      .enc_positions = &enc_positions<P>,
      .position_taken = &position_taken,
      .keygen_accept = &keygen_accept<P>,
      .rm_decode = &rm_decode<P>,
      .rs_encode = &rs_encode<P>,
      .rs_decode = &rs_decode<P>,
  };
}

constexpr CpuFeatures kRequired = kCpuAvx512F | kCpuAvx512BW | kCpuAvx512VL | kCpuAvx512DQ | kCpuAvx512VBMI |
                                  kCpuAvx512VBMI2 | kCpuVpclmul | kCpuGfni | kCpuPclmul | kCpuAvx2 | kCpuBmi2;

}  // namespace
}  // namespace avx512

extern const Backend kAvx512Backend;
const Backend kAvx512Backend = {
    .name = "avx512",
    .description =
        "AVX-512 + VPCLMULQDQ Karatsuba/Toom or GFNI FAFFT over GF(2^32) (per level), AVX-512 Keccak x4, GFNI "
        "Reed-Solomon, GFNI bit-matrix support expansion, AVX-512 Reed-Muller",
    .required = avx512::kRequired,
    .variant = false,
    .keccak_f1600 = &avx512::keccak_f1600_pairs,
    .keccak_f1600_x4 = &avx512::keccak_f1600_x4,
    .hqc1 = avx512::table<Hqc1>(avx512::kAvx512Multiplier<Hqc1>),
    .hqc3 = avx512::table<Hqc3>(avx512::kAvx512Multiplier<Hqc3>),
    .hqc5 = avx512::table<Hqc5>(avx512::kAvx512Multiplier<Hqc5>),
};

extern const Backend kAvx512KaratsubaBackend;
const Backend kAvx512KaratsubaBackend = {
    .name = "avx512-karatsuba",
    .description = "avx512 with the VPCLMULQDQ Karatsuba/Toom multiplier at every level (variant)",
    .required = avx512::kRequired,
    .variant = true,
    .keccak_f1600 = &avx512::keccak_f1600_pairs,
    .keccak_f1600_x4 = &avx512::keccak_f1600_x4,
    .hqc1 = avx512::table<Hqc1>(avx512::Multiplier::kKaratsuba),
    .hqc3 = avx512::table<Hqc3>(avx512::Multiplier::kKaratsuba),
    .hqc5 = avx512::table<Hqc5>(avx512::Multiplier::kKaratsuba),
};

extern const Backend kAvx512FafftBackend;
const Backend kAvx512FafftBackend = {
    .name = "avx512-fafft",
    .description = "avx512 with the GFNI Frobenius additive FFT multiplier over GF(2^32) at every level (variant)",
    .required = avx512::kRequired,
    .variant = true,
    .keccak_f1600 = &avx512::keccak_f1600_pairs,
    .keccak_f1600_x4 = &avx512::keccak_f1600_x4,
    .hqc1 = avx512::table<Hqc1>(avx512::Multiplier::kFafft),
    .hqc3 = avx512::table<Hqc3>(avx512::Multiplier::kFafft),
    .hqc5 = avx512::table<Hqc5>(avx512::Multiplier::kFafft),
};

}  // namespace hqc::backend
