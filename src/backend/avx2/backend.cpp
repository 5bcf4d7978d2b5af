// The avx2 backend table (src/backend/registry.cpp lists it as kAvx2Backend). Required features:
// AVX2 + PCLMULQDQ + BMI2. The Reed-Solomon decoder has a GFNI variant that the dispatcher below
// picks only when effective_cpu_features() reports GFNI (HQC_CPU_MASK=gfni hides it; valgrind
// hides it too), otherwise the AVX2-only variant; both give the portable decoder's bytes.
#include "backend/avx2/kernels.hpp"
#include "backend/cpu.hpp"
#include "backend/generic.hpp"
#include "backend/registry.hpp"

namespace hqc::backend {

namespace avx2 {

namespace {
constexpr CpuFeatures kRequired = kCpuAvx2 | kCpuPclmul | kCpuBmi2;

// The dispatch decision is public (a CPU property), computed once.
bool detect_gfni() { return (effective_cpu_features() & (kRequired | kCpuGfni)) == (kRequired | kCpuGfni); }
}  // namespace

bool cpu_supported() { return (effective_cpu_features() & kRequired) == kRequired; }

bool gfni_supported() {
  static const bool has = detect_gfni();
  return has;
}

// Not cached here: effective_cpu_features() is itself read once, and a multiplication costs
// thousands of cycles, so the dispatcher may ask each time (no extra mutable global).
bool vpclmul_supported() {
  return (effective_cpu_features() & (kRequired | kCpuVpclmul)) == (kRequired | kCpuVpclmul);
}

template <class P>
void rs_decode(std::uint8_t* msg, const std::uint8_t* cw) {
  static const bool use_gfni = gfni_supported();
  if (use_gfni)
    rs_decode_gfni<P>(msg, cw);
  else
    rs_decode_avx2<P>(msg, cw);
}

template void rs_decode<Hqc1>(std::uint8_t*, const std::uint8_t*);
template void rs_decode<Hqc3>(std::uint8_t*, const std::uint8_t*);
template void rs_decode<Hqc5>(std::uint8_t*, const std::uint8_t*);

namespace {
template <class P>
constexpr KernelTable<P> table() {
  return KernelTable<P>{
      .mul = &mul<P>,
      .mul2 = &mul2<P>,
      .transforms = nullptr,
      .mul_name = P::kLevel == 3 ? "toom-3 + karatsuba (PCLMULQDQ, or VPCLMULQDQ when present)"
                                 : "karatsuba (PCLMULQDQ, or VPCLMULQDQ when present)",
      .support_to_vector = &support_to_vector<P>,
      .enc_positions = &enc_positions<P>,
      .position_taken = &position_taken,
      .keygen_accept = &generic::keygen_accept_draws<P, &position_taken>,
      .rm_decode = &rm_decode<P>,
      .rs_decode = &rs_decode<P>,
  };
}
}  // namespace

}  // namespace avx2

extern const Backend kAvx2Backend;
const Backend kAvx2Backend = {
    .name = "avx2",
    .description = "AVX2 + PCLMULQDQ (Karatsuba on 256-bit blocks; GFNI Reed-Solomon when present)",
    .required = avx2::kRequired,
    .variant = false,
    .keccak_f1600 = &avx2::keccak_f1600,
    // The busy states one after the other: a 4-way AVX2 permutation costs about as much as three
    // of the scalar BMI2 permutations above, and the sponges run side by side use two lanes.
    .keccak_f1600_x4 = &generic::keccak_f1600_x4_each<&avx2::keccak_f1600>,
    .hqc1 = avx2::table<Hqc1>(),
    .hqc3 = avx2::table<Hqc3>(),
    .hqc5 = avx2::table<Hqc5>(),
};

}  // namespace hqc::backend
