// Keccak-f[1600] (FIPS 202 §3) for the avx2 backend: one state, scalar, every round fully
// unrolled with the 25 lanes in named variables (theta, rho-pi and chi fused per output plane,
// so no lane round-trips through memory), rotations as RORX (BMI2). Two rounds per loop step
// alternate the roles of the A and E lanes, which removes the copy back. chi uses ANDN.
#include <bit>

#include "backend/avx2/kernels.hpp"
#include "sym/keccak_constants.hpp"

namespace hqc::backend::avx2 {
namespace {

using u64 = std::uint64_t;

constexpr const auto& kRc = sym::kKeccakRoundConstants;

inline u64 rol(u64 x, int r) { return std::rotl(x, r); }

// One round from lanes a (a[x + 5y]) into e.
#define HQC_KECCAK_ROUND(a, e, rc)                                                                    \
  do {                                                                                                \
    const u64 c0 = a##00 ^ a##05 ^ a##10 ^ a##15 ^ a##20, c1 = a##01 ^ a##06 ^ a##11 ^ a##16 ^ a##21; \
    const u64 c2 = a##02 ^ a##07 ^ a##12 ^ a##17 ^ a##22, c3 = a##03 ^ a##08 ^ a##13 ^ a##18 ^ a##23; \
    const u64 c4 = a##04 ^ a##09 ^ a##14 ^ a##19 ^ a##24;                                             \
    const u64 d0 = c4 ^ rol(c1, 1), d1 = c0 ^ rol(c2, 1), d2 = c1 ^ rol(c3, 1), d3 = c2 ^ rol(c4, 1), \
              d4 = c3 ^ rol(c0, 1);                                                                   \
    u64 b0, b1, b2, b3, b4;                                                                           \
    b0 = a##00 ^ d0;                                                                                  \
    b1 = rol(a##06 ^ d1, 44);                                                                         \
    b2 = rol(a##12 ^ d2, 43);                                                                         \
    b3 = rol(a##18 ^ d3, 21);                                                                         \
    b4 = rol(a##24 ^ d4, 14);                                                                         \
    e##00 = b0 ^ (~b1 & b2) ^ (rc);                                                                   \
    e##01 = b1 ^ (~b2 & b3);                                                                          \
    e##02 = b2 ^ (~b3 & b4);                                                                          \
    e##03 = b3 ^ (~b4 & b0);                                                                          \
    e##04 = b4 ^ (~b0 & b1);                                                                          \
    b0 = rol(a##03 ^ d3, 28);                                                                         \
    b1 = rol(a##09 ^ d4, 20);                                                                         \
    b2 = rol(a##10 ^ d0, 3);                                                                          \
    b3 = rol(a##16 ^ d1, 45);                                                                         \
    b4 = rol(a##22 ^ d2, 61);                                                                         \
    e##05 = b0 ^ (~b1 & b2);                                                                          \
    e##06 = b1 ^ (~b2 & b3);                                                                          \
    e##07 = b2 ^ (~b3 & b4);                                                                          \
    e##08 = b3 ^ (~b4 & b0);                                                                          \
    e##09 = b4 ^ (~b0 & b1);                                                                          \
    b0 = rol(a##01 ^ d1, 1);                                                                          \
    b1 = rol(a##07 ^ d2, 6);                                                                          \
    b2 = rol(a##13 ^ d3, 25);                                                                         \
    b3 = rol(a##19 ^ d4, 8);                                                                          \
    b4 = rol(a##20 ^ d0, 18);                                                                         \
    e##10 = b0 ^ (~b1 & b2);                                                                          \
    e##11 = b1 ^ (~b2 & b3);                                                                          \
    e##12 = b2 ^ (~b3 & b4);                                                                          \
    e##13 = b3 ^ (~b4 & b0);                                                                          \
    e##14 = b4 ^ (~b0 & b1);                                                                          \
    b0 = rol(a##04 ^ d4, 27);                                                                         \
    b1 = rol(a##05 ^ d0, 36);                                                                         \
    b2 = rol(a##11 ^ d1, 10);                                                                         \
    b3 = rol(a##17 ^ d2, 15);                                                                         \
    b4 = rol(a##23 ^ d3, 56);                                                                         \
    e##15 = b0 ^ (~b1 & b2);                                                                          \
    e##16 = b1 ^ (~b2 & b3);                                                                          \
    e##17 = b2 ^ (~b3 & b4);                                                                          \
    e##18 = b3 ^ (~b4 & b0);                                                                          \
    e##19 = b4 ^ (~b0 & b1);                                                                          \
    b0 = rol(a##02 ^ d2, 62);                                                                         \
    b1 = rol(a##08 ^ d3, 55);                                                                         \
    b2 = rol(a##14 ^ d4, 39);                                                                         \
    b3 = rol(a##15 ^ d0, 41);                                                                         \
    b4 = rol(a##21 ^ d1, 2);                                                                          \
    e##20 = b0 ^ (~b1 & b2);                                                                          \
    e##21 = b1 ^ (~b2 & b3);                                                                          \
    e##22 = b2 ^ (~b3 & b4);                                                                          \
    e##23 = b3 ^ (~b4 & b0);                                                                          \
    e##24 = b4 ^ (~b0 & b1);                                                                          \
  } while (0)

}  // namespace

// ANDN (BMI1) for chi's ~b & c: every x86 CPU with BMI2 (required by this backend) has BMI1,
// which cpu.hpp does not list separately; only this function uses it.
__attribute__((target("bmi,bmi2"))) void keccak_f1600(u64 s[25]) {
  u64 a00 = s[0], a01 = s[1], a02 = s[2], a03 = s[3], a04 = s[4], a05 = s[5], a06 = s[6], a07 = s[7], a08 = s[8],
      a09 = s[9], a10 = s[10], a11 = s[11], a12 = s[12], a13 = s[13], a14 = s[14], a15 = s[15], a16 = s[16],
      a17 = s[17], a18 = s[18], a19 = s[19], a20 = s[20], a21 = s[21], a22 = s[22], a23 = s[23], a24 = s[24];
  u64 e00, e01, e02, e03, e04, e05, e06, e07, e08, e09, e10, e11, e12, e13, e14, e15, e16, e17, e18, e19, e20, e21, e22,
      e23, e24;
  for (int r = 0; r < 24; r += 2) {
    HQC_KECCAK_ROUND(a, e, kRc[r]);
    HQC_KECCAK_ROUND(e, a, kRc[r + 1]);
  }
  s[0] = a00, s[1] = a01, s[2] = a02, s[3] = a03, s[4] = a04, s[5] = a05, s[6] = a06, s[7] = a07, s[8] = a08;
  s[9] = a09, s[10] = a10, s[11] = a11, s[12] = a12, s[13] = a13, s[14] = a14, s[15] = a15, s[16] = a16;
  s[17] = a17, s[18] = a18, s[19] = a19, s[20] = a20, s[21] = a21, s[22] = a22, s[23] = a23, s[24] = a24;
}

#undef HQC_KECCAK_ROUND

}  // namespace hqc::backend::avx2
