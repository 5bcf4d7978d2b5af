#!/usr/bin/env bash
# Runs one Cortex-M4 firmware image in QEMU's mps2-an386 (Cortex-M4 with FPU) and returns its exit
# status. The image prints over semihosting (stdout) and ends with exit(status); ARGS reach it as
# argv[1..] (e.g. level=3 count=10).
#
#   scripts/m4-run.sh IMAGE [ARGS...]
#
# M4_TIMEOUT (seconds, default 600) bounds the run: exit 124 on timeout. M4_QEMU_EXTRA adds QEMU
# options (scripts/m4-report.sh loads its instruction-count plugin that way).
set -euo pipefail
image=${1:?usage: m4-run.sh IMAGE [ARGS...]}
shift
[ -f "$image" ] || { echo "m4-run.sh: no image $image" >&2; exit 2; }
cmdline="arg=$(basename "$image")"
for a in "$@"; do
  case "$a" in *,*) echo "m4-run.sh: an argument may not contain a comma: $a" >&2; exit 2 ;; esac
  cmdline+=",arg=$a"
done
# shellcheck disable=SC2086
exec timeout --foreground "${M4_TIMEOUT:-600}" qemu-system-arm -M mps2-an386 -nographic -monitor none \
  -serial none -semihosting-config "enable=on,target=native,$cmdline" ${M4_QEMU_EXTRA:-} -kernel "$image"
