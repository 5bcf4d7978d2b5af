#!/usr/bin/env bash
# Trace-equality constant-time check on the emulated M4 (tests/m4/m4_ct.cpp): for each level, one
# QEMU run with the plugin (tests/m4/insn_count_plugin.c, trace=1 profile=1) hashes the executed
# blocks (hence the sequence of PCs) and the data addresses of keygen, encaps and decaps for two
# sets of secret inputs A and B that agree on what the spec makes public (spec §8: the
# key-generation sampler's accept pattern); the hashes must be equal op by op, and the
# decapsulation of a valid and of a tampered ciphertext must be equal too. From the block profile
# (scripts/m4-cycles.py) no UDIV/SDIV may execute inside the operations (their latency is data
# dependent on the M4).
#
#   ct_trace_test.sh CT_IMAGE [leak] [reject] [prepared] [pair=N]
#     leak: run with the planted leak, which must be reported;
#     prepared: encapsulate and decapsulate through key objects parsed and prepared in the
#             windows (the m4 row's FAFFT transforms at HQC-5, which the image checks are kept);
#     reject: key seeds whose accept pattern rejects one draw, in A as a duplicate and in B as at
#             or above the threshold (the samplers' refill paths run; the reason must not show);
#     pair=N: the N-th pair of secret inputs (default 0; scripts/m4-soak.sh runs many).
set -euo pipefail
usage="usage: ct_trace_test.sh CT_IMAGE [leak] [reject] [prepared] [pair=N]"
image=${1:?$usage}
shift
leak=0
reject=0
prepared=0
pair=0
for a in "$@"; do
  case $a in
    leak) leak=1 ;;
    reject) reject=1 ;;
    prepared) prepared=1 ;;
    pair=*) pair=${a#pair=}; [[ $pair =~ ^[0-9]{1,9}$ ]] || { echo "ct_trace_test.sh: pair wants a number: $a" >&2; exit 2; } ;;
    *) echo "ct_trace_test.sh: unknown argument $a; $usage" >&2; exit 2 ;;
  esac
done
root=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cc -shared -fPIC -O2 -Wall -Wextra -Werror -o "$t/plugin.so" "$root/tests/m4/insn_count_plugin.c"
marker=0x$(arm-none-eabi-nm "$image" | awk '$3 == "hqc_m4_mark" { print $1 }')
levels="1 3 5"
[ $leak = 1 ] && levels=1
fail=0
for level in $levels; do
  M4_QEMU_EXTRA="-plugin $t/plugin.so,marker=$marker,trace=1,profile=1 -d plugin -D $t/log$level" \
    "$root/scripts/m4-run.sh" "$image" "level=$level" "leak=$leak" "reject=$reject" "prepared=$prepared" "pair=$pair" >"$t/out$level" || {
    echo "FAIL: HQC-$level: the image failed"; cat "$t/out$level"; exit 1; }
  sed "s/^/HQC-$level: /" "$t/out$level"
  python3 "$root/scripts/m4-cycles.py" "$image" "$t/log$level" 3 5 7 9 11 13 15 17 >"$t/cyc$level"
  python3 - "$t/log$level" "$t/cyc$level" "$level" <<'PY' || fail=1
import json, sys
h = {}
for line in open(sys.argv[1]):
    f = line.split()
    if f and f[0] == "hash":
        h[int(f[1])] = f[2]
cyc = json.load(open(sys.argv[2]))
level = sys.argv[3]
names = ["keygen", "encaps", "decaps", "decaps of a tampered ciphertext"]
bad = 0
for i, name in enumerate(names):
    wa, wb = 2 * (1 + i) + 1, 2 * (5 + i) + 1  # the windows of op i in sets A and B
    if wa not in h or wb not in h:
        print(f"FAIL: HQC-{level}: no trace hash for {name}")
        bad = 1
        continue
    if h[wa] != h[wb]:
        print(f"FAIL: HQC-{level}: trace differs: {name} of A and B ({h[wa]} vs {h[wb]}; "
              f"{cyc[str(wa)]['instructions']} vs {cyc[str(wb)]['instructions']} instructions)")
        bad = 1
    else:
        print(f"HQC-{level}: {name}: A and B equal ({h[wa]}, {cyc[str(wa)]['instructions']} instructions)")
    for w in (wa, wb):
        if cyc[str(w)]["div_executed"]:
            print(f"FAIL: HQC-{level}: {name} executes UDIV/SDIV: {cyc[str(w)]['div_sites']}")
            bad = 1
for s in (1, 5):
    if h.get(2 * (s + 2) + 1) != h.get(2 * (s + 3) + 1):
        print(f"FAIL: HQC-{level}: trace differs: decaps of a valid and a tampered ciphertext (set {'A' if s == 1 else 'B'})")
        bad = 1
sys.exit(bad)
PY
done
[ $fail = 0 ] || exit 1
echo "ok: equal traces (blocks and data addresses) for A and B (pair $pair$([ $reject = 1 ] && echo ", one rejected draw")$([ $prepared = 1 ] && echo ", prepared key objects")), no UDIV/SDIV, at HQC-$(echo "$levels" | tr ' ' '/')"
