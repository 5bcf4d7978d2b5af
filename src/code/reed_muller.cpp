#include "code/reed_muller.hpp"

namespace hqc::code {

void rm_hadamard_block(std::int16_t F[128], const std::uint64_t* block, std::size_t mult) {
  std::int16_t a[128], b[128];
  // 1. Counts X_p of ones over the copies.
  for (std::size_t p = 0; p < 128; p++) {
    int c = 0;
    for (std::size_t t = 0; t < mult; t++) c += static_cast<int>((block[2 * t + (p >> 6)] >> (p & 63)) & 1);
    a[p] = static_cast<std::int16_t>(c);
  }
  // 2. Seven butterfly passes out[i] = in[2i] + in[2i+1], out[i+64] = in[2i] - in[2i+1]; this
  //    produces F[q] = sum_p (-1)^popcount(q & p) X_p in natural order.
  std::int16_t* src = a;
  std::int16_t* dst = b;
  for (int pass = 0; pass < 7; pass++) {
    for (int i = 0; i < 64; i++) {
      dst[i] = static_cast<std::int16_t>(src[2 * i] + src[2 * i + 1]);
      dst[i + 64] = static_cast<std::int16_t>(src[2 * i] - src[2 * i + 1]);
    }
    std::int16_t* t = src;
    src = dst;
    dst = t;
  }
  for (int q = 0; q < 128; q++) F[q] = src[q];
  // 3. Remove the bias of the 0/1 counts.
  F[0] = static_cast<std::int16_t>(F[0] - 64 * static_cast<int>(mult));
  ct::wipe(a, sizeof(a));
  ct::wipe(b, sizeof(b));
}

std::uint8_t rm_peak(const std::int16_t F[128]) {
  // 4./5. First index with maximal |F|, bit 7 from the sign at that index. Strictly-greater
  // updates with masks keep the smallest index on ties.
  std::uint32_t best_abs = 0, best_q = 0, best_pos = 0;
  for (std::uint32_t q = 0; q < 128; q++) {
    const std::int32_t v = F[q];
    const std::uint32_t sign = static_cast<std::uint32_t>(v >> 31);  // all-ones if negative
    const std::uint32_t absv = (static_cast<std::uint32_t>(v) ^ sign) - sign;
    const std::uint32_t upd = ct::value_barrier<std::uint32_t>(0u - ((best_abs - absv) >> 31));  // best < abs
    best_abs = (absv & upd) | (best_abs & ~upd);
    best_q = (q & upd) | (best_q & ~upd);
    const std::uint32_t pos = static_cast<std::uint32_t>((0 - v) >> 31) & 1u;  // v > 0
    best_pos = (pos & upd) | (best_pos & ~upd);
  }
  // If no update happened (all zero), q* = 0 and F[0] = 0 is not positive: byte 0.
  return static_cast<std::uint8_t>(best_q | (best_pos << 7));
}

template <class P>
void rm_decode_portable(std::uint8_t out[P::kN1], const std::uint64_t in[P::kN1N2Words]) {
  std::int16_t F[128];
  for (std::size_t j = 0; j < P::kN1; j++) {
    rm_hadamard_block(F, in + j * (P::kN2 / 64), P::kMult);
    out[j] = rm_peak(F);
  }
  ct::wipe(F, sizeof(F));
}

template void rm_decode_portable<Hqc1>(std::uint8_t*, const std::uint64_t*);
template void rm_decode_portable<Hqc3>(std::uint8_t*, const std::uint64_t*);
template void rm_decode_portable<Hqc5>(std::uint8_t*, const std::uint64_t*);

}  // namespace hqc::code
