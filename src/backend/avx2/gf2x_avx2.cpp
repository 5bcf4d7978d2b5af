// Ring multiplication (spec §2.2), avx2 backend: the PCLMULQDQ instantiations of gf2x_impl.hpp,
// the per-level choice of decomposition, and the dispatch to the VPCLMULQDQ variant
// (gf2x_vpclmul.cpp) when effective_cpu_features() reports VPCLMULQDQ.
#include "backend/avx2/gf2x_impl.hpp"
#include "backend/avx2/kernels.hpp"

namespace hqc::backend::avx2 {
namespace {

using u64 = std::uint64_t;

// The production choice per level (bench/avx2, docs/AVX2.md): Toom levels, then Karatsuba
// down to one 256-bit block (two- and three-block nodes in registers).
template <class P>
struct Choice {
  static constexpr int kToom = P::kLevel == 3 ? 1 : 0;        // PCLMULQDQ base (9 per block pair)
  static constexpr int kToomVpclmul = P::kLevel == 3 ? 1 : 0;  // VPCLMULQDQ base
};

// Public CPU property (effective_cpu_features() is read once).
bool use_vpclmul() { return vpclmul_supported(); }

}  // namespace

template <class P>
void mul_pclmul(u64* out, const u64* a, const u64* b) {
  mul_impl<P, 1, Base::kK9, Choice<P>::kToom>(out, a, b);
}

template <class P>
void mul2_pclmul(u64* out1, u64* out2, const u64* a1, const u64* a2, const u64* b) {
  mul2_impl<P, 1, Base::kK9, Choice<P>::kToom>(out1, out2, a1, a2, b);
}

template <class P>
void mul(u64* out, const u64* a, const u64* b) {
  if (use_vpclmul())
    mul_vpclmul<P>(out, a, b, Choice<P>::kToomVpclmul);
  else
    mul_pclmul<P>(out, a, b);
}

template <class P>
void mul2(u64* out1, u64* out2, const u64* a1, const u64* a2, const u64* b) {
  if (use_vpclmul())
    mul2_vpclmul<P>(out1, out2, a1, a2, b, Choice<P>::kToomVpclmul);
  else
    mul2_pclmul<P>(out1, out2, a1, a2, b);
}

const char* mul_variant_name(MulVariant v) {
  switch (v) {
    case MulVariant::kKaratsubaBase1: return "karatsuba, 256-bit base (9 clmul)";
    case MulVariant::kKaratsubaBase2: return "karatsuba, 2-block schoolbook base";
    case MulVariant::kKaratsubaBase3: return "karatsuba, 3-block schoolbook base";
    case MulVariant::kKaratsubaBase1S: return "karatsuba, 256-bit base (12 clmul)";
    case MulVariant::kToom3Karatsuba: return "toom-3 + karatsuba";
    case MulVariant::kToom3x2Karatsuba: return "toom-3 x2 + karatsuba";
    case MulVariant::kVpclmulKaratsuba: return "vpclmulqdq base, karatsuba";
    case MulVariant::kVpclmulToom3: return "vpclmulqdq base, toom-3 + karatsuba";
    default: return "?";
  }
}

template <class P>
void mul_variant(MulVariant v, u64* out, const u64* a, const u64* b) {
  switch (v) {
    case MulVariant::kKaratsubaBase1: mul_impl<P, 1, Base::kK9, 0>(out, a, b); break;
    case MulVariant::kKaratsubaBase2: mul_impl<P, 2, Base::kK9, 0>(out, a, b); break;
    case MulVariant::kKaratsubaBase3: mul_impl<P, 3, Base::kK9, 0>(out, a, b); break;
    case MulVariant::kKaratsubaBase1S: mul_impl<P, 1, Base::kK12, 0>(out, a, b); break;
    case MulVariant::kToom3Karatsuba: mul_impl<P, 1, Base::kK9, 1>(out, a, b); break;
    case MulVariant::kToom3x2Karatsuba: mul_impl<P, 1, Base::kK9, 2>(out, a, b); break;
    case MulVariant::kVpclmulKaratsuba:
      if (use_vpclmul()) mul_vpclmul<P>(out, a, b, 0);
      else mul_impl<P, 1, Base::kK9, 0>(out, a, b);
      break;
    case MulVariant::kVpclmulToom3:
      if (use_vpclmul()) mul_vpclmul<P>(out, a, b, 1);
      else mul_impl<P, 1, Base::kK9, 1>(out, a, b);
      break;
    default: mul<P>(out, a, b); break;
  }
}

#define HQC_AVX2_MUL_INSTANTIATE(P)                                                                   \
  template void mul<P>(u64*, const u64*, const u64*);                                                 \
  template void mul_pclmul<P>(u64*, const u64*, const u64*);                                          \
  template void mul2_pclmul<P>(u64*, u64*, const u64*, const u64*, const u64*);                       \
  template void mul2<P>(u64*, u64*, const u64*, const u64*, const u64*);                              \
  template void mul_variant<P>(MulVariant, u64*, const u64*, const u64*);
HQC_AVX2_MUL_INSTANTIATE(Hqc1)
HQC_AVX2_MUL_INSTANTIATE(Hqc3)
HQC_AVX2_MUL_INSTANTIATE(Hqc5)
#undef HQC_AVX2_MUL_INSTANTIATE

}  // namespace hqc::backend::avx2
