// The committed instruction-count baseline (perf/baseline.txt, see tests/perf and docs/PERF.md),
// read so that `hqc bench` can show instructions beside cycles.
#pragma once

#include <cstdint>
#include <string>

namespace hqc::tools {

// Instructions of (backend, level, op) in the baseline, or -1 if the file or the entry is absent.
// The table is $HQC_PERF_BASELINE if set, else perf/baseline.txt as compiled in.
std::int64_t baseline_instructions(const std::string& backend, int level, const std::string& op);

}  // namespace hqc::tools
