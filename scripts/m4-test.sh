#!/usr/bin/env bash
# The device tests (scripts/test.sh runs this as its own step): builds the presets cortex-m4
# (arm-none-eabi-g++ -O3, picolibc) and cortex-m4-size (-Os: a compiler optimising for size must
# not bring back divisions or secret-dependent branches) and runs ctest label m4 of each in QEMU's
# mps2-an386: the KAT image
# at every level (the first HQC_M4_KAT_COUNT records, 10 by default, byte-identical to the
# official transcripts), the test image, the measurement image and the example firmware.
#
#   scripts/m4-test.sh [KAT_COUNT]      (KAT_COUNT = 100: every record of the official files)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-10}
for preset in cortex-m4 cortex-m4-size; do
  cmake --preset "$preset" -DHQC_M4_KAT_COUNT="$count" >/dev/null
  cmake --build --preset "$preset" -j 2
  ctest --preset "$preset"
done
