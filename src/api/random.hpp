// The one source of randomness of the library (include/hqc/hqc.h, hqc_set_randombytes): the
// function the integrator registered, else the platform default (the OS RNG on hosted builds;
// none on a freestanding build, HQC_FREESTANDING=1, where every call that needs randomness then
// fails with HQC_ERR_RANDOMNESS).
#pragma once

#include <cstddef>
#include <cstdint>

namespace hqc::api {

// Fills out[0..len) from the registered hook or the default. Returns HQC_OK, or
// HQC_ERR_RANDOMNESS with out zeroed if the source failed or there is none.
int random_bytes(std::uint8_t* out, std::size_t len);

// The hosted default (os_random.cpp): getrandom(2). Same contract as hqc_randombytes_fn.
int os_randombytes(void* ctx, std::uint8_t* out, std::size_t len);

}  // namespace hqc::api
