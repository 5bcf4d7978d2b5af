// Measurement image of the m4 ring multiplication alone (scripts/m4-mul-bench.py): for one level
// (argument level=1|3|5), the m4 row's mul and mul2 and the m4 FAFFT's transform, mul_transforms
// and mul_transform_plain (fafft_m4.hpp) on fixed random inputs, each between
// instruction-count markers with the stack painted before it; with sizes=1 instead, poly_mul of the
// sizes in kSizes (the leaves and steps whose costs the plan in ring_mul_m4.hpp models).
// Prints "op NAME ID stack_bytes"; markers 2*ID and 2*ID+1 bracket operation ID.
#include <cstdlib>
#include <cstring>

#include "backend/device.hpp"
#include "backend/fafft/plan.hpp"
#include "backend/m4/fafft_m4.hpp"
#include "backend/m4/ring_mul_m4.hpp"
#include "hqc/hqc.h"
#include "m4_support.hpp"
#include "pke/ring.hpp"

namespace {

using namespace hqc;

// Public test data: a fixed xorshift stream.
std::uint32_t g_state = 0x9E3779B9u;
std::uint32_t next_word() {
  g_state ^= g_state << 13;
  g_state ^= g_state >> 17;
  g_state ^= g_state << 5;
  return g_state;
}

template <class F>
__attribute__((noinline)) void measure(const char* name, std::uint32_t id, F&& op) {
  m4::paint_stack();
  m4::hqc_m4_mark(2 * id);
  op();
  m4::hqc_m4_mark(2 * id + 1);
  m4::report_op(name, id, m4::stack_used());
}

const backend::Backend* m4_row() {
  for (const backend::Backend* be : backend::device_backends())
    if (std::strcmp(be->name, "m4") == 0) return be;
  return nullptr;
}

template <class P>
void run_level() {
  static pke::RingVec<P> a, a2, b, r1, r2;
  for (std::size_t i = 0; i < P::kNWords; i++) {
    a.w[i] = (std::uint64_t{next_word()} << 32) | next_word();
    a2.w[i] = (std::uint64_t{next_word()} << 32) | next_word();
    b.w[i] = (std::uint64_t{next_word()} << 32) | next_word();
  }
  a.w[P::kNWords - 1] &= P::kLastWordMask;
  a2.w[P::kNWords - 1] &= P::kLastWordMask;
  b.w[P::kNWords - 1] &= P::kLastWordMask;
  const backend::Backend* be = m4_row();
  if (be == nullptr) return;
  const auto& k = be->kernels<P>();
  measure("empty", 0, [] {});
  measure("mul", 1, [&] { k.mul(r1.w, a.w, b.w); });
  measure("mul2", 2, [&] { k.mul2(r1.w, r2.w, a.w, a2.w, b.w); });
  // The m4 FAFFT at 2^m bits (the transform multiplier of the row's prepared keys at HQC-5), at
  // every level.
  alignas(64) static std::uint64_t ta[backend::fafft::kTransformWords<P>], tb[backend::fafft::kTransformWords<P>];
  measure("fafft_transform", 3, [&] { backend::m4::fafft::forward<P>(ta, a.w); });
  backend::m4::fafft::forward<P>(tb, b.w);
  measure("fafft_mul_transforms", 4, [&] { backend::m4::fafft::mul_transformed<P>(r1.w, ta, tb); });
  measure("fafft_mul_transform_plain", 5, [&] { backend::m4::fafft::mul_transformed_plain<P>(r2.w, ta, b.w); });
  // The half-size transform with the Chinese remainder step (HQC-1 and HQC-3).
  if constexpr (P::kLevel != 5) {
    measure("fafft_crt_transform", 6, [&] { backend::m4::fafft::forward_crt<P>(ta, a.w); });
    backend::m4::fafft::forward_crt<P>(tb, b.w);
    measure("fafft_crt_mul_transforms", 7, [&] { backend::m4::fafft::mul_transformed_crt<P>(r1.w, ta, tb); });
    measure("fafft_crt_mul_transform_plain", 8,
            [&] { backend::m4::fafft::mul_transformed_plain_crt<P>(r2.w, ta, b.w); });
    measure("fafft_crt_mul2", 9, [&] { backend::m4::fafft::mul2_crt<P>(r1.w, r2.w, a.w, a2.w, b.w); });
    measure("fafft_crt_mul", 10, [&] { backend::m4::fafft::mul_crt<P>(r1.w, a.w, b.w); });
  }
  // The candidates the row chooses from (backend.cpp, mul_choice and mul2_choice), whichever it
  // chose: the FAFFT's one-shot products, and the tree's (poly_mul and the fold, as the row runs
  // them, its buffers on the stack). The windows' ids are consecutive.
  std::uint32_t id = P::kLevel != 5 ? 11 : 6;
  measure("fafft_mul", id++, [&] { backend::m4::fafft::mul<P>(r1.w, a.w, b.w); });
  measure("fafft_mul2", id++, [&] { backend::m4::fafft::mul2<P>(r1.w, r2.w, a.w, a2.w, b.w); });
  constexpr std::size_t kWords = (P::kN + 31) / 32;
  auto tree = [&](std::uint64_t* out, const std::uint64_t* x, const std::uint64_t* y) {
    backend::m4::Word32 prod[2 * kWords], scratch[backend::m4::poly_mul_scratch_words(kWords)];
    backend::m4::poly_mul(prod, reinterpret_cast<const backend::m4::Word32*>(x),
                          reinterpret_cast<const backend::m4::Word32*>(y), kWords, scratch);
    backend::m4::fold_product<P>(out, prod);
  };
  measure("tree_mul", id++, [&] { tree(r1.w, a.w, b.w); });
  measure("tree_mul2", id++, [&] {
    tree(r1.w, a.w, b.w);
    tree(r2.w, a2.w, b.w);
  });
}

// The sizes whose poly_mul the plan's cost model is checked against. A size that the compact plan
// (backend::m4::kPlan: the sizes the three levels' products reach) does not list is measured as
// poly_mul computes it: padded to the smallest listed size above it.
constexpr std::size_t kSizes[] = {1,  2,  3,  4,  5,  6,  7,  8,  12,  16,  20,  24,  26,  28,  32, 36,
                                  40, 48, 64, 66, 68, 72, 80, 96, 128, 130, 144, 160, 192, 204, 256};
backend::m4::Word32 g_a[512], g_b[512], g_out[1024], g_scratch[8192];

void run_sizes() {
  for (auto& w : g_a) w = next_word();
  for (auto& w : g_b) w = next_word();
  measure("empty", 0, [] {});
  std::uint32_t id = 1;
  for (std::size_t n : kSizes) {
    if (n > backend::m4::kMaxPolyWords) break;
    char name[16] = "n";
    std::size_t len = 1;
    char digits[8];
    std::size_t d = 0;
    for (std::size_t v = n; v != 0; v /= 10) digits[d++] = static_cast<char>('0' + v % 10);
    while (d != 0) name[len++] = digits[--d];
    name[len] = 0;
    measure(name, id++, [n] { backend::m4::poly_mul(g_out, g_a, g_b, n, g_scratch); });
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::uint32_t level = m4::arg_uint(argc, argv, "level", 1);
  if (m4::arg_uint(argc, argv, "sizes", 0) != 0) run_sizes();
  else if (level == 1) run_level<Hqc1>();
  else if (level == 3) run_level<Hqc3>();
  else if (level == 5) run_level<Hqc5>();
  m4::flush();
  std::exit(0);
}
