#!/bin/sh
# nginx (Debian package) serves a page over HTTPS on a loopback port with the hqckit provider
# activated through an openssl.cnf (OPENSSL_CONF) and `ssl_ecdh_curve` naming HQC groups; curl
# fetches it with `--curves <group>` and the page reports the group nginx negotiated
# ($ssl_curve, 0xfe36 for hqc3).
# Usage: nginx_curl_test.sh <module-dir> [group ...]   (default: hqc3)
# Exit 77 (skipped) only when nginx is not installed (apt-get install nginx-light).
set -u
MODDIR=$1; shift
GROUPS_TO_TRY=${*:-hqc3}
NGINX=${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}
CURL=${CURL:-curl}
if [ ! -x "$NGINX" ]; then
  echo "SKIP: nginx is not installed (apt-get install nginx-light, or nginx)"
  exit 77
fi
command -v "$CURL" >/dev/null || { echo "FAIL: curl not found"; exit 1; }

WORK=$(mktemp -d)
NGINX_PID=""
cleanup() {
  if [ -n "$NGINX_PID" ]; then kill -QUIT "$NGINX_PID" 2>/dev/null; wait "$NGINX_PID" 2>/dev/null; fi
  rm -rf "$WORK"
}
trap cleanup EXIT INT TERM
chmod 755 "$WORK"

cat >"$WORK/openssl.cnf" <<CNF
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
[provider_sect]
default = default_sect
hqckit = hqckit_sect
[default_sect]
activate = 1
[hqckit_sect]
module = $MODDIR/hqckit.so
activate = 1
CNF
export OPENSSL_CONF="$WORK/openssl.cnf"

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$WORK/key.pem" \
  -out "$WORK/cert.pem" -subj /CN=localhost -days 1 2>/dev/null || { echo "FAIL: cannot make a certificate"; exit 1; }

ALL="hqc3:hqc1:p256_hqc1:x25519_hqc1:p384_hqc3:x448_hqc3:hqc5:p521_hqc5:X25519"
start_nginx() {
  mkdir -p "$WORK/tmp"
  cat >"$WORK/nginx.conf" <<CONF
daemon off;
master_process on;
worker_processes 1;
pid $WORK/nginx.pid;
error_log $WORK/error.log info;
events { worker_connections 64; }
http {
  access_log $WORK/access.log;
  client_body_temp_path $WORK/tmp/body;
  proxy_temp_path $WORK/tmp/proxy;
  fastcgi_temp_path $WORK/tmp/fastcgi;
  uwsgi_temp_path $WORK/tmp/uwsgi;
  scgi_temp_path $WORK/tmp/scgi;
  server {
    listen 127.0.0.1:$1 ssl;
    server_name localhost;
    ssl_certificate $WORK/cert.pem;
    ssl_certificate_key $WORK/key.pem;
    ssl_protocols TLSv1.3;
    ssl_ecdh_curve $ALL;
    location / { return 200 "hello from nginx over \$ssl_protocol with group \$ssl_curve\n"; }
  }
}
CONF
  "$NGINX" -p "$WORK" -c "$WORK/nginx.conf" >"$WORK/nginx.out" 2>&1 &
  NGINX_PID=$!
}

port=""
for attempt in 1 2 3 4 5 6 7 8; do
  try=$(( 20000 + ( $$ * 13 + attempt * 1223 + $(date +%N | sed 's/^0*//;s/^$/0/') ) % 40000 ))
  start_nginx "$try"
  for i in $(seq 1 50); do
    if "$CURL" -sk -o /dev/null --max-time 2 --curves X25519 "https://127.0.0.1:$try/" 2>/dev/null; then port=$try; break; fi
    kill -0 "$NGINX_PID" 2>/dev/null || break
    sleep 0.1
  done
  [ -n "$port" ] && break
  kill -QUIT "$NGINX_PID" 2>/dev/null; wait "$NGINX_PID" 2>/dev/null; NGINX_PID=""
done
if [ -z "$port" ]; then
  echo "FAIL: nginx did not start"; cat "$WORK/nginx.out" "$WORK/error.log" 2>/dev/null; exit 1
fi

fail=0
for g in $GROUPS_TO_TRY; do
  want=$(case $g in hqc1) echo 0xfe33;; p256_hqc1) echo 0xfe34;; x25519_hqc1) echo 0xfe35;; hqc3) echo 0xfe36;;
    p384_hqc3) echo 0xfe37;; x448_hqc3) echo 0xfe38;; hqc5) echo 0xfe39;; p521_hqc5) echo 0xfe3a;; *) echo "$g";; esac)
  page=$("$CURL" -sS --cacert "$WORK/cert.pem" --resolve "localhost:$port:127.0.0.1" --tlsv1.3 --curves "$g" \
    "https://localhost:$port/" 2>&1)
  case $page in
    *"TLSv1.3 with group $want"*) echo "OK: curl --curves $g -> nginx: $page" ;;
    *) echo "FAIL: curl --curves $g: '$page' (expected group $want)"; fail=1 ;;
  esac
done
# A group nginx is not configured for (hqc3 only on the client, X448 only) must fail cleanly.
if "$CURL" -s -o /dev/null --cacert "$WORK/cert.pem" --resolve "localhost:$port:127.0.0.1" --curves X448 \
  "https://localhost:$port/"; then
  echo "FAIL: a handshake with no common group succeeded"; fail=1
fi
if [ "$fail" -ne 0 ]; then cat "$WORK/error.log" 2>/dev/null | tail -20; exit 1; fi
echo "OK: nginx $("$NGINX" -v 2>&1 | sed 's/.*\///') + curl with the hqckit provider on 127.0.0.1:$port"
