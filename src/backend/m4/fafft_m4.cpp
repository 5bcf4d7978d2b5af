// The Frobenius additive FFT on the Cortex-M4 (fafft_m4.hpp; the algorithm: docs/FAFFT.md; its
// costs on the M4: docs/M4.md). The parts of backend/fafft/entry_points.hpp's composition, on
// 32-bit words:
//   - the novel-basis conversion runs the step list of backend/fafft/plan.hpp: the steps on blocks
//     of at most 256 bits together on eight-word units in registers (unrolled at compile time),
//     larger ones as funnel-shifted XORs of their ranges over memory;
//   - encoding and decoding are bit-sliced: the 32 element bits of 32 points (or the rows' words)
//     are XORs of the inputs' subset sums, chosen by the nibbles of the constant matrices of
//     field32.hpp for this field; the points stay as bit planes for the large layers;
//   - the FFT layers whose blocks have halves of 32 points or more multiply by the block's twiddle
//     as a bit-matrix product over 32 points' bit planes (four Russians, table indices from the
//     twiddle: hqc_m4_fafft_sliced); a 32 x 32 transpose per chunk turns planes into points for
//     the smaller layers (one Thumb-2 call per layer, fafft_m4.S), which multiply by the 32x32
//     carry-less product over four bit classes (sixteen UMULL, the twiddle's classes split once
//     per block) and reduce modulo z^32 + z^7 + z^3 + z^2 + 1; the pointwise products are the same
//     product in one Thumb-2 loop.
// Every loop bound, index and shift depends on the parameter set (public) only.
#include "backend/m4/fafft_m4.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "backend/fafft/entry_points.hpp"
#include "backend/fafft/field32.hpp"
#include "backend/fafft/plan.hpp"
#include "backend/m4/ring_mul_m4.hpp"
#include "common/ct.hpp"
#include "common/static_for.hpp"
#include "params/params.hpp"

// One layer of the forward FFT and of the inverse (fafft_m4.S): in each of the blocks of 2 half words
// from g on, u[k] += tau_b v[k], v[k] += u[k] (inverse, half >= 2: v[k] += u[k], u[k] += tau_b
// v[k]), with tau_0 given and tau_b = tau_(b-1) + steps[ctz(b)].
extern "C" void hqc_m4_fafft_layer(std::uint32_t* g, std::uint32_t half, std::uint32_t blocks, std::uint32_t tau0,
                                   const std::uint32_t* steps);
extern "C" void hqc_m4_fafft_layer_inverse(std::uint32_t* g, std::uint32_t half, std::uint32_t blocks,
                                           std::uint32_t tau0, const std::uint32_t* steps);
// dst[i] ^= src[i] for i < len: 32-bit words (poly_m4.S).
extern "C" void hqc_m4_xor_into(void* dst, const void* src, std::size_t len);
// dst[j][i] ^= src[i] for j < 4 (or dst0, dst1) and i < 4 quads, quads >= 1; destinations may
// overlap (poly_m4.S).
extern "C" void hqc_m4_xor_into_four(std::uint32_t* const dst[4], const std::uint32_t* src, std::size_t quads);
extern "C" void hqc_m4_xor_into_two(std::uint32_t* dst0, std::uint32_t* dst1, const std::uint32_t* src,
                                    std::size_t quads);
// dst[0 .. len] = src[0 .. len) << r (1 <= r <= 31): (len + 1) words.
extern "C" void hqc_m4_shift_words_left(std::uint32_t* dst, const std::uint32_t* src, std::uint32_t len,
                                        std::uint32_t r);
// The unclipped blocks of one memory step (memory_step): run = {w0, n, q, r, head, tail,
// block_words, blocks}.
extern "C" void hqc_m4_fafft_step_blocks(std::uint32_t* w, const std::uint32_t* run);
// The same where the destination is within one word: run = {w0, q, r, mask, block_words, blocks}.
extern "C" void hqc_m4_fafft_step_words(std::uint32_t* w, const std::uint32_t* run);
// out = in as a 32 x 32 bit matrix (bit j of word i) transposed (out may be in).
extern "C" void hqc_m4_transpose32(std::uint32_t* out, const std::uint32_t* in);
// dst[i] ^= (src[i] >> r) | (src[i + 1] << (32 - r)) for i < len, 1 <= r <= 31 (fafft_m4.S).
extern "C" void hqc_m4_fafft_xor_shifted(std::uint32_t* dst, const std::uint32_t* src, std::uint32_t len,
                                         std::uint32_t r);
extern "C" void hqc_m4_poly_mul_zero(void* dst, std::size_t len);
// dst[i] = src[i] for i < len 32-bit words, the buffers apart (poly_m4.S).
extern "C" void hqc_m4_poly_mul_copy(void* dst, const void* src, std::size_t len);
// The layers with half >= 32 on bit-sliced chunks (fafft_m4.S): u += tau v, v += u (inverse: v += u,
// u += tau v) on chunks of 32 points from u on, v at u + vofs bytes; idx: 256 bytes, sliced_index's
// for tau; table: 128 words of scratch.
extern "C" void hqc_m4_fafft_sliced(std::uint32_t* u, std::uint32_t chunks, std::uint32_t vofs, const std::uint8_t* idx,
                                    std::uint32_t* table);
extern "C" void hqc_m4_fafft_sliced_inverse(std::uint32_t* u, std::uint32_t chunks, std::uint32_t vofs,
                                            const std::uint8_t* idx, std::uint32_t* table);
// next[k] = idx[k] ^ step[k] for k < 64 (next may be idx): a block's indices from the previous
// block's (fafft_m4.S).
extern "C" void hqc_m4_fafft_index_step(std::uint32_t* next, const std::uint32_t* idx, const std::uint32_t* step);
// g[j] = x[j] * y[j] in the field for j < 2 pairs, and layer 0 of the inverse FFT on them: v += u,
// u += tau_b v on each pair b (fafft_m4.S; g may be x or y).
extern "C" void hqc_m4_fafft_pointwise_first(std::uint32_t* g, const std::uint32_t* x, const std::uint32_t* y,
                                             std::uint32_t pairs, std::uint32_t tau0, const std::uint32_t* steps);
// The one-shot products' block products and inverse layer 3 on each pair of 8-point blocks, tau_0 and
// the twiddle steps as in the layers; work: 148 words of scratch (fafft_m4.S; g may be x or y).
extern "C" void hqc_m4_fafft_block_products(std::uint32_t* g, const std::uint32_t* x, const std::uint32_t* y,
                                            std::uint32_t pairs, std::uint32_t tau0, const std::uint32_t* steps,
                                            std::uint32_t* work);

namespace hqc::backend::m4::fafft {
namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;
// The buffers are arrays of 64-bit words, worked on as their 32-bit halves (little-endian):
// ring_mul_m4.hpp's Word32.
using ::hqc::backend::m4::Word32;

namespace field32 = ::hqc::backend::fafft::field32;
using ::hqc::static_for;
using ::hqc::backend::fafft::Step;

// ---- GF(2^32) = GF(2)[z]/(z^32 + z^7 + z^3 + z^2 + 1) --------------------------------------------

// The field's product for the constants below (compile time only: at run time every product is
// fafft_m4.S's, the same function of the operands).
constexpr u32 gf_mul(u32 a, u32 b) {
  u32 r = 0;
  for (int i = 31; i >= 0; i--) {
    r = (r << 1) ^ ((r >> 31) != 0 ? 0x8Du : 0u);  // r z, with z^32 = z^7 + z^3 + z^2 + 1
    if ((b >> i) & 1) r ^= a;
  }
  return r;
}

struct PolyField {
  static constexpr u32 mul(u32 a, u32 b) { return gf_mul(a, b); }
};

// The modulus is irreducible (Rabin's test: z^(2^32) = z, and gcd(f, z^(2^16) - z) = 1, the only
// proper divisor of 32 to test being 16), so PolyField is GF(2^32).
constexpr u32 frobenius_power_of_z(unsigned squarings) {
  u32 x = 2;  // z
  for (unsigned i = 0; i < squarings; i++) x = gf_mul(x, x);
  return x;
}
constexpr bool coprime_with_modulus(u32 g) {
  u64 a = (u64{1} << 32) | 0x8Du, b = g;  // f = z^32 + z^7 + z^3 + z^2 + 1
  while (b != 0) {
    while (a != 0 && std::bit_width(a) >= std::bit_width(b)) a ^= b << (std::bit_width(a) - std::bit_width(b));
    const u64 t = a;
    a = b;
    b = t;
  }
  return a == 1;
}
static_assert(frobenius_power_of_z(32) == 2 && coprime_with_modulus(frobenius_power_of_z(16) ^ 2),
              "z^32 + z^7 + z^3 + z^2 + 1 must be irreducible");

inline constexpr const std::array<u32, 32>& kBeta = field32::kCantorBasis<PolyField>;
constexpr bool is_cantor_basis() {
  for (unsigned i = 1; i < 32; i++)
    if ((gf_mul(kBeta[i], kBeta[i]) ^ kBeta[i]) != kBeta[i - 1]) return false;
  return kBeta[0] == 1;
}
static_assert(is_cantor_basis(), "beta_0 = 1, beta_i^2 + beta_i = beta_(i-1)");

// Twiddles (docs/FAFFT.md): layer i, block b: tau = beta_(31-i) + sum_l b_l beta_(1+l). Block b
// differs from block b - 1 by the bits 0 .. ctz(b), so tau moves by kTwiddleStep[ctz(b)].
constexpr std::array<u32, 32> make_twiddle_steps() {
  std::array<u32, 32> s{};
  u32 acc = 0;
  for (unsigned c = 0; c + 1 < 32; c++) s[c] = acc ^= kBeta[1 + c];
  return s;
}
inline constexpr std::array<u32, 32> kTwiddleStep = make_twiddle_steps();

// s_l(y): s_1(y) = y^2 + y applied l times.
constexpr u32 subspace_poly(u32 y, unsigned l) {
  for (; l > 0; l--) y = gf_mul(y, y) ^ y;
  return y;
}

// The points of a transform: a coset c + W_K. The encoding's constant is delta = s_K(c) (s_K is
// constant on the coset), and layer i's first block has the twiddle s_i(c) (its later blocks step by
// kTwiddleStep, whatever c is). The full-size transforms use c = beta_31: delta = beta_(31-K),
// s_i(c) = beta_(31-i) (docs/FAFFT.md).
struct Coset {
  u32 delta;
  std::array<u32, 32> tau0;
};
template <unsigned K>
constexpr Coset standard_coset() {
  Coset c{kBeta[31 - K], {}};
  for (unsigned i = 0; i < 32; i++) c.tau0[i] = kBeta[31 - i];
  return c;
}
template <unsigned K>
inline constexpr Coset kStandardCoset = standard_coset<K>();

// ---- Encoding and decoding --------------------------------------------------------------------

// sums[16 g + c] = the XOR of the words x[4 g + i] with bit i of c set, for the groups g < groups
// of four words (the method of four Russians: a bit-matrix product then takes one table word per
// group and output word, at an index that is a nibble of the public matrix).
inline void subset_sums(u32* sums, const u32* x, unsigned groups) {
  for (unsigned g = 0; g < groups; g++, x += 4, sums += 16) {
    sums[0] = 0;
    for (unsigned i = 0; i < 4; i++)
      for (unsigned c = 0; c < (1u << i); c++) sums[(1u << i) + c] = sums[c] ^ x[i];
  }
}

// The coding matrices of this field and coset (field32.hpp): columns E_t, and the rows of their
// inverse. Encoding: plane p of 32 points gathers bit p of E_t for the input's rows t < kRows, a
// nibble per group of four rows. Decoding: row t of 32 points is the inverse's row t (its nibbles
// index the planes' sums).
template <const Coset& C, unsigned kRows>
constexpr std::array<u32, 32> make_encoding_nibbles() {
  static_assert(kRows <= 32);
  const auto e = field32::make_encoding_at<PolyField>(C.delta);
  std::array<u32, 32> n{};
  for (unsigned p = 0; p < 32; p++)
    for (unsigned t = 0; t < kRows; t++) n[p] |= ((e[t] >> p) & 1) << t;
  return n;
}
template <const Coset& C, unsigned kRows>
inline constexpr std::array<u32, 32> kEncodingNibbles = make_encoding_nibbles<C, kRows>();
template <const Coset& C>
inline constexpr std::array<u32, 32> kDecoding = field32::make_decoding_at<PolyField>(C.delta);

// An input's kRows rows of 2^K bits (bits [t 2^K, (t + 1) 2^K) are row t, the rows above zero) to
// 2^K points, bit-sliced: for each 32 columns, the 32 bit planes of those points (words 32 w ..
// 32 w + 31 of t, plane p = bit p of the points) from the rows' subset sums. fft takes them so
// and transposes them to points after its sliced layers.
template <unsigned K, const Coset& C, unsigned kRows>
[[gnu::noinline]] void encode(u32* t, const Word32* bits) {
  constexpr std::size_t kRowWords = (std::size_t{1} << K) / 32;
  constexpr unsigned kGroups = (kRows + 3) / 4;
  for (std::size_t w = 0; w < kRowWords; w++) {
    u32 row[4 * kGroups], sums[16 * kGroups];
    u32* x = t + 32 * w;
    // Unrolled, so that the rows' words are loads at immediate offsets, back to back.
    static_for<4 * kGroups>([&](auto r) {
      if constexpr (r < kRows) row[r] = bits[r * kRowWords + w];
      else row[r] = 0;
    });
    subset_sums(sums, row, kGroups);
    // Unrolled: the table indices are immediates, and a zero nibble (an empty subset) reads nothing.
    static_for<32>([&](auto p) {
      constexpr u32 n = kEncodingNibbles<C, kRows>[p];
      u32 acc = 0;
      static_for<kGroups>([&](auto g) {
        constexpr u32 c = (n >> (4 * g)) & 15;
        if constexpr (c != 0) acc ^= sums[16 * g + c];
      });
      x[p] = acc;
    });
  }
}
// 2^K bit-sliced points (ifft_product's output: the bit planes of each 32 points) to 32 rows of
// 2^K bits: each row's word from the planes' subset sums. Rows kUsed .. 31, which hold no
// coefficient of the product (entry_points.hpp, kProductRows), are zeroed instead (3 of the 32 at
// HQC-5).
template <unsigned K, const Coset& C, unsigned kUsed = 32>
[[gnu::noinline]] void decode_full(Word32* rows, const u32* t) {
  static_assert(kUsed >= 1 && kUsed <= 32);
  static_assert(kDecoding<C>[0] != 0, "the encoding matrix must be invertible");  // make_decoding_at: {} if not
  constexpr std::size_t kRowWords = (std::size_t{1} << K) / 32;
  for (std::size_t w = 0; w < kRowWords; w++) {
    u32 sums[128];
    subset_sums(sums, t + 32 * w, 8);
    // Unrolled as in encode.
    static_for<kUsed>([&](auto r) {
      constexpr u32 d = kDecoding<C>[r];
      u32 acc = 0;
      static_for<8>([&](auto g) {
        constexpr u32 c = (d >> (4 * g)) & 15;
        if constexpr (c != 0) acc ^= sums[16 * g + c];
      });
      rows[r * kRowWords + w] = acc;
    });
  }
  if constexpr (kUsed < 32) hqc_m4_poly_mul_zero(rows + kUsed * kRowWords, (32 - kUsed) * kRowWords);
}

// ---- The additive FFT ---------------------------------------------------------------------------

// The layers whose halves are 32 points or more (K - 1 .. 5) run on bit-sliced chunks of 32 points
// (hqc_m4_fafft_sliced), where tau v is a bit-matrix product by the method of four Russians; the
// others (4 .. 0) on the points (hqc_m4_fafft_layer), after a 32 x 32 transpose of each chunk.
inline constexpr unsigned kSlicedLayers = 5;  // layers i >= 5: half = 2^i >= 32 points

// idx[8 r + g] = 16 g + nibble g of row r of tau's matrix (row r, bit c = bit r of tau z^c): the
// table indices of hqc_m4_fafft_sliced for output plane r and the group g of input planes 4 g ..
// 4 g + 3; without the 16 g where kGroups is false. tau is public (a twiddle). The nibbles are
// linear in tau, and 16 g + n ^ n' = 16 g + (n ^ n'): a block's indices are the previous block's
// XOR the nibbles of its twiddle step.
template <bool kGroups>
[[gnu::noinline]] void sliced_index(u32* idx, u32 tau) {
  u32 rows[32];
  for (unsigned c = 0; c < 32; c++, tau = (tau << 1) ^ (0x8Du & (0u - (tau >> 31)))) rows[c] = tau;
  hqc_m4_transpose32(rows, rows);
  // The nibbles of a half word to the four bytes of a word.
  auto spread = [](u32 x) {
    x = (x | (x << 8)) & 0x00FF00FFu;
    return (x | (x << 4)) & 0x0F0F0F0Fu;
  };
  for (unsigned r = 0; r < 32; r++) {
    idx[2 * r] = spread(rows[r] & 0xFFFFu) + (kGroups ? 0x30201000u : 0u);
    idx[2 * r + 1] = spread(rows[r] >> 16) + (kGroups ? 0x70605040u : 0u);
  }
}

// The blocks of the sliced layers, layer K - 1 first and each layer's blocks in order: layer i's
// 2^(K-1-i) blocks from index 2^(K-1-i) - 1 on, 2^(K-5) - 1 in all.
template <unsigned K>
inline constexpr std::size_t kSlicedBlocks = (std::size_t{1} << (K - kSlicedLayers)) - 1;
constexpr std::size_t first_sliced_block(unsigned K, unsigned i) { return (std::size_t{1} << (K - 1 - i)) - 1; }

// Block b's twiddle is block b - 1's plus kTwiddleStep[ctz(b)], with ctz(b) < K - 6 in the sliced
// layers: steps[c] = the nibbles of kTwiddleStep[c].
template <unsigned K>
inline constexpr unsigned kSlicedSteps = K - 1 - kSlicedLayers;
template <unsigned K>
void sliced_steps(u32 (&steps)[kSlicedSteps<K>][64]) {
  for (unsigned c = 0; c < kSlicedSteps<K>; c++) sliced_index<false>(steps[c], kTwiddleStep[c]);
}

// The indices of every sliced block (in kSlicedBlocks' order) for the operations that run several
// transforms of one size and coset (the one-shot products, mul and mul2: three or five), which
// compute them once instead of in each sliced_layers (about 3 % of a transform).
// Functions of the twiddles only (public).
template <unsigned K, const Coset& C>
struct SlicedIndices {
  u32 idx[kSlicedBlocks<K>][64];
  SlicedIndices() {
    u32 steps[kSlicedSteps<K>][64];
    sliced_steps<K>(steps);
    for (unsigned i = K; i-- > kSlicedLayers;) {
      u32(*t)[64] = idx + first_sliced_block(K, i);
      sliced_index<true>(t[0], C.tau0[i]);
      for (std::size_t b = 1; b < (std::size_t{1} << (K - 1 - i)); b++)
        hqc_m4_fafft_index_step(t[b], t[b - 1], steps[std::countr_zero(b)]);
    }
  }
};

// What a one-shot product (mul, mul2: none of its transforms is kept) does differently, for its
// three or five transforms of one size and coset: it computes the sliced layers' indices once, and
// its transforms stop before layer kBlockLayers - 1, their 8-point blocks multiplied as polynomials
// (block_products below).
template <unsigned K, const Coset& C>
struct OneShot {
  SlicedIndices<K, C> indices;
};

// ---- The one-shot products' last layers ---------------------------------------------------------
//
// After the forward FFT's layers K - 1 .. kBlockLayers, block b of 2^k points (k = kBlockLayers)
// holds g_0 .. g_(2^k - 1), the novel-basis coefficients (X_j = the product of s_i over the bits i
// of j) of the operand mod s_k(x) - t_b, t_b = s_k of the block's offset: the polynomial whose
// values on the block's points the last k layers would give. Two such blocks multiply as
// polynomials: with s_i^2 = s_i + s_(i+1) (Cantor basis: s_(i+1) = s_1(s_i)), A = A0 + s_(k-1) A1
// and B = B0 + s_(k-1) B1 (A0 .. B1 in the span of the X_j, j < 2^(k-1)) give
//   A B = P + s_(k-1) (R + P) + s_k Q,  P = A0 B0, Q = A1 B1, R = (A0 + A1)(B0 + B1),
// Karatsuba on the novel basis, recursively 3^k products; the result has 2^(k+1) coefficients (the
// top one zero), and s_k = t_b takes the upper 2^k - 1 back by products with t_b (below, fused with
// inverse layer k). The inverse FFT goes on from layer k + 1. k = 3 needs the fewest products per
// point: 3^k + 2^k - 1 per block and pair of operands, against 3 k 2^(k-1) + 2^k for both
// transforms' last k layers, the pointwise products and the first k inverse layers.
inline constexpr unsigned kBlockLayers = 3;
inline constexpr std::size_t kBlockWork = 148;  // words of hqc_m4_fafft_block_products' scratch

// g = the block products of x and y (one-shot transforms; g may be x or y) and inverse layer k, by
// hqc_m4_fafft_block_products: two blocks an iteration, the halves of a block of layer k, whose
// twiddle tau has t_b = tau for the first half and tau + 1 for the second (s_k(beta_k) = 1). The
// leaves of a block are those of A0, of A1 and of A0 + A1, and with E and F the two halves'
// products (2^(k+1) coefficients, lo and hi halves of 2^k), the reduced halves are U = E_lo +
// tau E_hi and V = F_lo + (tau + 1) F_hi; the inverse layer gives V' = U + V = E_lo + F_lo + F_hi
// + tau (E_hi + F_hi) and U' = U + tau V' = E_lo + tau (E_hi + V'): 2^(k+1) - 1 products by tau
// instead of 2 (2^k - 1) for the reductions and 2^k for the layer, 69 products for 16 points in
// all, against 80 in the layers and 16 pointwise. tau is public, and so is every
// index.
template <unsigned K, const Coset& C>
void block_products(u32* g, const u32* x, const u32* y) {
  static_assert(kBlockLayers == 3, "hqc_m4_fafft_block_products works on blocks of 8 points");
  alignas(8) u32 work[kBlockWork];
  hqc_m4_fafft_block_products(g, x, y, u32{1} << (K - 1 - kBlockLayers), C.tau0[kBlockLayers], kTwiddleStep.data(),
                              work);
  ct::wipe(work, sizeof(work));
}

// The sliced layers of one transform, forward (K - 1 .. 5) or inverse (5 .. K - 1), on g's blocks
// of 2 half points (2^(K-1-i) blocks in layer i), with the indices of pre (SlicedIndices) or, where
// pre is null, computed on the way: a layer's first block's from its twiddle, the others' from the
// previous block's and the twiddle step's nibbles.
template <unsigned K, const Coset& C, bool kInverse>
[[gnu::noinline, gnu::noclone]] void sliced_layers(u32* g, const SlicedIndices<K, C>* pre) {
  alignas(8) u32 table[128];
  u32 steps[kSlicedSteps<K>][64], idx[64];
  if (pre == nullptr) sliced_steps<K>(steps);
  for (unsigned n = 0; n < K - kSlicedLayers; n++) {
    const unsigned i = kInverse ? kSlicedLayers + n : K - 1 - n;
    const std::size_t half = std::size_t{1} << i, blocks = std::size_t{1} << (K - 1 - i);
    if (pre == nullptr) sliced_index<true>(idx, C.tau0[i]);
    for (std::size_t b = 0; b < blocks; b++) {
      const u32* block_idx = idx;
      if (pre != nullptr) block_idx = pre->idx[first_sliced_block(K, i) + b];
      else if (b != 0) hqc_m4_fafft_index_step(idx, idx, steps[std::countr_zero(b)]);
      const auto* bytes = reinterpret_cast<const std::uint8_t*>(block_idx);
      u32* u = g + 2 * half * b;
      if constexpr (kInverse) hqc_m4_fafft_sliced_inverse(u, half / 32, 4 * half, bytes, table);
      else hqc_m4_fafft_sliced(u, half / 32, 4 * half, bytes, table);
    }
  }
  ct::wipe(table, sizeof(table));
}

// Each chunk of 32 points between the bit-sliced form and the points (the transpose is its own
// inverse).
template <unsigned K>
void transpose_chunks(u32* g) {
  for (std::size_t w = 0; w < (std::size_t{1} << K) / 32; w++) hqc_m4_transpose32(g + 32 * w, g + 32 * w);
}

// Layers K-1 .. 0 (a one-shot product's: K-1 .. kBlockLayers): u += tau v, v += u on the halves of
// each block; g is bit-sliced on entry (encode's output) and points (or blocks' coefficients) on
// return. The encoding, decoding and FFT stay functions of their
// own (noinline): each is called once per transform, and inlined into every entry point they would
// take their code's flash several times.
template <unsigned K, const Coset& C>
[[gnu::noinline, gnu::noclone]] void fft(u32* g, const OneShot<K, C>* one_shot = nullptr) {
  static_assert(K > kSlicedLayers + 1 && kBlockLayers + 1 < kSlicedLayers);
  sliced_layers<K, C, false>(g, one_shot != nullptr ? &one_shot->indices : nullptr);
  transpose_chunks<K>(g);
  const unsigned last = one_shot != nullptr ? kBlockLayers : 0;
  for (unsigned i = kSlicedLayers; i-- > last;)
    hqc_m4_fafft_layer(g, u32{1} << i, u32{1} << (K - 1 - i), C.tau0[i], kTwiddleStep.data());
}
// g = the inverse FFT of the pointwise products x * y (g may be x or y; x and y are points, or a
// one-shot product's blocks' coefficients), bit-sliced on return (decode_full's input): layers
// 0 .. K-1, v += u, u += tau v.
template <unsigned K, const Coset& C>
[[gnu::noinline, gnu::noclone]] void ifft_product(u32* g, const u32* x, const u32* y,
                                                  const OneShot<K, C>* one_shot = nullptr) {
  static_assert(K > kSlicedLayers + 1);
  // A one-shot product's block products and layer kBlockLayers, then layers kBlockLayers + 1 ..
  // K-1; otherwise the pointwise products and layer 0 (a block per pair) in one pass, then layers
  // 1 .. K-1.
  unsigned first = 1;
  if (one_shot != nullptr) {
    block_products<K, C>(g, x, y);
    first = kBlockLayers + 1;
  } else {
    hqc_m4_fafft_pointwise_first(g, x, y, u32{1} << (K - 1), C.tau0[0], kTwiddleStep.data());
  }
  for (unsigned i = first; i < kSlicedLayers; i++)
    hqc_m4_fafft_layer_inverse(g, u32{1} << i, u32{1} << (K - 1 - i), C.tau0[i], kTwiddleStep.data());
  transpose_chunks<K>(g);
  sliced_layers<K, C, true>(g, one_shot != nullptr ? &one_shot->indices : nullptr);
}

// ---- Novel-basis conversion ---------------------------------------------------------------------

template <unsigned L>
struct Steps {
  int n = 0;
  Step s[::hqc::backend::fafft::kMaxSteps] = {};
};
template <unsigned L>
constexpr Steps<L> make_steps() {
  Steps<L> r{};
  r.n = ::hqc::backend::fafft::gen_steps(L, 1, r.s, 0);
  return r;
}
template <unsigned L>
inline constexpr Steps<L> kSteps = make_steps<L>();

// The steps on blocks of at most kUnitBits bits come last in every list (the recursion of
// plan.hpp ends on the smallest blocks), and run together on units of kUnitWords words in
// registers: each unit is loaded once, every such step applied, and stored.
inline constexpr std::size_t kUnitWords = 8;
inline constexpr std::uint32_t kUnitBits = 32 * kUnitWords;
template <unsigned L>
constexpr int first_unit_step() {
  int i = kSteps<L>.n;
  while (i > 0 && kSteps<L>.s[i - 1].block <= kUnitBits) i--;
  for (int j = 0; j < i; j++)
    if (kSteps<L>.s[j].block <= kUnitBits) return -1;  // not a tail: no plan for it
  return i;
}

// The destination bits of step s in word i of a unit (its blocks tile the unit).
constexpr u32 unit_mask(const Step& s, std::size_t i) {
  u32 m = 0;
  for (u32 bit = 0; bit < 32; bit++) {
    const u32 pos = (32 * static_cast<u32>(i) + bit) % s.block;
    if (pos >= s.dst && pos < s.dst + s.len) m |= u32{1} << bit;
  }
  return m;
}

// Step I of the list on one unit: word i gains the source bits delta above its destination bits,
// which lie in words i + q and i + q + 1 of the same unit (the block is inside the unit).
// Where every word of the unit has the same mask m, partial and within a word (the steps on blocks
// of at most 32 bits), the mask is held in a register, so that each word takes an AND with a
// shifted operand and an EOR, not three instructions. The register is set where the step runs
// (in_register: an empty volatile asm, which GCC neither folds back into an immediate nor hoists
// out of the unit loop, where the masks would be spilled to the stack).
[[gnu::always_inline]] inline u32 in_register(u32 x) {
  __asm__ volatile("" : "+r"(x));
  return x;
}
template <unsigned L, int I>
constexpr bool unit_step_shared_mask() {
  constexpr Step s = kSteps<L>.s[I];
  constexpr u32 delta = s.src - s.dst, r = delta % 32, m = unit_mask(s, 0);
  if (delta >= 32 || r == 0 || m == 0 || m == ~u32{0} || (u64{m} >> (32 - r)) != 0) return false;
  for (std::size_t i = 1; i < kUnitWords; i++)
    if (unit_mask(s, i) != m) return false;
  return true;
}
template <unsigned L, int I>
[[gnu::always_inline]] inline void unit_step(u32 (&x)[kUnitWords]) {
  constexpr Step s = kSteps<L>.s[I];
  constexpr u32 delta = s.src - s.dst, q = delta / 32, r = delta % 32;
  if constexpr (unit_step_shared_mask<L, I>()) {
    const u32 m = in_register(unit_mask(s, 0));
    static_for<kUnitWords>([&](auto i) { x[i] ^= m & (x[i] >> r); });
  } else {
    static_for<kUnitWords>([&](auto i) {
      constexpr u32 m = unit_mask(s, i);
      if constexpr (m != 0) {
        u32 v = x[i + q] >> r;
        if constexpr (r != 0 && i + q + 1 < kUnitWords) v |= x[i + q + 1] << (32 - r);
        x[i] ^= v & m;
      }
    });
  }
}

// The unit steps, forward or backward, on the units below limit.
template <unsigned L, bool kForward>
void unit_pass(Word32* w, std::size_t limit) {
  constexpr int first = first_unit_step<L>(), count = kSteps<L>.n - first;
  static_assert(first >= 0);
  const std::size_t units = (limit + kUnitBits - 1) / kUnitBits;
  for (std::size_t k = 0; k < units; k++) {
    u32 x[kUnitWords];
    for (std::size_t i = 0; i < kUnitWords; i++) x[i] = w[kUnitWords * k + i];
    static_for<count>([&](auto j) { unit_step<L, kForward ? first + j : kSteps<L>.n - 1 - j>(x); });
    for (std::size_t i = 0; i < kUnitWords; i++) w[kUnitWords * k + i] = x[i];
  }
}

// A step on blocks above kUnitBits bits over memory: for each block whose source starts below
// limit, the source bits (clipped to limit: above it every bit is zero) onto the destination, a
// destination word at a time from the two source words that cover it, the first and last words
// masked. One function for every such step (shifts by a register cost what shifts by a constant
// do; unrolled per step, the conversions took 11 KB of flash). Blocks are multiples of 32 bits, so
// every block that limit does not clip has the same word offsets and masks: one Thumb-2 call runs
// them all (hqc_m4_fafft_step_blocks, the words between the end words four per LDM/STM, or
// hqc_m4_fafft_step_words where the destination is one word). Only the block that limit cuts, if
// any, has its own offsets and takes the C++ path (`block`).
[[gnu::noinline, maybe_unused]] void memory_step(Word32* w, const Step& s, std::size_t total, std::size_t limit) {
  const std::size_t delta = s.src - s.dst, q = delta / 32;
  const unsigned r = delta % 32, rc = 32 - r;  // rc only where r != 0
  auto source = [&](const Word32* b, std::size_t i) {
    return r == 0 ? u32{b[i + q]} : u32{(b[i + q] >> r) | (b[i + q + 1] << rc)};
  };
  // One block at b: destination bits [d0, d1) of it.
  auto block = [&](Word32* b, std::size_t d0, std::size_t d1) {
    const std::size_t w0 = d0 / 32, w1 = (d1 - 1) / 32;
    const u32 head = ~u32{0} << (d0 % 32);
    const u32 tail = ~u32{0} >> ((32 - d1 % 32) % 32);
    if (w0 == w1) {
      b[w0] ^= source(b, w0) & head & tail;
      return;
    }
    b[w0] ^= source(b, w0) & head;
    const std::size_t n = w1 - w0 - 1;
    if (n != 0) {  // the source word pair slides where r != 0
      if (r == 0) hqc_m4_xor_into(b + w0 + 1, b + w0 + 1 + q, n);
      else hqc_m4_fafft_xor_shifted(b + w0 + 1, b + w0 + 1 + q, static_cast<u32>(n), r);
    }
    b[w1] ^= source(b, w1) & tail;
  };
  // The blocks whose source lies wholly below limit, then at most one that limit cuts. The former
  // share their word offsets and masks: where they span two words or more, one Thumb-2 call runs
  // them all.
  // Counted in closed form (block is a power of two, total a multiple of it): those k with
  // k block < total and k block + src + len <= limit.
  const unsigned log_block = static_cast<unsigned>(std::countr_zero(s.block));
  const std::size_t below_limit = limit >= s.src + s.len ? ((limit - s.src - s.len) >> log_block) + 1 : 0;
  const std::size_t whole = std::min<std::size_t>(total >> log_block, below_limit);
  const std::size_t d1 = s.dst + s.len, w0 = s.dst / 32, w1 = (d1 - 1) / 32;
  const u32 head = ~u32{0} << (s.dst % 32), tail = ~u32{0} >> ((32 - d1 % 32) % 32);
  if (whole != 0 && w0 != w1) {
    const u32 run[8] = {static_cast<u32>(w0), static_cast<u32>(w1 - w0 - 1), static_cast<u32>(q), r, head, tail,
                        s.block / 32,         static_cast<u32>(whole)};
    hqc_m4_fafft_step_blocks(w, run);
  } else if (whole != 0) {
    const u32 run[6] = {static_cast<u32>(w0), static_cast<u32>(q), r,
                        head & tail,          s.block / 32,        static_cast<u32>(whole)};
    hqc_m4_fafft_step_words(w, run);
  }
  const std::size_t base = whole * s.block;
  if (base < total && base + s.src < limit) block(w + base / 32, s.dst, s.dst + (limit - base - s.src));
}

// The memory steps of a list (those before first_unit_step) are the only steps read at run time
// (the unit steps are compiled into unit_pass). Stored packed, 8 bytes a step: log2 of the block
// and 18 bits each for dst, src and len (all below 2^18), 0.6 KB of flash per list instead of 1.2.
constexpr u64 pack(const Step& s) {
  return u64{static_cast<u32>(std::countr_zero(s.block))} | u64{s.dst} << 5 | u64{s.src} << 23 | u64{s.len} << 41;
}
constexpr Step unpack(u64 v) {
  constexpr u64 m = (u64{1} << 18) - 1;
  return Step{u32{1} << (v & 31), static_cast<u32>((v >> 5) & m), static_cast<u32>((v >> 23) & m),
              static_cast<u32>((v >> 41) & m)};
}
template <unsigned L>
constexpr auto make_memory_steps() {
  std::array<u64, first_unit_step<L>()> m{};
  for (std::size_t i = 0; i < m.size(); i++) m[i] = pack(kSteps<L>.s[i]);
  return m;
}
template <unsigned L>
constexpr bool steps_pack() {
  for (int i = 0; i < first_unit_step<L>(); i++) {
    const Step s = kSteps<L>.s[i], u = unpack(pack(s));
    if (u.block != s.block || u.dst != s.dst || u.src != s.src || u.len != s.len) return false;
  }
  return true;
}
template <unsigned L>
inline constexpr auto kMemorySteps = make_memory_steps<L>();
template <unsigned L>
inline constexpr bool kStepsPack = steps_pack<L>();

// The conversion of 2^L bits whose bits >= limit are zero (to_novel), and back (from_novel: the
// same steps in reverse order, each its own inverse).
template <unsigned L>
void to_novel(Word32* w, std::size_t limit) {
  static_assert(kStepsPack<L>, "every memory step must survive packing");
  constexpr int first = first_unit_step<L>();
  constexpr std::size_t total = std::size_t{1} << L;
  for (int i = 0; i < first; i++) memory_step(w, unpack(kMemorySteps<L>[i]), total, limit);
  unit_pass<L, true>(w, limit);
}
template <unsigned L>
void from_novel(Word32* w, std::size_t limit) {
  static_assert(kStepsPack<L>, "every memory step must survive packing");
  constexpr int first = first_unit_step<L>();
  constexpr std::size_t total = std::size_t{1} << L;
  unit_pass<L, false>(w, limit);
  for (int i = first; i-- > 0;) memory_step(w, unpack(kMemorySteps<L>[i]), total, limit);
}

// ---- The parts of the composition ---------------------------------------------------------------

struct Parts {
  static constexpr unsigned kLogElementBits = 5;  // GF(2^32)
  template <unsigned L>
  static void to_novel(u64* w, std::size_t limit) {
    fafft::to_novel<L>(reinterpret_cast<Word32*>(w), limit);
  }
  template <unsigned L>
  static void from_novel(u64* w, std::size_t limit) {
    fafft::from_novel<L>(reinterpret_cast<Word32*>(w), limit);
  }
  // The input has 2^(K+4) bits: rows 0 .. 15.
  template <unsigned K>
  static void encode_half(u64* t, const u64* bits) {
    fafft::encode<K, kStandardCoset<K>, 16>(reinterpret_cast<Word32*>(t), reinterpret_cast<const Word32*>(bits));
  }
  template <unsigned K, unsigned kProductRows>
  static u64* decode_full(const u64* t, u64* tmp) {
    fafft::decode_full<K, kStandardCoset<K>, kProductRows>(reinterpret_cast<Word32*>(tmp),
                                                           reinterpret_cast<const Word32*>(t));
    return tmp;
  }
  // one_shot: a one-shot product's (OneShot), or null: a transform that may be kept.
  template <unsigned K>
  static void fft(u64* g, const OneShot<K, kStandardCoset<K>>* one_shot = nullptr) {
    fafft::fft<K, kStandardCoset<K>>(reinterpret_cast<Word32*>(g), one_shot);
  }
  template <unsigned K>
  static void ifft_product(u64* g, const u64* x, const u64* y,
                           const OneShot<K, kStandardCoset<K>>* one_shot = nullptr) {
    fafft::ifft_product<K, kStandardCoset<K>>(reinterpret_cast<Word32*>(g), reinterpret_cast<const Word32*>(x),
                                              reinterpret_cast<const Word32*>(y), one_shot);
  }
  template <class P>
  static void reduce_out(u64* out, const u64* c) {
    fold_product<P>(out, reinterpret_cast<const Word32*>(c));
  }
  static void wipe(void* p, std::size_t len) { ct::wipe(p, len); }
  // The ring product's word moves (poly_m4.S: LDM/STM, eight words at a time); lengths are whole
  // words here, and the buffers of a copy do not overlap.
  static void copy(void* dst, const void* src, std::size_t len) { hqc_m4_poly_mul_copy(dst, src, len / 4); }
  static void zero(void* p, std::size_t len) { hqc_m4_poly_mul_zero(p, len / 4); }
};
using Entry = ::hqc::backend::fafft::EntryPoints<Parts>;

// ---- HQC-1 and HQC-3: a half-size transform and the Chinese remainder theorem --------------------
//
// The product c = a b has 2n - 1 bits: 35,337 at HQC-1 and 71,701 at HQC-3, 54-55 % of a 2^m-bit
// transform. The transform of 2^L bits, L = m - 1 (K = L - 5), on a coset c0 + W_K gives c mod M
// instead, where M is the polynomial whose roots are the 2^L points and their conjugates,
// M = mu(s_K(x)) with mu the minimal polynomial of delta = s_K(c0) over GF(2) (degree 32: every
// orbit has 32 points). M is monic of degree 2^L; c = (c mod M) + M q with q = c div M of
// 2n - 1 - 2^L bits (2,569 at HQC-1, 6,165 at HQC-3). The coset is chosen, by an exhaustive search
// of the minimal polynomials of degree 32 with a root in s_K(GF(2^32)) = W_(32-K) (63,488 at
// K = 11, 126,976 at K = 10), so that M is sparse (85 terms at K = 10, 199 at K = 11; the sparsest)
// and has no term within 8,192 (K = 10) or 12,288 (K = 11) of its top, so that the top bits of c are
// q itself. Those come from the operands' top bits alone (every other pair of terms lands below
// 2^L): the transform also keeps its operand's top bits, and their product by the Toom/Karatsuba
// tree gives q (81 words at HQC-1, 193 at HQC-3). Then c = (c mod M) + x^(2^L) q + (M - x^(2^L)) q,
// and c mod x^n - 1.
namespace crt {

// s_11 or s_10 of the coset's offset (the search's choice).
template <unsigned K>
inline constexpr u32 kDelta = K == 11   ? 0x0182FAC9u
                              : K == 10 ? 0x087AC5A5u
                                        : 0;
// The terms of M below x^(2^L), as the search counted them.
template <unsigned K>
inline constexpr std::size_t kExpectedLowTerms = K == 11   ? 198
                                                 : K == 10 ? 84
                                                           : 0;

constexpr u32 frobenius(u32 y, unsigned t) {
  for (; t > 0; t--) y = gf_mul(y, y);
  return y;
}
template <unsigned K>
constexpr bool delta_fits() {
  return kDelta<K> != 0 && subspace_poly(kDelta<K>, 32 - K) == 0  // delta in W_(32-K) = s_K(GF(2^32))
         && frobenius(kDelta<K>, 16) != kDelta<K>;                // degree 32 (its degree divides 32)
}

// An offset c0 with s_K(c0) = delta: K solutions of y^2 + y = v (each v lies in W_(32-k), the image
// of s_k, and both solutions do too, as 1 = beta_0 is in every W_i).
template <unsigned K>
constexpr u32 make_offset() {
  const auto solver = field32::make_solver<PolyField>();
  u32 c = kDelta<K>;
  for (unsigned k = 0; k < K; k++) c = solver.solve(c);
  return c;
}
template <unsigned K>
constexpr Coset make_coset() {
  static_assert(delta_fits<K>(), "delta must lie in W_(32-K) and have degree 32");
  constexpr u32 offset = make_offset<K>();
  static_assert(subspace_poly(offset, K) == kDelta<K>);
  Coset c{kDelta<K>, {}};
  for (unsigned i = 0; i < 32; i++) c.tau0[i] = subspace_poly(offset, i);
  return c;
}

// The minimal polynomial of delta: prod_t (y + delta^(2^t)), coefficients in GF(2) (bit j of the
// result is that of y^j; 0 if a coefficient is not binary).
constexpr u64 minimal_polynomial(u32 delta) {
  u32 p[33] = {1};
  u32 root = delta;
  for (unsigned t = 0; t < 32; t++, root = gf_mul(root, root)) {
    for (unsigned i = t + 1; i > 0; i--) p[i] = p[i - 1] ^ gf_mul(p[i], root);
    p[0] = gf_mul(p[0], root);
  }
  u64 m = 0;
  for (unsigned j = 0; j <= 32; j++) {
    if (p[j] > 1) return 0;
    m |= u64{p[j]} << j;
  }
  return m;
}

// M = mu(s_K(x)) as bits, by Horner in s_K(x) = sum of x^(2^j) over the j whose bits lie in K's
// (s_11 = x^2048 + x^1024 + x^512 + x^256 + x^8 + x^4 + x^2 + x, s_10 = x^1024 + x^256 + x^4 + x),
// computed by the compiler.
template <unsigned K>
struct Bits {
  static constexpr std::size_t kWords = (std::size_t{1} << (K + 5)) / 64 + 2;
  u64 w[kWords];
};
template <unsigned K>
constexpr Bits<K> make_modulus() {
  constexpr u64 mu = minimal_polynomial(kDelta<K>);
  static_assert(mu >> 32 == 1, "the minimal polynomial must be binary of degree 32");
  constexpr std::size_t n = Bits<K>::kWords;
  Bits<K> acc{};
  acc.w[0] = 1;  // the leading coefficient of mu
  for (int j = 31; j >= 0; j--) {
    Bits<K> next{};
    for (unsigned b = 0; b <= K; b++) {
      if ((b & K) != b) continue;
      const std::size_t e = std::size_t{1} << b, q = e / 64;
      const unsigned r = e % 64;
      for (std::size_t i = 0; i + q < n; i++) {
        next.w[i + q] ^= acc.w[i] << r;
        if (r != 0 && i + q + 1 < n) next.w[i + q + 1] ^= acc.w[i] >> (64 - r);
      }
    }
    next.w[0] ^= (mu >> j) & 1;
    acc = next;
  }
  return acc;
}
template <unsigned K>
inline constexpr Bits<K> kModulus = make_modulus<K>();
template <unsigned K>
constexpr bool modulus_bit(std::size_t e) {
  return (kModulus<K>.w[e / 64] >> (e % 64)) & 1;
}
template <unsigned K>
constexpr std::size_t count_low_terms() {
  std::size_t c = 0;
  for (std::size_t e = 0; e < (std::size_t{1} << (K + 5)); e++) c += modulus_bit<K>(e);
  return c;
}
template <unsigned K>
constexpr std::size_t top_low_term() {
  std::size_t e = (std::size_t{1} << (K + 5)) - 1;
  while (!modulus_bit<K>(e)) e--;
  return e;
}
template <unsigned K>
constexpr bool monic_of_degree() {
  constexpr std::size_t n = Bits<K>::kWords;
  return modulus_bit<K>(std::size_t{1} << (K + 5)) && kModulus<K>.w[n - 1] == 0 && (kModulus<K>.w[n - 2] >> 1) == 0;
}

// The terms of M below x^(2^L), ordered by their shift within a word (e mod 32), then by e: each
// shift of q is made once, and every term with that shift adds it at a whole-word offset.
template <unsigned K>
struct Terms {
  static constexpr std::size_t kCount = kExpectedLowTerms<K>;
  std::array<std::uint16_t, kCount> e{};
  std::array<std::uint16_t, 33> start{};  // the terms with shift r are e[start[r] .. start[r + 1])
};
template <unsigned K>
constexpr Terms<K> make_terms() {
  static_assert(monic_of_degree<K>(), "M is monic of degree 2^L");
  static_assert(count_low_terms<K>() == kExpectedLowTerms<K>, "M has the terms the search found");
  Terms<K> t{};
  std::size_t k = 0;
  for (unsigned r = 0; r < 32; r++) {
    t.start[r] = static_cast<std::uint16_t>(k);
    for (std::size_t e = r; e < (std::size_t{1} << (K + 5)); e += 32)
      if (modulus_bit<K>(e)) t.e[k++] = static_cast<std::uint16_t>(e);
  }
  t.start[32] = static_cast<std::uint16_t>(k);
  return t;
}
template <unsigned K>
inline constexpr Terms<K> kTerms = make_terms<K>();
template <unsigned K>
inline constexpr Coset kCoset = make_coset<K>();

}  // namespace crt

// The CRT form of the transform multiplier for a parameter set P whose product fills 54-55 % of
// its 2^m bits (HQC-1, HQC-3): a transform is the 2^K points (words 0 .. 2^K) and the top kQBits
// bits of the operand (kHiWords words after them): the contract's backend::kTransformWords<P> words
// (backend/ops.hpp, which gives a device build's transforms this size), the rest zero.
template <class P>
struct CrtEntry {
  static constexpr unsigned kLog = ::hqc::backend::fafft::kLogProduct<P> - 1, kK = kLog - 5;
  static constexpr std::size_t kPoints = std::size_t{1} << kK;
  static constexpr const Coset& kC = crt::kCoset<kK>;
  static constexpr const auto& kTermList = crt::kTerms<kK>;
  static constexpr std::size_t kLowBits = std::size_t{1} << kLog;
  static constexpr std::size_t kQBits = 2 * P::kN - 1 - kLowBits;  // bits of q = c div M
  static constexpr std::size_t kHiShift = kLowBits - (P::kN - 1);  // a's bits from here meet b's in c's top
  static constexpr std::size_t kHiWords = (kQBits + 31) / 32;
  static constexpr std::size_t kRows = (P::kN + (std::size_t{1} << kK) - 1) >> kK;  // of 2^K bits
  static constexpr std::size_t kCWords = 2 * ((P::kN + 31) / 32) + 2;  // the product, as fold_product reads it
  static_assert(kLowBits < 2 * P::kN - 1 && 2 * P::kN - 1 <= 2 * kLowBits && kRows <= 32);
  static_assert(crt::top_low_term<kK>() + kQBits <= kLowBits,
                "q must be the top bits of c (no term of M near its top)");
  static_assert((kPoints + kHiWords + 15) / 16 * 8 == backend::kTransformWords<P>,
                "a transform has the contract's size (points and top words, in whole 64-byte lines)");
  static_assert(kHiShift / 32 + kHiWords + 1 <= 2 * P::kNWords, "the top bits are read inside the operand");
  static_assert(kCWords >= kLowBits / 32 + kHiWords);
  static_assert(kHiWords == kCrtTopWords<P>, "the tree's plan lists this size (ring_mul_m4.hpp)");

  using OneShotState = OneShot<kK, crt::kCoset<kK>>;

  [[gnu::noinline, gnu::noclone]] static void forward(u64* t, const u64* a, const OneShotState* one_shot = nullptr) {
    auto* t32 = reinterpret_cast<Word32*>(t);
    const auto* a32 = reinterpret_cast<const Word32*>(a);
    alignas(8) Word32 bits[kLowBits / 32 + kUnitWords];
    Parts::copy(bits, a, P::kNWords * sizeof(u64));
    Parts::zero(bits + 2 * P::kNWords, sizeof(bits) - P::kNWords * sizeof(u64));
    fafft::to_novel<kLog>(bits, P::kN);
    encode<kK, kC, kRows>(t32, bits);
    fft<kK, kC>(t32, one_shot);
    // The operand's bits kHiShift .. n - 1 (its bits from n on are zero).
    constexpr std::size_t q = kHiShift / 32;
    constexpr unsigned r = kHiShift % 32;
    static_assert(r != 0);
    for (std::size_t i = 0; i < kHiWords; i++) t32[kPoints + i] = (a32[q + i] >> r) | (a32[q + i + 1] << (32 - r));
    for (std::size_t i = kPoints + kHiWords; i < 2 * backend::kTransformWords<P>; i++)
      t32[i] = 0;  // the tail too: a transform's bytes depend on its operand only
    Parts::wipe(bits, sizeof(bits));
  }

  static void mul_transformed(u64* out, const u64* ta, const u64* tb) {
    alignas(8) Word32 work[kPoints];
    multiply(out, work, reinterpret_cast<const Word32*>(ta), reinterpret_cast<const Word32*>(tb));
    Parts::wipe(work, sizeof(work));
  }

  // a b by 2 F + IP, one-shot (OneShot): the three transforms share their sliced layers' indices.
  static void mul(u64* out, const u64* a, const u64* b) {
    const OneShotState one_shot;
    alignas(8) u64 ta[backend::kTransformWords<P>];
    forward(ta, a, &one_shot);
    mul_transformed_plain(out, ta, b, &one_shot);
    Parts::wipe(ta, sizeof(ta));
  }

  // b transformed once for both products, one-shot: the five transforms share their sliced layers'
  // indices.
  static void mul2(u64* out1, u64* out2, const u64* a1, const u64* a2, const u64* b) {
    const OneShotState one_shot;
    alignas(8) u64 tb[backend::kTransformWords<P>];
    forward(tb, b, &one_shot);
    mul_transformed_plain(out1, tb, a1, &one_shot);
    mul_transformed_plain(out2, tb, a2, &one_shot);
    Parts::wipe(tb, sizeof(tb));
  }

  // The transform of b in this frame, and its points as the product's work space (the inverse FFT
  // runs in place): the stack holds one transform and the product, not three.
  static void mul_transformed_plain(u64* out, const u64* ta, const u64* b, const OneShotState* one_shot = nullptr) {
    alignas(8) u64 tb[backend::kTransformWords<P>];
    forward(tb, b, one_shot);
    auto* tb32 = reinterpret_cast<Word32*>(tb);
    multiply(out, tb32, reinterpret_cast<const Word32*>(ta), tb32, one_shot);
    Parts::wipe(tb, sizeof(tb));
  }

 private:
  // out = a b mod x^n - 1 from the transforms; work (kPoints words) may be tb's points, which it
  // overwrites. The caller wipes work.
  [[gnu::noinline, gnu::noclone]] static void multiply(u64* out, Word32* work, const Word32* ta, const Word32* tb,
                                                       const OneShotState* one_shot = nullptr) {
    alignas(8) Word32 c[kCWords];
    ifft_product<kK, kC>(work, ta, tb, one_shot);
    decode_full<kK, kC>(c, work);  // c mod M: words 0 .. 2^K
    fafft::from_novel<kLog>(c, kLowBits);
    alignas(8) Word32 q[kHiWords];
    top_quotient(q, ta + kPoints, tb + kPoints, work);  // work's points are spent
    Parts::zero(c + kLowBits / 32, (kCWords - kLowBits / 32) * sizeof(Word32));
    add_low_terms(c, q);
    hqc_m4_xor_into(c + kLowBits / 32, q, kHiWords);  // x^(2^16) q
    fold_product<P>(out, c);
    Parts::wipe(q, sizeof(q));
    Parts::wipe(c, sizeof(c));
  }

  // q = the top kQBits bits of c: bits kQBits - 1 .. 2 kQBits - 2 of a_hi b_hi (a_hi, b_hi start at
  // bit kHiShift, their product at 2 kHiShift = 2^16 - (kQBits - 1)), that is from word N - 1 of
  // the product on (N = kHiWords): the short product of ring_mul_m4.hpp (kShortSplit) where it is
  // cheaper than the whole one. space: the products, the padded operand and the tree's scratch
  // (kPoints words, left for the caller to wipe).
  static void top_quotient(Word32* q, const Word32* a_hi, const Word32* b_hi, Word32* space) {
    constexpr std::size_t N = kHiWords, k = kShortSplit<N>;
    Word32* prod = space;
    if constexpr (k == 0) {
      static_assert(2 * N + poly_mul_scratch_words(N) <= kPoints);
      poly_mul(prod, a_hi, b_hi, N, space + 2 * N);
    } else {
      static_assert(2 * k + 1 <= N);
      Word32* cross = prod + 2 * N;          // 2 (k + 1) words
      Word32* padded = cross + 2 * (k + 1);  // k + 1 words
      Word32* scratch = padded + (k + 1);
      static_assert(2 * N + 3 * (k + 1) + std::max(poly_mul_scratch_words(N - k), poly_mul_scratch_words(k + 1)) <=
                    kPoints);
      // a1 b1 at word 2k (words 2k .. 2N; below 2k nothing is read).
      poly_mul(prod + 2 * k, a_hi + k, b_hi + k, N - k, scratch);
      // The top k + 1 words of one operand times the low k of the other, padded; their words from
      // N - 1 on (the cross product's from k on) into prod.
      for (const bool a_top : {true, false}) {
        Parts::copy(padded, a_top ? b_hi : a_hi, k * sizeof(Word32));
        padded[k] = 0;
        poly_mul(cross, (a_top ? a_hi : b_hi) + (N - 1 - k), padded, k + 1, scratch);
        hqc_m4_xor_into(prod + (N - 1), cross + k, k + 2);
      }
    }
    constexpr std::size_t w = (kQBits - 1) / 32;
    constexpr unsigned r = (kQBits - 1) % 32;
    static_assert(r != 0 && w == N - 1, "q starts in word N - 1 of the product, which the short product gives");
    for (std::size_t i = 0; i < kHiWords; i++) q[i] = (prod[w + i] >> r) | (prod[w + i + 1] << (32 - r));
  }
  // c += (M - x^(2^16)) q: for each shift r within a word, q << r once, then an aligned XOR per
  // term with that shift, four terms (or two) a pass that loads the shifted words once
  // (hqc_m4_xor_into_four, _two; at most one term of a shift alone). The shifted copy is padded
  // with zeros to whole quads, whose XOR stays inside c. The terms are constants (public).
  static constexpr std::size_t kShiftedQuads = (kHiWords + 1 + 3) / 4;
  static_assert(crt::top_low_term<kK>() / 32 + 4 * kShiftedQuads <= kCWords, "the padded XORs stay inside c");
  static void add_low_terms(Word32* c, const Word32* q) {
    alignas(8) Word32 shifted[4 * kShiftedQuads];
    Parts::zero(shifted, sizeof(shifted));
    for (unsigned r = 0; r < 32; r++) {
      std::size_t k = kTermList.start[r];
      const std::size_t last = kTermList.start[r + 1];
      if (k == last) continue;
      // r = 0 comes first, so shifted[kHiWords] is still zero there; a shift writes kHiWords + 1 words.
      if (r == 0) Parts::copy(shifted, q, kHiWords * sizeof(Word32));
      else hqc_m4_shift_words_left(shifted, q, kHiWords, r);
      for (; k + 4 <= last; k += 4) {
        Word32* const dst[4] = {c + kTermList.e[k] / 32, c + kTermList.e[k + 1] / 32, c + kTermList.e[k + 2] / 32,
                                c + kTermList.e[k + 3] / 32};
        hqc_m4_xor_into_four(dst, shifted, kShiftedQuads);
      }
      if (k + 2 <= last) {
        hqc_m4_xor_into_two(c + kTermList.e[k] / 32, c + kTermList.e[k + 1] / 32, shifted, kShiftedQuads);
        k += 2;
      }
      if (k < last) hqc_m4_xor_into(c + kTermList.e[k] / 32, shifted, kHiWords + 1);
    }
    Parts::wipe(shifted, sizeof(shifted));
  }
};

}  // namespace

template <class P>
void forward(std::uint64_t* t, const std::uint64_t* a) {
  Entry::forward<P>(t, a);
}
template <class P>
void mul_transformed(std::uint64_t* out, const std::uint64_t* ta, const std::uint64_t* tb) {
  Entry::mul_transformed<P>(out, ta, tb);
}
template <class P>
void mul_transformed_plain(std::uint64_t* out, const std::uint64_t* ta, const std::uint64_t* b) {
  Entry::mul_transformed_plain<P>(out, ta, b);
}

template <class P>
void forward_crt(std::uint64_t* t, const std::uint64_t* a) {
  CrtEntry<P>::forward(t, a);
}
template <class P>
void mul_transformed_crt(std::uint64_t* out, const std::uint64_t* ta, const std::uint64_t* tb) {
  CrtEntry<P>::mul_transformed(out, ta, tb);
}
template <class P>
void mul_transformed_plain_crt(std::uint64_t* out, const std::uint64_t* ta, const std::uint64_t* b) {
  CrtEntry<P>::mul_transformed_plain(out, ta, b);
}
template <class P>
void mul_crt(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b) {
  CrtEntry<P>::mul(out, a, b);
}
template <class P>
void mul2_crt(std::uint64_t* out1, std::uint64_t* out2, const std::uint64_t* a1, const std::uint64_t* a2,
              const std::uint64_t* b) {
  CrtEntry<P>::mul2(out1, out2, a1, a2, b);
}
#define HQC_M4_FAFFT_CRT_INSTANTIATE(P)                                                                   \
  template void forward_crt<P>(std::uint64_t*, const std::uint64_t*);                                     \
  template void mul_transformed_crt<P>(std::uint64_t*, const std::uint64_t*, const std::uint64_t*);       \
  template void mul_transformed_plain_crt<P>(std::uint64_t*, const std::uint64_t*, const std::uint64_t*); \
  template void mul_crt<P>(std::uint64_t*, const std::uint64_t*, const std::uint64_t*);                   \
  template void mul2_crt<P>(std::uint64_t*, std::uint64_t*, const std::uint64_t*, const std::uint64_t*,   \
                            const std::uint64_t*);
#if HQC_ONLY_LEVEL == 0 || HQC_ONLY_LEVEL == 1
HQC_M4_FAFFT_CRT_INSTANTIATE(Hqc1)
#endif
#if HQC_ONLY_LEVEL == 0 || HQC_ONLY_LEVEL == 3
HQC_M4_FAFFT_CRT_INSTANTIATE(Hqc3)
#endif
#undef HQC_M4_FAFFT_CRT_INSTANTIATE

// The one-shot products on the whole 2^m bits (HQC-5's mul and mul2), as CrtEntry's at HQC-1 and
// HQC-3: the sliced layers' indices computed once for their three or five transforms
// (SlicedIndices: 31.8 KiB of stack at K = 12), the transforms stopped before the block products.
template <class P>
using WholeOneShot = OneShot<Entry::kPoints<P>, kStandardCoset<Entry::kPoints<P>>>;
template <class P>
void mul(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b) {
  const WholeOneShot<P> one_shot;
  Entry::mul<P>(out, a, b, &one_shot);
}
template <class P>
void mul2(std::uint64_t* out1, std::uint64_t* out2, const std::uint64_t* a1, const std::uint64_t* a2,
          const std::uint64_t* b) {
  const WholeOneShot<P> one_shot;
  Entry::mul2<P>(out1, out2, a1, a2, b, &one_shot);
}

#define HQC_M4_FAFFT_INSTANTIATE(P)                                                                   \
  template void forward<P>(std::uint64_t*, const std::uint64_t*);                                     \
  template void mul_transformed<P>(std::uint64_t*, const std::uint64_t*, const std::uint64_t*);       \
  template void mul_transformed_plain<P>(std::uint64_t*, const std::uint64_t*, const std::uint64_t*); \
  template void mul<P>(std::uint64_t*, const std::uint64_t*, const std::uint64_t*);                   \
  template void mul2<P>(std::uint64_t*, std::uint64_t*, const std::uint64_t*, const std::uint64_t*,   \
                        const std::uint64_t*);
// The m4 row uses the 2^m-bit FAFFT at HQC-5 only (backend.cpp; HQC-1 and HQC-3 take the CRT form
// above). The library of all three levels (the test and benchmark images) has it at HQC-1 and
// HQC-3 too, so that the conformance tests check it and the benchmark measures it there: the
// choice per level is made on measurements (docs/M4.md). A single-level library of HQC-1 or HQC-3
// has none of it.
#if HQC_ONLY_LEVEL == 0
HQC_M4_FAFFT_INSTANTIATE(Hqc1)
HQC_M4_FAFFT_INSTANTIATE(Hqc3)
#endif
#if HQC_ONLY_LEVEL == 0 || HQC_ONLY_LEVEL == 5
HQC_M4_FAFFT_INSTANTIATE(Hqc5)
#endif
#undef HQC_M4_FAFFT_INSTANTIATE

}  // namespace hqc::backend::m4::fafft
