// Vector sampling (spec §4): dense h, the key-generation rejection sampler (x, y), the
// constant-time encryption sampler (r1, r2, e) and mask-based support expansion.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/ct.hpp"
#include "params/params.hpp"
#include "sym/keccak.hpp"

namespace hqc::sampling {

// value mod n for value < 2^24, by Barrett reduction (floor(2^32/n)) and one masked subtraction.
template <class P>
inline std::uint32_t reduce_mod_n(std::uint32_t value) {
  constexpr std::uint64_t kBarrett = (std::uint64_t{1} << 32) / P::kN;
  const std::uint32_t q = static_cast<std::uint32_t>((value * kBarrett) >> 32);
  std::uint32_t r = value - q * static_cast<std::uint32_t>(P::kN);
  const std::uint32_t ge =
      ~static_cast<std::uint32_t>(static_cast<std::int32_t>(r - static_cast<std::uint32_t>(P::kN)) >> 31);
  return r - (static_cast<std::uint32_t>(P::kN) & ge);
}

// SampleDense (spec §4.1): ceil(n/8) XOF bytes into a length-n vector, padding cleared.
template <class P>
void sample_dense(std::uint64_t out[P::kNWordsPadded], sym::Shake256& xof) {
  for (std::size_t i = 0; i < P::kNWordsPadded; i++) out[i] = 0;
  xof.squeeze(reinterpret_cast<std::uint8_t*>(out), P::kVecNBytes);
  out[P::kNWords - 1] &= P::kLastWordMask;
}

// The duplicate test of the key-generation sampler: all-ones if r is one of pos[0..count).
inline std::uint32_t position_taken_portable(const std::uint32_t* pos, std::size_t count, std::uint32_t r) {
  std::uint32_t dup = 0;
  for (std::size_t i = 0; i < count; i++) dup |= ct::mask_eq32(pos[i], r);
  return dup;
}

// One three-byte draw of the key-generation sampler (spec §4.2): the position c mod n, and
// reject = all-ones iff c is at or above the rejection threshold.
template <class P>
std::uint32_t keygen_draw(const std::uint8_t* draw, std::uint32_t& reject) {
  const std::uint32_t c = static_cast<std::uint32_t>(draw[0]) | (static_cast<std::uint32_t>(draw[1]) << 8) |
                          (static_cast<std::uint32_t>(draw[2]) << 16);
  reject = static_cast<std::uint32_t>(static_cast<std::int32_t>(P::kRejectThreshold - 1 - c) >> 31);
  return reduce_mod_n<P>(c);
}

// One refill of the key-generation sampler (spec §4.2), draw by draw: the portable keygen_accept
// kernel (backend/ops.hpp). Each of the `groups` three-byte draws is appended to pos[count..] iff
// it is below the rejection threshold and its position is not yet taken. Returns the new count.
// `Taken` is the duplicate test (position_taken_portable, or a backend's own with its contract).
using PositionTakenFn = std::uint32_t (*)(const std::uint32_t* pos, std::size_t count, std::uint32_t r);
template <class P, PositionTakenFn Taken>
std::size_t keygen_accept_with(std::uint32_t* pos, std::size_t count, const std::uint8_t* draws, std::size_t groups) {
  for (std::size_t i = 0; i < groups; i++) {
    // Rejection (c >= T) and duplicate tests decide only which draws are kept.
    std::uint32_t reject;
    const std::uint32_t r = keygen_draw<P>(draws + 3 * i, reject);
    reject |= Taken(pos, count, r);
    // Declassified: the accept/reject pattern of the key-generation sampler is public by design
    // (spec §8: its timing depends only on the long-term seed); the position itself stays secret.
    ct::declassify(&reject, sizeof(reject));
    if (reject == 0) pos[count++] = r;
  }
  return count;
}
template <class P>
std::size_t keygen_accept_portable(std::uint32_t* pos, std::size_t count, const std::uint8_t* draws,
                                   std::size_t groups) {
  return keygen_accept_with<P, &position_taken_portable>(pos, count, draws, groups);
}

// Key-generation sampler (spec §4.2): w distinct positions in generation order. Returns the
// number of XOF bytes consumed (3 per attempt). Its running time depends on the XOF stream (by
// design, spec §8): `accept` (a backend's keygen_accept kernel, backend/ops.hpp) decides each
// refill and declassifies only its accept pattern. Source is any byte stream with
// squeeze(out, len) (sym::Shake256, sym::XofWithPrefix).
using KeygenAcceptFn = std::size_t (*)(std::uint32_t* pos, std::size_t count, const std::uint8_t* draws,
                                       std::size_t groups);
template <class P, class Source>
std::size_t sample_keygen_positions(std::uint32_t pos[P::kW], Source& xof,
                                    KeygenAcceptFn accept = &keygen_accept_portable<P>) {
  std::size_t count = 0, consumed = 0;
  std::uint8_t buf[3 * P::kW];
  while (count < P::kW) {
    // Read exactly one 3-byte group per missing position: never past the last group used, so a
    // second draw from the same XOF starts where this one stopped (spec §4.2).
    const std::size_t groups = P::kW - count;
    xof.squeeze(buf, 3 * groups);
    consumed += 3 * groups;
    count = accept(pos, count, buf, groups);
  }
  ct::wipe(buf, sizeof(buf));
  return consumed;
}

// The encryption sampler's draws (spec §4.3) from the 4*w XOF bytes: pos[i] = i + (r_i (n - i)) >> 32
// by multiply-shift, before the duplicate fix-up.
template <class P>
void enc_positions_draw(std::uint32_t* pos, const std::uint8_t* rnd, std::size_t w) {
  for (std::size_t i = 0; i < w; i++) {
    const std::uint32_t r = static_cast<std::uint32_t>(rnd[4 * i]) | (static_cast<std::uint32_t>(rnd[4 * i + 1]) << 8) |
                            (static_cast<std::uint32_t>(rnd[4 * i + 2]) << 16) |
                            (static_cast<std::uint32_t>(rnd[4 * i + 3]) << 24);
    pos[i] = static_cast<std::uint32_t>(i + ((static_cast<std::uint64_t>(r) * (P::kN - i)) >> 32));
  }
}

// Encryption sampler (spec §4.3) from the 4*w XOF bytes (w >= 1): the draws, then the all-pairs
// duplicate fix-up from w-2 down to 0 with masks, Taken (position_taken_portable, or a backend's
// own with its contract) testing pos[i] against the final pos[i + 1 .. w).
template <class P, PositionTakenFn Taken>
void enc_positions_with(std::uint32_t* pos, const std::uint8_t* rnd, std::size_t w) {
  enc_positions_draw<P>(pos, rnd, w);
  for (std::size_t i = w - 1; i-- > 0;) {
    const std::uint32_t found = Taken(pos + i + 1, w - 1 - i, pos[i]);
    pos[i] = (static_cast<std::uint32_t>(i) & found) | (pos[i] & ~found);
  }
}
template <class P>
void enc_positions_portable(std::uint32_t* pos, const std::uint8_t* rnd, std::size_t w) {
  enc_positions_with<P, &position_taken_portable>(pos, rnd, w);
}

// Support expansion (spec §4.4): every word is built from every position with masks, so no
// position is used as an address.
template <class P>
void support_to_vector_portable(std::uint64_t* out, const std::uint32_t* pos, std::size_t w) {
  for (std::size_t i = 0; i < P::kNWordsPadded; i++) out[i] = 0;
  for (std::size_t k = 0; k < w; k++) {
    const std::uint64_t bit = std::uint64_t{1} << (pos[k] & 63);
    const std::uint64_t word = pos[k] >> 6;
    for (std::size_t i = 0; i < P::kNWords; i++) out[i] |= bit & ct::mask_eq64(i, word);
  }
}

}  // namespace hqc::sampling
