#!/usr/bin/env bash
# Runs a command that must fail in one specific way, and passes only if it did.
#
#   must_fail.sh [--skip CODE] EXIT_CODE PATTERN [PATTERN...] -- COMMAND [ARG...]
#
# Passes (exit 0) when COMMAND exits with exactly EXIT_CODE AND its output (stdout and stderr
# together) matches every PATTERN (a Perl regular expression over the whole output, so a pattern
# may span lines with \n). Anything else fails (exit 1) with the reason: a skip (e.g. exit 77), a
# crash, a bad argument or any other failure is not the failure under test. Used by the must-fail
# tests (perf_guard_catches_slowdown, ct_selftest, the MSan planted reports) instead of CTest's
# WILL_FAIL, which accepts every non-zero exit.
#
# --skip CODE: when COMMAND exits with CODE (it cannot run here, e.g. the CPU lacks the instruction
# under test), exit with CODE too, for a test whose SKIP_RETURN_CODE is CODE: reported as skipped,
# never as passed. Only for tests where "cannot run on this machine" is a legitimate outcome.
set -uo pipefail
skip=
if [ "${1:-}" = "--skip" ]; then
  skip=${2:-}
  shift 2
fi
if [ $# -lt 4 ]; then
  echo "usage: must_fail.sh [--skip CODE] EXIT_CODE PATTERN [PATTERN...] -- COMMAND [ARG...]" >&2
  exit 2
fi
want=$1
shift
case $want in
  '' | *[!0-9]*) echo "must_fail.sh: EXIT_CODE must be a number, got '$want'" >&2; exit 2 ;;
esac
patterns=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  patterns+=("$1")
  shift
done
if [ $# -lt 2 ] || [ ${#patterns[@]} -eq 0 ]; then
  echo "must_fail.sh: need at least one PATTERN, then -- COMMAND" >&2
  exit 2
fi
shift  # the --

out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$@" >"$out" 2>&1
rc=$?
cat "$out"
echo "---- must_fail.sh: exit code $rc (expected $want)"
if [ -n "$skip" ] && [ "$rc" -eq "$skip" ]; then
  echo "SKIPPED: the command could not run here (exit code $skip)"
  exit "$skip"
fi
ok=1
if [ "$rc" -ne "$want" ]; then
  echo "FAIL: the command exited with $rc, not with the expected failure $want"
  ok=0
fi
for p in "${patterns[@]}"; do
  if grep -Pzq -- "$p" "$out"; then
    echo "found: $p"
  else
    echo "FAIL: output lacks the expected report: $p"
    ok=0
  fi
done
if [ $ok -eq 1 ]; then
  echo "PASS: failed exactly as expected"
  exit 0
fi
exit 1
