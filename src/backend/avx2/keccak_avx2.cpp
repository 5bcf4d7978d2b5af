#include "backend/avx2/kernels.hpp"
#include "sym/keccak.hpp"
namespace hqc::backend::avx2 {
void keccak_f1600(std::uint64_t s[25]) { sym::keccak_f1600_portable(s); }
}
