// Whole-string decimal integer arguments for the benchmark and test programs (bench/, tests/).
// A value that is not a number, has trailing characters or lies outside [lo, hi] ends the program
// with exit status 2 (a usage error) and a message that names the argument.
#pragma once

#include <cerrno>
#include <cstdio>
#include <cstdlib>

namespace hqc::tools {

inline long arg_int(const char* text, const char* what, long lo, long hi) {
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || errno == ERANGE || v < lo || v > hi) {
    std::fprintf(stderr, "bad %s '%s': expected an integer in [%ld, %ld]\n", what, text, lo, hi);
    std::exit(2);
  }
  return v;
}

}  // namespace hqc::tools
