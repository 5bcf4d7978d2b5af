#include "backend/avx2/kernels.hpp"
#include "backend/registry.hpp"
namespace hqc::backend::avx2 {
template <class P>
void rm_decode(std::uint8_t* out, const std::uint64_t* in) {
  if constexpr (P::kLevel == 1) portable().hqc1.rm_decode(out, in);
  else if constexpr (P::kLevel == 3) portable().hqc3.rm_decode(out, in);
  else portable().hqc5.rm_decode(out, in);
}
template void rm_decode<Hqc1>(std::uint8_t*, const std::uint64_t*);
template void rm_decode<Hqc3>(std::uint8_t*, const std::uint64_t*);
template void rm_decode<Hqc5>(std::uint8_t*, const std::uint64_t*);
}
