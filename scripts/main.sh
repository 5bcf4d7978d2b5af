#!/usr/bin/env bash
# The main job: install what is missing, build (release preset), then `hqc info`, the KAT
# self-check of all levels on the selected backend, and a short benchmark: each backend against
# portable on the KEM operations (pinned, warm-up, medians, interleaved in one run), and a summary.
#   scripts/main.sh            the short table (hqc bench --backend all --summary)
#   scripts/main.sh --full     the full table: every operation and kernel, p10/p90, instructions
# Further arguments go to `hqc bench` (e.g. --level 1 --runs 5000). The whole build log is kept in
# build/main.log and shown (its end) when the build fails.
set -euo pipefail
cd "$(dirname "$0")/.."
full=0
if [ "${1:-}" = --full ]; then full=1; shift; fi
mkdir -p build
LOG=build/main.log
: >"$LOG"
die() { echo "main: $1 failed; the last lines of $LOG:" >&2; tail -n 40 "$LOG" >&2; exit 1; }

echo "== dependencies"
scripts/install-deps.sh 2>&1 | tee -a "$LOG" || die "installing dependencies"
echo "== build (release preset; full log in $LOG)"
cmake --preset release >>"$LOG" 2>&1 || die "cmake configure"
# Ninja's "[done/total]" lines become one progress line on a terminal, and a line at each quarter
# otherwise (CI logs).
tty=0; [ -t 1 ] && tty=1
set +e
cmake --build --preset release -j 2 2>&1 | tee -a "$LOG" | awk -v tty=$tty '
  match($0, /^\[[0-9]+\/[0-9]+\]/) {
    split(substr($0, 2, RLENGTH - 2), n, "/"); done = n[1] + 0; total = n[2] + 0
    if (tty) { printf "\r  %d/%d build steps", done, total; fflush() }
    else if (done * 4 >= (shown + 1) * total) { while (done * 4 >= (shown + 1) * total) shown++; printf "  %d/%d build steps\n", done, total }
  }
  END { if (tty && total) printf "\n"; if (!total) print "  up to date" }'
build_rc=${PIPESTATUS[0]}
set -e
[ "$build_rc" = 0 ] || die "the build"
echo "  $(grep -ciE '(^|[^-])warning:' "$LOG" || true) warnings"

HQC=build/release/tools/hqc/hqc
echo "== hqc info"
"$HQC" info
echo "== hqc selftest (KAT digests, 100 records per level)"
"$HQC" selftest
if [ $full = 1 ]; then
  echo "== hqc bench --backend all $* (every operation and kernel)"
  "$HQC" bench --backend all "$@"
  exit 0
fi
echo "== hqc bench --backend all --summary $* (KEM operations; the full table: scripts/main.sh --full)"
BENCH=build/main-bench.txt
read -r load _ </proc/loadavg
if awk -v l="$load" -v n="$(nproc)" 'BEGIN { exit !(l > n / 2) }'; then
  echo "note: load average $load on $(nproc) CPUs: other processes disturb the timings, the longest operations most"
fi
"$HQC" bench --backend all --summary "$@" | tee "$BENCH"

selected=$("$HQC" info --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["selected_backend"])')
speed=$(grep '^selected backend' "$BENCH" | sed 's/^selected backend [^:]*: //' || true)
echo "== summary"
echo "hqckit built in build/release and its KAT self-check passed at HQC-1, 3 and 5. On this CPU hqc" \
  "selects the $selected backend${speed:+, ${speed}}." \
  "Next: the full table with every kernel ('scripts/main.sh --full'), the CLI ('$HQC --help')," \
  "the C/C++ API, the OpenSSL provider and TLS measurements (README.md), and the whole test suite" \
  "('scripts/test.sh')." | fold -s -w 100
