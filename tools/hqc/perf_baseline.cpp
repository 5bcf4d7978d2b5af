#include "perf_baseline.hpp"

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

namespace hqc::tools {

extern const char kPerfBaselineText[];  // perf/baseline.txt as built (perf_baseline_data.cpp.in)

namespace {

using Key = std::tuple<std::string, int, std::string>;

std::map<Key, std::int64_t> load() {
  std::map<Key, std::int64_t> m;
  const char* env = std::getenv("HQC_PERF_BASELINE");
  std::ifstream file;
  std::istringstream built_in(kPerfBaselineText);
  if (env) file.open(env);
  std::istream& in = env ? static_cast<std::istream&>(file) : built_in;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ss(line);
    std::string backend, op;
    int level = 0;
    long long count = 0;
    if (ss >> backend >> level >> op >> count) m[{backend, level, op}] = count;
  }
  return m;
}

}  // namespace

std::int64_t baseline_instructions(const std::string& backend, int level, const std::string& op) {
  static const std::map<Key, std::int64_t> table = load();
  auto it = table.find({backend, level, op});
  return it == table.end() ? -1 : it->second;
}

}  // namespace hqc::tools
