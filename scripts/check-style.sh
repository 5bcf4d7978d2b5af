#!/usr/bin/env bash
# Checks the C/C++ sources against .clang-format and .clang-tidy without changing anything.
#
#   scripts/check-style.sh [--format-only | --tidy-only] [BUILD_DIR]
#
# BUILD_DIR (default build/release) must hold compile_commands.json (every preset exports it:
# `cmake --preset release`). clang-format runs with --dry-run -Werror on every source and header
# under src/ include/ tools/ provider/ tests/ bench/ fuzz/; clang-tidy runs on every translation
# unit of the compile database inside those folders (headers through HeaderFilterRegex), with
# warnings as errors. Exit 0 when both are clean, 1 otherwise; the findings are printed.
# To apply the formatting: clang-format -i $(scripts/check-style.sh --list-files).
# CLANG_FORMAT, CLANG_TIDY and JOBS override the tools and the parallelism.
set -euo pipefail
cd "$(dirname "$0")/.."

CLANG_FORMAT=${CLANG_FORMAT:-clang-format}
CLANG_TIDY=${CLANG_TIDY:-clang-tidy}
JOBS=${JOBS:-$(nproc)}
DIRS=(src include tools provider tests bench fuzz)
do_format=1 do_tidy=1 build=build/release
for arg in "$@"; do
  case "$arg" in
    --format-only) do_tidy=0 ;;
    --tidy-only) do_format=0 ;;
    --list-files) do_format=0 do_tidy=0 list=1 ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "check-style.sh: unknown option $arg" >&2; exit 2 ;;
    *) build=$arg ;;
  esac
done

# The fuzz corpus holds inputs, not sources.
sources() {
  find "${DIRS[@]}" -path fuzz/corpus -prune -o -type f \
    \( -name '*.cpp' -o -name '*.hpp' -o -name '*.c' -o -name '*.h' -o -name '*.cc' \) -print | sort
}

if [[ ${list:-0} == 1 ]]; then sources; exit 0; fi

status=0
if [[ $do_format == 1 ]]; then
  command -v "$CLANG_FORMAT" >/dev/null || { echo "check-style.sh: $CLANG_FORMAT not found" >&2; exit 2; }
  mapfile -t files < <(sources)
  if ! printf '%s\0' "${files[@]}" | xargs -0 -P "$JOBS" -n 8 "$CLANG_FORMAT" --dry-run -Werror --style=file; then
    echo "check-style.sh: clang-format: the files above differ from .clang-format" >&2
    status=1
  else
    echo "check-style.sh: clang-format: ${#files[@]} files clean"
  fi
fi

if [[ $do_tidy == 1 ]]; then
  command -v "$CLANG_TIDY" >/dev/null || { echo "check-style.sh: $CLANG_TIDY not found" >&2; exit 2; }
  db=$build/compile_commands.json
  [[ -f $db ]] || { echo "check-style.sh: $db missing (run: cmake --preset release)" >&2; exit 2; }
  # Every translation unit once (the library objects are compiled more than once for the
  # constant-time and clone builds), only the project's own folders.
  mapfile -t units < <(python3 - "$db" "$PWD" "${DIRS[@]}" <<'EOF'
import json, os, sys
db, root, dirs = sys.argv[1], sys.argv[2], sys.argv[3:]
seen = []
for entry in json.load(open(db)):
    path = os.path.relpath(os.path.join(entry["directory"], entry["file"]), root)
    if path.split(os.sep)[0] in dirs and path not in seen:
        seen.append(path)
print("\n".join(seen))
EOF
  )
  log=$(mktemp)
  trap 'rm -f "$log"' EXIT
  if ! printf '%s\0' "${units[@]}" | xargs -0 -P "$JOBS" -n 1 "$CLANG_TIDY" -p "$build" --quiet --warnings-as-errors='*' >"$log" 2>&1; then
    grep -E 'warning:|error:' "$log" | sort -u || true
    echo "check-style.sh: clang-tidy: findings above ($(grep -cE '(warning|error):.*\[' "$log" || true) lines)" >&2
    status=1
  else
    echo "check-style.sh: clang-tidy: ${#units[@]} translation units clean"
  fi
fi
exit $status
