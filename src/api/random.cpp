// The randomness hook (random.hpp). Freestanding: no OS call here; the hosted default lives in
// os_random.cpp and is referenced only when HQC_FREESTANDING is not set.
#include "api/random.hpp"

#include "common/ct.hpp"
#include "hqc/hqc.h"

namespace hqc::api {
namespace {

// The registered source: the library's one mutable global besides the read-once caches of the
// backend selection. Written by hqc_set_randombytes before concurrent use (its documented
// contract), read by every call that needs randomness.
struct {
  hqc_randombytes_fn fn;
  void* ctx;
} g_random_hook = {nullptr, nullptr};

#if defined(HQC_FREESTANDING) && HQC_FREESTANDING
constexpr hqc_randombytes_fn kDefault = nullptr;  // a device has no OS RNG: the integrator registers one
#else
constexpr hqc_randombytes_fn kDefault = &os_randombytes;
#endif

}  // namespace

int random_bytes(std::uint8_t* out, std::size_t len) {
  const hqc_randombytes_fn fn = g_random_hook.fn != nullptr ? g_random_hook.fn : kDefault;
  void* const ctx = g_random_hook.fn != nullptr ? g_random_hook.ctx : nullptr;
  if (fn == nullptr || fn(ctx, out, len) != 0) {
    ct::wipe(out, len);  // a failing source may have written part of a key seed
    return HQC_ERR_RANDOMNESS;
  }
  return HQC_OK;
}

}  // namespace hqc::api

extern "C" void hqc_set_randombytes(hqc_randombytes_fn fn, void* ctx) {
  hqc::api::g_random_hook = {fn, fn != nullptr ? ctx : nullptr};
}
