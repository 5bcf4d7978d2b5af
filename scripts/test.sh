#!/usr/bin/env bash
# Runs every test: the release build's whole suite (labels kat, unit, ct, avx2, avx512, provider,
# tls, fuzz, perf as built), then the ASan+UBSan build (clang) with every test labelled sanitize.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release -j 2
ctest --preset release
cmake --preset asan >/dev/null
cmake --build --preset asan -j 2
ctest --preset asan
