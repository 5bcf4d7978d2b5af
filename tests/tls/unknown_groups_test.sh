#!/bin/sh
# OpenSSL 3.5's `?` group prefix ("ignore this group if no provider offers it") with the hqckit
# groups, between `openssl s_server` and `openssl s_client` on 127.0.0.1:
#  1. `-groups nonexistent:hqc1` is refused (so that the next step shows what `?` changes);
#  2. `?nonexistent:hqc1` on both sides negotiates hqc1 (ServerHello key_share 65075);
#  3. without hqckit loaded, `?hqc1:X25519` falls back to X25519 (a configuration that lists HQC
#     groups with `?` keeps working where the provider is absent), while `hqc1:X25519` is refused.
# Usage: unknown_groups_test.sh <module-dir>; exit 77 (skipped) on OpenSSL before 3.5.
set -u
MODDIR=$1
OPENSSL=${OPENSSL:-openssl}
HQCKIT="-provider-path $MODDIR -provider hqckit -provider default"
ver=$($OPENSSL version 2>/dev/null | awk '{print $2}')
case "$ver" in
  3.[5-9]* | 3.[1-9][0-9]* | [4-9].*) ;;
  *) echo "SKIP: OpenSSL $ver has no '?' group prefix (3.5+)"; exit 77 ;;
esac

WORK=$(mktemp -d)
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null; wait "$SERVER_PID" 2>/dev/null; fi
  rm -rf "$WORK"
}
trap cleanup EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

$OPENSSL req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$WORK/key.pem" \
  -out "$WORK/cert.pem" -subj /CN=localhost -days 1 2>/dev/null || fail "cannot make a certificate"

# handshake NAME PROVIDER_ARGS GROUPS: s_server and s_client with GROUPS on both sides; the
# client's -trace and the server's -www page in $WORK/NAME.client, the server's output in
# $WORK/NAME.server.
handshake() {
  name=$1 prov=$2 groups=$3 port=""
  for attempt in 1 2 3 4 5 6 7 8; do
    try=$(( 20000 + ( $$ * 7 + attempt * 977 + $(date +%N | sed 's/^0*//;s/^$/0/') ) % 40000 ))
    # shellcheck disable=SC2086
    $OPENSSL s_server $prov -accept "127.0.0.1:$try" -cert "$WORK/cert.pem" -key "$WORK/key.pem" \
      -tls1_3 -groups "$groups" -naccept 1 -www >"$WORK/$name.server" 2>&1 &
    SERVER_PID=$!
    for _ in $(seq 1 50); do
      if grep -q '^ACCEPT' "$WORK/$name.server" 2>/dev/null; then port=$try; break; fi
      if ! kill -0 "$SERVER_PID" 2>/dev/null; then break; fi
      sleep 0.1
    done
    [ -n "$port" ] && break
    kill "$SERVER_PID" 2>/dev/null; wait "$SERVER_PID" 2>/dev/null; SERVER_PID=""
    grep -q 'failed' "$WORK/$name.server" 2>/dev/null && break  # a refused group list: no use retrying
  done
  [ -n "$port" ] || { cat "$WORK/$name.server"; fail "$name: s_server did not start with -groups '$groups'"; }
  # shellcheck disable=SC2086
  printf 'GET / HTTP/1.0\r\n\r\n' | timeout 20 $OPENSSL s_client $prov -connect "127.0.0.1:$port" \
    -servername localhost -tls1_3 -groups "$groups" -trace -ign_eof >"$WORK/$name.client" 2>&1 ||
    { grep -v '^ *[0-9a-f]\{4\} - ' "$WORK/$name.client" | tail -20; fail "$name: s_client failed"; }
  wait "$SERVER_PID" 2>/dev/null; SERVER_PID=""
  grep -q 'HTTP/1.0 200 ok' "$WORK/$name.client" || fail "$name: no page received"
}
# The NamedGroup of the ServerHello's key_share.
server_hello_group() {
  awk '/ServerHello/ {sh=1} sh && /NamedGroup:/ {gsub(/.*\(|\).*/, ""); print; exit}' "$1"
}
# refused PROVIDER_ARGS GROUPS: s_client must reject the group list before connecting.
refused() {
  # shellcheck disable=SC2086
  out=$(echo | timeout 10 $OPENSSL s_client $1 -connect 127.0.0.1:1 -tls1_3 -groups "$2" 2>&1)
  printf '%s\n' "$out" | grep -q "SSL_CONF_cmd(-groups, $2) failed" ||
    fail "-groups '$2' was not refused: $(printf '%s\n' "$out" | head -3)"
}

# 1. Without '?', a group no provider offers makes the whole list invalid.
refused "$HQCKIT" 'nonexistent:hqc1'

# 2. With '?', the unknown group is dropped and hqc1 (0xFE33 = 65075) is negotiated.
handshake q "$HQCKIT" '?nonexistent:hqc1'
got=$(server_hello_group "$WORK/q.client")
[ "$got" = 65075 ] || fail "'?nonexistent:hqc1': ServerHello key_share group '$got', expected 65075 (hqc1)"
# The -www page reports the server's view of the groups: the list it kept, and the shared ones.
grep -q '^Shared groups: hqc1$' "$WORK/q.client" || fail "'?nonexistent:hqc1': server: $(grep groups: "$WORK/q.client")"

# 3. hqckit not loaded: '?hqc1:X25519' falls back to X25519 (29); 'hqc1:X25519' is refused.
refused "" 'hqc1:X25519'
handshake noprov "" '?hqc1:X25519'
got=$(server_hello_group "$WORK/noprov.client")
[ "$got" = 29 ] || fail "'?hqc1:X25519' without hqckit: ServerHello key_share group '$got', expected 29 (X25519)"
grep -q '^Supported groups: x25519$' "$WORK/noprov.client" ||
  fail "'?hqc1:X25519' without hqckit: server: $(grep groups: "$WORK/noprov.client")"

echo "OK: '?nonexistent:hqc1' negotiates hqc1; without hqckit '?hqc1:X25519' negotiates X25519 (OpenSSL $ver)"
