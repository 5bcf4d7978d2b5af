#!/usr/bin/env bash
# scripts/openssl35-test.sh [--root-only | --shell | -- CMD...]: hqckit on OpenSSL 3.5 (Debian 13),
# beside the OpenSSL 3.0 of the host (Debian 12). A second compiler in the matrix: g++ 14.
#
#  1. Creates or reuses a cached Debian 13 (trixie) minbase root made with debootstrap from
#     Debian's mirror, with the build and test packages installed by apt inside it
#     (/var/cache/hqckit/trixie-build; downloaded .debs kept in /var/cache/hqckit/trixie-apt-archives).
#     The root counts as made only when its stamp files (each written last) are there and match: a
#     root left half-made by an interrupted debootstrap is removed and made again, an interrupted or
#     changed package installation is redone.
#  2. Bind-mounts the source tree read-only at /src in the root, builds hqckit there with g++ 14
#     (release preset: -O3, all backends, provider, tools, -Werror; Google Benchmark off) in
#     /var/tmp/hqckit-build of the root, only the targets the provider and TLS tests need.
#  3. Runs there the ctest labels provider and tls, without valgrind and soak: the GoogleTest
#     provider suite, s_server/s_client for the 8 groups and every backend, nginx + curl, provider
#     config / randomness / provider of record, `hqc info`, and hqc tls-bench on loopback and through
#     network namespaces, including tls_keyshares (ML-KEM groups of OpenSSL 3.5 beside HQC, two key
#     shares in one ClientHello against a HelloRetryRequest) and tls_unknown_groups (the `?` group
#     prefix), which skip themselves on OpenSSL 3.0.
# Mounts are undone on exit (trap), also on failure or interrupt. Needs root and Debian's mirror;
# exits 77 (skipped) when not root. Never touches the host's OpenSSL configuration.
#   --root-only   only make (or check) the cached root
#   --shell       an interactive shell in the root with the mounts (debugging)
#   -- CMD...     run CMD in the root with the mounts, after the build; its standard output is the
#                 script's (scripts/tls-report.sh runs hqc-tls-bench there this way)
# HQC_DEBIAN_MIRROR overrides the mirror; HQC_OPENSSL35_KEEP_BUILD=1 keeps the previous build
# directory (incremental build) instead of building from scratch.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
mode=test
case "${1:-}" in
  --root-only) mode=root ;;
  --shell) mode=shell ;;
  --) mode=cmd; shift ;;
  "") ;;
  *) echo "usage: $0 [--root-only | --shell | -- CMD...]" >&2; exit 2 ;;
esac
[ "$(id -u)" = 0 ] || { echo "openssl35-test: needs root (debootstrap, chroot, mounts); skipped"; exit 77; }
MIRROR=${HQC_DEBIAN_MIRROR:-http://deb.debian.org/debian}
CACHE=/var/cache/hqckit
R=$CACHE/trixie-build
ARCHIVES=$CACHE/trixie-apt-archives
STAMP=.hqckit-root-ready
# What the build and the tests need inside the root (g++ is g++ 14 on Debian 13).
PKGS=(g++ cmake ninja-build pkg-config libssl-dev openssl libgtest-dev libcli11-dev nlohmann-json3-dev
  python3 jq nginx-light curl iproute2 procps ca-certificates)
t0=$(date +%s)
log() { echo "openssl35-test: $* ($(( $(date +%s) - t0 )) s)" >&2; }
fail() { echo "openssl35-test: FAILED: $*" >&2; exit 1; }

mounts=()
cleanup() {
  local rc=$?
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}" 2>/dev/null || true
  done
  mounts=()
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mnt() { # mnt TYPE SRC DEST [OPTS]: mount and remember it
  mkdir -p "$3"
  if [ "$1" = bind ]; then mount --bind "$2" "$3"; else mount -t "$1" "$2" "$3"; fi
  mounts+=("$3")
  if [ -n "${4:-}" ]; then mount -o "remount,bind,$4" "$3"; fi
}
in_root() {
  chroot "$R" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive TERM="${TERM:-dumb}" "$@"
}
umount_all() { for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount "${mounts[i]}" || umount -l "${mounts[i]}"; done; mounts=(); }

# 1. The cached root. Anything mounted below it from an earlier, killed run goes first. Two stamps,
# each written last: $BASE_STAMP once debootstrap has finished (else the root is made anew), $STAMP
# once the package list is installed (else apt-get installs it again).
for m in $(grep -o " $R/[^ ]*" /proc/mounts | sort -r || true); do umount -l "$m" || true; done
BASE_STAMP=.hqckit-debootstrap-done
want="${PKGS[*]}"
if [ ! -f "$R/$BASE_STAMP" ]; then
  log "creating $R (debootstrap --variant=minbase --include=openssl trixie)"
  rm -rf "$R"
  mkdir -p "$CACHE" "$ARCHIVES/partial"
  debootstrap --variant=minbase --include=openssl trixie "$R" "$MIRROR" >"$CACHE/trixie-debootstrap.log" 2>&1 ||
    { tail -20 "$CACHE/trixie-debootstrap.log"; fail "debootstrap (log: $CACHE/trixie-debootstrap.log)"; }
  echo "deb $MIRROR trixie main" >"$R/etc/apt/sources.list"
  printf '#!/bin/sh\nexit 101\n' >"$R/usr/sbin/policy-rc.d"; chmod +x "$R/usr/sbin/policy-rc.d" # no service starts
  date -u +%FT%TZ >"$R/$BASE_STAMP"
fi
if [ ! -f "$R/$STAMP" ] || [ "$(cat "$R/$STAMP")" != "$want" ]; then
  log "apt-get install in $R: ${PKGS[*]}"
  rm -f "$R/$STAMP"
  mkdir -p "$ARCHIVES/partial"
  cp /etc/resolv.conf "$R/etc/resolv.conf" 2>/dev/null || true
  mnt proc proc "$R/proc"; mnt bind /dev "$R/dev"; mnt bind "$ARCHIVES" "$R/var/cache/apt/archives"
  in_root apt-get -qq update >"$CACHE/trixie-apt.log" 2>&1 || { cat "$CACHE/trixie-apt.log"; fail "apt-get update in the root"; }
  in_root apt-get -y -qq --no-install-recommends install "${PKGS[@]}" >>"$CACHE/trixie-apt.log" 2>&1 ||
    { tail -20 "$CACHE/trixie-apt.log"; fail "apt-get install in the root (log: $CACHE/trixie-apt.log)"; }
  umount_all
  echo "$want" >"$R/$STAMP"
fi
log "Debian $(cat "$R/etc/debian_version") root $R: $(chroot "$R" openssl version), $(chroot "$R" g++ --version | head -1)"
[ "$mode" = root ] && exit 0

# 2. Mounts and the build.
cp /etc/resolv.conf "$R/etc/resolv.conf" 2>/dev/null || true
mnt proc proc "$R/proc"
mnt bind /dev "$R/dev"
mnt tmpfs tmpfs "$R/dev/shm"
mnt sysfs sysfs "$R/sys"
mnt bind "$SRC" "$R/src" ro
B=/var/tmp/hqckit-build
# A kept build is only reused for the same source tree: ninja compares modification times, so a
# build made from another checkout (CI's clean clone) can look newer than this tree's edits.
[ "${HQC_OPENSSL35_KEEP_BUILD:-0}" = 1 ] && [ "$(cat "$R$B.source" 2>/dev/null)" = "$SRC" ] || rm -rf "${R:?}$B"
mkdir -p "$R$B" && echo "$SRC" >"$R$B.source"
in_root cmake -S /src -B $B --preset release -DHQC_BUILD_BENCH=OFF >"$R/var/tmp/configure.log" 2>&1 ||
  { cat "$R/var/tmp/configure.log" >&2; fail "cmake configure (g++ 14)"; }
targets=(hqckit hqc_cli hqc_tls_bench_cli hqckit_provider_test hqckit_provider_rand_test hqckit_provider_config_test
  hqckit_tls_groups)
in_root cmake --build $B -j 2 --target "${targets[@]}" >"$R/var/tmp/build.log" 2>&1 ||
  { grep -E -B2 -A8 'error|warning' "$R/var/tmp/build.log" | head -80 >&2; fail "build with g++ 14 (-Werror)"; }
! grep -q 'warning:' "$R/var/tmp/build.log" || { grep 'warning:' "$R/var/tmp/build.log" >&2; fail "g++ 14 warnings"; }
log "built with g++ 14, no warnings"

case $mode in
  shell) in_root bash -i; exit ;;
  cmd) in_root "$@"; exit ;;
esac

# 3. The provider and TLS tests against OpenSSL 3.5.
in_root ctest --test-dir $B -L 'provider|tls' -LE 'valgrind|soak' --output-on-failure -j 2 >"$R/var/tmp/ctest.log" 2>&1 ||
  { cat "$R/var/tmp/ctest.log"; fail "ctest -L 'provider|tls' on OpenSSL 3.5"; }
# The checks that exist only for this step must have run, not been skipped (exit 77).
for t in provider.nginx_curl tls_keyshares tls_unknown_groups tls_providers provider.s_client.default.hqc5 provider.config; do
  grep -Eq "Test +#[0-9]+: $t \.+ +Passed" "$R/var/tmp/ctest.log" || { cat "$R/var/tmp/ctest.log"; fail "$t did not pass (skipped?)"; }
done
grep -E 'tests passed|Total Test time' "$R/var/tmp/ctest.log"
log "provider and tls tests pass on $(chroot "$R" openssl version)"
