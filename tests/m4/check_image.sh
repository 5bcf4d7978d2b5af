#!/usr/bin/env bash
# A device image links no heap, exceptions, RTTI, threads, environment or files: none of the
# functions that would bring them is defined in it (arm-none-eabi-nm), and it has no unwind
# tables. Run on the example firmware images (ctest firmware_no_hosted_runtime, label m4).
#
#   check_image.sh NM IMAGE...
set -euo pipefail
nm=$1
shift
fail=0
# malloc family and sbrk (heap); operator new / delete; the C++ exception and RTTI runtime and
# the unwinder; threads; getenv; files (open, fopen).
forbidden='^(malloc|free|calloc|realloc|_?sbrk|_Zn[wa].*|_Zd[la].*|__cxa_.*|__gxx_personality_v0|_Unwind_.*|_ZTI.*|pthread_.*|getenv|_?open|fopen)$'
for image in "$@"; do
  bad=$("$nm" "$image" | awk 'NF >= 3 { print $3 }' | grep -E "$forbidden" || true)
  if [ -n "$bad" ]; then
    echo "FAIL: $image defines hosted-runtime functions:"
    echo "$bad" | sed 's/^/  /'
    fail=1
  fi
  if arm-none-eabi-objdump -h "$image" | grep -qE '\.ARM\.(exidx|extab)|\.eh_frame'; then
    echo "FAIL: $image has unwind tables"
    fail=1
  fi
  [ $fail = 0 ] && echo "ok: $(basename "$image"): no heap, exceptions, RTTI, threads, environment or files"
done
exit $fail
