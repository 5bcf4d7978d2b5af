#!/usr/bin/env bash
# The cycle model (scripts/m4-cycles.py) on routines counted by hand (tests/m4/cycle_calib.S): its
# estimate of the straight-line block must be 39 cycles and of the 100-iteration loop 703 cycles,
# exactly, and the instruction counts must be those of the code (16 and 1 + 4 * 100 + 2). Prints
# the model's figures for the portable support expansion at HQC-1 (cycles per output word) and
# one Keccak-f[1600] permutation, which docs/M4.md compares with counts by hand and published ones
# (and the device row's permutation on the interleaved form, where it has one).
#
#   cycle_model_test.sh CALIB_IMAGE
set -euo pipefail
image=${1:?usage: cycle_model_test.sh CALIB_IMAGE}
root=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cc -shared -fPIC -O2 -Wall -Wextra -Werror -o "$t/plugin.so" "$root/tests/m4/insn_count_plugin.c"
marker=0x$(arm-none-eabi-nm "$image" | awk '$3 == "hqc_m4_mark" { print $1 }')
M4_QEMU_EXTRA="-plugin $t/plugin.so,marker=$marker,profile=1 -d plugin -D $t/log" \
  "$root/scripts/m4-run.sh" "$image" >"$t/out"
python3 "$root/scripts/m4-cycles.py" "$image" "$t/log" 3 5 7 9 11 13 >"$t/json"
python3 - "$t/json" <<'PY'
import json, sys
w = json.load(open(sys.argv[1]))
def fn(win, name):
    return sum(v for k, v in w[win]["functions"].items() if k.startswith(name))
fails = []
block, loop = fn("3", "hqc_m4_calib_block"), fn("5", "hqc_m4_calib_loop")
if block != 39: fails.append(f"straight-line block: model {block} cycles, hand count 39")
if loop != 703: fails.append(f"loop of 100: model {loop} cycles, hand count 703")
sv = w["7"]
words = 66 * 277  # HQC-1: w = 66 positions, each ORed into every one of the 277 64-bit words
svc = fn("7", "void hqc::sampling::support_to_vector_portable")
kc = fn("9", "hqc::sym::keccak_f1600_portable")
print(f"straight-line block: {block} cycles (hand count 39)")
print(f"loop of 100: {loop} cycles (hand count 703)")
print(f"support expansion HQC-1 (portable): {svc} cycles, {svc / words:.2f} per output word and position")
print(f"Keccak-f[1600] (portable C): {kc} cycles, {w['9']['instructions']} instructions in the window")
kd = sum(v for k, v in w["11"]["functions"].items() if "keccak" in k)  # the permutation and the lane conversions
print(f"Keccak-f[1600] (the device row, m4 Thumb-2 bit-interleaved, lazy rotations): {kd} cycles, {w['11']['instructions']} instructions in the window")
if "13" in w:
    ki = sum(v for k, v in w["13"]["functions"].items() if "keccak_f1600" in k)
    print(f"Keccak-f[1600] on the interleaved form (the device row's second entry, which the sponges call): {ki} cycles, {w['13']['instructions']} instructions in the window")
if fails:
    print("FAIL: " + "; ".join(fails))
    sys.exit(1)
PY
