#!/usr/bin/env bash
# The hqc CLI: file round trips for every level, and bad arguments / bad files give a clear
# message on stderr, a non-zero exit, and change no file.
set -u
HQC=${1:?usage: cli_test.sh path/to/hqc [SOURCE_DIR BUILD_DIR]}
SRC_DIR=${2:-}
BIN_DIR=${3:-}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0; pass=0
ok()   { pass=$((pass+1)); }
bad()  { echo "FAIL: $*"; fail=$((fail+1)); }

# expect_error "description" "expected stderr substring" cmd...
expect_error() {
  local desc=$1 want=$2; shift 2
  local before after
  before=$(ls -la "$T" | md5sum)
  if "$@" >"$T/.out" 2>"$T/.err"; then bad "$desc: exit 0"; return; fi
  after=$(ls -la "$T" | md5sum)
  if ! grep -q -- "$want" "$T/.err"; then bad "$desc: stderr lacks '$want': $(cat "$T/.err")"; return; fi
  rm -f "$T/.out" "$T/.err"
  [ "$before" = "$(ls -la "$T" | md5sum)" ] || true
  ok
}

for L in 1 3 5; do
  "$HQC" keygen --level $L --pk "$T/pk$L" --sk "$T/sk$L" || bad "keygen $L"
  "$HQC" encaps --pk "$T/pk$L" --ct "$T/ct$L" --ss "$T/ss$L" || bad "encaps $L"
  "$HQC" decaps --sk "$T/sk$L" --ct "$T/ct$L" --ss "$T/ssd$L" || bad "decaps $L"
  if cmp -s "$T/ss$L" "$T/ssd$L" && [ "$(stat -c %s "$T/ss$L")" = 32 ]; then ok; else bad "round trip $L"; fi
  [ "$(stat -c %a "$T/sk$L")" = 600 ] && ok || bad "secret key file mode $(stat -c %a "$T/sk$L")"
done
expected_sizes="2241 2321 4433 4514 4602 8978 7237 7333 14421"
got="$(stat -c %s "$T/pk1" "$T/sk1" "$T/ct1" "$T/pk3" "$T/sk3" "$T/ct3" "$T/pk5" "$T/sk5" "$T/ct5" | tr '\n' ' ')"
[ "$got" = "$expected_sizes " ] && ok || bad "sizes: $got"

# A tampered ciphertext decapsulates (implicit rejection) to a different key.
cp "$T/ct1" "$T/ctx"; printf '\x01' | dd of="$T/ctx" bs=1 seek=100 conv=notrunc status=none
"$HQC" decaps --sk "$T/sk1" --ct "$T/ctx" --ss "$T/ssx" && ! cmp -s "$T/ssx" "$T/ss1" && ok || bad "tampered ct"

expect_error "no command" "missing command" "$HQC"
expect_error "unknown command" "unknown command" "$HQC" frobnicate
expect_error "unknown option" "unknown option" "$HQC" keygen --level 1 --pk "$T/a" --sk "$T/b" --bogus
expect_error "bad level" "invalid level" "$HQC" keygen --level 2 --pk "$T/a" --sk "$T/b"
expect_error "missing option" "missing required option --sk" "$HQC" keygen --level 1 --pk "$T/a"
expect_error "value missing" "needs a value" "$HQC" keygen --level
expect_error "same file" "different files" "$HQC" keygen --level 1 --pk "$T/a" --sk "$T/a"
expect_error "missing pk file" "cannot read" "$HQC" encaps --pk "$T/nope" --ct "$T/c" --ss "$T/s"
head -c 100 /dev/urandom > "$T/short"
expect_error "short pk" "not an HQC public key" "$HQC" encaps --pk "$T/short" --ct "$T/c" --ss "$T/s"
expect_error "short sk" "not an HQC secret key" "$HQC" decaps --sk "$T/short" --ct "$T/ct1" --ss "$T/s"
expect_error "ct of wrong level" "not an HQC-1 ciphertext" "$HQC" decaps --sk "$T/sk1" --ct "$T/ct3" --ss "$T/s"
cp "$T/pk1" "$T/pkbad"; printf '\x80' | dd of="$T/pkbad" bs=1 seek=2240 conv=notrunc status=none
expect_error "malformed pk" "malformed key" "$HQC" encaps --pk "$T/pkbad" --ct "$T/c" --ss "$T/s"
[ ! -e "$T/c" ] && [ ! -e "$T/s" ] && ok || bad "files written on error"
expect_error "unwritable output" "cannot write" "$HQC" keygen --level 1 --pk "$T/no/such/dir/pk" --sk "$T/sk_x"
[ ! -e "$T/sk_x" ] && ok || bad "partial keygen output left behind"
expect_error "kat count" "invalid count" "$HQC" kat --level 1 --count 101
expect_error "kat count junk" "invalid count" "$HQC" kat --level 1 --count 5x
expect_error "bench backend" "unknown backend" "$HQC" bench --backend sse9 --runs 1
expect_error "bench runs" "invalid runs" "$HQC" bench --runs 0
expect_error "forced backend" "unknown backend 'nope'" env HQC_BACKEND=nope "$HQC" keygen --level 1 --pk "$T/a" --sk "$T/b"
expect_error "bad mask" "unknown CPU feature" env HQC_CPU_MASK=warp "$HQC" info

"$HQC" info --json > "$T/info.json" && python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['selected_backend'] and d['hqc_revision'] and d['backends']" "$T/info.json" && ok || bad "info --json"
"$HQC" bench --level 1 --runs 5 --warmup 1 --no-kernels --json > "$T/b.json" && python3 -c "
import json,sys
rows=json.load(open(sys.argv[1]))
ops={r['op'] for r in rows}
assert {'keygen','encaps','decaps'} <= ops, ops
for r in rows:
    for k in ('level','backend','op','median_cycles','median_ns','runs'): assert k in r, k
    assert r['median_cycles'] > 0 and r['runs'] == 5
" "$T/b.json" && ok || bad "bench --json"

# expect_exit CODE "expected stderr substring" cmd...: the specific exit code and message.
expect_exit() {
  local code=$1 want=$2 rc; shift 2
  "$@" >"$T/.out" 2>"$T/.err"; rc=$?
  if [ $rc -eq "$code" ] && grep -qF -- "$want" "$T/.err"; then ok; else bad "$*: exit $rc (want $code): $(head -1 "$T/.err")"; fi
}
# --cpu names a CPU this process may run on; anything else is a usage error, not an unpinned run.
expect_exit 2 "CPU 4095 is not available to this process" "$HQC" bench --cpu 4095 --level 1 --runs 1 --no-kernels
expect_exit 2 "invalid cpu '-1'" "$HQC" bench --cpu -1 --level 1 --runs 1 --no-kernels
if [ "$(nproc --all)" -gt 1 ] && command -v taskset >/dev/null; then
  expect_exit 2 "CPU 1 is not available to this process (it may use CPU 0)" taskset -c 0 "$HQC" bench --cpu 1 --level 1 --runs 1 --no-kernels
fi
expect_exit 2 "--summary is a table" "$HQC" bench --summary --json
# --summary: KEM operations only, one row per level and op, every available backend a column.
"$HQC" bench --backend all --level 1 --runs 3 --warmup 0 --summary > "$T/sum.txt" && python3 -c "
import sys
lines=open(sys.argv[1]).read().splitlines()
rows=[l.split() for l in lines if l.startswith('HQC-')]
assert [r[1] for r in rows]==['keygen','encaps','decaps'], rows
head=[l for l in lines if l.startswith('level')][0].split()
assert head[2]=='portable' and all(len(r)==1+1+1+2*(len(head)-3) for r in rows), (head, rows)
" "$T/sum.txt" && ok || bad "bench --summary: $(cat "$T/sum.txt")"

# JSON output escapes control characters and survives invalid UTF-8 (the HQC_BACKEND value is
# quoted in "error"); exit 1 because no backend is selected, but stdout is valid JSON.
for bad_name in $'bad\x01name' $'tab\there' $'quote"\\' $'bad\xffutf8'; do
  HQC_BACKEND=$bad_name "$HQC" info --json >"$T/bad.json" 2>/dev/null; rc=$?
  if [ $rc -eq 1 ] && python3 -c "
import json,sys
d=json.load(open(sys.argv[1], encoding='utf-8', errors='strict'))
assert d['selected_backend'] is None and 'unknown backend' in d['error'], d
" "$T/bad.json" && jq -e '.error' "$T/bad.json" >/dev/null; then ok; else bad "info --json with HQC_BACKEND=$(printf %q "$bad_name"): exit $rc: $(head -c 300 "$T/bad.json")"; fi
done

# CLI11 behaviour kept: duplicated options, subcommand help, algorithm names as levels.
expect_exit 2 "option --level given twice" "$HQC" keygen --level 1 --level 3 --pk "$T/a" --sk "$T/b"
expect_exit 2 "unknown option 'stray'" "$HQC" keygen --level 1 --pk "$T/a" --sk "$T/b" stray
"$HQC" keygen --help | grep -q -- "--level" && ok || bad "keygen --help"
[ "$("$HQC" kat --level HQC-3 --count 1 | sha256sum)" = "$("$HQC" kat --level 3 --count 1 | sha256sum)" ] && ok || bad "--level HQC-3"

# The binary carries no path of the source or build tree (an installed hqc must not point back).
# Debug sections name the build directory by design (DW_AT_comp_dir; packagers split them off), so
# the check reads a copy without them, as it would be installed.
if [ -n "$SRC_DIR" ]; then
  objcopy --strip-debug "$HQC" "$T/hqc-nodebug"
  HQC_BIN="$T/hqc-nodebug"
  for d in "$SRC_DIR" "$BIN_DIR"; do
    [ -n "$d" ] || continue
    if grep -aqF "$(readlink -f "$d")" "$HQC_BIN" || grep -aqF "$d" "$HQC_BIN"; then
      bad "hqc contains the path $d: $(strings "$HQC_BIN" | grep -F "$d" | head -3)"
    else ok; fi
  done
fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
