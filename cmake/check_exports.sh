#!/usr/bin/env bash
# check_exports.sh LIB HEADER CC NM: fails unless the dynamic symbols LIB defines are exactly the
# functions HEADER declares with HQC_API (found by preprocessing it, so macro-generated
# declarations count), each in a version node of cmake/hqc.map (HQC_0, HQC_0.2, ...).
set -euo pipefail
LIB=${1:?library}; HEADER=${2:?header}; CC=${3:?C compiler}; NM=${4:-nm}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
# Documented: every declaration carrying HQC_API (expanded to the default-visibility attribute).
"$CC" -E -P -x c -I"$(dirname "$(dirname "$HEADER")")" "$HEADER" | tr '\n' ' ' | tr ';' '\n' |
  grep 'visibility *( *"default" *)' | sed -E 's/^.*[^A-Za-z0-9_]([A-Za-z_][A-Za-z0-9_]*) *\(.*$/\1/' |
  sort -u >"$T/documented"
[ -s "$T/documented" ] || { echo "check_exports: no HQC_API declaration found in $HEADER" >&2; exit 2; }
# Exported: defined dynamic symbols, less the version node definitions (type A).
"$NM" -D --defined-only "$LIB" | awk '$2 != "A" { print $3 }' | sort -u >"$T/exported_versioned"
sed -E 's/@.*$//' "$T/exported_versioned" | sort -u >"$T/exported"
status=0
extra=$(comm -13 "$T/documented" "$T/exported")
missing=$(comm -23 "$T/documented" "$T/exported")
# The version nodes of the map beside this script (lines "NAME {" at the start of a line).
nodes=$(sed -n 's/^\(HQC_[0-9.]*\) *{.*/\1/p' "$(dirname "$0")/hqc.map" | sed 's/\./\\./g' | paste -sd'|')
[ -n "$nodes" ] || { echo "check_exports: no version node found in $(dirname "$0")/hqc.map" >&2; exit 2; }
unversioned=$(grep -vE "@@($nodes)\$" "$T/exported_versioned" || true)
if [ -n "$extra" ]; then
  echo "check_exports: $LIB exports symbols that $HEADER does not declare:" >&2
  echo "$extra" | sed 's/^/  /' >&2
  status=1
fi
if [ -n "$missing" ]; then
  echo "check_exports: $LIB does not export these functions of $HEADER:" >&2
  echo "$missing" | sed 's/^/  /' >&2
  status=1
fi
if [ -n "$unversioned" ]; then
  echo "check_exports: $LIB exports symbols outside version node HQC_0 (or a later node of hqc.map):" >&2
  echo "$unversioned" | sed 's/^/  /' >&2
  status=1
fi
[ $status = 0 ] && echo "check_exports: $(basename "$LIB") exports exactly the $(wc -l <"$T/documented") functions of $(basename "$HEADER") ($(echo "$nodes" | sed 's/\\//g; s/|/, /g'))"
exit $status
