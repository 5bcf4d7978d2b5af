#!/usr/bin/env bash
# The instruction counts of scripts/m4-report.sh are exact and deterministic: the plugin
# (tests/m4/insn_count_plugin.c, built here with the host C compiler) reports every marker of the
# measurement image, two markers with nothing between them differ by the same small constant in
# every run, and two runs give identical counts for every operation. Without a marker address the
# plugin refuses to load (the report cannot silently count nothing).
#
#   insn_count_test.sh MEASURE_IMAGE
set -euo pipefail
image=${1:?usage: insn_count_test.sh MEASURE_IMAGE}
root=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cc -shared -fPIC -O2 -Wall -Wextra -Werror -o "$t/plugin.so" "$root/tests/m4/insn_count_plugin.c"
marker=0x$(arm-none-eabi-nm "$image" | awk '$3 == "hqc_m4_mark" { print $1 }')
[ "$marker" != 0x ] || { echo "FAIL: no hqc_m4_mark in $image"; exit 1; }
for run in 1 2; do
  M4_QEMU_EXTRA="-plugin $t/plugin.so,marker=$marker -d plugin -D $t/log$run" \
    "$root/scripts/m4-run.sh" "$image" level=1 >"$t/out$run"
  awk '$1 == "mark" { print $3 }' "$t/log$run" >"$t/marks$run"
done
n=$(wc -l <"$t/marks1")
ops=$(grep -c '^op ' "$t/out1")
[ "$n" -eq $((2 * ops)) ] || { echo "FAIL: $n marks for $ops operations"; exit 1; }
cmp -s "$t/marks1" "$t/marks2" || { echo "FAIL: two runs counted differently"; paste "$t/marks1" "$t/marks2"; exit 1; }
empty=$(awk 'NR == 1 { a = $1 } NR == 2 { print $1 - a }' "$t/marks1")
[ "$empty" -gt 0 ] && [ "$empty" -lt 16 ] || { echo "FAIL: two adjacent markers differ by $empty instructions"; exit 1; }
rc=0
M4_QEMU_EXTRA="-plugin $t/plugin.so -d plugin -D $t/log3" "$root/scripts/m4-run.sh" "$image" level=1 >"$t/out3" 2>"$t/err3" || rc=$?
[ $rc -ne 0 ] && grep -q 'marker=ADDRESS is required' "$t/err3" || { echo "FAIL: the plugin loaded without a marker (exit $rc)"; cat "$t/err3"; exit 1; }
echo "ok: $n marks, identical in two runs; adjacent markers: $empty instructions; no marker: refused"
