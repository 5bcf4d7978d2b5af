// `hqc bench`: KEM operations and kernels, per backend, side by side in one run.
// Method (the field's convention): pinned to one core, warm-up, median of many runs, TSC cycles
// (rdtsc with lfence) and nanoseconds (CLOCK_MONOTONIC); backends alternate in blocks of 10 runs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hqc::tools {

struct BenchOptions {
  std::vector<int> levels{1, 3, 5};
  std::vector<std::string> backends;  // empty: the selected backend only
  std::size_t runs = 1000;
  std::size_t warmup = 100;
  bool kernels = true;  // include kernel rows
  bool json = false;
  bool csv = false;
  int cpu = -1;                  // core to pin to; -1: the last allowed core
  std::vector<std::string> ops;  // only these operations (empty: all)
};

struct BenchRow {
  int level;
  std::string backend;
  std::string op;
  std::string kind;  // "kem" or "kernel"
  double median_cycles;
  double median_ns;
  double p10_cycles;
  double p90_cycles;
  std::size_t runs;
  std::int64_t instructions;  // from the committed callgrind baseline, -1 if unknown
};

// Runs the benchmark; returns false with *error on bad options.
bool run_bench(const BenchOptions& opt, std::vector<BenchRow>* rows, std::string* pinned_note, std::string* error);

// "" if this process may run on `cpu`, else why not (with the CPUs it may use).
std::string cpu_unavailable(int cpu);

// KEM operations only: per level and op, the first backend's median cycles (portable with
// `--backend all`) and every other backend's median with its speed-up over the first, then one
// line for `selected` (the backend hqc uses by default): the range of its speed-ups.
void print_bench_summary(const std::vector<BenchRow>& rows, const std::string& note, const std::string& selected);
void print_bench_table(const std::vector<BenchRow>& rows, const std::string& note);
void print_bench_json(const std::vector<BenchRow>& rows);
void print_bench_csv(const std::vector<BenchRow>& rows);

}  // namespace hqc::tools
