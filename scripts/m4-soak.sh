#!/usr/bin/env bash
# Device soak: the m4 row against portable and against the spec for many random inputs, and its
# constant-time traces for many pairs of secret inputs, in QEMU's mps2-an386 (Cortex-M4 with FPU).
#  - The test image (tests/m4/m4_test.cpp) once per seed: seed=S varies every random input of its
#    checks (the kernels of every row against portable, the ring product at every size of the
#    plan against the schoolbook product, round trips, hostile ciphertexts); ctest runs seed 0.
#  - The trace-equality check (tests/m4/ct_trace_test.sh) twice per pair: pair=P starts the
#    image's search for two key seeds with one accept pattern from other seeds and other coins, so
#    that every pair compares other keys, ciphertexts and shared secrets at HQC-1, 3 and 5; the
#    second run takes seeds whose pattern rejects one draw (reject), a duplicate in one set and a
#    draw above the threshold in the other, so that the samplers' refill paths are compared too
#    and why a draw was rejected must not show. ctest runs pair 0 both ways.
# Runs JOBS images at a time, prints every failure with its seed or pair (to rerun it:
# scripts/m4-run.sh BUILD/tests/m4/m4_test.elf seed=S, or tests/m4/ct_trace_test.sh
# BUILD/tests/m4/m4_ct.elf [reject] pair=P) and a summary.
#
#   scripts/m4-soak.sh [--build DIR] [--seeds N] [--first-seed S] [--pairs N] [--first-pair P]
#                      [--jobs J] [--leak]
#
# Defaults: build/cortex-m4 (configure and build it first, e.g. scripts/m4-test.sh), 200 seeds
# from 1, 20 pairs from 1, J = the number of processors. --leak runs the trace check with the
# planted leak of m4_ct (HQC-1 only): every pair must then fail, which the ctest m4_soak_catches_leak
# checks. Exit 0 when every run passed, 1 when one failed, 2 on a bad argument or a missing image.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build/cortex-m4
seeds=200
first_seed=1
pairs=20
first_pair=1
jobs=$(nproc)
leak=
usage="usage: m4-soak.sh [--build DIR] [--seeds N] [--first-seed S] [--pairs N] [--first-pair P] [--jobs J] [--leak]"
number() {
  [[ ${2:-} =~ ^[0-9]{1,9}$ ]] || { echo "m4-soak.sh: $1 wants a number, got '${2:-}'" >&2; exit 2; }
}
while [ $# -gt 0 ]; do
  case $1 in
    --build) [ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }; build=$2; shift 2 ;;
    --seeds) number "$1" "${2:-}"; seeds=$2; shift 2 ;;
    --first-seed) number "$1" "${2:-}"; first_seed=$2; shift 2 ;;
    --pairs) number "$1" "${2:-}"; pairs=$2; shift 2 ;;
    --first-pair) number "$1" "${2:-}"; first_pair=$2; shift 2 ;;
    --jobs) number "$1" "${2:-}"; jobs=$2; shift 2 ;;
    --leak) leak=leak; shift ;;
    *) echo "m4-soak.sh: unknown argument $1; $usage" >&2; exit 2 ;;
  esac
done
[ "$jobs" -ge 1 ] || { echo "m4-soak.sh: --jobs must be at least 1" >&2; exit 2; }
test_image=$build/tests/m4/m4_test.elf
ct_image=$build/tests/m4/m4_ct.elf
for image in "$test_image" "$ct_image"; do
  [ -f "$image" ] || { echo "m4-soak.sh: no image $image (build the device preset first)" >&2; exit 2; }
done

w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
# One run: its output in $w/NAME.log, its exit status in $w/NAME.rc.
run_one() {
  local name=$1
  shift
  local rc=0
  "$@" >"$w/$name.log" 2>&1 || rc=$?
  echo "$rc" >"$w/$name.rc"
}
names=()
start() {
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  names+=("$1")
  run_one "$@" &
}
for ((s = first_seed; s < first_seed + seeds; s++)); do
  start "seed-$s" "$root/scripts/m4-run.sh" "$test_image" "seed=$s"
done
for ((p = first_pair; p < first_pair + pairs; p++)); do
  # shellcheck disable=SC2086
  start "pair-$p" "$root/tests/m4/ct_trace_test.sh" "$ct_image" $leak "pair=$p"
  [ -n "$leak" ] || start "pair-$p-reject" "$root/tests/m4/ct_trace_test.sh" "$ct_image" reject "pair=$p"
done
wait

failed=0
for name in "${names[@]}"; do
  rc=$(cat "$w/$name.rc")
  if [ "$rc" != 0 ]; then
    failed=$((failed + 1))
    label=${name/-/ }
    echo "FAIL: ${label/-reject/ (one rejected draw)} (exit $rc):"
    grep -E "FAIL|failed|FAILED" "$w/$name.log" | head -20 | sed 's/^/  /'
  fi
done
how=", each with and without a rejected draw"
[ -z "$leak" ] || how=", with the planted leak"
what="m4_test for $seeds seeds (from $first_seed), the trace check for $pairs pairs (from $first_pair$how)"
if [ "$failed" = 0 ]; then
  echo "ok: $what: every run passed"
else
  echo "m4-soak.sh: $failed of ${#names[@]} runs failed ($what)"
  exit 1
fi
