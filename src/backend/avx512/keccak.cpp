// Keccak-f[1600] on AVX-512 (FIPS 202 §3), one state in five registers: zmm y holds the plane
// A[0..4][y] in 64-bit lanes 0..4. theta and chi are lane rotations (vpermq) and vpternlogq,
// rho is one vprolvq per plane, pi is a 5x5 transposition done with four two-source permutes
// that pair planes (0,1) and (2,3), then one two-source permute plus one masked permute (plane 4)
// per output plane. No data-dependent branch or address: the permutation is branch-free by design.
#include <immintrin.h>

#include "backend/avx512/kernels.hpp"
#include "backend/avx512/simd.hpp"
#include "sym/keccak_constants.hpp"

namespace hqc::backend::avx512 {

namespace {

constexpr const auto& kRoundConstants = sym::kKeccakRoundConstants;
constexpr const auto& kRho = sym::kKeccakRho;

// pi: B[y][2x+3y] = A[x][y]; output plane y', lane x' takes input plane x', lane (x' + 3y') mod 5.
constexpr long long src_lane(int xo, int yo) { return (xo + 3 * yo) % 5; }

inline __m512i idx5(long long a, long long b, long long c, long long d, long long e, long long f = 0, long long g = 0,
                    long long h = 0) {
  return _mm512_set_epi64(h, g, f, e, d, c, b, a);
}

}  // namespace

void keccak_f1600(std::uint64_t state[25]) {
  constexpr __mmask8 k5 = 0x1F;
  __m512i r0 = _mm512_maskz_loadu_epi64(k5, state + 0);
  __m512i r1 = _mm512_maskz_loadu_epi64(k5, state + 5);
  __m512i r2 = _mm512_maskz_loadu_epi64(k5, state + 10);
  __m512i r3 = _mm512_maskz_loadu_epi64(k5, state + 15);
  __m512i r4 = _mm512_maskz_loadu_epi64(k5, state + 20);

  const __m512i rot_m1 = idx5(4, 0, 1, 2, 3);  // lane x <- lane x-1
  const __m512i rot_p1 = idx5(1, 2, 3, 4, 0);  // lane x <- lane x+1
  const __m512i rot_p2 = idx5(2, 3, 4, 0, 1);  // lane x <- lane x+2
  const __m512i rho0 = idx5(kRho[0], kRho[1], kRho[2], kRho[3], kRho[4]);
  const __m512i rho1 = idx5(kRho[5], kRho[6], kRho[7], kRho[8], kRho[9]);
  const __m512i rho2 = idx5(kRho[10], kRho[11], kRho[12], kRho[13], kRho[14]);
  const __m512i rho3 = idx5(kRho[15], kRho[16], kRho[17], kRho[18], kRho[19]);
  const __m512i rho4 = idx5(kRho[20], kRho[21], kRho[22], kRho[23], kRho[24]);
  // Pairs of planes (0,1) and (2,3) for output planes 0..3 (lanes 2y', 2y'+1) and plane 4.
  const __m512i pair01a = idx5(src_lane(0, 0), 8 + src_lane(1, 0), src_lane(0, 1), 8 + src_lane(1, 1), src_lane(0, 2),
                               8 + src_lane(1, 2), src_lane(0, 3), 8 + src_lane(1, 3));
  const __m512i pair01b = idx5(src_lane(0, 4), 8 + src_lane(1, 4), 0, 0, 0);
  const __m512i pair23a = idx5(src_lane(2, 0), 8 + src_lane(3, 0), src_lane(2, 1), 8 + src_lane(3, 1), src_lane(2, 2),
                               8 + src_lane(3, 2), src_lane(2, 3), 8 + src_lane(3, 3));
  const __m512i pair23b = idx5(src_lane(2, 4), 8 + src_lane(3, 4), 0, 0, 0);
  const __m512i out0 = idx5(0, 1, 8, 9, 0), out1 = idx5(2, 3, 10, 11, 0), out2 = idx5(4, 5, 12, 13, 0),
                out3 = idx5(6, 7, 14, 15, 0);
  const __m512i lane4_0 = idx5(0, 0, 0, 0, src_lane(4, 0)), lane4_1 = idx5(0, 0, 0, 0, src_lane(4, 1)),
                lane4_2 = idx5(0, 0, 0, 0, src_lane(4, 2)), lane4_3 = idx5(0, 0, 0, 0, src_lane(4, 3)),
                lane4_4 = idx5(0, 0, 0, 0, src_lane(4, 4));

  for (const std::uint64_t rc : kRoundConstants) {
    // theta
    const __m512i c = xor3_512(xor3_512(r0, r1, r2), r3, r4);
    const __m512i cm1 = perm64(rot_m1, c);
    const __m512i cp1 = rol64<1>(perm64(rot_p1, c));
    r0 = xor3_512(r0, cm1, cp1);
    r1 = xor3_512(r1, cm1, cp1);
    r2 = xor3_512(r2, cm1, cp1);
    r3 = xor3_512(r3, cm1, cp1);
    r4 = xor3_512(r4, cm1, cp1);
    // rho
    r0 = rolv64(r0, rho0);
    r1 = rolv64(r1, rho1);
    r2 = rolv64(r2, rho2);
    r3 = rolv64(r3, rho3);
    r4 = rolv64(r4, rho4);
    // pi
    const __m512i p01a = _mm512_permutex2var_epi64(r0, pair01a, r1);
    const __m512i p01b = _mm512_permutex2var_epi64(r0, pair01b, r1);
    const __m512i p23a = _mm512_permutex2var_epi64(r2, pair23a, r3);
    const __m512i p23b = _mm512_permutex2var_epi64(r2, pair23b, r3);
    __m512i b0 = _mm512_permutex2var_epi64(p01a, out0, p23a);
    __m512i b1 = _mm512_permutex2var_epi64(p01a, out1, p23a);
    __m512i b2 = _mm512_permutex2var_epi64(p01a, out2, p23a);
    __m512i b3 = _mm512_permutex2var_epi64(p01a, out3, p23a);
    __m512i b4 = _mm512_permutex2var_epi64(p01b, out0, p23b);
    b0 = _mm512_mask_permutexvar_epi64(b0, 0x10, lane4_0, r4);
    b1 = _mm512_mask_permutexvar_epi64(b1, 0x10, lane4_1, r4);
    b2 = _mm512_mask_permutexvar_epi64(b2, 0x10, lane4_2, r4);
    b3 = _mm512_mask_permutexvar_epi64(b3, 0x10, lane4_3, r4);
    b4 = _mm512_mask_permutexvar_epi64(b4, 0x10, lane4_4, r4);
    // chi: a ^ (~b & c) = ternary 0xD2
    r0 = chi_512(b0, perm64(rot_p1, b0), perm64(rot_p2, b0));
    r1 = chi_512(b1, perm64(rot_p1, b1), perm64(rot_p2, b1));
    r2 = chi_512(b2, perm64(rot_p1, b2), perm64(rot_p2, b2));
    r3 = chi_512(b3, perm64(rot_p1, b3), perm64(rot_p2, b3));
    r4 = chi_512(b4, perm64(rot_p1, b4), perm64(rot_p2, b4));
    // iota
    r0 = _mm512_mask_xor_epi64(r0, 0x01, r0, _mm512_set1_epi64(static_cast<long long>(rc)));
  }
  _mm512_mask_storeu_epi64(state + 0, k5, r0);
  _mm512_mask_storeu_epi64(state + 5, k5, r1);
  _mm512_mask_storeu_epi64(state + 10, k5, r2);
  _mm512_mask_storeu_epi64(state + 15, k5, r3);
  _mm512_mask_storeu_epi64(state + 20, k5, r4);
}

}  // namespace hqc::backend::avx512
