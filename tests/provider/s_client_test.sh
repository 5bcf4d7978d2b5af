#!/bin/sh
# TLS 1.3 handshake between `openssl s_server` and `openssl s_client` on 127.0.0.1 with the
# hqckit provider loaded from the build tree; checks that the ServerHello's key_share carries
# the requested group and that a page comes back.
# Usage: s_client_test.sh <module-dir> <group> <group-id-decimal>
# Honours HQC_BACKEND (exit 77 = skipped when the provider cannot run on that backend here).
set -u
MODDIR=$1 GROUP=$2 GROUP_ID=$3
OPENSSL=${OPENSSL:-openssl}
PROV="-provider-path $MODDIR -provider hqckit -provider default"

info=$($OPENSSL list $PROV -providers -verbose 2>&1)
if [ -n "${HQC_BACKEND:-}" ]; then
  # The alias avx2 runs the first avx2-* row this CPU supports.
  want="build info: $HQC_BACKEND\$"
  [ "$HQC_BACKEND" = avx2 ] && want="build info: avx2-"
  if ! printf '%s\n' "$info" | grep -q "$want"; then
    echo "SKIP: backend '$HQC_BACKEND' not compiled in or not supported by this CPU"
    exit 77
  fi
fi

WORK=$(mktemp -d)
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null; wait "$SERVER_PID" 2>/dev/null; fi
  rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

$OPENSSL req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$WORK/key.pem" \
  -out "$WORK/cert.pem" -subj /CN=localhost -days 1 2>/dev/null || { echo "FAIL: cannot make a certificate"; exit 1; }

# Start the server on a free port (retry on a port clash).
port=""
for attempt in 1 2 3 4 5 6 7 8; do
  try=$(( 20000 + ( $$ * 7 + attempt * 977 + $(date +%N | sed 's/^0*//;s/^$/0/') ) % 40000 ))
  $OPENSSL s_server $PROV -accept "127.0.0.1:$try" -cert "$WORK/cert.pem" -key "$WORK/key.pem" \
    -tls1_3 -groups "$GROUP" -naccept 1 -www >"$WORK/server.log" 2>&1 &
  SERVER_PID=$!
  for i in $(seq 1 50); do
    if grep -q '^ACCEPT' "$WORK/server.log"; then port=$try; break; fi
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then break; fi
    sleep 0.1
  done
  [ -n "$port" ] && break
  kill "$SERVER_PID" 2>/dev/null; wait "$SERVER_PID" 2>/dev/null; SERVER_PID=""
done
if [ -z "$port" ]; then echo "FAIL: s_server did not start"; cat "$WORK/server.log"; exit 1; fi

printf 'GET / HTTP/1.0\r\n\r\n' | timeout 20 $OPENSSL s_client $PROV -connect "127.0.0.1:$port" \
  -servername localhost -tls1_3 -groups "$GROUP" -trace -ign_eof >"$WORK/client.log" 2>&1
rc=$?
wait "$SERVER_PID" 2>/dev/null; SERVER_PID=""

# The NamedGroup of the key_share in the ServerHello (the negotiated group).
got=$(awk '/ServerHello/ {sh=1} sh && /NamedGroup:/ {gsub(/.*\(|\).*/, ""); print; exit}' "$WORK/client.log")
fail=0
[ "$rc" -eq 0 ] || { echo "FAIL: s_client exited with $rc"; fail=1; }
[ "$got" = "$GROUP_ID" ] || { echo "FAIL: ServerHello key_share group '$got', expected $GROUP_ID ($GROUP)"; fail=1; }
grep -q 'TLSv1.3' "$WORK/client.log" || { echo "FAIL: not TLS 1.3"; fail=1; }
grep -q 'HTTP/1.0 200 ok' "$WORK/client.log" || { echo "FAIL: no page received"; fail=1; }
if [ "$fail" -ne 0 ]; then
  echo "--- client ---"; grep -v '^ *[0-9a-f]\{4\} - ' "$WORK/client.log" | tail -40
  echo "--- server ---"; cat "$WORK/server.log"
  exit 1
fi
echo "OK: $GROUP (0x$(printf '%04X' "$GROUP_ID")) negotiated over 127.0.0.1:$port${HQC_BACKEND:+ on backend $HQC_BACKEND}"
