// Support expansion (spec §4.4) as a GF(2) bit-matrix product Out = R S: the layout that the GFNI
// kernels of the avx2 (256-bit vectors) and avx512 (512-bit vectors) backends share. Plain C++,
// no instructions: each kernel builds R and S with its own vectors and multiplies them with
// gf2p8affineqb.
//
// Out is a sequence of 256-bit rows (row c = bits [256 c, 256 c + 256)). Position p sets bit
// o = p mod 256 of row c = p / 256, so R[c][k] = [c_k = c] and S[k][o] = [o_k = o] (positions are
// distinct: no two terms meet). Positions go in blocks of 8 (kb, position t = 0..7 of the block),
// rows in blocks of 8 (rb):
//  * R of row block rb and position block kb is one qword: byte i, bit t = R[8 rb + i][8 kb + t];
//  * S of position block kb is 32 qwords M[kb][cb], one per output byte cb of a row, each a
//    gf2p8affineqb matrix: byte 7 - j, bit t = S[8 kb + t][8 cb + j].
// Then gf2p8affineqb(byte i of R's qword, M[kb][cb]) is what the block's positions put into byte
// cb of row 8 rb + i.
#pragma once

#include <cstddef>
#include <cstdint>

namespace hqc::backend::support_matrix {

template <class P>
inline constexpr std::size_t kRows = P::kNWordsPadded / 4;  // 256-bit rows: 70 / 142 / 226
template <class P>
inline constexpr std::size_t kRowBlocks = (kRows<P> + 7) / 8;

// Where position p, number t of its block, puts its one bit: in R, the qword of row block
// `row_block`, bit `row_bit`; in S, the matrix of output byte `byte`, bit `byte_bit`. Shifts only
// (constant time): p never becomes an address, the kernels compare row_block and byte with
// public lane indices.
struct Coordinates {
  std::uint64_t row_block, row_bit, byte, byte_bit;
};
constexpr Coordinates coordinates(std::uint64_t p, std::size_t t) {
  return Coordinates{p >> 11, std::uint64_t{1} << (8 * ((p >> 8) & 7) + t), (p >> 3) & 31,
                     std::uint64_t{1} << (8 * (7 - (p & 7)) + t)};
}

}  // namespace hqc::backend::support_matrix
