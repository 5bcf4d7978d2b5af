#!/usr/bin/env bash
# Long fuzzing campaign: scripts/fuzz-long.sh DURATION [TARGET...]
#
# Runs each libFuzzer target (default: decaps_fuzz parse_fuzz kernels_fuzz kernels_fuzz_nogfni
# provider_fuzz) for DURATION (seconds, or with an s/m/h suffix: 90s, 15m, 1h), one after the
# other, starting from the repository corpus fuzz/corpus/<target>. Then merges what was found
# into that corpus with libFuzzer's -merge=1 (only inputs that add coverage are kept, so the
# committed corpus stays small), measures the coverage of the merged corpus, and writes a
# summary table (executions, exec/s, new units, coverage, corpus size, result).
#
# Environment:
#   FUZZ_BUILD     build directory of the fuzz preset (default build/fuzz; build it first with
#                  cmake --preset fuzz && cmake --build --preset fuzz)
#   FUZZ_OUT       where logs, work corpora, crash artifacts and summary.md go
#                  (default build/fuzz-long/<UTC time>)
#   FUZZ_TOTAL=1   DURATION is the total budget, split equally between the targets
#   FUZZ_MERGE=0   do not merge into fuzz/corpus (the repository is then only read)
#   FUZZ_ARGS      extra libFuzzer flags for every run
# Run it at low priority on a shared machine, e.g. nice -n 19 taskset -c 0 scripts/fuzz-long.sh 1h.
# Exit status: 0 when every target ran without a crash, leak, timeout or mismatch; 1 otherwise
# (the reproducer is in FUZZ_OUT/<target>/crash-*, printed in the summary).
set -euo pipefail

usage() {
  sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
}
[ $# -ge 1 ] || usage
case $1 in -h | --help) usage ;; esac

to_seconds() {
  local d=$1
  case $d in
    *h) echo $((${d%h} * 3600)) ;;
    *m) echo $((${d%m} * 60)) ;;
    *s) echo "${d%s}" ;;
    *) echo "$d" ;;
  esac
}
if ! [[ $1 =~ ^[0-9]+[smh]?$ ]]; then
  echo "fuzz-long.sh: DURATION must be a number of seconds or end in s, m or h (got '$1')" >&2
  exit 2
fi
secs=$(to_seconds "$1")
shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(decaps_fuzz parse_fuzz kernels_fuzz kernels_fuzz_nogfni provider_fuzz)
if [ "${FUZZ_TOTAL:-0}" = 1 ]; then
  secs=$((secs / ${#targets[@]}))
fi
if [ "$secs" -lt 1 ]; then
  echo "fuzz-long.sh: less than one second per target" >&2
  exit 2
fi

root=$(cd "$(dirname "$0")/.." && pwd)
build=${FUZZ_BUILD:-$root/build/fuzz}
out=${FUZZ_OUT:-$root/build/fuzz-long/$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$out"
summary=$out/summary.md

# libFuzzer binary and environment of a target (kernels_fuzz_nogfni: kernels_fuzz with GFNI
# hidden, so avx2's AVX2-only Reed-Solomon decoder is compared with portable; same corpus).
binary_of() { case $1 in kernels_fuzz_nogfni) echo "$build/fuzz/kernels_fuzz" ;; *) echo "$build/fuzz/$1" ;; esac; }
corpus_of() { case $1 in kernels_fuzz_nogfni) echo "$root/fuzz/corpus/kernels_fuzz" ;; *) echo "$root/fuzz/corpus/$1" ;; esac; }
env_of() { case $1 in kernels_fuzz_nogfni) echo "HQC_CPU_MASK=gfni" ;; *) echo "" ;; esac; }

for t in "${targets[@]}"; do
  if [ ! -x "$(binary_of "$t")" ]; then
    echo "fuzz-long.sh: $(binary_of "$t") not found (build the fuzz preset first)" >&2
    exit 2
  fi
done

# Coverage of a corpus: libFuzzer's "INITED cov: C ft: F" line after running every input once.
coverage_of() {
  local t=$1 dir=$2 log=$3
  env $(env_of "$t") "$(binary_of "$t")" -runs=0 -rss_limit_mb=2560 "$dir" >"$log" 2>&1 || true
  sed -n 's/.*INITED cov: \([0-9]*\) ft: \([0-9]*\).*/\1 \2/p' "$log" | tail -n 1
}

{
  echo "Fuzz campaign of $(date -u '+%Y-%m-%d %H:%M UTC'): ${secs} s per target, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "Build: $build"
  echo
  echo "| target | seconds | executions | exec/s | new units | cov before | ft before | cov after | ft after | corpus files (KiB) | result |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
} >"$summary"

status=0
for t in "${targets[@]}"; do
  bin=$(binary_of "$t") corpus=$(corpus_of "$t") work=$out/$t
  mkdir -p "$work/new" "$corpus"
  read -r cov0 ft0 < <(coverage_of "$t" "$corpus" "$work/cov-before.log"; echo)
  echo "== $t: ${secs}s from $(find "$corpus" -type f | wc -l) seed files (cov ${cov0:-?}, ft ${ft0:-?})"
  set +e
  start=$SECONDS
  env $(env_of "$t") "$bin" -max_total_time="$secs" -timeout=60 -rss_limit_mb=2560 -print_final_stats=1 \
    -artifact_prefix="$work/" ${FUZZ_ARGS:-} "$work/new" "$corpus" >"$work/fuzz.log" 2>&1
  rc=$?
  ran=$((SECONDS - start))
  set -e
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/fuzz.log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/fuzz.log")
  added=$(sed -n 's/^stat::new_units_added: *//p' "$work/fuzz.log")
  result=ok
  if [ "$rc" -ne 0 ]; then
    status=1
    result="FAILED (exit $rc: $(ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* 2>/dev/null | head -n 1))"
    grep -E "hqc fuzz|ERROR|SUMMARY" "$work/fuzz.log" | head -n 5 || true
  fi
  if [ "${FUZZ_MERGE:-1}" = 1 ] && [ "$rc" -eq 0 ]; then
    env $(env_of "$t") "$bin" -merge=1 -rss_limit_mb=2560 "$corpus" "$work/new" >"$work/merge.log" 2>&1
  fi
  read -r cov1 ft1 < <(coverage_of "$t" "$corpus" "$work/cov-after.log"; echo)
  files=$(find "$corpus" -type f | wc -l)
  kib=$(du -sk "$corpus" | cut -f1)
  echo "   ${execs:-?} executions, ${rate:-?} exec/s, ${added:-?} new units, cov ${cov1:-?} ft ${ft1:-?}, $result"
  echo "| \`$t\` | $ran | ${execs:-?} | ${rate:-?} | ${added:-?} | ${cov0:-?} | ${ft0:-?} | ${cov1:-?} | ${ft1:-?} | $files ($kib) | $result |" >>"$summary"
done
echo >>"$summary"
echo "Finished $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)." >>"$summary"
echo
cat "$summary"
exit "$status"
