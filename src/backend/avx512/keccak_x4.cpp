// Keccak-f[1600] on four independent states at once (FIPS 202 §3): lane i of the four states sits
// in one ymm register (64-bit element s = state s), so theta, rho, pi and chi are plain
// vpternlogq / vprolq on 25 registers, and pi is only a renaming of registers. The four states
// are transposed in and out with 4x4 64-bit transposes. keccak_f1600_lanes is the one-state
// version of the same code on xmm registers; it beats the five-register layout on CPUs whose
// cross-lane permutations are slow (see docs/AVX512.md).
#include <immintrin.h>

#include "backend/avx512/kernels.hpp"
#include "backend/avx512/simd.hpp"

namespace hqc::backend::avx512 {

namespace {

constexpr std::uint64_t kRc[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL, 0x8000000080008000ULL, 0x000000000000808bULL,
    0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL, 0x000000000000008aULL, 0x0000000000000088ULL,
    0x0000000080008009ULL, 0x000000008000000aULL, 0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL,
    0x8000000000008003ULL, 0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800aULL, 0x800000008000000aULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

#define HQC_XOR5(a, b, c, d, e) xor3_256(xor3_256(a, b, c), d, e)
#define HQC_ROL(x, r) _mm256_maskz_rol_epi64(0xF, x, r)
#define HQC_CHI(a, b, c) chi_256(a, b, c)

inline __attribute__((always_inline)) void transpose4(__m256i& a, __m256i& b, __m256i& c, __m256i& d) {
  const __m256i t0 = _mm256_unpacklo_epi64(a, b), t1 = _mm256_unpackhi_epi64(a, b);
  const __m256i t2 = _mm256_unpacklo_epi64(c, d), t3 = _mm256_unpackhi_epi64(c, d);
  a = _mm256_permute2x128_si256(t0, t2, 0x20);
  b = _mm256_permute2x128_si256(t1, t3, 0x20);
  c = _mm256_permute2x128_si256(t0, t2, 0x31);
  d = _mm256_permute2x128_si256(t1, t3, 0x31);
}

}  // namespace

void keccak_f1600_x4(std::uint64_t* s0, std::uint64_t* s1, std::uint64_t* s2, std::uint64_t* s3) {
  // A skipped (nullptr) state runs on scratch lanes; the pointers are public.
  alignas(32) std::uint64_t scratch[4][25];
  if (s0 == nullptr) s0 = scratch[0];
  if (s1 == nullptr) s1 = scratch[1];
  if (s2 == nullptr) s2 = scratch[2];
  if (s3 == nullptr) s3 = scratch[3];
  __m256i A[25];
  // Load: lanes 4g .. 4g+3 of the four states, transposed (lane 24 alone).
  for (int g = 0; g < 6; g++) {
    __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s0 + 4 * g));
    __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s1 + 4 * g));
    __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s2 + 4 * g));
    __m256i d = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s3 + 4 * g));
    transpose4(a, b, c, d);
    A[4 * g] = a;
    A[4 * g + 1] = b;
    A[4 * g + 2] = c;
    A[4 * g + 3] = d;
  }
  A[24] = _mm256_set_epi64x(static_cast<long long>(s3[24]), static_cast<long long>(s2[24]),
                            static_cast<long long>(s1[24]), static_cast<long long>(s0[24]));

  for (const std::uint64_t rc : kRc) {
    const __m256i c0 = HQC_XOR5(A[0], A[5], A[10], A[15], A[20]);
    const __m256i c1 = HQC_XOR5(A[1], A[6], A[11], A[16], A[21]);
    const __m256i c2 = HQC_XOR5(A[2], A[7], A[12], A[17], A[22]);
    const __m256i c3 = HQC_XOR5(A[3], A[8], A[13], A[18], A[23]);
    const __m256i c4 = HQC_XOR5(A[4], A[9], A[14], A[19], A[24]);
    const __m256i r0 = HQC_ROL(c0, 1), r1 = HQC_ROL(c1, 1), r2 = HQC_ROL(c2, 1), r3 = HQC_ROL(c3, 1),
                  r4 = HQC_ROL(c4, 1);
    // theta (A[x][y] ^= C[x-1] ^ rot(C[x+1], 1)) fused with rho and pi: B[y][2x+3y] = rot(A[x][y]).
    __m256i B[25];
#define HQC_TRP(x, y, rot, cm, rp) \
  B[(y) + 5 * ((2 * (x) + 3 * (y)) % 5)] = HQC_ROL(xor3_256(A[(x) + 5 * (y)], cm, rp), rot)
#define HQC_TR0(x, y, cm, rp) B[(y) + 5 * ((2 * (x) + 3 * (y)) % 5)] = xor3_256(A[(x) + 5 * (y)], cm, rp)
    HQC_TR0(0, 0, c4, r1);
    HQC_TRP(1, 0, 1, c0, r2);
    HQC_TRP(2, 0, 62, c1, r3);
    HQC_TRP(3, 0, 28, c2, r4);
    HQC_TRP(4, 0, 27, c3, r0);
    HQC_TRP(0, 1, 36, c4, r1);
    HQC_TRP(1, 1, 44, c0, r2);
    HQC_TRP(2, 1, 6, c1, r3);
    HQC_TRP(3, 1, 55, c2, r4);
    HQC_TRP(4, 1, 20, c3, r0);
    HQC_TRP(0, 2, 3, c4, r1);
    HQC_TRP(1, 2, 10, c0, r2);
    HQC_TRP(2, 2, 43, c1, r3);
    HQC_TRP(3, 2, 25, c2, r4);
    HQC_TRP(4, 2, 39, c3, r0);
    HQC_TRP(0, 3, 41, c4, r1);
    HQC_TRP(1, 3, 45, c0, r2);
    HQC_TRP(2, 3, 15, c1, r3);
    HQC_TRP(3, 3, 21, c2, r4);
    HQC_TRP(4, 3, 8, c3, r0);
    HQC_TRP(0, 4, 18, c4, r1);
    HQC_TRP(1, 4, 2, c0, r2);
    HQC_TRP(2, 4, 61, c1, r3);
    HQC_TRP(3, 4, 56, c2, r4);
    HQC_TRP(4, 4, 14, c3, r0);
#undef HQC_TRP
#undef HQC_TR0
    // chi and iota
    for (int y = 0; y < 25; y += 5) {
      A[y + 0] = HQC_CHI(B[y + 0], B[y + 1], B[y + 2]);
      A[y + 1] = HQC_CHI(B[y + 1], B[y + 2], B[y + 3]);
      A[y + 2] = HQC_CHI(B[y + 2], B[y + 3], B[y + 4]);
      A[y + 3] = HQC_CHI(B[y + 3], B[y + 4], B[y + 0]);
      A[y + 4] = HQC_CHI(B[y + 4], B[y + 0], B[y + 1]);
    }
    A[0] = _mm256_xor_si256(A[0], _mm256_set1_epi64x(static_cast<long long>(rc)));
  }

  for (int g = 0; g < 6; g++) {
    __m256i a = A[4 * g], b = A[4 * g + 1], c = A[4 * g + 2], d = A[4 * g + 3];
    transpose4(a, b, c, d);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(s0 + 4 * g), a);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(s1 + 4 * g), b);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(s2 + 4 * g), c);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(s3 + 4 * g), d);
  }
  alignas(32) std::uint64_t last[4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(last), A[24]);
  s0[24] = last[0];
  s1[24] = last[1];
  s2[24] = last[2];
  s3[24] = last[3];
}

// One state: the same code on xmm registers (element 0), without the transposes.
#define HQC_XOR5_1(a, b, c, d, e) xor3_128(xor3_128(a, b, c), d, e)
#define HQC_ROL1(x, r) _mm_maskz_rol_epi64(0x3, x, r)
#define HQC_CHI1(a, b, c) chi_128(a, b, c)
void keccak_f1600_lanes(std::uint64_t state[25]) {
  __m128i A[25];
  for (int i = 0; i < 25; i++) A[i] = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(state + i));
  for (const std::uint64_t rc : kRc) {
    const __m128i c0 = HQC_XOR5_1(A[0], A[5], A[10], A[15], A[20]);
    const __m128i c1 = HQC_XOR5_1(A[1], A[6], A[11], A[16], A[21]);
    const __m128i c2 = HQC_XOR5_1(A[2], A[7], A[12], A[17], A[22]);
    const __m128i c3 = HQC_XOR5_1(A[3], A[8], A[13], A[18], A[23]);
    const __m128i c4 = HQC_XOR5_1(A[4], A[9], A[14], A[19], A[24]);
    const __m128i r0 = HQC_ROL1(c0, 1), r1 = HQC_ROL1(c1, 1), r2 = HQC_ROL1(c2, 1), r3 = HQC_ROL1(c3, 1),
                  r4 = HQC_ROL1(c4, 1);
    // theta (A[x][y] ^= C[x-1] ^ rot(C[x+1], 1)) fused with rho and pi: B[y][2x+3y] = rot(A[x][y]).
    __m128i B[25];
#define HQC_TRP1(x, y, rot, cm, rp) \
  B[(y) + 5 * ((2 * (x) + 3 * (y)) % 5)] = HQC_ROL1(xor3_128(A[(x) + 5 * (y)], cm, rp), rot)
#define HQC_TR01(x, y, cm, rp) B[(y) + 5 * ((2 * (x) + 3 * (y)) % 5)] = xor3_128(A[(x) + 5 * (y)], cm, rp)
    HQC_TR01(0, 0, c4, r1);
    HQC_TRP1(1, 0, 1, c0, r2);
    HQC_TRP1(2, 0, 62, c1, r3);
    HQC_TRP1(3, 0, 28, c2, r4);
    HQC_TRP1(4, 0, 27, c3, r0);
    HQC_TRP1(0, 1, 36, c4, r1);
    HQC_TRP1(1, 1, 44, c0, r2);
    HQC_TRP1(2, 1, 6, c1, r3);
    HQC_TRP1(3, 1, 55, c2, r4);
    HQC_TRP1(4, 1, 20, c3, r0);
    HQC_TRP1(0, 2, 3, c4, r1);
    HQC_TRP1(1, 2, 10, c0, r2);
    HQC_TRP1(2, 2, 43, c1, r3);
    HQC_TRP1(3, 2, 25, c2, r4);
    HQC_TRP1(4, 2, 39, c3, r0);
    HQC_TRP1(0, 3, 41, c4, r1);
    HQC_TRP1(1, 3, 45, c0, r2);
    HQC_TRP1(2, 3, 15, c1, r3);
    HQC_TRP1(3, 3, 21, c2, r4);
    HQC_TRP1(4, 3, 8, c3, r0);
    HQC_TRP1(0, 4, 18, c4, r1);
    HQC_TRP1(1, 4, 2, c0, r2);
    HQC_TRP1(2, 4, 61, c1, r3);
    HQC_TRP1(3, 4, 56, c2, r4);
    HQC_TRP1(4, 4, 14, c3, r0);
#undef HQC_TRP1
#undef HQC_TR01
    // chi and iota
    for (int y = 0; y < 25; y += 5) {
      A[y + 0] = HQC_CHI1(B[y + 0], B[y + 1], B[y + 2]);
      A[y + 1] = HQC_CHI1(B[y + 1], B[y + 2], B[y + 3]);
      A[y + 2] = HQC_CHI1(B[y + 2], B[y + 3], B[y + 4]);
      A[y + 3] = HQC_CHI1(B[y + 3], B[y + 4], B[y + 0]);
      A[y + 4] = HQC_CHI1(B[y + 4], B[y + 0], B[y + 1]);
    }
    A[0] = _mm_xor_si128(A[0], _mm_set1_epi64x(static_cast<long long>(rc)));
  }

  for (int i = 0; i < 25; i++) _mm_storel_epi64(reinterpret_cast<__m128i*>(state + i), A[i]);
}

}  // namespace hqc::backend::avx512
