// Generic kernels that a backend builds from its own kernels where it has nothing faster, so that
// every slot of every table is filled (backend/ops.hpp) and every backend runs the same algorithm.
//
// Included only by a backend's table translation unit (src/backend/<name>/backend.cpp), which is
// compiled with that backend's ISA flags, and instantiated there with that backend's kernels as
// template arguments. Everything here is in an anonymous namespace (internal linkage) and calls no
// shared inline code (common/ct.hpp, sampling/), so no instantiation can be merged by the linker
// with code built for another instruction set (docs/AVX2.md, "Isolation of ISA code").
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "backend/ops.hpp"

#if defined(HQC_CT_VALGRIND) && HQC_CT_VALGRIND
#include <valgrind/memcheck.h>
#elif defined(HQC_CT_MSAN) && HQC_CT_MSAN
#include <sanitizer/msan_interface.h>
#endif

namespace hqc::backend::generic {
// Included by each backend's table; each gets its own instantiations, compiled with that
// backend's flags.
namespace {  // NOLINT(cert-dcl59-cpp)

// keccak_f1600_x4 from a one-state permutation F: each non-null state in turn (for a backend
// whose multi-state permutation would not beat this, e.g. avx2: a 4-way AVX2 permutation costs
// about as much as three of its scalar BMI2 permutations).
template <KeccakF1600Fn F>
// NOLINTNEXTLINE(readability-non-const-parameter): the kernel table's keccak_f1600_x4 signature
void keccak_f1600_x4_each(std::uint64_t* s0, std::uint64_t* s1, std::uint64_t* s2, std::uint64_t* s3) {
  for (std::uint64_t* s : {s0, s1, s2, s3})
    if (s != nullptr) F(s);
}

// The constant-time harness marker of common/ct.hpp (ct::declassify), own copy (see above).
inline void declassify([[maybe_unused]] const void* p, [[maybe_unused]] std::size_t len) {
#if defined(HQC_CT_VALGRIND) && HQC_CT_VALGRIND
  VALGRIND_MAKE_MEM_DEFINED(p, len);
#elif defined(HQC_CT_MSAN) && HQC_CT_MSAN
  __msan_unpoison(p, len);
#endif
}

// keygen_accept (spec §4.2) draw by draw with the backend's duplicate test Taken: the same
// decisions as sampling::keygen_accept_portable, so the same positions and accept pattern.
template <class P, PositionTakenFn Taken>
std::size_t keygen_accept_draws(std::uint32_t* pos, std::size_t count, const std::uint8_t* draws, std::size_t groups) {
  constexpr std::uint64_t kBarrett = (std::uint64_t{1} << 32) / P::kN;  // as sampling::reduce_mod_n
  constexpr auto kN = static_cast<std::uint32_t>(P::kN);
  for (std::size_t i = 0; i < groups; i++) {
    const std::uint32_t c = static_cast<std::uint32_t>(draws[3 * i]) |
                            (static_cast<std::uint32_t>(draws[3 * i + 1]) << 8) |
                            (static_cast<std::uint32_t>(draws[3 * i + 2]) << 16);
    // Rejection (c >= T) and duplicate tests decide only which draws are kept.
    std::uint32_t reject = static_cast<std::uint32_t>(static_cast<std::int32_t>(P::kRejectThreshold - 1 - c) >> 31);
    const std::uint32_t q = static_cast<std::uint32_t>((c * kBarrett) >> 32);
    std::uint32_t r = c - q * kN;
    r -= kN & ~static_cast<std::uint32_t>(static_cast<std::int32_t>(r - kN) >> 31);  // r >= n: subtract n once
    reject |= Taken(pos, count, r);
    // The accept pattern is public (spec §8); the position stays secret.
    declassify(&reject, sizeof(reject));
    if (reject == 0) pos[count++] = r;
  }
  return count;
}

}  // namespace
}  // namespace hqc::backend::generic
