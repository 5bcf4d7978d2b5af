// Ring multiplication (spec §2.2), avx2 backend: the PCLMULQDQ instantiations of gf2x_impl.hpp
// with the production decomposition per level (kernels.hpp kToomLevels), and the decompositions
// compared by bench/avx2. The VPCLMULQDQ instantiations are in gf2x_vpclmul.cpp; the registry
// rows choose between them.
#include "backend/avx2/gf2x_impl.hpp"
#include "backend/avx2/kernels.hpp"

namespace hqc::backend::avx2 {

template <class P>
void mul_pclmul(u64* out, const u64* a, const u64* b) {
  mul_impl<P, 1, Base::kK9, kToomLevels<P>>(out, a, b);
}

template <class P>
void mul2_pclmul(u64* out1, u64* out2, const u64* a1, const u64* a2, const u64* b) {
  mul2_impl<P, 1, Base::kK9, kToomLevels<P>>(out1, out2, a1, a2, b);
}

const char* mul_variant_name(MulVariant v) {
  switch (v) {
    case MulVariant::kKaratsubaBase1: return "karatsuba, 256-bit base (9 clmul)";
    case MulVariant::kKaratsubaBase2: return "karatsuba, 2-block schoolbook base";
    case MulVariant::kKaratsubaBase3: return "karatsuba, 3-block schoolbook base";
    case MulVariant::kKaratsubaBase1S: return "karatsuba, 256-bit base (12 clmul)";
    case MulVariant::kToom3Karatsuba: return "toom-3 + karatsuba";
    case MulVariant::kToom3x2Karatsuba: return "toom-3 x2 + karatsuba";
    case MulVariant::kVpclmulKaratsuba: return "vpclmulqdq base (8), karatsuba";
    case MulVariant::kVpclmul6Karatsuba: return "vpclmulqdq base (6), karatsuba";
    case MulVariant::kVpclmul6Toom3: return "vpclmulqdq base (6), toom-3 + karatsuba";
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
    case MulVariant::kVpclmulKaratsuba: mul_vpclmul_variant<P>(out, a, b, 0, 8); break;
    case MulVariant::kVpclmul6Karatsuba: mul_vpclmul_variant<P>(out, a, b, 0, 6); break;
    case MulVariant::kVpclmul6Toom3: mul_vpclmul_variant<P>(out, a, b, 1, 6); break;
    default: mul_pclmul<P>(out, a, b); break;
  }
}

#define HQC_AVX2_MUL_INSTANTIATE(P)                                             \
  template void mul_pclmul<P>(u64*, const u64*, const u64*);                    \
  template void mul2_pclmul<P>(u64*, u64*, const u64*, const u64*, const u64*); \
  template void mul_variant<P>(MulVariant, u64*, const u64*, const u64*);
HQC_AVX2_MUL_INSTANTIATE(Hqc1)
HQC_AVX2_MUL_INSTANTIATE(Hqc3)
HQC_AVX2_MUL_INSTANTIATE(Hqc5)
#undef HQC_AVX2_MUL_INSTANTIATE

}  // namespace hqc::backend::avx2
