// The avx512 backend table (AVX-512 F/BW/VL/DQ/VBMI, VPCLMULQDQ, GFNI, PCLMULQDQ, AVX2).
#include "backend/avx512/kernels.hpp"
#include "backend/registry.hpp"
#if defined(HQC_WITH_AVX2)
#include "backend/avx2/kernels.hpp"
#endif

namespace hqc::backend {

namespace avx512 {
namespace {

template <class P>
constexpr KernelTable<P> table() {
  return KernelTable<P>{
      .mul = &mul<P>,
      .mul2 = &mul2<P>,
      .support_to_vector = &support_to_vector<P>,
      .enc_positions = &enc_positions<P>,
      .position_taken = &position_taken,
      .rm_decode = &rm_decode<P>,
      .rs_decode = &rs_decode<P>,
  };
}

}  // namespace
}  // namespace avx512

extern const Backend kAvx512Backend;
const Backend kAvx512Backend = {
    .name = "avx512",
    .description = "AVX-512 + VPCLMULQDQ Karatsuba, AVX-512 Keccak, GFNI Reed-Solomon, AVX-512 Reed-Muller",
    .required = kCpuAvx512F | kCpuAvx512BW | kCpuAvx512VL | kCpuAvx512DQ | kCpuAvx512VBMI | kCpuVpclmul | kCpuGfni |
                kCpuPclmul | kCpuAvx2 | kCpuBmi2,
#if defined(HQC_WITH_AVX2)
    // One state at a time, the avx2 backend's unrolled scalar/BMI Keccak is faster on this CPU
    // (hqc bench keccak_f1600: 504 against 630 cycles, AMD Zen 4); the AVX-512 code keeps the
    // four-state permutation, where it wins (630 cycles for four states).
    .keccak_f1600 = &avx2::keccak_f1600,
#else
    .keccak_f1600 = &avx512::keccak_f1600_lanes,
#endif
    .keccak_f1600_x4 = &avx512::keccak_f1600_x4,
    .hqc1 = avx512::table<Hqc1>(),
    .hqc3 = avx512::table<Hqc3>(),
    .hqc5 = avx512::table<Hqc5>(),
};

}  // namespace hqc::backend
