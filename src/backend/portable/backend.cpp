// The portable backend: plain C++ kernels, constant time, the oracle for every other backend.
#include "backend/portable/kernels.hpp"

#include "backend/generic.hpp"

#include "code/reed_muller.hpp"
#include "code/reed_solomon.hpp"
#include "common/ct.hpp"
#include "gf2x/gf2x_portable.hpp"
#include "sampling/sampling.hpp"
#include "sym/keccak.hpp"

namespace hqc::backend {

namespace portable {

template <class P>
void mul(std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b) {
  constexpr std::size_t W = P::kNWords;
  alignas(64) std::uint64_t prod[2 * W];
  alignas(64) std::uint64_t scratch[gf2x::karatsuba_scratch_words(W)];
  gf2x::karatsuba(prod, a, b, W, scratch);
  gf2x::reduce_mod_xn_minus_1(out, prod, P::kN, W);
  for (std::size_t i = W; i < P::kNWordsPadded; i++) out[i] = 0;
  ct::wipe(prod, sizeof(prod));
  ct::wipe(scratch, sizeof(scratch));
}

template <class P>
void mul2(std::uint64_t* out1, std::uint64_t* out2, const std::uint64_t* a1, const std::uint64_t* a2,
          const std::uint64_t* b) {
  mul<P>(out1, a1, b);
  mul<P>(out2, a2, b);
}

template <class P>
constexpr KernelTable<P> table() {
  return KernelTable<P>{
      .mul = &mul<P>,
      .mul2 = &mul2<P>,
      .transforms = nullptr,
      .mul_name = "karatsuba (portable, branch-free 64x64 carry-less base)",
      .support_to_vector = &sampling::support_to_vector_portable<P>,
      .enc_positions = &sampling::enc_positions_portable<P>,
      .position_taken = &sampling::position_taken_portable,
      .keygen_accept = &sampling::keygen_accept_portable<P>,
      .rm_decode = &code::rm_decode_portable<P>,
      .rs_encode = &code::rs_encode<P>,
      .rs_decode = [](std::uint8_t* msg, const std::uint8_t* cw) { code::rs_decode_portable<P>(msg, cw); },
  };
}

// The table of level P, or an empty one if P is not compiled in (a single-level device build,
// HQC_ONLY_LEVEL): then nothing references that level's kernels and the linker drops them.
template <class P>
constexpr KernelTable<P> table_if_enabled() {
  if constexpr (kLevelEnabled<P::kLevel>) return table<P>();
  else return KernelTable<P>{};
}

template void mul<Hqc1>(std::uint64_t*, const std::uint64_t*, const std::uint64_t*);
template void mul<Hqc3>(std::uint64_t*, const std::uint64_t*, const std::uint64_t*);
template void mul<Hqc5>(std::uint64_t*, const std::uint64_t*, const std::uint64_t*);

}  // namespace portable

extern const Backend kPortableBackend;
const Backend kPortableBackend = {
    .name = "portable",
    .description = "portable C++ (Karatsuba with branch-free carry-less base, constant time)",
    .required = 0,
    .variant = false,
    .keccak_f1600 = &sym::keccak_f1600_portable,
    .keccak_f1600_x4 = &generic::keccak_f1600_x4_each<&sym::keccak_f1600_portable>,
    .hqc1 = portable::table_if_enabled<Hqc1>(),
    .hqc3 = portable::table_if_enabled<Hqc3>(),
    .hqc5 = portable::table_if_enabled<Hqc5>(),
};

}  // namespace hqc::backend
