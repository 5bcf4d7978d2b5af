#!/usr/bin/env bash
# No hidden mutable globals (hardening issue, thread safety): lists every symbol of the static
# library that lives in a writable section (.data, .bss, thread-local) and fails on any that is
# not an allowed read-once cache. Allowed: function-local statics that C++ initialises exactly
# once, thread-safely ("magic statics"), and never writes again, and their guard variables.
# usage: globals_check.sh path/to/libhqc.a
set -euo pipefail
lib=$1
allowed='^(guard variable for )?(hqc::backend::\(anonymous namespace\)::selection\(\)::sel|hqc::backend::detect_cpu_features\(\)::features|hqc::backend::effective_cpu_features\(\)::features|hqc::backend::\(anonymous namespace\)::(kBackends|kAliases))$|^DW\.ref\.__gxx_personality_v0$'
syms=$(objdump -t "$lib" | awk '$0 ~ /[[:space:]]\.(data|bss|tdata|tbss)([.][^[:space:]]*)?[[:space:]]/ && $0 !~ /\.data\.rel\.ro/ {print $NF}' |
  c++filt | grep -vE '^\.(data|bss|tdata|tbss)' | sort -u)
echo "writable symbols in $(basename "$lib"):"
echo "$syms" | sed 's/^/  /'
bad=$(echo "$syms" | grep -vE "$allowed" | grep -v '^$' || true)
if [ -n "$bad" ]; then
  echo "FAIL: mutable globals outside the allowed read-once caches:"
  echo "$bad" | sed 's/^/  /'
  exit 1
fi
echo "OK: only read-once caches (function-local statics initialised thread-safely)"
