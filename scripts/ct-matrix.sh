#!/usr/bin/env bash
# Constant-time matrix (hardening issue): the valgrind secret-poisoning harness (tests/ct, label
# `ct`) for compilers and optimisation levels other than the release preset's (g++ -O3, which
# scripts/test.sh already covers). Each configuration builds only ct_harness (the library compiled
# once more with HQC_CT_VALGRIND=1) and runs the `ct` tests: every backend valgrind can execute
# (portable, avx2 without GFNI) x HQC-1/3/5, plus ct_selftest, which must be flagged.
#
# usage: scripts/ct-matrix.sh [CONFIG...]     CONFIG = compiler:level, e.g. gcc:O2 clang:Os
#   default: gcc:O2 clang:O2 clang:O3
#   CT_MATRIX_OPS=all  runs keygen, encaps and decaps separately (default: decaps only, which
#                      runs key generation and encapsulation first with the same secrets marked)
#   CT_MATRIX_CMAKE_ARGS="..."  extra configure arguments for every configuration
# The avx512 backend (and avx2's GFNI kernels) are covered by the MSan build instead:
#   cmake --preset msan && cmake --build --preset msan --target ct_msan && ctest --preset msan
set -euo pipefail
cd "$(dirname "$0")/.."
configs=("$@")
[ ${#configs[@]} -eq 0 ] && configs=(gcc:O2 clang:O2 clang:O3)
filter='_decaps$|ct_selftest'
[ "${CT_MATRIX_OPS:-}" = all ] && filter='.'
summary=()
status=0
for cfg in "${configs[@]}"; do
  cc=${cfg%%:*}
  opt=${cfg##*:}
  case $cc in
    gcc) cxx=g++ ;;
    clang) cxx=clang++ ;;
    *) echo "unknown compiler $cc" >&2; exit 2 ;;
  esac
  dir=build/ct-$cc-$opt
  start=$(date +%s)
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-$opt -DNDEBUG" \
    "-DCMAKE_C_FLAGS_RELEASE=-$opt -DNDEBUG" -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
    -DHQC_BUILD_PROVIDER=OFF -DHQC_BUILD_BENCH=OFF ${CT_MATRIX_CMAKE_ARGS:-} >/dev/null
  cmake --build "$dir" --target ct_harness -j 2
  if ctest --test-dir "$dir" -L ct -R "$filter" -j 2 --output-on-failure; then
    result=pass
  else
    result=FAIL
    status=1
  fi
  summary+=("$cc -$opt: $result ($(( $(date +%s) - start )) s)")
done
echo "constant-time matrix:"
printf '  %s\n' "${summary[@]}"
exit $status
