#include <iostream>
#include <string>
#include "kat.hpp"
int main(int argc, char** argv) {
  std::string err;
  int level = argc > 1 ? std::stoi(argv[1]) : 1;
  std::size_t n = argc > 2 ? std::stoul(argv[2]) : 1;
  if (!hqc::tools::write_kat(std::cout, level, n, &err)) { std::cerr << err << "\n"; return 1; }
}
