// Helpers shared by the tests: hex, vector files (tests/data, copied from shared/kat/vectors).
#pragma once

#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace hqc::test {

using Bytes = std::vector<std::uint8_t>;

// A backend name as a GoogleTest parameter name ("avx512-fafft" -> "avx512_fafft").
inline std::string param_name(std::string s) {
  for (auto& c : s)
    if (c == '-') c = '_';
  return s;
}

inline Bytes from_hex(const std::string& s) {
  if (s.size() % 2 != 0) throw std::runtime_error("odd hex length");
  Bytes out(s.size() / 2);
  for (std::size_t i = 0; i < out.size(); i++)
    out[i] = static_cast<std::uint8_t>(std::stoul(s.substr(2 * i, 2), nullptr, 16));
  return out;
}

inline std::string to_hex(const std::uint8_t* p, std::size_t n) {
  static const char* kHex = "0123456789abcdef";
  std::string s;
  for (std::size_t i = 0; i < n; i++) {
    s += kHex[p[i] >> 4];
    s += kHex[p[i] & 15];
  }
  return s;
}
inline std::string to_hex(const Bytes& b) { return to_hex(b.data(), b.size()); }

inline std::vector<unsigned> to_list(const std::string& s) {
  std::vector<unsigned> out;
  if (s == "(none)") return out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(static_cast<unsigned>(std::stoul(item)));
  return out;
}

inline std::string data_path(const std::string& name) { return std::string(HQC_TEST_DATA_DIR) + "/" + name; }

// "label = value" lines; '#' comments and blank lines skipped.
class VectorFile {
 public:
  explicit VectorFile(const std::string& name) {
    std::ifstream in(data_path(name));
    if (!in) throw std::runtime_error("cannot open " + data_path(name));
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      auto eq = line.find(" = ");
      if (eq == std::string::npos) continue;
      values_[line.substr(0, eq)] = line.substr(eq + 3);
    }
  }
  bool has(const std::string& k) const { return values_.contains(k); }
  const std::string& str(const std::string& k) const {
    auto it = values_.find(k);
    if (it == values_.end()) throw std::runtime_error("missing label " + k);
    return it->second;
  }
  Bytes bytes(const std::string& k) const { return from_hex(str(k)); }
  std::vector<unsigned> list(const std::string& k) const { return to_list(str(k)); }
  unsigned num(const std::string& k) const { return static_cast<unsigned>(std::stoul(str(k))); }

 private:
  std::map<std::string, std::string> values_;
};

}  // namespace hqc::test
