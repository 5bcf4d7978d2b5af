#!/usr/bin/env bash
# `cmake --install` gives headers, libraries, a CMake package and a pkg-config file that work:
# a consumer builds against each and runs.
set -euo pipefail
BUILD=${1:?build dir}; SRC=${2:?source dir}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cmake --install "$BUILD" --prefix "$T/prefix" >/dev/null
test -f "$T/prefix/include/hqc/hqc.h" && test -f "$T/prefix/include/hqc/hqc.hpp"
test -f "$T/prefix/lib/cmake/hqc/hqcConfig.cmake"
test -f "$T/prefix/lib/pkgconfig/hqc.pc"
cmake -S "$SRC/examples/consumer" -B "$T/cmake-consumer" -G Ninja -DCMAKE_PREFIX_PATH="$T/prefix" >/dev/null
cmake --build "$T/cmake-consumer" >/dev/null
LD_LIBRARY_PATH="$T/prefix/lib" "$T/cmake-consumer/consumer"
# pkg-config, from C
cat > "$T/c.c" <<'C'
#include <hqc/hqc.h>
#include <stdio.h>
int main(void) { printf("pkg-config consumer: hqckit %s, backend %s\n", hqc_version(), hqc_backend_name()); return hqc_kem_info_by_name("HQC-5") ? 0 : 1; }
C
PKG_CONFIG_PATH="$T/prefix/lib/pkgconfig" cc "$T/c.c" -o "$T/c" $(PKG_CONFIG_PATH="$T/prefix/lib/pkgconfig" pkg-config --cflags --libs hqc)
LD_LIBRARY_PATH="$T/prefix/lib" "$T/c"
echo "install test: 2 passed, 0 failed"
