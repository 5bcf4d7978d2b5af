// The concatenated code of HQC-PKE (spec §5.1, §5.4): Reed-Solomon outside, duplicated
// Reed-Muller inside.
#pragma once

#include <cstdint>

#include "backend/ops.hpp"
#include "code/reed_muller.hpp"
#include "code/reed_solomon.hpp"
#include "common/ct.hpp"
#include "pke/ring.hpp"

namespace hqc::pke {

// Encode(m) (spec §5.1): RS then duplicated RM, with the portable RS encoder (the oracle).
template <class P>
void code_encode(CodeVec<P>& out, const std::uint8_t m[P::kK]) {
  std::uint8_t cw[P::kN1];
  code::rs_encode<P>(cw, m);
  code::rm_encode<P>(out.w, cw);
  ct::wipe(cw, sizeof(cw));
}

// Encode(m) (spec §5.1) with the RS encoder of kernel table k (the same bytes on every table).
template <class P>
void code_encode(const backend::KernelTable<P>& k, CodeVec<P>& out, const std::uint8_t m[P::kK]) {
  std::uint8_t cw[P::kN1];
  k.rs_encode(cw, m);
  code::rm_encode<P>(out.w, cw);
  ct::wipe(cw, sizeof(cw));
}

// Decode(w) (spec §5.4) with the decoders of kernel table k.
template <class P>
void code_decode(const backend::KernelTable<P>& k, std::uint8_t m[P::kK], const CodeVec<P>& in) {
  std::uint8_t cw[P::kN1];
  k.rm_decode(cw, in.w);
  k.rs_decode(m, cw);
  ct::wipe(cw, sizeof(cw));
}

}  // namespace hqc::pke
