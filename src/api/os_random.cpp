// Hosted edge: the OS random number generator, the default randomness source (random.hpp).
#include <sys/random.h>

#include <cerrno>

#include "api/random.hpp"

namespace hqc::api {

int os_randombytes(void* /*ctx*/, std::uint8_t* out, std::size_t len) {
  while (len > 0) {
    const ssize_t r = getrandom(out, len, 0);
    if (r < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    out += r;
    len -= static_cast<std::size_t>(r);
  }
  return 0;
}

}  // namespace hqc::api
