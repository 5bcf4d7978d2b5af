#include "backend/avx512/kernels.hpp"
#include "backend/registry.hpp"
namespace hqc::backend::avx512 {
template <class P>
void support_to_vector(std::uint64_t* out, const std::uint32_t* pos, std::size_t w) { portable().kernels<P>().support_to_vector(out, pos, w); }
template <class P>
void enc_positions(std::uint32_t* pos, const std::uint8_t* x, std::size_t w) { portable().kernels<P>().enc_positions(pos, x, w); }
template void support_to_vector<Hqc1>(std::uint64_t*, const std::uint32_t*, std::size_t);
template void support_to_vector<Hqc3>(std::uint64_t*, const std::uint32_t*, std::size_t);
template void support_to_vector<Hqc5>(std::uint64_t*, const std::uint32_t*, std::size_t);
template void enc_positions<Hqc1>(std::uint32_t*, const std::uint8_t*, std::size_t);
template void enc_positions<Hqc3>(std::uint32_t*, const std::uint8_t*, std::size_t);
template void enc_positions<Hqc5>(std::uint32_t*, const std::uint8_t*, std::size_t);
}
