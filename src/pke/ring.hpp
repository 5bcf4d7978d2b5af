// The vectors of HQC-PKE: ring elements of GF(2)[x]/(x^n - 1), concatenated-code words, and the
// transforms a transform multiplier keeps (layout invariants in backend/ops.hpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "backend/ops.hpp"
#include "common/ct.hpp"
#include "common/mem.hpp"
#include "params/params.hpp"

namespace hqc::pke {

// A length-n ring element.
template <class P>
struct alignas(64) RingVec {
  std::uint64_t w[P::kNWordsPadded];
  std::uint8_t* bytes() { return reinterpret_cast<std::uint8_t*>(w); }
  const std::uint8_t* bytes() const { return reinterpret_cast<const std::uint8_t*>(w); }
};

// A length-n1*n2 code word.
template <class P>
struct alignas(64) CodeVec {
  std::uint64_t w[P::kN1N2Words];
  std::uint8_t* bytes() { return reinterpret_cast<std::uint8_t*>(w); }
  const std::uint8_t* bytes() const { return reinterpret_cast<const std::uint8_t*>(w); }
};

// The transform of a ring element for a transform multiplier (backend/ops.hpp, FAFFT).
template <class P>
struct alignas(64) Transform {
  std::uint64_t w[backend::kTransformWords<P>];
};

// Loads a packed length-n vector; returns all-ones if a padding bit was set (the bits are
// cleared in `out` either way). Constant time.
template <class P>
std::uint64_t load_ring_vec(RingVec<P>& out, const std::uint8_t* in) {
  mem::zero(out.w, sizeof(out.w));
  mem::copy(out.w, in, P::kVecNBytes);
  const std::uint64_t extra = out.w[P::kNWords - 1] & ~P::kLastWordMask;
  out.w[P::kNWords - 1] &= P::kLastWordMask;
  return ct::mask_nonzero64(extra);
}

}  // namespace hqc::pke
