#!/usr/bin/env bash
# Soak test: N (default 100,000) full TLS 1.3 handshakes from soak_client to nginx (Debian), both
# with the hqckit provider loaded through OPENSSL_CONF, cycling through the HQC groups and hybrids.
# Reports errors (none allowed) and the resident memory of the client and of the nginx worker at
# each checkpoint; fails if either grows by more than 256 KiB after the first checkpoint (warm-up).
#   scripts/soak.sh [--build DIR] [--handshakes N] [--report-every K] [--groups g1,g2,..]
set -euo pipefail
BUILD=build/release; N=100000; EVERY=10000
GROUPS_LIST=hqc1,hqc3,hqc5,x25519_hqc1,p256_hqc1,p384_hqc3,x448_hqc3,p521_hqc5
LIMIT_KIB=256
while [ $# -gt 0 ]; do
  case $1 in
    --build) BUILD=$2; shift 2 ;;
    --handshakes) N=$2; shift 2 ;;
    --report-every) EVERY=$2; shift 2 ;;
    --groups) GROUPS_LIST=$2; shift 2 ;;
    *) echo "soak.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$NGINX" ] || { echo "SKIP: nginx not installed (scripts/install-deps.sh installs nginx-light)"; exit 77; }
CLIENT=$BUILD/tests/soak/soak_client
MOD=$(dirname "$(find "$BUILD/provider" -name hqckit.so | head -1)")
[ -x "$CLIENT" ] && [ -f "$MOD/hqckit.so" ] || { echo "soak.sh: build soak_client and the provider first ($BUILD)" >&2; exit 2; }

W=$(mktemp -d); NPID=""
cleanup() { [ -n "$NPID" ] && kill -QUIT "$NPID" 2>/dev/null && wait "$NPID" 2>/dev/null; rm -rf "$W"; }
trap cleanup EXIT INT TERM
cat > "$W/openssl.cnf" <<CNF
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
[provider_sect]
default = default_sect
hqckit = hqckit_sect
[default_sect]
activate = 1
[hqckit_sect]
module = $(cd "$MOD" && pwd)/hqckit.so
activate = 1
CNF
export OPENSSL_CONF=$W/openssl.cnf
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$W/key.pem" -out "$W/cert.pem" \
  -subj /CN=localhost -days 1 2>/dev/null
PORT=$(( 20000 + $$ % 30000 ))
mkdir -p "$W/tmp"
cat > "$W/nginx.conf" <<CONF
daemon off; master_process on; worker_processes 1; pid $W/nginx.pid; error_log $W/error.log warn;
events { worker_connections 256; }
http { access_log off; client_body_temp_path $W/tmp/body;
  server { listen 127.0.0.1:$PORT ssl; ssl_certificate $W/cert.pem; ssl_certificate_key $W/key.pem;
    ssl_protocols TLSv1.3; ssl_session_tickets off; ssl_session_cache off;
    ssl_ecdh_curve ${GROUPS_LIST//,/:};
    location / { return 200 "ok group \$ssl_curve\n"; } } }
CONF
"$NGINX" -p "$W" -c "$W/nginx.conf" > "$W/nginx.out" 2>&1 & NPID=$!
for i in $(seq 1 50); do (exec 3<>/dev/tcp/127.0.0.1/$PORT) 2>/dev/null && break; sleep 0.1; done
WORKER=$(pgrep -P "$NPID" | head -1)
worker_rss() { awk '/VmRSS/ {print $2}' "/proc/$WORKER/status"; }

echo "soak: $N handshakes, groups $GROUPS_LIST, nginx worker pid $WORKER, port $PORT"
start=$(date +%s)
first_client=""; first_worker=""; fail=0
while read -r tag a b c d; do
  case $tag in
    rss_kib)
      w=$(worker_rss); printf 'after %7d handshakes: client %6d KiB, nginx worker %6d KiB\n' "$a" "$b" "$w"
      if [ "$a" -gt 0 ] && [ -z "$first_client" ]; then first_client=$b; first_worker=$w; fi
      last_client=$b; last_worker=$w ;;
    handshakes) total=$a; errors=$c ;;
  esac
done < <("$CLIENT" --port "$PORT" --groups "$GROUPS_LIST" --handshakes "$N" --report-every "$EVERY" || true)
secs=$(( $(date +%s) - start ))
grow_c=$(( last_client - first_client )); grow_w=$(( last_worker - first_worker ))
echo "soak: $total handshakes in ${secs}s, errors $errors; growth after warm-up: client ${grow_c} KiB, nginx worker ${grow_w} KiB (limit ${LIMIT_KIB} KiB)"
[ "${errors:-1}" -eq 0 ] || fail=1
[ "$grow_c" -le "$LIMIT_KIB" ] && [ "$grow_w" -le "$LIMIT_KIB" ] || fail=1
[ $fail -eq 0 ] && echo "soak: 1 passed, 0 failed" || { echo "soak: 0 passed, 1 failed"; tail -5 "$W/error.log"; }
exit $fail
