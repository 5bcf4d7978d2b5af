#include "gf2x/gf2x_portable.hpp"

#include <cstring>

namespace hqc::gf2x {

#if defined(__SIZEOF_INT128__) && !defined(HQC_GF2X_NO_INT128)
#define HQC_GF2X_INT128 1
#else
#define HQC_GF2X_INT128 0  // 32-bit targets (Cortex-M4): 64x64 from 32x32 products
#endif

#if HQC_GF2X_INT128
namespace {
// NOLINTNEXTLINE(modernize-use-using): __extension__ (for -Wpedantic) applies to a typedef only
__extension__ typedef unsigned __int128 u128;

// Bits at positions = k (mod 5), for k = 0..4, in the low and high 64-bit halves of 128 bits.
constexpr std::uint64_t class_mask(unsigned k, unsigned offset) {
  std::uint64_t m = 0;
  for (unsigned i = 0; i < 64; i++)
    if ((i + offset) % 5 == k) m |= std::uint64_t{1} << i;
  return m;
}
constexpr std::uint64_t kLo[5] = {class_mask(0, 0), class_mask(1, 0), class_mask(2, 0), class_mask(3, 0),
                                  class_mask(4, 0)};
constexpr std::uint64_t kHi[5] = {class_mask(0, 64), class_mask(1, 64), class_mask(2, 64), class_mask(3, 64),
                                  class_mask(4, 64)};
}  // namespace

void clmul64(std::uint64_t a, std::uint64_t b, std::uint64_t* lo, std::uint64_t* hi) {
  // Each part has at most 13 set bits, so every column of an integer product a_i * b_j sums at
  // most 13 ones: the count fits in 5 bits and never disturbs the next column of its class.
  std::uint64_t ap[5], bp[5];
  for (int i = 0; i < 5; i++) {
    ap[i] = a & kLo[i];
    bp[i] = b & kLo[i];
  }
  std::uint64_t rlo = 0, rhi = 0;
  for (int k = 0; k < 5; k++) {
    u128 z = 0;
    for (int i = 0; i < 5; i++) {
      const int j = (k - i + 5) % 5;
      z ^= static_cast<u128>(ap[i]) * bp[j];
    }
    rlo |= static_cast<std::uint64_t>(z) & kLo[k];
    rhi |= static_cast<std::uint64_t>(z >> 64) & kHi[k];
  }
  *lo = rlo;
  *hi = rhi;
}
#else
namespace {
// 32x32 -> 64 carry-less product by the same method with four bit classes (positions = k mod 4):
// each part has at most 8 set bits, so a column count is at most 8 and fits in the 4 bits below
// the next column of its class. 32x32 integer multiplies only (constant time on Cortex-M4).
std::uint64_t clmul32(std::uint32_t a, std::uint32_t b) {
  constexpr std::uint32_t kM32 = 0x11111111u;
  constexpr std::uint64_t kM64 = 0x1111111111111111ull;
  std::uint32_t ap[4], bp[4];
  for (int i = 0; i < 4; i++) {
    ap[i] = a & (kM32 << i);
    bp[i] = b & (kM32 << i);
  }
  std::uint64_t r = 0;
  for (int k = 0; k < 4; k++) {
    std::uint64_t z = 0;
    for (int i = 0; i < 4; i++) z ^= static_cast<std::uint64_t>(ap[i]) * bp[(k - i + 4) % 4];
    r |= z & (kM64 << k);
  }
  return r;
}
}  // namespace

void clmul64(std::uint64_t a, std::uint64_t b, std::uint64_t* lo, std::uint64_t* hi) {
  // Karatsuba on 32-bit halves: 3 products.
  const auto a0 = static_cast<std::uint32_t>(a), a1 = static_cast<std::uint32_t>(a >> 32);
  const auto b0 = static_cast<std::uint32_t>(b), b1 = static_cast<std::uint32_t>(b >> 32);
  const std::uint64_t z0 = clmul32(a0, b0), z2 = clmul32(a1, b1);
  const std::uint64_t z1 = clmul32(a0 ^ a1, b0 ^ b1) ^ z0 ^ z2;
  *lo = z0 ^ (z1 << 32);
  *hi = z2 ^ (z1 >> 32);
}
#endif

void karatsuba(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b, std::size_t n,
               std::uint64_t* scratch) {
  if (n == 1) {
    clmul64(a[0], b[0], &out[0], &out[1]);
    return;
  }
  if (n == 2) {
    // Karatsuba on two words: 3 base products.
    std::uint64_t z0l, z0h, z2l, z2h, z1l, z1h;
    clmul64(a[0], b[0], &z0l, &z0h);
    clmul64(a[1], b[1], &z2l, &z2h);
    clmul64(a[0] ^ a[1], b[0] ^ b[1], &z1l, &z1h);
    z1l ^= z0l ^ z2l;
    z1h ^= z0h ^ z2h;
    out[0] = z0l;
    out[1] = z0h ^ z1l;
    out[2] = z2l ^ z1h;
    out[3] = z2h;
    return;
  }
  const std::size_t lo = n / 2, hi = n - lo;  // a = a0 + x^(64 lo) a1, |a0| = lo, |a1| = hi >= lo
  std::uint64_t* asum = scratch;
  std::uint64_t* bsum = scratch + hi;
  std::uint64_t* z1 = scratch + 2 * hi;
  std::uint64_t* rest = scratch + 4 * hi;

  karatsuba(out, a, b, lo, rest);                     // z0 -> out[0, 2lo)
  karatsuba(out + 2 * lo, a + lo, b + lo, hi, rest);  // z2 -> out[2lo, 2n)
  for (std::size_t i = 0; i < lo; i++) {
    asum[i] = a[i] ^ a[lo + i];
    bsum[i] = b[i] ^ b[lo + i];
  }
  if (hi > lo) {
    asum[lo] = a[lo + lo];
    bsum[lo] = b[lo + lo];
  }
  karatsuba(z1, asum, bsum, hi, rest);  // (a0+a1)(b0+b1), 2hi words
  for (std::size_t i = 0; i < 2 * lo; i++) z1[i] ^= out[i];
  for (std::size_t i = 0; i < 2 * hi; i++) z1[i] ^= out[2 * lo + i];
  for (std::size_t i = 0; i < 2 * hi; i++) out[lo + i] ^= z1[i];
}

void reduce_mod_xn_minus_1(std::uint64_t* out, const std::uint64_t* prod, std::size_t n_bits, std::size_t words) {
  const std::size_t q = n_bits / 64;
  const unsigned r = static_cast<unsigned>(n_bits % 64);
  for (std::size_t i = 0; i < words; i++) {
    std::uint64_t high = prod[i + q] >> r;
    if (r != 0) high |= prod[i + q + 1] << (64 - r);
    out[i] = prod[i] ^ high;
  }
  if (r != 0) out[words - 1] &= (std::uint64_t{1} << r) - 1;
}

}  // namespace hqc::gf2x
