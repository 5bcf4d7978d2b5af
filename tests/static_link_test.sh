#!/usr/bin/env bash
# The static library links from C, both ways a C user links it: `pkg-config --static` (a fully
# static executable) and a C-only CMake project (hqc::hqc_static). libhqc.a holds C++ objects, so
# both need the C++ runtime (hqc.pc Libs.private, hqc::hqc_static's interface); a control link
# without it must fail with the undefined aligned operator delete.
set -euo pipefail
BUILD=${1:?build dir}; SRC=${2:?source dir}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
P="$T/prefix"
cmake --install "$BUILD" --prefix "$P" >/dev/null
libdir=$(dirname "$(find "$P" -name libhqc.a)")
export PKG_CONFIG_PATH="$libdir/pkgconfig"
pass=0
ok() { echo "ok: $*"; pass=$((pass + 1)); }
fail() { echo "FAILED: $*" >&2; exit 1; }

# 1. pkg-config --static: Libs.private carries the C++ runtime; the result is fully static.
static_libs=$(pkg-config --static --libs hqc)
case " $static_libs " in *" -lstdc++ "*) ;; *) fail "pkg-config --static --libs hqc lacks -lstdc++: $static_libs" ;; esac
cc -std=c11 -static "$SRC/examples/consumer_c/main.c" -o "$T/pc_static" $(pkg-config --static --cflags --libs hqc)
if readelf -l "$T/pc_static" | grep -q INTERP; then fail "pkg-config --static build is not a static executable"; fi
"$T/pc_static" | grep -q "round trips OK" || fail "pkg-config --static executable"
ok "pkg-config --static: fully static C executable runs ($static_libs)"

# Control: the same link without Libs.private fails for the reason above (so the check above
# tests the runtime, not luck).
if cc -std=c11 -static "$SRC/examples/consumer_c/main.c" -o "$T/control" $(pkg-config --cflags --libs hqc) 2>"$T/control.err"; then
  fail "control: a static link without the C++ runtime succeeded"
fi
grep -q "undefined reference to \`operator delete(void\*, std::align_val_t)'" "$T/control.err" ||
  { cat "$T/control.err" >&2; fail "control: link failed for another reason"; }
ok "control: without Libs.private the link fails with undefined operator delete(void*, std::align_val_t)"

# 2. A C-only CMake project (project(... LANGUAGES C)): hqc::hqc_static and hqc::hqc.
cmake -S "$SRC/examples/consumer_c" -B "$T/cm" -G Ninja -DCMAKE_PREFIX_PATH="$P" >/dev/null
cmake --build "$T/cm" >/dev/null
if readelf -d "$T/cm/consumer_c_static" | grep -q 'NEEDED.*libhqc'; then fail "consumer_c_static needs libhqc.so"; fi
"$T/cm/consumer_c_static" | grep -q "round trips OK" || fail "consumer_c_static"
ok "C-only CMake project with hqc::hqc_static runs (libhqc linked in)"
readelf -d "$T/cm/consumer_c" | grep -q 'NEEDED.*libhqc\.so\.0' || fail "consumer_c does not need libhqc.so.0"
LD_LIBRARY_PATH="$libdir" "$T/cm/consumer_c" | grep -q "round trips OK" || fail "consumer_c"
ok "C-only CMake project with hqc::hqc runs (libhqc.so.0)"
echo "static link test: $pass passed, 0 failed"
