#include "backend/avx2/kernels.hpp"
#include "backend/registry.hpp"
namespace hqc::backend::avx2 {
template <class P>
void rs_decode_gfni(std::uint8_t* out, const std::uint8_t* in) {
  if constexpr (P::kLevel == 1) portable().hqc1.rs_decode(out, in);
  else if constexpr (P::kLevel == 3) portable().hqc3.rs_decode(out, in);
  else portable().hqc5.rs_decode(out, in);
}
template void rs_decode_gfni<Hqc1>(std::uint8_t*, const std::uint8_t*);
template void rs_decode_gfni<Hqc3>(std::uint8_t*, const std::uint8_t*);
template void rs_decode_gfni<Hqc5>(std::uint8_t*, const std::uint8_t*);
}
