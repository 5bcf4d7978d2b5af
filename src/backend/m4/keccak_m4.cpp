// Keccak-f[1600] for the Cortex-M4 (FIPS 202 §3; spec §3): the permutation in the bit-interleaved
// representation, where a 64-bit lane is two 32-bit words (its even and its odd bits) and every
// 64-bit rotation becomes two 32-bit rotations, which the M4 does for free as the shifted operand
// of an EOR or BIC. The slot's state is the standard representation, so the lanes are interleaved
// on entry and back on exit (about 2k of the estimated cycles). No table is indexed by data and
// there is no data-dependent branch: the state may be secret.
#include <cstddef>
#include <cstdint>

namespace hqc::backend::m4 {
namespace {

constexpr std::uint32_t rotl32(std::uint32_t x, unsigned r) { return r == 0 ? x : (x << r) | (x >> (32 - r)); }

// Even bits of x to the low half, odd bits to the high half (delta swaps); unshuffle is the inverse.
constexpr std::uint32_t shuffle_out(std::uint32_t x) {
  std::uint32_t t = (x ^ (x >> 1)) & 0x22222222u;
  x ^= t ^ (t << 1);
  t = (x ^ (x >> 2)) & 0x0C0C0C0Cu;
  x ^= t ^ (t << 2);
  t = (x ^ (x >> 4)) & 0x00F000F0u;
  x ^= t ^ (t << 4);
  t = (x ^ (x >> 8)) & 0x0000FF00u;
  x ^= t ^ (t << 8);
  return x;
}
constexpr std::uint32_t shuffle_in(std::uint32_t x) {
  std::uint32_t t = (x ^ (x >> 8)) & 0x0000FF00u;
  x ^= t ^ (t << 8);
  t = (x ^ (x >> 4)) & 0x00F000F0u;
  x ^= t ^ (t << 4);
  t = (x ^ (x >> 2)) & 0x0C0C0C0Cu;
  x ^= t ^ (t << 2);
  t = (x ^ (x >> 1)) & 0x22222222u;
  x ^= t ^ (t << 1);
  return x;
}

struct Lane {
  std::uint32_t e, o;  // the even and the odd bits of the 64-bit lane
};

constexpr Lane interleave(std::uint64_t v) {
  const std::uint32_t lo = shuffle_out(static_cast<std::uint32_t>(v));
  const std::uint32_t hi = shuffle_out(static_cast<std::uint32_t>(v >> 32));
  return {(lo & 0xFFFFu) | (hi << 16), (lo >> 16) | (hi & 0xFFFF0000u)};
}
constexpr std::uint64_t deinterleave(Lane l) {
  const std::uint32_t lo = shuffle_in((l.e & 0xFFFFu) | (l.o << 16));
  const std::uint32_t hi = shuffle_in((l.e >> 16) | (l.o & 0xFFFF0000u));
  return static_cast<std::uint64_t>(lo) | (static_cast<std::uint64_t>(hi) << 32);
}

// The 64-bit rotation by r in the interleaved representation.
constexpr Lane rot(Lane l, unsigned r) {
  if (r % 2 == 0) return {rotl32(l.e, r / 2), rotl32(l.o, r / 2)};
  return {rotl32(l.o, r / 2 + 1), rotl32(l.e, r / 2)};
}

// The round constants (FIPS 202 §3.2.5, the LFSR rc), interleaved.
constexpr bool rc_bit(unsigned t) {
  if (t % 255 == 0) return true;
  unsigned r = 1;
  for (unsigned i = 1; i <= t % 255; i++) {
    r <<= 1;
    if (r & 0x100) r ^= 0x171;
  }
  return (r & 1) != 0;
}
struct RoundConstants {
  Lane rc[24];
};
constexpr RoundConstants make_round_constants() {
  RoundConstants k{};
  for (unsigned ir = 0; ir < 24; ir++) {
    std::uint64_t v = 0;
    for (unsigned j = 0; j <= 6; j++)
      if (rc_bit(j + 7 * ir)) v |= std::uint64_t{1} << ((1u << j) - 1);
    k.rc[ir] = interleave(v);
  }
  return k;
}
constexpr RoundConstants kRc = make_round_constants();
static_assert(deinterleave(kRc.rc[0]) == 0x0000000000000001ull && deinterleave(kRc.rc[1]) == 0x0000000000008082ull &&
              deinterleave(kRc.rc[23]) == 0x8000000080008008ull);
static_assert(deinterleave(interleave(0x0123456789ABCDEFull)) == 0x0123456789ABCDEFull);
static_assert(deinterleave(rot(interleave(0x8000000000000001ull), 1)) == 0x0000000000000003ull);
static_assert(deinterleave(rot(interleave(0x0123456789ABCDEFull), 44)) ==
              ((0x0123456789ABCDEFull << 44) | (0x0123456789ABCDEFull >> 20)));

// rho offsets of lane x + 5y (FIPS 202 §3.2.2).
constexpr unsigned kRho[25] = {0,  1,  62, 28, 27, 36, 44, 6,  55, 20, 3,  10, 43,
                               25, 39, 41, 45, 15, 21, 8,  18, 2,  61, 56, 14};

// One round (theta, rho, pi, chi, iota) on the interleaved state a.
__attribute__((always_inline)) inline void round(Lane* a, const Lane rc) {
  Lane c[5], d[5], b[25];
#pragma GCC unroll 5
  for (unsigned x = 0; x < 5; x++)
    c[x] = {a[x].e ^ a[x + 5].e ^ a[x + 10].e ^ a[x + 15].e ^ a[x + 20].e,
            a[x].o ^ a[x + 5].o ^ a[x + 10].o ^ a[x + 15].o ^ a[x + 20].o};
#pragma GCC unroll 5
  for (unsigned x = 0; x < 5; x++) {
    const Lane r1 = rot(c[(x + 1) % 5], 1);
    d[x] = {c[(x + 4) % 5].e ^ r1.e, c[(x + 4) % 5].o ^ r1.o};
  }
#pragma GCC unroll 5
  for (unsigned x = 0; x < 5; x++)
#pragma GCC unroll 5
    for (unsigned y = 0; y < 5; y++) {
      const Lane v = {a[x + 5 * y].e ^ d[x].e, a[x + 5 * y].o ^ d[x].o};
      b[y + 5 * ((2 * x + 3 * y) % 5)] = rot(v, kRho[x + 5 * y]);
    }
#pragma GCC unroll 5
  for (unsigned y = 0; y < 5; y++)
#pragma GCC unroll 5
    for (unsigned x = 0; x < 5; x++) {
      const Lane p = b[x + 5 * y], q = b[(x + 1) % 5 + 5 * y], s = b[(x + 2) % 5 + 5 * y];
      a[x + 5 * y] = {p.e ^ (~q.e & s.e), p.o ^ (~q.o & s.o)};
    }
  a[0].e ^= rc.e;
  a[0].o ^= rc.o;
}

}  // namespace

void keccak_f1600(std::uint64_t state[25]) {
  Lane a[25];
  for (std::size_t i = 0; i < 25; i++) a[i] = interleave(state[i]);
  for (unsigned ir = 0; ir < 24; ir++) round(a, kRc.rc[ir]);
  for (std::size_t i = 0; i < 25; i++) state[i] = deinterleave(a[i]);
  for (Lane& l : a) {  // the state may be secret: no copy left on the stack
    volatile std::uint32_t* pe = &l.e;
    volatile std::uint32_t* po = &l.o;
    *pe = 0;
    *po = 0;
  }
}

}  // namespace hqc::backend::m4
