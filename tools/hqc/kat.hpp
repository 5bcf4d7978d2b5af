// NIST-style KAT transcript generation (spec §10): the exact text of the official .rsp files.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>

namespace hqc::tools {

// Writes records 0 .. count-1 of the KAT transcript of `level` to out. Returns false (with a
// message in *error) if the library fails or decapsulation disagrees with encapsulation.
bool write_kat(std::ostream& out, int level, std::size_t count, std::string* error);

// SHA-256 of the full 100-record transcript of `level`, as in liboqs tests/KATs/kem/kats.json
// ("all"), as listed in tests/data/KAT_SHA256SUMS.
std::string expected_kat_digest(int level);

// Lower-case hex SHA-256 (OpenSSL libcrypto).
std::string sha256_hex(const std::string& data);

}  // namespace hqc::tools
