#!/usr/bin/env bash
# add_subdirectory(hqckit) from a parent project builds just the library: every hqckit target is
# a library (hqc, hqc_static and their object/interface parts) or the export check, no test,
# tool, provider or benchmark exists, no install rule is generated, the parent's build holds no
# hqckit executable, and a C program of the parent links hqc::hqc and hqc::hqc_static and runs.
set -euo pipefail
SRC=$(cd "${1:?source dir}" && pwd)
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
pass=0
ok() { echo "ok: $*"; pass=$((pass + 1)); }
fail() { echo "FAILED: $*" >&2; exit 1; }
mkdir -p "$T/parent"
cp "$SRC/examples/consumer_c/main.c" "$T/parent/main.c"
cat >"$T/parent/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(parent LANGUAGES C)
enable_testing()
add_subdirectory("$SRC" hqckit)
add_executable(app main.c)
target_link_libraries(app PRIVATE hqc::hqc_static)
add_executable(app_shared main.c)
target_link_libraries(app_shared PRIVATE hqc::hqc)
# Every target hqckit defines, with its type.
function(hqc_collect dir)
  get_property(targets DIRECTORY "\${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  foreach(t \${targets})
    get_target_property(type \${t} TYPE)
    file(APPEND "\${CMAKE_BINARY_DIR}/hqckit_targets.txt" "\${t} \${type}\n")
  endforeach()
  get_property(subs DIRECTORY "\${dir}" PROPERTY SUBDIRECTORIES)
  foreach(s \${subs})
    hqc_collect("\${s}")
  endforeach()
endfunction()
file(WRITE "\${CMAKE_BINARY_DIR}/hqckit_targets.txt" "")
hqc_collect("$SRC")
CMAKE
cmake -S "$T/parent" -B "$T/b" -G Ninja -DCMAKE_BUILD_TYPE=Release >"$T/configure.log" || { cat "$T/configure.log"; fail "configure"; }
sort "$T/b/hqckit_targets.txt" >"$T/targets"
echo "hqckit targets in the parent: $(awk '{print $1}' "$T/targets" | tr '\n' ' ')"
bad=$(awk '$2 !~ /^(STATIC_LIBRARY|SHARED_LIBRARY|OBJECT_LIBRARY|INTERFACE_LIBRARY)$/ && $1 != "hqc_export_check"' "$T/targets")
[ -z "$bad" ] || fail "non-library targets: $bad"
linked=$(awk '$2 ~ /^(STATIC|SHARED)_LIBRARY$/ {print $1}' "$T/targets" | tr '\n' ' ')
[ "$linked" = "hqc hqc_static " ] || fail "libraries other than hqc, hqc_static: $linked"
ok "only library targets (libraries: $linked)"
for t in hqc_cli hqckit vectors_test kernels_gbench; do
  grep -q "^$t " "$T/targets" && fail "target $t exists"
done
[ -z "$(cd "$T/b" && ctest -N | grep 'Test *#' || true)" ] || fail "tests registered"
ok "no tool, provider, benchmark or test"
if grep -rq 'file(INSTALL' "$T/b/hqckit" 2>/dev/null; then fail "hqckit generated install rules"; fi
ok "no install rule"
cmake --build "$T/b" >"$T/build.log" 2>&1 || { tail -30 "$T/build.log"; fail "build"; }
exes=$(find "$T/b/hqckit" -type f -perm -u+x ! -name '*.so*' ! -name '*.sh' | head)
[ -z "$exes" ] || fail "executables built under hqckit: $exes"
test -f "$T/b/hqckit/src/libhqc.a" && test -f "$T/b/hqckit/src/libhqc.so.0" || fail "libraries not built"
ok "the build gives libhqc.a, libhqc.so.0 and no executable"
"$T/b/app" | grep -q "round trips OK" || fail "app (hqc::hqc_static)"
"$T/b/app_shared" | grep -q "round trips OK" || fail "app_shared (hqc::hqc)"
ok "parent programs linked with hqc::hqc_static and hqc::hqc run"
echo "subproject test: $pass passed, 0 failed"
