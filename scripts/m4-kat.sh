#!/usr/bin/env bash
# Runs the KAT image of the device build for one level and N records and compares its output,
# byte for byte, with the first N records of the official transcript: their SHA-256 is listed in
# tests/data/KAT_PREFIX_SHA256SUMS for N = 10 and N = 100 (the whole official .rsp file).
#
#   scripts/m4-kat.sh IMAGE LEVEL N        (IMAGE = build/cortex-m4/tests/m4/m4_kat.elf)
#   scripts/m4-kat.sh all N                (every level, with the cortex-m4 preset's image)
#
# Exit 0 when the transcript matches; 1 with both digests otherwise.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = all ]; then
  n=${2:-100}
  image=$root/build/cortex-m4/tests/m4/m4_kat.elf
  rc=0
  for level in 1 3 5; do "$0" "$image" "$level" "$n" || rc=1; done
  exit $rc
fi
image=${1:?usage: m4-kat.sh IMAGE LEVEL N | m4-kat.sh all N}
level=${2:?level}
n=${3:?N}
want=$(awk -v l="HQC-$level" -v n="$n" '$1 == l && $2 == n { print $3 }' "$root/tests/data/KAT_PREFIX_SHA256SUMS")
[ -n "$want" ] || { echo "m4-kat.sh: no official digest for HQC-$level, N = $n (tests/data/KAT_PREFIX_SHA256SUMS)" >&2; exit 2; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
start=$(date +%s)
rc=0
M4_TIMEOUT=${M4_TIMEOUT:-3000} "$root/scripts/m4-run.sh" "$image" "level=$level" "count=$n" >"$out" || rc=$?
got=$(sha256sum "$out" | cut -d' ' -f1)
secs=$(($(date +%s) - start))
if [ $rc -ne 0 ]; then
  echo "HQC-$level: the KAT image failed (exit $rc) after $(grep -c '^count = ' "$out" || true) records:"
  tail -c 300 "$out"
  exit 1
fi
if [ "$got" != "$want" ]; then
  echo "HQC-$level: N = $n records differ from the official transcript: sha256 $got, official $want"
  exit 1
fi
echo "HQC-$level: records 0..$((n - 1)) identical to the official transcript (sha256 $got, $(wc -c <"$out") bytes, ${secs} s in QEMU)"
