#!/usr/bin/env bash
# tests/package_test.sh SRC: the Debian packages from a user's point of view. Builds them
# (scripts/package.sh: debhelper + lintian, no errors), installs them in a clean Debian 12 minbase
# root (debootstrap, cached in /var/cache/hqckit/bookworm-minbase; downloaded packages cached in
# /var/cache/hqckit/bookworm-apt-archives) with apt-get, enables the provider with the shipped
# openssl.cnf fragment (one .include line), serves TLS 1.3 from nginx with
# `ssl_ecdh_curve x25519_hqc1:hqc5` and fetches it with `curl --curves hqc5` and
# `--curves x25519_hqc1`, builds the C consumer against libhqc-dev with pkg-config and with CMake
# (shared and static) and runs it, then purges the packages and checks that no file is left.
# Needs root and Debian's mirror; exits 77 (skipped) when not root. Never touches the host's
# OpenSSL configuration: everything happens inside the copy of the cached root.
# HQC_DEB_DIR=DIR uses packages already built there instead of building them.
set -euo pipefail
SRC=$(cd "${1:?source dir}" && pwd)
[ "$(id -u)" = 0 ] || { echo "package test: needs root (chroot, mounts); skipped"; exit 77; }
MIRROR=${HQC_DEBIAN_MIRROR:-http://deb.debian.org/debian}
CACHE=/var/cache/hqckit
BASE=$CACHE/bookworm-minbase
ARCHIVES=$CACHE/bookworm-apt-archives
W=$(mktemp -d /var/tmp/hqckit-package-test.XXXXXX)
R=$W/root
mounts=()
cleanup() {
  if [ -f "$R/tmp/nginx.pid" ]; then kill "$(cat "$R/tmp/nginx.pid")" 2>/dev/null || true; sleep 0.5; fi
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}" || true; done
  # Only remove the work root once nothing is mounted below it.
  if ! grep -q " $W/" /proc/mounts; then rm -rf "$W"; else echo "package test: $W still has mounts; left in place" >&2; fi
}
trap cleanup EXIT
pass=0
ok() { echo "ok: $*"; pass=$((pass + 1)); }
fail() { echo "FAILED: $*" >&2; exit 1; }
in_root() { chroot "$R" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }
t0=$(date +%s)

# 1. Packages.
if [ -n "${HQC_DEB_DIR:-}" ]; then
  DEBS=$(cd "$HQC_DEB_DIR" && pwd)
else
  DEBS=$W/debs
  "$SRC/scripts/package.sh" "$DEBS" | grep -E '^package: (lintian|built)' || fail "scripts/package.sh"
fi
PKGS=(libhqc0 libhqc-dev hqc-tools openssl-provider-hqckit)
for p in "${PKGS[@]}"; do ls "$DEBS/${p}"_*.deb >/dev/null || fail "no $p package in $DEBS"; done
ok "packages built, lintian without errors ($(( $(date +%s) - t0 )) s)"

# 2. A clean root: a copy of the cached debootstrap root (created on first use).
if [ ! -x "$BASE/usr/bin/apt-get" ]; then
  echo "package test: creating $BASE (debootstrap --variant=minbase bookworm)"
  rm -rf "$BASE.tmp"; mkdir -p "$CACHE"
  debootstrap --variant=minbase bookworm "$BASE.tmp" "$MIRROR" >"$W/debootstrap.log" 2>&1 ||
    { tail -20 "$W/debootstrap.log"; fail "debootstrap"; }
  mv "$BASE.tmp" "$BASE"
fi
cp -a "$BASE" "$R"
mkdir -p "$ARCHIVES/partial" "$R/tmp/debs"
for m in proc dev; do
  if [ $m = proc ]; then mount -t proc proc "$R/proc"; else mount --bind /dev "$R/dev"; fi
  mounts+=("$R/$m")
done
mount --bind "$ARCHIVES" "$R/var/cache/apt/archives"; mounts+=("$R/var/cache/apt/archives")
cp /etc/resolv.conf "$R/etc/resolv.conf" 2>/dev/null || true
printf '#!/bin/sh\nexit 101\n' >"$R/usr/sbin/policy-rc.d"; chmod +x "$R/usr/sbin/policy-rc.d"   # no service starts
echo "deb $MIRROR bookworm main" >"$R/etc/apt/sources.list"
in_root apt-get -qq update >"$W/apt.log" 2>&1 || { cat "$W/apt.log"; fail "apt-get update"; }
in_root apt-get -y -qq --no-install-recommends install nginx-light curl openssl ca-certificates \
  gcc libc6-dev libstdc++-12-dev make cmake pkg-config >>"$W/apt.log" 2>&1 || { tail -20 "$W/apt.log"; fail "tools in the root"; }
ok "clean Debian $(cat "$R/etc/debian_version") minbase root with nginx-light, curl and a C toolchain ($(( $(date +%s) - t0 )) s)"

# File list of the root before our packages (purge must restore it); /var/lib/nginx holds the
# temporary directories nginx itself creates when it starts.
snapshot() {
  (cd "$R" && find . -xdev \( -path ./proc -o -path ./dev -o -path ./tmp -o -path ./run -o -path ./var/cache \
    -o -path ./var/lib/apt -o -path ./var/lib/dpkg -o -path ./var/log -o -path ./root -o -path ./var/lib/nginx \) -prune -o -print | sort)
}
snapshot >"$W/before"

# 3. Install the four packages with apt (dependencies from the archive).
cp "$DEBS"/{libhqc0,libhqc-dev,hqc-tools,openssl-provider-hqckit}_*.deb "$R/tmp/debs/"
in_root sh -c 'apt-get -y -qq install /tmp/debs/*.deb' >>"$W/apt.log" 2>&1 || { tail -20 "$W/apt.log"; fail "apt-get install ./*.deb"; }
for p in "${PKGS[@]}"; do in_root dpkg-query -W -f='${Status}\n' "$p" | grep -q "install ok installed" || fail "$p not installed"; done
moddir=$(in_root openssl version -m | sed -E 's/^MODULESDIR: "(.*)"$/\1/')
[ -f "$R$moddir/hqckit.so" ] || fail "hqckit.so not in OpenSSL's module directory $moddir"
ok "apt-get install of ${PKGS[*]}; hqckit.so in $moddir"

# 4. Enable the provider with one line; openssl, hqc and nginx/curl use it.
cp "$R/etc/ssl/openssl.cnf" "$W/openssl.cnf.orig"
echo ".include /usr/share/openssl-provider-hqckit/hqckit.cnf" >>"$R/etc/ssl/openssl.cnf"
in_root openssl list -providers | grep -q "hqckit" || fail "provider not active"
kems=$(in_root openssl list -kem-algorithms)
for a in hqc1 hqc3 hqc5 x25519_hqc1; do echo "$kems" | grep -q "$a @ hqckit" || fail "openssl list -kem-algorithms lacks $a"; done
ok "one .include line: openssl list -providers / -kem-algorithms show hqckit"
in_root hqc info >"$W/info" || { cat "$W/info"; fail "hqc info"; }
ok "hqc info runs ($(head -1 "$W/info"))"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
in_root openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout /tmp/key.pem \
  -out /tmp/cert.pem -subj /CN=localhost -days 1 2>/dev/null
cat >"$R/tmp/nginx.conf" <<NGINX
daemon on;
pid /tmp/nginx.pid;
error_log /tmp/nginx-error.log;
events { worker_connections 64; }
http {
  access_log off;
  server {
    listen 127.0.0.1:$port ssl;
    ssl_certificate /tmp/cert.pem;
    ssl_certificate_key /tmp/key.pem;
    ssl_protocols TLSv1.3;
    ssl_ecdh_curve x25519_hqc1:hqc5;
    location / { return 200 "curve=\$ssl_curve\n"; }
  }
}
NGINX
in_root nginx -c /tmp/nginx.conf || { cat "$R/tmp/nginx-error.log"; fail "nginx start"; }
for i in $(seq 50); do [ -s "$R/tmp/nginx.pid" ] && break; sleep 0.1; done
for g in hqc5:0xfe39 x25519_hqc1:0xfe35; do
  out=$(in_root curl -sS --cacert /tmp/cert.pem --resolve "localhost:$port:127.0.0.1" --tlsv1.3 --curves "${g%%:*}" \
    "https://localhost:$port/") || fail "curl --curves ${g%%:*}"
  [ "$out" = "curve=${g##*:}" ] || fail "curl --curves ${g%%:*}: got '$out', expected curve=${g##*:}"
  ok "nginx (ssl_ecdh_curve x25519_hqc1:hqc5) and curl --curves ${g%%:*}: negotiated ${g##*:}"
done
if in_root curl -sS --cacert /tmp/cert.pem --resolve "localhost:$port:127.0.0.1" --tlsv1.3 --curves X25519 \
  "https://localhost:$port/" >/dev/null 2>"$W/curl.err"; then
  fail "a client without an HQC group was served"
fi
ok "a client offering only X25519 is refused ($(head -c 80 "$W/curl.err"))"
kill "$(cat "$R/tmp/nginx.pid")"; for i in $(seq 50); do [ -e "$R/tmp/nginx.pid" ] || break; sleep 0.1; done

# 5. C consumers against libhqc-dev: pkg-config (shared and fully static) and CMake (C only).
cp -r "$SRC/examples/consumer_c" "$R/tmp/consumer_c"
in_root sh -c 'cd /tmp/consumer_c && cc main.c -o c_pc $(pkg-config --cflags --libs hqc) && ./c_pc &&
  cc -static main.c -o c_pc_static $(pkg-config --static --cflags --libs hqc) && ./c_pc_static' >"$W/consumer.log" 2>&1 ||
  { cat "$W/consumer.log"; fail "pkg-config consumers"; }
ok "pkg-config consumers (libhqc.so.0 and fully static) build and run"
in_root sh -c 'cmake -S /tmp/consumer_c -B /tmp/consumer_c/b >/dev/null && cmake --build /tmp/consumer_c/b >/dev/null &&
  /tmp/consumer_c/b/consumer_c && /tmp/consumer_c/b/consumer_c_static' >"$W/consumer.log" 2>&1 ||
  { cat "$W/consumer.log"; fail "CMake consumers"; }
ok "CMake consumers (C only; hqc::hqc and hqc::hqc_static) build and run"

# 6. Purge: remove the .include line as README.Debian says, then no file of ours remains.
cp "$W/openssl.cnf.orig" "$R/etc/ssl/openssl.cnf"
in_root apt-get -y -qq purge "${PKGS[@]}" >>"$W/apt.log" 2>&1 || { tail -20 "$W/apt.log"; fail "apt-get purge"; }
snapshot >"$W/after"
if ! diff "$W/before" "$W/after" >"$W/diff"; then cat "$W/diff"; fail "files left or lost after purge"; fi
ok "apt-get purge leaves the root's file list as before the install ($(wc -l <"$W/before") entries)"
echo "package test: $pass passed, 0 failed ($(( $(date +%s) - t0 )) s)"
