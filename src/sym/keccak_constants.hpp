// The constants of Keccak-f[1600] (FIPS 202 §3.2), shared by the portable permutation and every
// backend's: constexpr data only, so a backend's translation unit may include it whatever its
// instruction-set flags.
#pragma once

#include <cstdint>

namespace hqc::sym {

// iota's round constants RC[i], i = 0 .. 23 (FIPS 202 §3.2.5).
inline constexpr std::uint64_t kKeccakRoundConstants[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL, 0x8000000080008000ULL, 0x000000000000808bULL,
    0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL, 0x000000000000008aULL, 0x0000000000000088ULL,
    0x0000000080008009ULL, 0x000000008000000aULL, 0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL,
    0x8000000000008003ULL, 0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800aULL, 0x800000008000000aULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

// rho's offsets r[x][y] by lane index x + 5y (FIPS 202 §3.2.2).
inline constexpr unsigned kKeccakRho[25] = {0,  1,  62, 28, 27, 36, 44, 6,  55, 20, 3,  10, 43,
                                            25, 39, 41, 45, 15, 21, 8,  18, 2,  61, 56, 14};

}  // namespace hqc::sym
