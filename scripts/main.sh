#!/usr/bin/env bash
# The main job: install what is missing, build (release preset), then `hqc info`, the KAT
# self-check of all levels on the selected backend, and the `hqc bench` table of all backends side by
# side (pinned, warm-up, medians). Extra arguments go to `hqc bench` (e.g. --level 1 --runs 5000).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release -j 2
HQC=build/release/tools/hqc/hqc
echo "== hqc info"; "$HQC" info
echo "== hqc selftest (KAT digests, 100 records per level)"; "$HQC" selftest
echo "== hqc bench (all backends side by side)"; "$HQC" bench --backend all "$@"
