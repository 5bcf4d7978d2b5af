#!/usr/bin/env bash
# Regenerates perf/baseline.txt (instruction counts per backend, level and operation) after an
# intended performance change, with the release preset's compiler and flags. Commit the result.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --preset release >/dev/null
cmake --build --preset release -j 2 --target perf_ops
cmake --build --preset release --target perf-baseline
