#!/usr/bin/env bash
# Short fuzz run for CTest (label fuzz): run_fuzz.sh FUZZER CORPUS_DIR WORK_DIR SECONDS [extra args]
# New inputs go to WORK_DIR (the repository corpus is only read). Prints the number of executions;
# fails on any crash, leak, timeout or differential mismatch (libFuzzer exits non-zero).
set -euo pipefail
fuzzer=$1 corpus=$2 work=$3 secs=$4
shift 4
mkdir -p "$work"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
"$fuzzer" -max_total_time="$secs" -timeout=60 -rss_limit_mb=2560 -print_final_stats=1 \
  -artifact_prefix="$work/" "$@" "$work" "$corpus" >"$log" 2>&1
rc=$?
set -e
grep -E "stat::number_of_executed_units|stat::peak_rss_mb|^INFO: (seed corpus|Running with)|ERROR|==[0-9]+==|hqc fuzz" "$log" || true
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
echo "$(basename "$fuzzer"): ${execs:-?} executions in ${secs}s, exit code $rc"
if [ "$rc" -ne 0 ]; then
  tail -n 60 "$log"
  exit "$rc"
fi
