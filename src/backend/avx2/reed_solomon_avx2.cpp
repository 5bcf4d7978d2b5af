// Reed-Solomon decoding (spec §5.6), AVX2-only variant (Haswell, Zen 1-3, valgrind): products by
// a broadcast element use two 16-entry PSHUFB tables built from it (the element is in a register,
// never an address); lane-wise products are shift-and-add with VPBLENDVB. Field: HQC's 0x11D.
#include "backend/avx2/kernels.hpp"
#include "backend/avx2/rs_impl.hpp"

namespace hqc::backend::avx2 {
namespace {

struct Avx2Field {
  static constexpr std::array<u8, 256> kMap = [] {
    std::array<u8, 256> t{};
    for (std::size_t i = 0; i < 256; i++) t[i] = static_cast<u8>(i);
    return t;
  }();
  static __m256i to(__m256i v) { return v; }
  static __m256i from(__m256i v) { return v; }

  // v * x in GF(2^8)/0x11D, every lane.
  static __m256i xtime(__m256i v) {
    const __m256i carry = _mm256_cmpgt_epi8(_mm256_setzero_si256(), v);
    return _mm256_xor_si256(_mm256_add_epi8(v, v), _mm256_and_si256(carry, _mm256_set1_epi8(0x1D)));
  }

  struct Prep {
    __m256i lo, hi;  // lo[x] = s * x, hi[x] = s * (x << 4), x = 0..15 (both 128-bit halves)
  };
  static Prep prep(__m256i s) {
    // Lanes x = 0..15 of each half: mask of bit k of x.
    const __m256i m0 = _mm256_set_epi8(-1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1,
                                       0, -1, 0, -1, 0, -1, 0, -1, 0);
    const __m256i m1 = _mm256_set_epi8(-1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0, 0, -1, -1, 0,
                                       0, -1, -1, 0, 0, -1, -1, 0, 0);
    const __m256i m2 = _mm256_set_epi8(-1, -1, -1, -1, 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0,
                                       0, -1, -1, -1, -1, 0, 0, 0, 0);
    const __m256i m3 = _mm256_set_epi8(-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1, -1, -1,
                                       -1, -1, 0, 0, 0, 0, 0, 0, 0, 0);
    __m256i p = s;
    Prep r;
    r.lo = _mm256_and_si256(p, m0);
    p = xtime(p);
    r.lo = _mm256_xor_si256(r.lo, _mm256_and_si256(p, m1));
    p = xtime(p);
    r.lo = _mm256_xor_si256(r.lo, _mm256_and_si256(p, m2));
    p = xtime(p);
    r.lo = _mm256_xor_si256(r.lo, _mm256_and_si256(p, m3));
    p = xtime(p);
    r.hi = _mm256_and_si256(p, m0);
    p = xtime(p);
    r.hi = _mm256_xor_si256(r.hi, _mm256_and_si256(p, m1));
    p = xtime(p);
    r.hi = _mm256_xor_si256(r.hi, _mm256_and_si256(p, m2));
    p = xtime(p);
    r.hi = _mm256_xor_si256(r.hi, _mm256_and_si256(p, m3));
    return r;
  }
  static __m256i mul_s(__m256i v, const Prep& p) {
    const __m256i nib = _mm256_set1_epi8(0x0F);
    const __m256i lo = _mm256_and_si256(v, nib);
    const __m256i hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), nib);
    return _mm256_xor_si256(_mm256_shuffle_epi8(p.lo, lo), _mm256_shuffle_epi8(p.hi, hi));
  }
  static __m256i mul(__m256i a, __m256i b) {
    __m256i acc = _mm256_setzero_si256();
    // Bit k of each byte of b moved to the byte's top bit selects a * x^k.
    acc = _mm256_xor_si256(acc, _mm256_blendv_epi8(acc, a, _mm256_slli_epi16(b, 7)));
    for (int k = 1; k < 8; k++) {
      a = xtime(a);
      acc = _mm256_xor_si256(
          acc, _mm256_and_si256(a, _mm256_cmpgt_epi8(_mm256_setzero_si256(), _mm256_slli_epi16(b, 7 - k))));
    }
    return acc;
  }
};

}  // namespace

template <class P>
void rs_decode_avx2(std::uint8_t* msg, const std::uint8_t* cw) {
  rs_decode_impl<P, Avx2Field>(msg, cw);
}

template void rs_decode_avx2<Hqc1>(std::uint8_t*, const std::uint8_t*);
template void rs_decode_avx2<Hqc3>(std::uint8_t*, const std::uint8_t*);
template void rs_decode_avx2<Hqc5>(std::uint8_t*, const std::uint8_t*);

template <class P>
void rs_encode_avx2(std::uint8_t* cw, const std::uint8_t* msg) {
  rs_encode_impl<P, Avx2Field>(cw, msg);
}

template void rs_encode_avx2<Hqc1>(std::uint8_t*, const std::uint8_t*);
template void rs_encode_avx2<Hqc3>(std::uint8_t*, const std::uint8_t*);
template void rs_encode_avx2<Hqc5>(std::uint8_t*, const std::uint8_t*);

}  // namespace hqc::backend::avx2
