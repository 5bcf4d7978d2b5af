// Negative control of tests/m4/check_image.sh (ctest check_image_catches_heap): an image that
// uses the heap, which the check must report by name.
#include <cstdlib>

#include "m4_support.hpp"

int main() {
  void* volatile p = std::malloc(64);
  m4::out(p != nullptr ? "heap_probe: allocated\n" : "heap_probe: no memory\n");
  std::free(p);
  m4::flush();
  return 0;
}
