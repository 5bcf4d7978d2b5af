#include "backend/avx512/kernels.hpp"
#include "backend/registry.hpp"
namespace hqc::backend::avx512 {
template <class P>
void rm_decode(std::uint8_t* out, const std::uint64_t* in) { portable().kernels<P>().rm_decode(out, in); }
template void rm_decode<Hqc1>(std::uint8_t*, const std::uint64_t*);
template void rm_decode<Hqc3>(std::uint8_t*, const std::uint64_t*);
template void rm_decode<Hqc5>(std::uint8_t*, const std::uint64_t*);
}
