// Portable kernels that other backends reuse or compare against.
#pragma once

#include <cstdint>

#include "backend/ops.hpp"

namespace hqc::backend::portable {

// out = a * b mod (x^n - 1), Karatsuba (see gf2x/gf2x_portable.hpp).
template <class P>
void mul(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b);

}  // namespace hqc::backend::portable
