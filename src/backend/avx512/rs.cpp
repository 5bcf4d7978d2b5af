#include "backend/avx512/kernels.hpp"
#include "backend/registry.hpp"
namespace hqc::backend::avx512 {
template <class P>
void rs_decode(std::uint8_t* out, const std::uint8_t* in) { portable().kernels<P>().rs_decode(out, in); }
template void rs_decode<Hqc1>(std::uint8_t*, const std::uint8_t*);
template void rs_decode<Hqc3>(std::uint8_t*, const std::uint8_t*);
template void rs_decode<Hqc5>(std::uint8_t*, const std::uint8_t*);
}
