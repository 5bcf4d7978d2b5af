#!/usr/bin/env bash
# Runs every test (the README's test command; CI runs it through .ci/run):
#  1. release preset (g++ -O3, all backends, provider, tools): the whole suite — labels kat, unit,
#     ct (valgrind harness), perf, avx2, avx512, provider, tls, soak, hardening, package (Debian
#     packages installed and used in a clean Debian 12 root);
#  2. asan preset (clang 14, ASan + UBSan): every test labelled sanitize;
#  3. tsan preset: the multi-threaded encaps/decaps test (label tsan);
#  4. msan preset: the MemorySanitizer constant-time harness for the avx512 and GFNI kernels;
#  5. fuzz preset: a short libFuzzer run of every target (label fuzz);
#  6. scripts/ct-matrix.sh: the valgrind harness again with g++ -O2, clang -O2, clang -O3;
#  7. portable-only preset (no SIMD backend compiled in, as on a non-x86 gateway): the KATs, the
#     vectors test and the conformance suite (labels kat, conformance); benchmarks and provider
#     are not built there, to keep the step short;
#  8. style: every C/C++ source is formatted by .clang-format, and every translation unit of the
#     release build is clean under .clang-tidy (scripts/check-style.sh, on build/release);
#  9. cortex-m4: the device build (arm-none-eabi-g++ 12, picolibc) in QEMU's mps2-an386, label m4
#     (scripts/m4-test.sh, at -O3 and -Os: KATs, device tests, measurement image, example firmware);
# 10. scripts/openssl35-test.sh: a cached Debian 13 root (OpenSSL 3.5, g++ 14) builds hqckit and runs
#     the provider and tls labels there (ML-KEM beside HQC, two key shares, nginx + curl).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
for p in release asan tsan msan fuzz; do
  step "preset $p"
  cmake --preset "$p" >/dev/null
  cmake --build --preset "$p" -j 2
  ctest --preset "$p"
done
step "constant-time matrix"
scripts/ct-matrix.sh
step "preset portable-only (KATs, vectors, conformance)"
cmake --preset portable-only -DHQC_BUILD_BENCH=OFF -DHQC_BUILD_PROVIDER=OFF >/dev/null
cmake --build --preset portable-only -j 2 --target hqc_cli kat_test vectors_test conformance_test
ctest --preset portable-only -L 'kat|conformance'
step "style (clang-format, clang-tidy)"
scripts/check-style.sh build/release
step "cortex-m4 (device build in QEMU, label m4: scripts/m4-test.sh)"
scripts/m4-test.sh
step "OpenSSL 3.5 (Debian 13 root, g++ 14): provider and tls tests"
scripts/openssl35-test.sh
step "all test steps passed"
