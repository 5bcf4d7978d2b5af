// Generator of tables.hpp, the constants of both FAFFT implementations (avx512/fafft.cpp,
// avx2/fafft_avx2.cpp); run once, output committed, not part of the build:
//   g++ -std=c++20 -O2 -o /tmp/fafft_tablegen src/backend/fafft/tablegen.cpp
//   /tmp/fafft_tablegen > src/backend/fafft/tables.hpp
//
// Field: GF(2^128) = GF(2)[z]/(z^128 + z^7 + z^2 + z + 1), element bit b = coefficient of z^b,
// stored as two little-endian 64-bit words. Cantor basis: beta_0 = 1, beta_i^2 + beta_i =
// beta_{i-1} (solved by Gaussian elimination; either root works since Tr(1) = 0 here).
// See docs/FAFFT.md for the meaning of every table.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>

namespace {

using u64 = std::uint64_t;
struct F {
  u64 lo = 0, hi = 0;
};
F fadd(F a, F b) { return {a.lo ^ b.lo, a.hi ^ b.hi}; }
int fbit(F a, int i) { return static_cast<int>(((i < 64 ? a.lo : a.hi) >> (i & 63)) & 1u); }
void fset(F& a, int i) {
  if (i < 64) a.lo |= u64{1} << i;
  else a.hi |= u64{1} << (i - 64);
}
F fmul(F a, F b) {
  u64 r[4] = {0, 0, 0, 0};
  for (int i = 0; i < 128; i++) {
    if (!fbit(a, i)) continue;
    for (int j = 0; j < 128; j++)
      if (fbit(b, j)) r[(i + j) / 64] ^= u64{1} << ((i + j) % 64);
  }
  for (int d = 255; d >= 128; d--) {
    if (!((r[d / 64] >> (d % 64)) & 1u)) continue;
    for (int e : {0, 1, 2, 7, 128}) {
      const int p = d - 128 + e;
      r[p / 64] ^= u64{1} << (p % 64);
    }
  }
  return {r[0], r[1]};
}
F unit(int i) {
  F a;
  fset(a, i);
  return a;
}

// Solves x^2 + x = c (GF(2)-linear), returns a root.
F solve_q(F c) {
  // Columns: q(z^j) = z^2j + z^j. Augmented rows (equation per output bit): 128 unknowns + rhs.
  static u64 rows[128][3];
  for (int i = 0; i < 128; i++) rows[i][0] = rows[i][1] = rows[i][2] = 0;
  for (int j = 0; j < 128; j++) {
    const F col = fadd(fmul(unit(j), unit(j)), unit(j));
    for (int i = 0; i < 128; i++)
      if (fbit(col, i)) rows[i][j / 64] |= u64{1} << (j % 64);
  }
  for (int i = 0; i < 128; i++) rows[i][2] = static_cast<u64>(fbit(c, i));
  int pivcol[128];
  int r = 0;
  for (int j = 0; j < 128 && r < 128; j++) {
    int p = -1;
    for (int i = r; i < 128; i++)
      if ((rows[i][j / 64] >> (j % 64)) & 1u) {
        p = i;
        break;
      }
    if (p < 0) continue;
    for (int w = 0; w < 3; w++) {
      const u64 t = rows[p][w];
      rows[p][w] = rows[r][w];
      rows[r][w] = t;
    }
    for (int i = 0; i < 128; i++)
      if (i != r && ((rows[i][j / 64] >> (j % 64)) & 1u))
        for (int w = 0; w < 3; w++) rows[i][w] ^= rows[r][w];
    pivcol[r++] = j;
  }
  for (int i = r; i < 128; i++)
    if (rows[i][2]) {
      std::fprintf(stderr, "no root\n");
      std::exit(1);
    }
  F x;
  for (int i = 0; i < r; i++)
    if (rows[i][2]) fset(x, pivcol[i]);
  if (fmul(x, x).lo != (fadd(c, x)).lo || fmul(x, x).hi != fadd(c, x).hi) {
    std::fprintf(stderr, "bad root\n");
    std::exit(1);
  }
  return x;
}

F beta[128];

// Inverts the 128x128 matrix with columns cols[t] (bit i of cols[t] = M[i][t]); returns rows of
// the inverse: inv[t] bit i = Minv[t][i].
bool invert(const F* cols, F* inv) {
  static F a[128], b[128];  // row-major: a[i] bit t = M[i][t]
  for (int i = 0; i < 128; i++) {
    a[i] = F{};
    b[i] = unit(i);
    for (int t = 0; t < 128; t++)
      if (fbit(cols[t], i)) fset(a[i], t);
  }
  for (int j = 0; j < 128; j++) {
    int p = -1;
    for (int i = j; i < 128; i++)
      if (fbit(a[i], j)) {
        p = i;
        break;
      }
    if (p < 0) return false;
    F t = a[p];
    a[p] = a[j];
    a[j] = t;
    t = b[p];
    b[p] = b[j];
    b[j] = t;
    for (int i = 0; i < 128; i++)
      if (i != j && fbit(a[i], j)) {
        a[i] = fadd(a[i], a[j]);
        b[i] = fadd(b[i], b[j]);
      }
  }
  for (int i = 0; i < 128; i++) inv[i] = b[i];
  return true;
}

// 8x8 bit matrix m[row][col] -> qword, byte row = sum_col m[row][col] << col.
u64 pack88(int m[8][8]) {
  u64 q = 0;
  for (int r = 0; r < 8; r++)
    for (int c = 0; c < 8; c++)
      if (m[r][c]) q |= u64{1} << (8 * r + c);
  return q;
}

void emit_level(int k) {
  // Encoding matrix: E_t = prod_{l in bits(t)} beta_{127-k-l}, t < 128.
  F E[128];
  for (int t = 0; t < 128; t++) {
    F e = unit(0);
    for (int l = 0; l < 7; l++)
      if ((t >> l) & 1) e = fmul(e, beta[127 - k - l]);
    E[t] = e;
  }
  F inv[128];
  if (!invert(E, inv)) {
    std::fprintf(stderr, "encoding matrix singular for k=%d\n", k);
    std::exit(1);
  }
  // Encode constants C_{t8,p} = R K^T R with K[r][s] = E_{8t8+r} bit (8p+s):
  // C[b][c] = K[7-c][7-b]. Index [t8][p].
  std::printf("// Encoding (k = %d): C_{t8,p}, index 16*t8 + p.\n", k);
  std::printf("alignas(64) inline constexpr std::uint64_t kEnc%d[256] = {\n", k);
  for (int t8 = 0; t8 < 16; t8++) {
    for (int p = 0; p < 16; p++) {
      int m[8][8];
      for (int b = 0; b < 8; b++)
        for (int c = 0; c < 8; c++) m[b][c] = fbit(E[8 * t8 + 7 - c], 8 * p + 7 - b);
      std::printf("0x%016llxull,%s", static_cast<unsigned long long>(pack88(m)), (p % 4 == 3) ? "\n" : " ");
    }
  }
  std::printf("};\n");
  // Decode constants A_{t8,p} = R Q with Q[r][s] = Minv[8t8+r][8p+s]: A[b][c] = Q[7-b][c].
  // Index [p][t8] (lanes of one zmm are t8 = 0..7 / 8..15 for one p).
  std::printf("// Decoding (k = %d): A_{t8,p}, index 16*p + t8.\n", k);
  std::printf("alignas(64) inline constexpr std::uint64_t kDec%d[256] = {\n", k);
  for (int p = 0; p < 16; p++) {
    for (int t8 = 0; t8 < 16; t8++) {
      int m[8][8];
      for (int b = 0; b < 8; b++)
        for (int c = 0; c < 8; c++) m[b][c] = fbit(inv[8 * t8 + 7 - b], 8 * p + c);
      std::printf("0x%016llxull,%s", static_cast<unsigned long long>(pack88(m)), (t8 % 4 == 3) ? "\n" : " ");
    }
  }
  std::printf("};\n");
}

}  // namespace

int main() {
  beta[0] = unit(0);
  for (int i = 1; i < 128; i++) beta[i] = solve_q(beta[i - 1]);
  std::printf("// Generated by tablegen.cpp: do not edit.\n#pragma once\n#include <cstdint>\n\n");
  std::printf("namespace hqc::backend::fafft::tables {\n\n");
  std::printf("// Cantor basis beta_0..beta_127 of GF(2^128) mod z^128+z^7+z^2+z+1 ({lo, hi} words).\n");
  std::printf("alignas(64) inline constexpr std::uint64_t kBeta[256] = {\n");
  for (int i = 0; i < 128; i++)
    std::printf("0x%016llxull, 0x%016llxull,%s", static_cast<unsigned long long>(beta[i].lo),
                static_cast<unsigned long long>(beta[i].hi), (i % 2) ? "\n" : " ");
  std::printf("};\n");
  // Twiddles: layer i (0..9), block b < 2^(9-i): s_i(beta_127 + sum_l b_l beta_{i+1+l})
  //   = beta_{127-i} + sum_l b_l beta_{1+l}; at element index (2^(9-i) - 1) + b.
  std::printf("// Twiddles of the additive FFT on beta_127 + W_k (k <= 10): layer i, block b at\n");
  std::printf("// element (2^(9-i) - 1) + b, value beta_{127-i} + sum_l b_l beta_{1+l}.\n");
  std::printf("alignas(64) inline constexpr std::uint64_t kTwiddle[2 * 1024] = {\n");
  for (int i = 9; i >= 0; i--) {
    for (int b = 0; b < (1 << (9 - i)); b++) {
      F t = beta[127 - i];
      for (int l = 0; l < 9 - i; l++)
        if ((b >> l) & 1) t = fadd(t, beta[1 + l]);
      std::printf("0x%016llxull, 0x%016llxull,\n", static_cast<unsigned long long>(t.lo),
                  static_cast<unsigned long long>(t.hi));
    }
  }
  std::printf("0, 0};\n\n");
  emit_level(9);
  emit_level(10);
  std::printf("\n}  // namespace hqc::backend::fafft::tables\n");
  return 0;
}
