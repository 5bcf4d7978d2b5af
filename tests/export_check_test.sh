#!/usr/bin/env bash
# The exported-symbol check (cmake/check_exports.sh, run by the build as hqc_export_check) passes
# on libhqc.so and fails, naming the symbol, on each kind of fault: an undeclared export that the
# version script's hqc_* pattern lets through, a declared function that is not exported, and
# exports outside the version nodes of cmake/hqc.map.
set -euo pipefail
LIB=${1:?libhqc.so}; SRC=${2:?source dir}; CC=${3:-cc}; NM=${4:-nm}
CHECK="$SRC/cmake/check_exports.sh"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
pass=0
ok() { echo "ok: $*"; pass=$((pass + 1)); }
fail() { echo "FAILED: $*" >&2; exit 1; }

bash "$CHECK" "$LIB" "$SRC/include/hqc/hqc.h" "$CC" "$NM" >"$T/out" || { cat "$T/out"; fail "libhqc.so"; }
ok "$(cat "$T/out")"

# must_fail NAME EXPECTED-LINE SYMBOL: the check fails (exit 1), with the message and the symbol.
must_fail() {
  local lib=$1 msg=$2 sym=$3 rc=0
  bash "$CHECK" "$T/$lib" "$T/inc/hqc/hqc.h" "$CC" "$NM" 2>"$T/err" >/dev/null || rc=$?
  [ $rc = 1 ] || { cat "$T/err" >&2; fail "$lib: exit $rc, expected 1"; }
  grep -q -- "$msg" "$T/err" && grep -qx "  $sym" "$T/err" || { cat "$T/err" >&2; fail "$lib: wrong report"; }
  ok "$lib rejected: $msg $sym"
}
mkdir -p "$T/inc/hqc"
cat >"$T/inc/hqc/hqc.h" <<'H'
#define HQC_API __attribute__((visibility("default")))
#define DECL(L) HQC_API int hqc##L##_keypair(unsigned char *pk, unsigned char *sk);
HQC_API const char *hqc_version(void);
DECL(1)
H
cat >"$T/all.c" <<'C'
const char *hqc_version(void) { return "0"; }
int hqc1_keypair(unsigned char *pk, unsigned char *sk) { return pk == sk; }
C
printf 'int hqc_leak(void) { return 1; }\n' >"$T/extra.c"
printf 'const char *hqc_version(void) { return "0"; }\n' >"$T/missing.c"
so() { "$CC" -shared -fPIC -o "$T/$1" "${@:2}"; }
so good.so "$T/all.c" -Wl,--version-script="$SRC/cmake/hqc.map"
bash "$CHECK" "$T/good.so" "$T/inc/hqc/hqc.h" "$CC" "$NM" >/dev/null || fail "a conforming library is rejected"
ok "a conforming library (macro-declared hqc1_keypair included) passes"
so extra.so "$T/all.c" "$T/extra.c" -Wl,--version-script="$SRC/cmake/hqc.map"
must_fail extra.so "exports symbols that .* does not declare" hqc_leak
so missing.so "$T/missing.c" -Wl,--version-script="$SRC/cmake/hqc.map"
must_fail missing.so "does not export these functions" hqc1_keypair
so unversioned.so "$T/all.c"
must_fail unversioned.so "outside version node HQC_0" hqc_version
echo "export check test: $pass passed, 0 failed"
