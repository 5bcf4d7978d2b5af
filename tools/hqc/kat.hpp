// NIST-style KAT transcript generation (spec §10): the exact text of ../shared/kat/*.rsp.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>

namespace hqc::tools {

// Writes records 0 .. count-1 of the KAT transcript of `level` to out. Returns false (with a
// message in *error) if the library fails or decapsulation disagrees with encapsulation.
bool write_kat(std::ostream& out, int level, std::size_t count, std::string* error);

}  // namespace hqc::tools
