#!/usr/bin/env bash
# The freestanding core cross-compiled for a Cortex-M4 (arm-none-eabi-g++ with picolibc), then the
# same reference and include checks as check_core.sh: the host side of the device build.
# usage: check_core_m4.sh SRC_DIR "src1;src2;..."   (sources relative to SRC_DIR)
set -euo pipefail
src_dir=$1
IFS=';' read -ra srcs <<< "$2"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
objs=()
for s in "${srcs[@]}"; do
  o=$out/$(echo "$s" | tr / _).o
  arm-none-eabi-g++ --specs=picolibc.specs -std=c++20 -O2 -mcpu=cortex-m4 -mthumb -mfloat-abi=hard \
    -mfpu=fpv4-sp-d16 -ffreestanding -fno-exceptions -fno-rtti -DHQC_FREESTANDING=1 \
    -Wall -Wextra -Wpedantic -Werror -I"$src_dir" -I"$src_dir/../include" -c "$src_dir/$s" -o "$o"
  objs+=("$o")
done
joined=$(IFS=';'; echo "${objs[*]}")
exec "$(dirname "$0")/check_core.sh" arm-none-eabi-nm "$src_dir" "$joined" "$2"
