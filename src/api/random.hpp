// The one source of randomness of the library (include/hqc/hqc.h, hqc_set_randombytes): the
// function the integrator registered, else the platform default (the OS RNG on hosted builds;
// none on a freestanding build, HQC_FREESTANDING=1, where every call that needs randomness then
// fails with HQC_ERR_RANDOMNESS).
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/ct.hpp"
#include "hqc/hqc.h"

namespace hqc::api {

// Fills out[0..len) from the registered hook or the default. Returns HQC_OK, or
// HQC_ERR_RANDOMNESS with out zeroed if the source failed or there is none.
int random_bytes(std::uint8_t* out, std::size_t len);

// The randomized calls of the API over their deterministic variants: draws len (<= Capacity)
// random bytes into a stack buffer and returns derand(bytes); if the source fails, derand is not
// called, fail() zeroes the caller's outputs and the status is HQC_ERR_RANDOMNESS (no key,
// ciphertext or shared secret without randomness). The bytes are wiped either way.
template <std::size_t Capacity, class Derand, class Fail>
int with_random_bytes(std::size_t len, Derand&& derand, Fail&& fail) {
  std::uint8_t bytes[Capacity];
  int rc = random_bytes(bytes, len);
  if (rc == HQC_OK) rc = derand(static_cast<const std::uint8_t*>(bytes));
  else fail();
  ct::wipe(bytes, sizeof(bytes));
  return rc;
}

// The hosted default (os_random.cpp): getrandom(2). Same contract as hqc_randombytes_fn.
int os_randombytes(void* ctx, std::uint8_t* out, std::size_t len);

}  // namespace hqc::api
