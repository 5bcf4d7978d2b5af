// The constants of the FAFFT over GF(2^32) (both ports: avx512/fafft.cpp on zmm, avx2/fafft_avx2.cpp
// on ymm; the algorithm: docs/FAFFT.md),
// computed by the compiler from the field's definition: no generated table, no run-time setup.
//
// Field. GF(2^8) is the field of GFNI's gf2p8mulb (x^8 + x^4 + x^3 + x + 1), and
// GF(2^32) = GF(2^8)[y]/(y^4 + y^3 + y^2 + 6) (irreducible over GF(2^8): the unit test checks
// that it has no root and no quadratic factor there). An element is one 32-bit word, byte k the
// coefficient of y^k, so multiplying by a constant is GF(2^8)-linear in the bytes: four gf2p8mulb
// by the constant's "diagonals" (below) on the element rotated by 0, 8, 16 and 24 bits.
//
// Cantor basis beta_0 = 1, beta_i^2 + beta_i = beta_(i-1) (i = 1..31; Tr(1) = 0 in GF(2^32), so
// the chain exists), subspace polynomials s_i with s_i(beta_j) = beta_(j-i), novel basis
// X_j = prod_(bit i of j) s_i (docs/FAFFT.md). A transform of a
// binary polynomial of degree < 2^m has 2^K points, K = m - 5, the coset beta_31 + W_K: for
// 0 < t < 32, sigma^t(beta_31) - beta_31 has a nonzero beta_(31 - lowbit(t)) component with
// 31 - lowbit(t) >= 27 >= K (sigma = squaring), so the Frobenius orbits of the points are disjoint,
// of 32 elements each, and the 2^K values in GF(2^32) (2^m bits) determine the polynomial.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace hqc::backend::fafft::field32 {

// GF(2^8), the AES polynomial (the one of gf2p8mulb).
constexpr std::uint8_t mul8(std::uint8_t a, std::uint8_t b) {
  unsigned r = 0, x = a;
  for (int i = 0; i < 8; i++) {
    if ((b >> i) & 1) r ^= x;
    x <<= 1;
    if (x & 0x100) x ^= 0x11B;
  }
  return static_cast<std::uint8_t>(r);
}

// y^4 = q3 y^3 + q2 y^2 + q1 y + q0 (characteristic 2: the same coefficients as the modulus).
inline constexpr std::uint8_t kModulus[4] = {6, 0, 1, 1};

constexpr std::uint8_t byte_of(std::uint32_t x, unsigned k) { return static_cast<std::uint8_t>(x >> (8 * k)); }

// c * b for c in GF(2^8): every byte multiplied.
constexpr std::uint32_t scale(std::uint8_t c, std::uint32_t b) {
  std::uint32_t r = 0;
  for (unsigned k = 0; k < 4; k++) r |= std::uint32_t{mul8(c, byte_of(b, k))} << (8 * k);
  return r;
}
constexpr std::uint32_t mul_y(std::uint32_t b) {
  const std::uint8_t top = byte_of(b, 3);
  std::uint32_t r = b << 8;
  for (unsigned k = 0; k < 4; k++) r ^= std::uint32_t{mul8(top, kModulus[k])} << (8 * k);
  return r;
}
constexpr std::uint32_t mul(std::uint32_t a, std::uint32_t b) {
  std::uint32_t r = 0;
  for (unsigned k = 0; k < 4; k++, b = mul_y(b)) r ^= scale(byte_of(a, k), b);
  return r;
}

// The field's product as a type, for the constants below, which follow from the product alone:
// the Cantor basis, the twiddles and the coding matrices exist in every representation of
// GF(2^32). The x86 ports use this tower; the m4 port a polynomial basis (m4/fafft_m4.cpp).
struct TowerField {
  static constexpr std::uint32_t mul(std::uint32_t a, std::uint32_t b) { return field32::mul(a, b); }
};

// Solutions of x^2 + x = v (a GF(2)-linear system of rank 31; v must have trace 0), by one
// Gaussian elimination of the matrix of x -> x^2 + x that records, for each pivot column, which
// equations its row combines: that bit of x is the parity of those bits of v (the free bit is 0).
struct ArtinSchreierSolver {
  std::uint32_t combine[32] = {};  // per column of x: the equations summed into its pivot row
  bool pivot[32] = {};
  constexpr std::uint32_t solve(std::uint32_t v) const {
    std::uint32_t x = 0;
    for (unsigned col = 0; col < 32; col++) {
      std::uint32_t p = combine[col] & v;
      p ^= p >> 16;
      p ^= p >> 8;
      p ^= p >> 4;
      p ^= p >> 2;
      p ^= p >> 1;
      if (pivot[col] && (p & 1)) x |= std::uint32_t{1} << col;
    }
    return x;
  }
};
template <class F>
constexpr ArtinSchreierSolver make_solver() {
  // Row e: bits 0..31 the coefficients of x's bits in bit e of x^2 + x; bits 32..63 the
  // equations combined into it.
  std::uint64_t rows[32] = {};
  for (unsigned k = 0; k < 32; k++) {
    const std::uint32_t x = std::uint32_t{1} << k;
    const std::uint32_t image = F::mul(x, x) ^ x;
    for (unsigned e = 0; e < 32; e++)
      if ((image >> e) & 1) rows[e] |= std::uint64_t{1} << k;
  }
  for (unsigned e = 0; e < 32; e++) rows[e] |= std::uint64_t{1} << (32 + e);
  ArtinSchreierSolver s{};
  unsigned pivot_row[32] = {};
  unsigned r = 0;
  for (unsigned col = 0; col < 32 && r < 32; col++) {
    unsigned sel = r;
    while (sel < 32 && !((rows[sel] >> col) & 1)) sel++;
    if (sel == 32) continue;
    const std::uint64_t t = rows[sel];
    rows[sel] = rows[r];
    rows[r] = t;
    for (unsigned i = 0; i < 32; i++)
      if (i != r && ((rows[i] >> col) & 1)) rows[i] ^= rows[r];
    s.pivot[col] = true;
    pivot_row[col] = r++;
  }
  // Read after the elimination: later pivots still add rows into earlier ones.
  for (unsigned col = 0; col < 32; col++)
    if (s.pivot[col]) s.combine[col] = static_cast<std::uint32_t>(rows[pivot_row[col]] >> 32);
  return s;
}

template <class F>
constexpr std::array<std::uint32_t, 32> make_cantor_basis() {
  const ArtinSchreierSolver solver = make_solver<F>();
  std::array<std::uint32_t, 32> b{};
  b[0] = 1;
  for (unsigned i = 1; i < 32; i++) b[i] = solver.solve(b[i - 1]);
  return b;
}
template <class F>
inline constexpr std::array<std::uint32_t, 32> kCantorBasis = make_cantor_basis<F>();
inline constexpr const std::array<std::uint32_t, 32>& kBeta = kCantorBasis<TowerField>;

// The diagonals of "multiply by c": D_d byte j = byte j of c * y^((j - d) mod 4), so that
// c * a = sum_d D_d (*) rotl(a, 8 d) with (*) the bytewise GF(2^8) product.
struct Diagonals {
  std::uint32_t d[4];
};
constexpr Diagonals diagonals(std::uint32_t c) {
  std::uint32_t col[4] = {c, 0, 0, 0};
  for (unsigned k = 1; k < 4; k++) col[k] = mul_y(col[k - 1]);
  Diagonals r{};
  for (unsigned d = 0; d < 4; d++)
    for (unsigned j = 0; j < 4; j++) r.d[d] |= std::uint32_t{byte_of(col[(j - d) & 3], j)} << (8 * j);
  return r;
}

// Twiddles: layer i, block b (offset beta_31 + sum_l b_l beta_(i+1+l)) has tau = s_i of the
// offset = beta_(31-i) + sum_l b_l beta_(1+l), which does not depend on K.
// The largest transform: K = 12 (2^17-bit products, HQC-3 and HQC-5). Layer i's blocks are
// entries 2^(11-i) - 1 .. 2^(12-i) - 2 (smaller K use the first 2^(K-1-i) of them).
inline constexpr unsigned kMaxLogPoints = 12;
constexpr std::size_t twiddle_index(unsigned i, std::size_t b) {
  return (std::size_t{1} << (kMaxLogPoints - 1 - i)) - 1 + b;
}

struct TwiddleTable {
  Diagonals t[(std::size_t{1} << kMaxLogPoints) - 1];
};
// The diagonals are GF(2)-linear in the constant, so each twiddle's are those of beta_(31-i)
// plus those of beta_(1+l) for the bits l of b (tau above).
constexpr TwiddleTable make_twiddles() {
  Diagonals beta[32] = {};
  for (unsigned k = 0; k < 32; k++) beta[k] = diagonals(kBeta[k]);
  TwiddleTable tt{};
  for (unsigned i = 0; i < kMaxLogPoints; i++)
    for (std::size_t b = 0; b < (std::size_t{1} << (kMaxLogPoints - 1 - i)); b++) {
      Diagonals d = beta[31 - i];
      for (unsigned l = 0; (b >> l) != 0; l++)
        if ((b >> l) & 1)
          for (unsigned k = 0; k < 4; k++) d.d[k] ^= beta[1 + l].d[k];
      tt.t[twiddle_index(i, b)] = d;
    }
  return tt;
}

// Encoding (GF(2)): with i = t 2^K + j (t < 32, j < 2^K), the point values of f on a coset
// c + W_K are g = sum_j G_j X_j, G_j = sum_t c_i E_t, E_t = X_t(delta) = prod_(bit l of t) s_l(delta)
// with delta = s_K(c), the value of s_K on the whole coset. For c = beta_31, delta = beta_(31-K) and
// s_l(delta) = beta_(31-K-l); the m4 port's product modulo a sparse polynomial (m4/fafft_m4.cpp)
// uses another coset.
template <class F>
constexpr std::array<std::uint32_t, 32> make_encoding_at(std::uint32_t delta) {
  std::uint32_t s[5] = {};  // s_l(delta) = s_1 applied l times
  s[0] = delta;
  for (unsigned l = 1; l < 5; l++) s[l] = F::mul(s[l - 1], s[l - 1]) ^ s[l - 1];
  std::array<std::uint32_t, 32> e{};
  for (unsigned t = 0; t < 32; t++) {
    std::uint32_t p = 1;
    for (unsigned l = 0; l < 5; l++)
      if ((t >> l) & 1) p = F::mul(p, s[l]);
    e[t] = p;
  }
  return e;
}
template <unsigned K, class F = TowerField>
constexpr std::array<std::uint32_t, 32> make_encoding() {
  return make_encoding_at<F>(kCantorBasis<F>[31 - K]);
}
// Decoding: row t of the inverse of the matrix with columns E_t (c_t = parity(row_t & G)); all
// zero if the matrix is singular (the callers static_assert against that).
template <class F>
constexpr std::array<std::uint32_t, 32> make_decoding_at(std::uint32_t delta) {
  const auto e = make_encoding_at<F>(delta);
  // Augmented [M | I] with M[r][t] = bit r of E_t, rows as 64-bit masks (M in bits 0..31).
  std::uint64_t rows[32] = {};
  for (unsigned r = 0; r < 32; r++) {
    for (unsigned t = 0; t < 32; t++)
      if ((e[t] >> r) & 1) rows[r] |= std::uint64_t{1} << t;
    rows[r] |= std::uint64_t{1} << (32 + r);
  }
  for (unsigned col = 0; col < 32; col++) {
    unsigned sel = col;
    while (sel < 32 && !((rows[sel] >> col) & 1)) sel++;
    if (sel == 32) return {};
    const std::uint64_t t = rows[sel];
    rows[sel] = rows[col];
    rows[col] = t;
    for (unsigned i = 0; i < 32; i++)
      if (i != col && ((rows[i] >> col) & 1)) rows[i] ^= rows[col];
  }
  std::array<std::uint32_t, 32> inv{};
  for (unsigned t = 0; t < 32; t++) inv[t] = static_cast<std::uint32_t>(rows[t] >> 32);
  return inv;
}
template <unsigned K, class F = TowerField>
constexpr std::array<std::uint32_t, 32> make_decoding() {
  return make_decoding_at<F>(kCantorBasis<F>[31 - K]);
}

// The twiddles of every layer and block (64 KiB), one copy for both ports.
inline constexpr TwiddleTable kTwiddles = make_twiddles();

// The GFNI bit matrices of encoding and decoding (both ports): gf2p8affineqb(X, A) sets bit s of
// each byte x to parity(byte 7-s of A & x). Encoding takes the columns of rows 8a .. 8a+7 as bytes
// with bit s = row 8a+7-s; C_(a,p) = enc[a][p]: byte 7-s, bit i = bit 8p+s of E_(8a+7-i), so that
// the sum over a of affine(., C_(a,p)) is byte p of G_j. Decoding: Q_(a,p) = dec[a][p]: byte 7-s,
// bit i = bit 8p+i of row 8a+s of the inverse matrix, so that the sum over p of
// affine(byte p of G_j, Q_(a,p)) has bit s = coefficient 8a+s. Each matrix is stored eight times,
// a whole zmm (the ymm port loads the first four): clang 14 folds a broadcast of one qword into
// gf2p8affineqb's m64bcst operand and then encodes a nonzero displacement with the wrong scale
// (disp8 not divided by 8), so the instruction reads the wrong matrix (found by the vector tests
// of the asan build); full loads avoid that form.
template <unsigned K>
struct CodingMatrices {
  alignas(64) std::uint64_t enc[2][4][8];
  alignas(64) std::uint64_t dec[4][4][8];
};
template <unsigned K>
constexpr CodingMatrices<K> make_coding_matrices() {
  const auto e = make_encoding<K>();
  const auto d = make_decoding<K>();
  CodingMatrices<K> m{};
  for (unsigned p = 0; p < 4; p++)
    for (unsigned s = 0; s < 8; s++) {
      for (unsigned a = 0; a < 2; a++) {
        unsigned byte = 0;
        for (unsigned i = 0; i < 8; i++) byte |= ((e[8 * a + 7 - i] >> (8 * p + s)) & 1u) << i;
        for (unsigned c = 0; c < 8; c++) m.enc[a][p][c] |= std::uint64_t{byte} << (8 * (7 - s));
      }
      for (unsigned a = 0; a < 4; a++) {
        unsigned byte = 0;
        for (unsigned i = 0; i < 8; i++) byte |= ((d[8 * a + s] >> (8 * p + i)) & 1u) << i;
        for (unsigned c = 0; c < 8; c++) m.dec[a][p][c] |= std::uint64_t{byte} << (8 * (7 - s));
      }
    }
  return m;
}
template <unsigned K>
alignas(64) inline constexpr CodingMatrices<K> kCoding = make_coding_matrices<K>();
static_assert(make_decoding<11>()[0] != 0 && make_decoding<12>()[0] != 0, "the encoding matrices must be invertible");

}  // namespace hqc::backend::fafft::field32
