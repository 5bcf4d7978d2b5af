// The polynomial product of the Cortex-M4 ring multiplication (spec §2.2), over 32-bit words.
//
// Large sizes: Toom-3 with the evaluation points 0, 1, t, t + 1 and infinity, where t = x^32 is
// one word, so that evaluating at t and t + 1 only shifts by words and the exact divisions of the
// interpolation are a word shift (by t) and a running XOR over the words (by t + 1). Five products
// of about n/3 words replace the nine of two Karatsuba levels on n/4 words; on the M4, where a
// 32x32 carry-less product costs about 54 cycles, the extra linear work is cheap in comparison.
// The same Toom-3 at t = x^16 (toom3<true>) evaluates at t and t + 1 on m + 1 words instead of
// m + 2, for a few more cycles a word of linear work: the plan takes it where those two products
// would otherwise cross a leaf size (189 = 3 x 63: five 64-word leaves).
// Toom-4 (toom4 below) goes one step further at the largest sizes: seven products of about n/4
// words, at the points 0, 1, t, t + 1, 1/t, 1/(t + 1) and infinity.
// Karatsuba with the one-pass middle term (and a second pass when the parts differ by more than
// a word), three-way Karatsuba (six products of n/3 words) where n/3 is a leaf size, down to the
// Thumb-2 leaves of clmul_m4.S (1, 2, 4, 8, 12, 16, 24, 32 and 64 words). Which split each
// size takes, and whether it is computed at a larger zero-padded size, is kPlan's
// (ring_mul_m4.hpp): padding a + x^(32n) 0 leaves the product's low 2n words unchanged and its
// words from 2n on zero (spec §2.2: a product over GF(2)[x], no carries). Sizes, splits and loop
// bounds depend on n only.
#include "backend/m4/ring_mul_m4.hpp"

#include <array>
#include <utility>

#include "common/ct.hpp"

// The leaves (clmul_m4.S): out[0 .. 2k) = a[0 .. k) * b[0 .. k) for k = 1, 2, 4, 8, 16, 32, 64
// words (Karatsuba) and 12, 24 (three-way Karatsuba on the four- and eight-word products).
extern "C" void hqc_m4_clmul32(void* out, const void* a, const void* b);
extern "C" void hqc_m4_clmul64(void* out, const void* a, const void* b);
extern "C" void hqc_m4_clmul128(void* out, const void* a, const void* b);
extern "C" void hqc_m4_clmul256(void* out, const void* a, const void* b);
extern "C" void hqc_m4_clmul512(void* out, const void* a, const void* b);
extern "C" void hqc_m4_clmul1024(void* out, const void* a, const void* b);
extern "C" void hqc_m4_clmul2048(void* out, const void* a, const void* b);
extern "C" void hqc_m4_clmul384(void* out, const void* a, const void* b);
extern "C" void hqc_m4_clmul768(void* out, const void* a, const void* b);
// The linear passes (poly_m4.S): dst = x + y, dst += src, and the Karatsuba middle term.
extern "C" void hqc_m4_xor3(void* dst, const void* x, const void* y, std::size_t len);
extern "C" void hqc_m4_xor_into(void* dst, const void* src, std::size_t len);
// dst = x + y + z in one pass; dst may be x, and z may lie ahead of dst in the same buffer.
extern "C" void hqc_m4_xor4(void* dst, const void* x, const void* y, const void* z, std::size_t len);
extern "C" void hqc_m4_kara_mid(void* out, const void* z1, std::size_t lo);
// The interpolation of the three-way Karatsuba step (poly_m4.S; karatsuba3 below).
extern "C" void hqc_m4_karatsuba3_interp(void* out, const void* p01, const void* p02, const void* p12, std::size_t k);
// dst = src, dst = 0 (poly_m4.S).
extern "C" void hqc_m4_poly_mul_copy(void* dst, const void* src, std::size_t len);
extern "C" void hqc_m4_poly_mul_zero(void* dst, std::size_t len);
// The bodies of Toom-3's two interpolation passes (poly_m4.S).
extern "C" std::uint32_t hqc_m4_toom_pass1(void* w1, void* wt, void* wu, const void* c0, const void* c4,
                                           std::size_t len, std::uint32_t q);
extern "C" void hqc_m4_toom_pass2(const void* w1, const void* vt, const void* wu, void* out, std::size_t m,
                                  std::uint32_t ctl[4]);

// The bodies of toom3's evaluations at 1, t and t + 1 in one pass, at t = x^32 and x^16
// (poly_m4.S; toom3_evaluate below).
extern "C" void hqc_m4_toom3_eval3(void* e1, void* et, void* eu, const void* x0, std::size_t m, std::size_t len);
extern "C" void hqc_m4_toom3h_eval3(void* e1, void* et, void* eu, const void* x0, std::size_t m, std::size_t rem);
// The bodies of the two interpolation passes of toom3<true> (poly_m4.S).
extern "C" std::uint32_t hqc_m4_toom3h_pass1(void* w1, void* wt, void* wu, const void* c0, const void* c4,
                                             std::size_t len, std::uint32_t q);
// The second pass at t = x^16: steps[0] steps with c2 and c3 stored, then steps[1] with both
// added, then steps[2] with c2 added and c3 left out.
extern "C" void hqc_m4_toom3h_pass2(const void* w1, const void* wt, const void* wu, void* out, std::size_t m,
                                    const std::uint32_t steps[3], std::uint32_t state[4]);

// The Toom-4 passes (toom4_m4.S; toom4 below).
extern "C" void hqc_m4_toom4_eval2(void* e1, void* e2, const void* p0, const void* p1, const void* p2, const void* p3,
                                   std::size_t m);
extern "C" void hqc_m4_toom4_pass_a1(void* w1, void* wt, void* wr, const void* c0, const void* c6, std::size_t len);
extern "C" void hqc_m4_toom4_pass_a2(void* wu, void* ws, const void* c0, const void* c6, std::size_t len);
extern "C" void hqc_m4_toom4_pass_b(const void* w1, void* rt, void* wu, void* rr, void* ws, std::size_t len);
extern "C" void hqc_m4_toom4_pass_c(const void* wu, void* ws, void* rr, void* w1, void* rt, std::size_t len);
extern "C" void hqc_m4_toom4_pass_d(void* wu, const void* w1, const void* rt, void* ws, std::size_t len);

namespace hqc::backend::m4 {
namespace {

using Word = Word32;

void poly_mul_split(Word* out, const Word* a, const Word* b, std::size_t at, Word* scratch);
void poly_mul_padded(Word* out, const Word* a, const Word* b, std::size_t at, Word* scratch);
void poly_mul_padded_in_place(Word* out, const Word* a, const Word* b, std::size_t at, Word* scratch);

// The leaf routine of each size (clmul_m4.S), nullptr where there is none; the plan gives kLeaf
// to these sizes only (every other size n >= 2 has a Karatsuba candidate), which the
// static_assert checks. Compile time only: run time reads kLeafAt.
using LeafFn = void (*)(void*, const void*, const void*);
inline constexpr std::size_t kLeafMax = 64;
constexpr std::array<LeafFn, kLeafMax + 1> make_leaves() {
  std::array<LeafFn, kLeafMax + 1> t{};
  t[1] = &hqc_m4_clmul32;
  t[2] = &hqc_m4_clmul64;
  t[4] = &hqc_m4_clmul128;
  t[8] = &hqc_m4_clmul256;
  t[12] = &hqc_m4_clmul384;
  t[16] = &hqc_m4_clmul512;
  t[24] = &hqc_m4_clmul768;
  t[32] = &hqc_m4_clmul1024;
  t[64] = &hqc_m4_clmul2048;
  return t;
}
inline constexpr std::array<LeafFn, kLeafMax + 1> kLeaves = make_leaves();
constexpr bool leaves_match_plan() {
  for (std::size_t n = 1; n < kMaxPlanWords; n++)
    if ((kFullPlan.step[n].how == Split::kLeaf) != (n <= kLeafMax && kLeaves[n] != nullptr)) return false;
  return true;
}
static_assert(leaves_match_plan());
// toom3 keeps A(1) and B(1) in C(t)'s buffer (2 s2 words) until C(1) is computed, which needs
// s1 <= s2 for every Toom-3 entry of the plan; toom3 computes c0 at its padded size straight into
// out (sub_mul_first), which needs 2 pad <= 2n, and toom4 into its interpolation buffer of
// 2m + 6 words, which needs 2 pad <= 2m + 6; toom3's evaluation at x^16 and its first pass start
// their Thumb-2 passes at word 0, which needs c4's 2 rem words to reach past t^4 (2 rem > 2 words at
// x^16, 4 at x^32); toom4's evaluations need parts of m >= 6 words.
constexpr bool toom_buffers_fit() {
  for (const Step& st : kPlan) {
    const bool toom3 = st.how == Split::kToom3 || st.how == Split::kToom3Half;
    if (toom3 && st.s1 > st.s2) return false;
    const std::size_t n = st.n, k = st.k, t4 = st.how == Split::kToom3Half ? 2 : 4;
    if (toom3 && (n <= 2 * k || 2 * (n - 2 * k) <= t4)) return false;  // 2 rem > t^4
    if (toom3 && kPlan[st.at_lo].pad > st.n) return false;
    if (st.how == Split::kToom4 && 2 * kPlan[st.at_lo].pad > 2 * st.k + 6) return false;
    if (st.how == Split::kToom4 && st.k < 6) return false;  // hqc_m4_toom4_eval2's parts
  }
  return true;
}
static_assert(toom_buffers_fit());

// The leaf routine of each kPlan entry (kLeafAt[i] = kLeaves[kPlan[i].n]), nullptr exactly where
// kPlan[i].how != kLeaf: one load tells a leaf from a split and gives its routine.
constexpr std::array<LeafFn, kPlan.size()> make_leaf_at() {
  std::array<LeafFn, kPlan.size()> t{};
  for (std::size_t i = 0; i < kPlan.size(); i++) t[i] = kPlan[i].how == Split::kLeaf ? kLeaves[kPlan[i].n] : nullptr;
  return t;
}
inline constexpr std::array<LeafFn, kPlan.size()> kLeafAt = make_leaf_at();

// The product of kPlan[at].n words by that size's own split, never padded (poly_mul_direct): a
// leaf is called right here through kLeafAt (at is public: the table entries read depend on the
// operand length only), so that the thousands of leaf calls skip a dispatching function's frame
// (about 40 estimated cycles each); a split goes to poly_mul_split.
[[gnu::always_inline]] inline void direct_mul(Word* out, const Word* a, const Word* b, std::size_t at, Word* scratch) {
  const LeafFn leaf = kLeafAt[at];
  if (leaf == nullptr) return poly_mul_split(out, a, b, at, scratch);
  leaf(out, a, b);
}

// The product of kPlan[at].n words by the plan (poly_mul): at the padded size kPlan[at].pad if
// larger (its entry at_pad; at_pad == at exactly when pad == n).
[[gnu::always_inline]] inline void sub_mul(Word* out, const Word* a, const Word* b, std::size_t at, Word* scratch) {
  if (kPlan[at].at_pad != at) return poly_mul_padded(out, a, b, at, scratch);
  direct_mul(out, a, b, at, scratch);
}

// sub_mul for the first sub-product of a Toom step, c0 into out[0, 2n) (n = kPlan[at].n), where
// out has room up to the padded product's 2 kPlan[at].pad words and nothing there is read before
// it is written (the rest of the step's output is computed after): a padded product goes
// straight into out, its words from 2n on zero, without the copy of poly_mul_padded.
[[gnu::always_inline]] inline void sub_mul_first(Word* out, const Word* a, const Word* b, std::size_t at,
                                                 Word* scratch) {
  if (kPlan[at].at_pad != at) return poly_mul_padded_in_place(out, a, b, at, scratch);
  direct_mul(out, a, b, at, scratch);
}

// a = a0 + x^(32 lo) a1 with |a0| = lo <= |a1| = hi = n - lo; the middle product at s1 >= hi
// words (the sums zero above hi, so its words from 2hi on are zero and unused).
// st: the plan's entry of n (lo = st.k, s1 = st.s1; the parts' entries at_lo, at_hi, at_s1).
void karatsuba(Word* out, const Word* a, const Word* b, const Step& st, Word* scratch) {
  const std::size_t n = st.n, lo = st.k, hi = n - lo, s1 = st.s1;
  Word* asum = scratch;
  Word* bsum = scratch + s1;
  Word* z1 = scratch + 2 * s1;
  Word* rest = scratch + 4 * s1;
  sub_mul(out, a, b, st.at_lo, rest);                     // z0 -> out[0, 2lo)
  sub_mul(out + 2 * lo, a + lo, b + lo, st.at_hi, rest);  // z2 -> out[2lo, 2n)
  hqc_m4_xor3(asum, a, a + lo, lo);
  hqc_m4_xor3(bsum, b, b + lo, lo);
  if (hi > lo) {
    hqc_m4_poly_mul_copy(asum + lo, a + 2 * lo, hi - lo);
    hqc_m4_poly_mul_copy(bsum + lo, b + 2 * lo, hi - lo);
  }
  if (s1 > hi) {
    hqc_m4_poly_mul_zero(asum + hi, s1 - hi);
    hqc_m4_poly_mul_zero(bsum + hi, s1 - hi);
  }
  direct_mul(z1, asum, bsum, st.at_s1, rest);
  if (hi - lo <= 1) {
    // out[lo .. lo + 2hi) += z1 + z0 + z2: the words below 3lo + lo in one pass (poly_m4.S), then
    // the two of an odd n above them.
    hqc_m4_kara_mid(out, z1, lo);
    const Word* c = out + 2 * lo;
    for (std::size_t i = 2 * lo; i < 2 * hi; i++) out[lo + i] ^= z1[i] ^ c[i];
  } else {
    // The same pass for the words i < 2lo of out[lo + i] += z1[i] + z0[i] + z2[i] (z0 = out[0, 2lo),
    // z2 = out[2lo, 2n); kara_mid reads z2's words 0 .. 2lo before writing its words 0 .. lo),
    // then the words 2lo <= i < 2hi, where z0 is zero: out[lo + i] += z1[i] + z2[i], z2[i] =
    // out[2lo + i] read before the pass writes it (hqc_m4_xor4 with z ahead of dst).
    hqc_m4_kara_mid(out, z1, lo);
    hqc_m4_xor4(out + 3 * lo, out + 3 * lo, z1 + 2 * lo, out + 4 * lo, 2 * (hi - lo));
  }
}

// Three-way Karatsuba: a = a0 + y a1 + y^2 a2 with y = x^(32 k), n = 3k, and the same for b. With
// P0 = a0 b0, P1 = a1 b1, P2 = a2 b2 and Pij = (ai + aj)(bi + bj), the product is
// P0 + y (P01 + P0 + P1) + y^2 (P02 + P0 + P1 + P2) + y^3 (P12 + P1 + P2) + y^4 P2 (each cross
// term ai bj + aj bi is Pij + Pi + Pj; spec §2.2: GF(2) coefficients, no carries): six products of
// k words where two Karatsuba levels would take nine of n/4 and Toom-3 five of k and k + 2 words.
// P0, P1, P2 go straight into out's three 2k-word thirds; the sums' products (at s1 >= k words,
// the sums zero above k, so their words from 2k on are zero) into scratch; one pass then adds the
// cross terms.
// st: the plan's entry of n (k = st.k, s1 = st.s1; the entries at_lo of k, at_s1 of s1).
void karatsuba3(Word* out, const Word* a, const Word* b, const Step& st, Word* scratch) {
  const std::size_t k = st.k, s1 = st.s1;
  Word* sa = scratch;
  Word* sb = sa + s1;
  Word* p01 = sb + s1;
  Word* p02 = p01 + 2 * s1;
  Word* p12 = p02 + 2 * s1;
  Word* rest = p12 + 2 * s1;
  sub_mul(out, a, b, st.at_lo, rest);
  sub_mul(out + 2 * k, a + k, b + k, st.at_lo, rest);
  sub_mul(out + 4 * k, a + 2 * k, b + 2 * k, st.at_lo, rest);
  if (s1 > k) {
    hqc_m4_poly_mul_zero(sa + k, s1 - k);
    hqc_m4_poly_mul_zero(sb + k, s1 - k);
  }
  hqc_m4_xor3(sa, a, a + k, k);
  hqc_m4_xor3(sb, b, b + k, k);
  direct_mul(p01, sa, sb, st.at_s1, rest);
  hqc_m4_xor3(sa, a, a + 2 * k, k);
  hqc_m4_xor3(sb, b, b + 2 * k, k);
  direct_mul(p02, sa, sb, st.at_s1, rest);
  hqc_m4_xor3(sa, a + k, a + 2 * k, k);
  hqc_m4_xor3(sb, b + k, b + 2 * k, k);
  direct_mul(p12, sa, sb, st.at_s1, rest);
  hqc_m4_karatsuba3_interp(out, p01, p02, p12, k);
}

// Toom-3: a = a0 + y a1 + y^2 a2 with y = x^(32 m), |a0| = |a1| = m, |a2| = rem = n - 2m <= m,
// and the same for b; C(y) = A(y) B(y) = c0 + c1 y + c2 y^2 + c3 y^3 + c4 y^4, from C at 0, 1, t,
// t + 1 and infinity. Over GF(2), (t + 1)^2 = t^2 + 1, so A(t + 1) = A(t) + a1 + a2. Two forms of
// t, the same interpolation sequence:
// - t = x^32 (one word): A(t) has m + 2 words; the exact divisions are by t, a word shift, and by
//   t + 1, a running XOR over the words (toom3_interpolate);
// - t = x^16 (half a word, kHalf): A(t) has m + 1 words, so that C(t) and C(t + 1) are products
//   one word shorter; t^4 = x^64 (two words), a division by t is a shift down by 16 bits (exact:
//   the low half-word is zero), and one by t + 1 a running XOR of half-words: q = r / (1 + x^16)
//   has q's low half = r's low half + the previous word's high half of q, and its high half =
//   r's high half + its own low half, so q[i] = u + (u << 16) with u = r[i] + (q[i - 1] >> 16)
//   (toom3_half_interpolate).
// C(1) is computed at s1 >= m words and C(t), C(t + 1) at s2 >= m + 2 (m + 1 for kHalf), the
// evaluations zero above.
// st: the plan's entry of n (m = st.k, s1 = st.s1, s2 = st.s2; the entries at_lo of m, at_hi of
// rem, at_s1 of s1, at_s2 of s2).

// The three evaluations of x = x0 + y x1 + y^2 x2 (|x0| = |x1| = m, |x2| = rem <= m) in one pass
// that reads each part's word once: e1 = x(1) = x0 + x1 + x2 (m words, then zero up to s1),
// et = x(t) and eu = x(t + 1) = x(t) + x1 + x2 ((t + 1)^2 = t^2 + 1 over GF(2)), m + 2 words at
// t = x^32 and m + 1 at x^16 (then zero up to s2). Word i of x(t) is x0[i] + x1[i - 1] + x2[i - 2]
// at x^32, x0[i] + (x1[i] << 16) + (x1[i - 1] >> 16) + x2[i - 1] at x^16 (each term where its part
// has that word). At x^16 every word by hqc_m4_toom3h_eval3 (from word 0, which has no x1[-1],
// x2[-1], to the words past x2's end); at x^32 the words kFirst <= i < rem, where every term
// exists, by hqc_m4_toom3_eval3, and the others here (the bounds are public).
template <bool kHalf>
void toom3_evaluate(Word* e1, Word* et, Word* eu, const Word* x, std::size_t m, std::size_t rem, std::size_t s1,
                    std::size_t s2) {
  constexpr std::size_t kFirst = kHalf ? 1 : 2;
  const std::size_t top = m + kFirst;  // the words of x(t)
  // rem > kFirst (toom_buffers_fit): the Thumb-2 pass has words to do.
  if constexpr (kHalf) {
    hqc_m4_toom3h_eval3(e1, et, eu, x, m, rem);
  } else {
    const Word* x1 = x + m;
    const Word* x2 = x + 2 * m;
    auto word = [&](std::size_t i) {
      const Word p0 = i < m ? x[i] : 0;
      const Word s = (i < m ? x1[i] : 0) ^ (i < rem ? x2[i] : 0);
      const Word t = p0 ^ (i >= 1 && i - 1 < m ? x1[i - 1] : 0) ^ (i >= 2 && i - 2 < rem ? x2[i - 2] : 0);
      if (i < m) e1[i] = p0 ^ s;
      et[i] = t;
      eu[i] = t ^ s;
    };
    for (std::size_t i = 0; i < kFirst; i++) word(i);
    hqc_m4_toom3_eval3(e1 + kFirst, et + kFirst, eu + kFirst, x + kFirst, m, rem - kFirst);
    for (std::size_t i = rem; i < top; i++) word(i);
  }
  if (s1 > m) hqc_m4_poly_mul_zero(e1 + m, s1 - m);
  if (s2 > top) {
    hqc_m4_poly_mul_zero(et + top, s2 - top);
    hqc_m4_poly_mul_zero(eu + top, s2 - top);
  }
}

// The first pass of the interpolation (public conditions on i < 2m + 3 at x^32, 2m + 2 at x^16),
// from c0 = out[0, 2m), c4 = out[4m, 4m + 2 rem) and the products w1 = C(1), wt = C(t),
// wu = C(t + 1):
//   w1 = C(1) + c0 + c4 = c1 + c2 + c3 (2m words);
//   wt = C(t) + c0 + t^4 c4 = t (c1 + t c2 + t^2 c3) (t^4: four words at x^32, two at x^16);
//   wu = (C(t + 1) + c0 + (t^4 + 1) c4) / (t + 1) = c1 + (t + 1) c2 + (t + 1)^2 c3 (2m + 2 words),
//   the exact division by t + 1 a running XOR: of words at x^32 (r = q (1 + t) gives q[i] = r[i] +
//   q[i - 1]), of half-words at x^16.
// The words where every term exists by hqc_m4_toom_pass1 or hqc_m4_toom3h_pass1, and the first
// kT4 words too, where t^4 c4 has none: the kT4 words below c4, out[4m - kT4, 4m), are cleared for
// them (the second pass stores c2 and c3 there later, before reading them); the others here.
template <bool kHalf>
void toom3_first_pass(Word* out, Word* w1, Word* wt, Word* wu, std::size_t m, std::size_t rem) {
  constexpr std::size_t kT4 = kHalf ? 2 : 4;  // t^4 in words
  const Word* c0 = out;
  const Word* c4 = out + 4 * m;
  const std::size_t l4 = 2 * rem, end = 2 * m + (kHalf ? 2 : 3);
  Word q = 0;
  // The running quotient by t + 1 (kHalf: by x^16 + 1, over half-words), one word of r in.
  auto divide = [&](Word r) {
    if constexpr (kHalf) {
      const Word u = r ^ (q >> 16);
      q = u ^ (u << 16);
    } else {
      q ^= r;
    }
    return q;
  };
  auto pass1 = [&](std::size_t i) {
    const Word c0i = i < 2 * m ? c0[i] : 0;
    const Word c4i = i < l4 ? c4[i] : 0;
    const Word c4s = i >= kT4 && i - kT4 < l4 ? c4[i - kT4] : 0;
    if (i < 2 * m) w1[i] ^= c0i ^ c4i;
    wt[i] ^= c0i ^ c4s;
    if (i < 2 * m + 2) wu[i] = divide(wu[i] ^ c0i ^ c4i ^ c4s);
  };
  const std::size_t body_end = l4;  // kT4 < l4 <= 2m (toom_buffers_fit)
  for (std::size_t k = 0; k < kT4; k++) out[4 * m - kT4 + k] = 0;
  auto* body = kHalf ? &hqc_m4_toom3h_pass1 : &hqc_m4_toom_pass1;
  q = body(w1, wt, wu, c0, c4, body_end, q);
  // Above the body: the words with a c4 term (those of c4 shifted by t^2, below l4 + kT4), then
  // those below 2m with c0 alone (2(m - rem) words, a loop without the bounds tests), then the
  // top words.
  const std::size_t c4_end = l4 + kT4 < 2 * m ? l4 + kT4 : 2 * m;
  std::size_t i = body_end;
  for (; i < c4_end; i++) pass1(i);
  for (; i < 2 * m; i++) {
    const Word c0i = c0[i];
    w1[i] ^= c0i;
    wt[i] ^= c0i;
    wu[i] = divide(wu[i] ^ c0i);
  }
  for (; i < end; i++) pass1(i);
}

// The interpolation at t = x^32, from c0 = out[0, 2m), c4 = out[4m, 4m + 2 rem) and the products
// w1 = C(1), wt = C(t), wu = C(t + 1), completed in out: y c1 + y^2 c2 + y^3 c3 added as the
// second pass computes them.
void toom3_interpolate(Word* out, Word* w1, Word* wt, Word* wu, std::size_t m, std::size_t rem) {
  toom3_first_pass<false>(out, w1, wt, wu, m, rem);
  const Word* vt = wt + 1;
  // Second pass (j <= 2m), from V = wu + vt = c2 + c3 (the two words above 2m cancel):
  //   c1 = w1 + V;
  //   vt + c1 = t (c2 + t c3), so x = vt + 1 = c2 + t c3, and x + V = (t + 1) c3: c3 by the
  //   running XOR (step j gives c3[j - 1], from x[j - 1] = vt[j]);
  //   c2 = V + c3.
  // Each goes straight into out, whose words 2m .. 4m hold nothing yet: c1[j] added at m + j
  // (onto c0, or onto c2 stored m steps before), c2[j] at 2m + j and c3[j] at 3m + j stored for
  // j < m and added from then on (onto c3 stored m steps before, and onto c4); c3's words from
  // m + rem on are zero and not written (they would lie past out's 2n words).
  // The steps 1 <= j < 2m by hqc_m4_toom_pass2, j = 0 and j = 2m here.
  std::uint32_t ctl[4];  // q, v_prev, the steps of modes 1 and 2
  {
    const Word v = wu[0] ^ vt[0];
    out[m] ^= w1[0] ^ v;
    ctl[0] = 0;
    ctl[1] = v;
  }
  ctl[2] = rem < m - 1 ? rem : m - 1;  // steps m + 1 .. m + rem (at most 2m - 1) add c3
  ctl[3] = m - 1 - ctl[2];
  hqc_m4_toom_pass2(w1 + 1, vt + 1, wu + 1, out, m, ctl);
  {
    const Word qn = ctl[0] ^ vt[2 * m] ^ ctl[1];  // c3[2m - 1]
    out[4 * m - 1] ^= ctl[1] ^ qn;                // c2[2m - 1]
    if (rem == m) out[5 * m - 1] ^= qn;
  }
  ct::wipe(ctl, sizeof(ctl));
}

// The interpolation at t = x^16, with the same inputs as toom3_interpolate (C(t) and C(t + 1) have
// 2m + 2 words), completing out the same way.
void toom3_half_interpolate(Word* out, Word* w1, Word* wt, Word* wu, std::size_t m, std::size_t rem) {
  toom3_first_pass<true>(out, w1, wt, wu, m, rem);
  // Second pass (j <= 2m; the values have at most 2m + 1 words): vt = wt / t = c1 + t c2 + t^2 c3,
  // V = wu + vt = c2 + c3, c1 = w1 + V, y = vt + c1 = t (c2 + t c3), x = y / t,
  // x + V = (t + 1) c3, so c3 = (x + V) / (t + 1), and c2 = V + c3. Step j computes c1[j + 1] (c1
  // ends at word 2m - 1), c3[j] and c2[j], each straight into out as in toom3_interpolate: c1[j]
  // added at m + j, c2[j] at 2m + j and c3[j] at 3m + j stored for j < m (mode 0) and added from
  // then on (mode 1), c3's zero words from m + rem on left out (mode 2).
  // The steps 0 <= j < 2m - 1 by hqc_m4_toom3h_pass2 (state: wt[j + 1], v[j], y[j], q); the last
  // one, which has no c1[j + 1], here.
  Word state[4];  // wraw = wt[j + 1], v, y, q
  {
    const Word vt = (wt[0] >> 16) | (wt[1] << 16);
    const Word v = wu[0] ^ vt;
    const Word c1 = w1[0] ^ v;
    out[m] ^= c1;
    state[0] = wt[1];
    state[1] = v;
    state[2] = vt ^ c1;
    state[3] = 0;
  }
  // Runs [0, m), [m, e), [e, 2m - 1) of the three modes, e = min(m + rem, 2m - 1), in one call.
  const std::size_t e = m + rem < 2 * m - 1 ? m + rem : 2 * m - 1;
  const std::uint32_t steps[3] = {static_cast<std::uint32_t>(m), static_cast<std::uint32_t>(e - m),
                                  static_cast<std::uint32_t>(2 * m - 1 - e)};
  hqc_m4_toom3h_pass2(w1 + 1, wt + 2, wu + 1, out, m, steps, state);
  {  // The last step, j = 2m - 1 >= m: no c1[2m], so y[2m] = vt[2m]; c2[j] added, c3[j] added
     // where it is not zero (j < m + rem).
    const std::size_t j = 2 * m - 1;
    const Word vt_next = (state[0] >> 16) | (wt[j + 2] << 16);
    const Word u = ((state[2] >> 16) | (vt_next << 16)) ^ state[1] ^ (state[3] >> 16);
    const Word q = u ^ (u << 16);  // c3[j]
    out[2 * m + j] ^= state[1] ^ q;
    if (j < m + rem) out[3 * m + j] ^= q;
  }
  ct::wipe(state, sizeof(state));
}

template <bool kHalf>
void toom3(Word* out, const Word* a, const Word* b, const Step& st, Word* scratch) {
  const std::size_t n = st.n, m = st.k, s1 = st.s1, s2 = st.s2;
  const std::size_t rem = n - 2 * m, e = s1 > s2 ? s1 : s2;
  Word* ea = scratch;      // A(t + 1): e words
  Word* eb = ea + e;       // B(t + 1)
  Word* w1 = eb + e;       // C(1), 2 s1 words
  Word* wt = w1 + 2 * s1;  // C(t), 2 s2 words; A(1) and B(1) at wt and wt + s2 until then
  Word* wu = wt + 2 * s2;  // C(t + 1), 2 s2 words; A(t) and B(t) at wu and wu + s2 until then
  Word* rest = wu + 2 * s2;

  sub_mul_first(out, a, b, st.at_lo, rest);  // c0 -> out[0, 2m) (2n >= 4m + 2 words: room for c0 padded)
  sub_mul(out + 4 * m, a + 2 * m, b + 2 * m, st.at_hi, rest);  // c4 -> out[4m, 4m + 2 rem) = the top of out
  // Each product's operands lie in a buffer that no later product writes before they are read:
  // C(1) from wt's, C(t) from wu's, C(t + 1) from ea and eb (s1 <= s2: toom_buffers_fit above).
  toom3_evaluate<kHalf>(wt, wu, ea, a, m, rem, s1, s2);
  toom3_evaluate<kHalf>(wt + s2, wu + s2, eb, b, m, rem, s1, s2);
  direct_mul(w1, wt, wt + s2, st.at_s1, rest);
  direct_mul(wt, wu, wu + s2, st.at_s2, rest);
  direct_mul(wu, ea, eb, st.at_s2, rest);
  // out = c0 + y c1 + y^2 c2 + y^3 c3 + y^4 c4 (c3 has at most m + rem words, a1 b2 + a2 b1).
  if constexpr (kHalf) {
    toom3_half_interpolate(out, w1, wt, wu, m, rem);
  } else {
    toom3_interpolate(out, w1, wt, wu, m, rem);
  }
}

// The evaluations of toom4 at t and t + 1 (reversed = false), or at 1/t and 1/(t + 1) homogenized
// (reversed = true: the parts' roles a0 <-> a3, a1 <-> a2), of x = x0 + y x1 + y^2 x2 + y^3 x3:
// e1 = p0 + t p1 + t^2 p2 + t^3 p3 and e2 = e1 + p1 + p2 + p3 + t p3 + t^2 p3 (m + 3 words each,
// then zeros up to e), with (p0, p1, p2, p3) = (x0, x1, x2, x3) or (x3, x2, x1, x0):
// A(t + 1) = A(t) + a1 + a2 + a3 + t a3 + t^2 a3, and the same identity for the reversed parts.
// x3 is given as x3p, zero-padded to m words, so that every part has m words. All m + 3 words by
// hqc_m4_toom4_eval2 (m >= 6: toom_buffers_fit), the zeros up to e here.
void toom4_evaluate(Word* e1, Word* e2, const Word* x, const Word* x3p, std::size_t m, std::size_t e, bool reversed) {
  const Word* part[4] = {x, x + m, x + 2 * m, x3p};
  if (reversed) std::swap(part[0], part[3]), std::swap(part[1], part[2]);
  hqc_m4_toom4_eval2(e1, e2, part[0], part[1], part[2], part[3], m);
  if (e > m + 3) {
    hqc_m4_poly_mul_zero(e1 + m + 3, e - m - 3);
    hqc_m4_poly_mul_zero(e2 + m + 3, e - m - 3);
  }
}

// Toom-4: a = a0 + y a1 + y^2 a2 + y^3 a3 with y = x^(32 m), |a0| = |a1| = |a2| = m,
// |a3| = rem = n - 3m <= m, and the same for b; C(y) = A(y) B(y) = c0 + c1 y + ... + c6 y^6. The
// seven points are 0, 1, t, t + 1, 1/t, 1/(t + 1) and infinity with t = x^32 (one word), the
// middle two homogenized (t^3 A(1/t), (t + 1)^3 A(1/(t + 1))): every evaluation is a sum of
// word-shifted parts, and the interpolation's exact divisions are by t (a word shift), t + 1 (a
// running XOR over the words) and t^2 + t + 1 (q[i] = r[i] + q[i - 1] + q[i - 2]). C(1) is computed
// at s1 >= m words, the four others at s2 >= m + 3 (their evaluations have m + 3 words).
// With d0 .. d4 = c1 .. c5 and D(z) = d0 + d1 z + ... + d4 z^4, the sequence (GF(2)[t]):
//   P1 = C(1) + c0 + c6 = D(1)
//   Rt = (C(t) + c0 + t^6 c6) / t = D(t)
//   Ru = (C(t + 1) + c0 + (t + 1)^6 c6) / (t + 1) = D(t + 1)
//   Rr = (t^6 C(1/t) + t^6 c0 + c6) / t = t^4 D(1/t)
//   Rs = ((t + 1)^6 C(1/(t + 1)) + (t + 1)^6 c0 + c6) / (t + 1) = (t + 1)^4 D(1/(t + 1))
//   R2 = (Rt + P1) / (t + 1) = d1 + d2 (t + 1) + d3 (t^2 + t + 1) + d4 (t + 1)^3
//   R3 = (Ru + P1) / t       = d1 + d2 t + d3 (t^2 + t + 1) + d4 t^3
//   R4 = (Rr + P1) / (t + 1) = d0 (t + 1)^3 + d1 (t^2 + t + 1) + d2 (t + 1) + d3
//   R5 = (Rs + P1) / t       = d0 t^3 + d1 (t^2 + t + 1) + d2 t + d3
//   S23 = R2 + R3 = d2 + d4 (t^2 + t + 1),  S45 = R4 + R5 = d2 + d0 (t^2 + t + 1)
//   E = d0 + d4 = (S23 + S45) / (t^2 + t + 1)
//   F = d1 + d3 = (R3 + R5 + t^3 E) / (t (t + 1))
//   d2 = P1 + E + F,  d4 = (S23 + d2) / (t^2 + t + 1),  d0 = E + d4
//   d3 = (R3 + t d2 + t^3 d4 + F) / (t (t + 1)),  d1 = F + d3
// ((t + 1)^2 = t^2 + 1, (t + 1)^6 = t^6 + t^4 + t^2 + 1 and (t + 1)^3 + t^3 = t^2 + t + 1 over
// GF(2)). Every division is exact, so a running quotient over all len words ends in zero words;
// a division by t reads the next word (x[i] = r[i + 1]). Five passes of toom4_m4.S compute the
// sequence, each word from words at most six below and one above it. Loop bounds depend on n
// only.
// st: the plan's entry of n (m = st.k, s1 = st.s1, s2 = st.s2; the entries at_lo of m, at_hi of
// rem, at_s1 of s1, at_s2 of s2).
void toom4(Word* out, const Word* a, const Word* b, const Step& st, Word* scratch) {
  const std::size_t n = st.n, m = st.k, s1 = st.s1, s2 = st.s2;
  const std::size_t rem = n - 3 * m, e = s1 > s2 ? s1 : s2;
  const std::size_t len = 2 * m + 6;  // every value of the interpolation has fewer words; even, as
                                      // passes A1, B, C, D of toom4_m4.S require
  const std::size_t B = 2 * e + 2;    // a product (at most 2e words) and two zero words
  Word* z0 = scratch;                 // c0 with six zero words below, zeros above: len + 6 words
  Word* z6 = z0 + len + 6;            // c6 likewise
  Word* ea = z6 + len + 6;            // evaluations: e words each
  Word* ea2 = ea + e;
  Word* eb = ea2 + e;
  Word* eb2 = eb + e;
  Word* w1 = eb2 + e;  // C(1) -> P1 -> d2 (c3)
  Word* wt = w1 + B;   // C(t) -> P2; Rt, S23, d4 (c5) at wt + 1
  Word* wu = wt + B;   // C(t + 1) -> Ru -> R3 -> d3 (c4)
  Word* wr = wu + B;   // t^6 C(1/t) -> P4; Rr, E, d0 (c1) at wr + 1
  Word* ws = wr + B;   // (t + 1)^6 C(1/(t + 1)) -> Rs -> R5 -> F -> d1 (c2)
  Word* a3p = ws + B;  // a3 and b3 zero-padded to m words
  Word* b3p = a3p + m;
  Word* rest = b3p + m;
  const Word* a3 = a + 3 * m;
  const Word* b3 = b + 3 * m;

  Word* c0 = z0 + 6;  // c0[i - k], k <= 6, reads zero below word 0 (zeroed below)
  Word* c6 = z6 + 6;
  sub_mul_first(c0, a, b, st.at_lo, rest);  // c0 (room for c0 padded: toom_buffers_fit)
  sub_mul(c6, a3, b3, st.at_hi, rest);
  // C(1): A(1) = a0 + a1 + a2 + a3.
  hqc_m4_xor4(ea, a, a + m, a + 2 * m, m);
  hqc_m4_xor_into(ea, a3, rem);
  hqc_m4_xor4(eb, b, b + m, b + 2 * m, m);
  hqc_m4_xor_into(eb, b3, rem);
  if (s1 > m) {
    hqc_m4_poly_mul_zero(ea + m, s1 - m);
    hqc_m4_poly_mul_zero(eb + m, s1 - m);
  }
  direct_mul(w1, ea, eb, st.at_s1, rest);
  hqc_m4_poly_mul_copy(a3p, a3, rem);
  hqc_m4_poly_mul_copy(b3p, b3, rem);
  if (m > rem) {
    hqc_m4_poly_mul_zero(a3p + rem, m - rem);
    hqc_m4_poly_mul_zero(b3p + rem, m - rem);
  }
  toom4_evaluate(ea, ea2, a, a3p, m, s2, false);
  toom4_evaluate(eb, eb2, b, b3p, m, s2, false);
  direct_mul(wt, ea, eb, st.at_s2, rest);
  direct_mul(wu, ea2, eb2, st.at_s2, rest);
  toom4_evaluate(ea, ea2, a, a3p, m, s2, true);
  toom4_evaluate(eb, eb2, b, b3p, m, s2, true);
  direct_mul(wr, ea, eb, st.at_s2, rest);
  direct_mul(ws, ea2, eb2, st.at_s2, rest);
  hqc_m4_poly_mul_zero(w1 + 2 * s1, B - 2 * s1);
  for (Word* w : {wt, wu, wr, ws}) hqc_m4_poly_mul_zero(w + 2 * s2, B - 2 * s2);

  // The interpolation (the sequence above) in five passes of toom4_m4.S over len words, c0 and c6
  // framed by zeros (a padded c0's words from 2m on are zero already).
  hqc_m4_poly_mul_zero(z0, 6);
  hqc_m4_poly_mul_zero(c0 + 2 * m, len - 2 * m);
  hqc_m4_poly_mul_zero(z6, 6);
  hqc_m4_poly_mul_zero(c6 + 2 * rem, len - 2 * rem);
  Word* rt = wt + 1;
  Word* rr = wr + 1;
  hqc_m4_toom4_pass_a1(w1, wt, wr, c0, c6, len);  // P1, P2 (Rt = P2 / t at wt + 1), P4 (Rr at wr + 1)
  hqc_m4_toom4_pass_a2(wu, ws, c0, c6, len);      // Ru, Rs
  hqc_m4_toom4_pass_b(w1, rt, wu, rr, ws, len);   // R3 (wu), R5 (ws), S23 (rt), E (rr)
  hqc_m4_toom4_pass_c(wu, ws, rr, w1, rt, len);   // F (ws), d2 (w1), d4 (rt), d0 (rr)
  hqc_m4_toom4_pass_d(wu, w1, rt, ws, len);       // d3 (wu), d1 (ws)
  // out = c0 + y c1 + y^2 c2 + y^3 c3 + y^4 c4 + y^5 c5 + y^6 c6 (c0 .. c4 have at most 2m words,
  // c5 m + rem, c6 2 rem): out[0, m) is c0's low half, each block out[jm, (j + 1)m) for
  // 1 <= j <= 5 is c_(j-1)'s high half plus c_j's low half, one pass each (three streams),
  // out[6m, 6m + rem) is c5's top rem words plus c6's low ones, and the rest is c6's.
  const Word* c[7] = {c0, rr, ws, w1, wu, rt, c6};
  hqc_m4_poly_mul_copy(out, c0, m);
  for (std::size_t j = 1; j <= 5; j++) hqc_m4_xor3(out + j * m, c[j - 1] + m, c[j], m);
  hqc_m4_xor3(out + 6 * m, c[5] + m, c6, rem);
  hqc_m4_poly_mul_copy(out + 6 * m + rem, c6 + rem, rem);
}

void poly_mul_split(Word* out, const Word* a, const Word* b, std::size_t at, Word* scratch) {
  const Step& st = kPlan[at];
  // A split that no size of this build's plan takes is not compiled in (kPlanUses).
  switch (st.how) {
    case Split::kLeaf: return direct_mul(out, a, b, at, scratch);
    case Split::kToom3:
      if constexpr (kPlanUses<Split::kToom3>) return toom3<false>(out, a, b, st, scratch);
      break;
    case Split::kToom3Half:
      if constexpr (kPlanUses<Split::kToom3Half>) return toom3<true>(out, a, b, st, scratch);
      break;
    case Split::kKaratsuba:
      if constexpr (kPlanUses<Split::kKaratsuba>) return karatsuba(out, a, b, st, scratch);
      break;
    case Split::kKara3:
      if constexpr (kPlanUses<Split::kKara3>) return karatsuba3(out, a, b, st, scratch);  // n = 3k
      break;
    case Split::kToom4:
      if constexpr (kPlanUses<Split::kToom4>) return toom4(out, a, b, st, scratch);
      break;
  }
}

// The operands of n words copied into zero-padded buffers of p > n words, pa = scratch[0, p) and
// pb = scratch[p, 2p); their product (whose words from 2n on are zero) then goes to
// scratch[2p, 4p), and its 2n low words are copied out.
void pad_operands(Word* scratch, const Word* a, const Word* b, std::size_t n, std::size_t p) {
  hqc_m4_poly_mul_copy(scratch, a, n);
  hqc_m4_poly_mul_zero(scratch + n, p - n);
  hqc_m4_poly_mul_copy(scratch + p, b, n);
  hqc_m4_poly_mul_zero(scratch + p + n, p - n);
}

// The plan's padded size p = kPlan[at].pad > n = kPlan[at].n, computed by its own split.
void poly_mul_padded(Word* out, const Word* a, const Word* b, std::size_t at, Word* scratch) {
  const Step& st = kPlan[at];
  const std::size_t n = st.n, p = st.pad;
  pad_operands(scratch, a, b, n, p);
  direct_mul(scratch + 2 * p, scratch, scratch + p, st.at_pad, scratch + 4 * p);
  hqc_m4_poly_mul_copy(out, scratch + 2 * p, 2 * n);
}
// The same into out's 2p words directly (sub_mul_first: out has the room).
void poly_mul_padded_in_place(Word* out, const Word* a, const Word* b, std::size_t at, Word* scratch) {
  const Step& st = kPlan[at];
  pad_operands(scratch, a, b, st.n, st.pad);
  direct_mul(out, scratch, scratch + st.pad, st.at_pad, scratch + 2 * st.pad);
}

}  // namespace

void poly_mul_direct(Word* out, const Word* a, const Word* b, std::size_t n, Word* scratch) {
  direct_mul(out, a, b, plan_at(n), scratch);
}

// A listed size by the plan. Any other size n (only the tests and the measurement image ask for
// one: kPlan lists every size the ring multiplication reaches) is computed at the smallest listed
// size p above it, by the same zero padding as the plan's own (the product's low 2n words are
// unchanged), p's product by the plan in the scratch below the padded buffers; so every
// n <= kMaxPolyWords multiplies correctly with poly_mul_scratch_words(n) words of scratch.
void poly_mul(Word* out, const Word* a, const Word* b, std::size_t n, Word* scratch) {
  const std::size_t at = plan_at(n);
  const std::size_t p = kPlan[at].n;
  if (p == n) return sub_mul(out, a, b, at, scratch);
  pad_operands(scratch, a, b, n, p);
  sub_mul(scratch + 2 * p, scratch, scratch + p, at, scratch + 4 * p);
  hqc_m4_poly_mul_copy(out, scratch + 2 * p, 2 * n);
}

}  // namespace hqc::backend::m4
