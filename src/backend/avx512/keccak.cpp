#include "backend/avx512/kernels.hpp"
#include "backend/registry.hpp"
namespace hqc::backend::avx512 {
void keccak_f1600(std::uint64_t state[25]) { portable().keccak_f1600(state); }
}
