#!/usr/bin/env bash
# The algorithm core builds freestanding (docs/ARCHITECTURE.md, "Hosted edge and freestanding
# core"): its objects, compiled with -ffreestanding -fno-exceptions -fno-rtti (target
# hqc_core_freestanding), reference nothing outside themselves except
#   - the C library's memory functions (memcpy, memset, memmove, memcmp) and, in position-
#     independent code, the linker-defined _GLOBAL_OFFSET_TABLE_;
#   - what the platform layer provides: the backend selection hqc::backend::active()
#     (the registry on hosted builds, the static table on a device);
# so no operator new/delete, no __cxa_* (exceptions, guarded statics), no RTTI, no getenv /
# getrandom / files / threads, no std::string. And the core's sources include only freestanding
# standard headers (the allowlist below), followed through every project header they include.
# usage: check_core.sh NM SRC_DIR "obj1;obj2;..." "src1;src2;..."   (sources relative to SRC_DIR)
set -euo pipefail
nm=$1
src_dir=$2
IFS=';' read -ra objs <<< "$3"
IFS=';' read -ra srcs <<< "$4"
fail=0

# 1. Symbols referenced but not defined by the core objects, minus the allowlist.
allowed_undef='^(memcpy|memset|memmove|memcmp|_ZN3hqc7backend6activeEv|_GLOBAL_OFFSET_TABLE_)$'
defined=$("$nm" -P --defined-only "${objs[@]}" | awk 'NF >= 2 && $0 !~ /:$/ {print $1}' | sort -u)
undefined=$("$nm" -P -u "${objs[@]}" | awk 'NF >= 2 && $0 !~ /:$/ {print $1}' | sort -u)
external=$(comm -23 <(echo "$undefined") <(echo "$defined") | grep -v '^$' || true)
bad=$(echo "$external" | grep -vE "$allowed_undef" | grep -v '^$' || true)
echo "core objects: ${#objs[@]}; external references: $(echo "$external" | grep -c . || true)"
echo "$external" | sed 's/^/  /'
if [ -n "$bad" ]; then
  echo "FAIL: the freestanding core references symbols outside its allowlist:"
  echo "$bad" | c++filt | sed 's/^/  /'
  fail=1
fi

# 2. Standard headers included by the core, following project includes ("...") recursively.
allowed_inc='^(stddef\.h|stdint\.h|cstddef|cstdint|cstring|climits|array|span|type_traits|bit|concepts|limits|utility|initializer_list|new)$'
# Included only by test builds of the constant-time harness (HQC_CT_VALGRIND / HQC_CT_MSAN).
allowed_inc_ct='^(valgrind/memcheck\.h|sanitizer/msan_interface\.h)$'
declare -A seen=()
queue=("${srcs[@]}")
while [ ${#queue[@]} -gt 0 ]; do
  f=${queue[0]}
  queue=("${queue[@]:1}")
  [ -n "${seen[$f]:-}" ] && continue
  seen[$f]=1
  path=$src_dir/$f
  [ -f "$path" ] || path=$src_dir/../include/$f
  if [ ! -f "$path" ]; then
    echo "FAIL: $f not found"
    fail=1
    continue
  fi
  while read -r inc; do
    queue+=("$inc")
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$path")
  while read -r inc; do
    if ! [[ $inc =~ $allowed_inc || $inc =~ $allowed_inc_ct ]]; then
      echo "FAIL: $f includes <$inc>, which is not a freestanding header of the allowlist"
      fail=1
    fi
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*<\([^>]*\)>.*/\1/p' "$path")
done
echo "core files checked for includes: ${#seen[@]}"
if [ "$fail" -ne 0 ]; then exit 1; fi
echo "OK: the core is freestanding"
