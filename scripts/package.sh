#!/usr/bin/env bash
# scripts/package.sh [--reproducible] [OUTDIR]: builds the Debian packages of hqckit from the
# working tree (tracked and new files) with debhelper (debian/): libhqc0, libhqc-dev, hqc-tools,
# openssl-provider-hqckit (and their -dbgsym), into OUTDIR (default build/packages), then runs
# lintian on them (fails on any error). --reproducible builds a second time in the same place and
# fails unless every .deb is bit-identical. Needs: debhelper, dpkg-dev, fakeroot, lintian and the
# Build-Depends of debian/control (scripts/install-deps.sh installs them).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
REPRO=0
if [ "${1:-}" = "--reproducible" ]; then REPRO=1; shift; fi
OUT=$(mkdir -p "${1:-build/packages}" && cd "${1:-build/packages}" && pwd)
VERSION=$(dpkg-parsechangelog -S Version)
W="$ROOT/build/deb"   # fixed place: the build path is part of what makes two builds identical

build() {  # build DEST: one package build from a fresh copy of the tree, .debs into DEST
  rm -rf "$W"
  mkdir -p "$W/hqckit-$VERSION" "$1"
  git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
    tar -C "$ROOT" --null -T - -cf - | tar -C "$W/hqckit-$VERSION" -xf -
  (cd "$W/hqckit-$VERSION" &&
    DEB_BUILD_OPTIONS="parallel=$(nproc) ${DEB_BUILD_OPTIONS:-}" dpkg-buildpackage -b -us -uc >"$W/build.log" 2>&1) ||
    { tail -40 "$W/build.log" >&2; echo "package: dpkg-buildpackage failed (log: $W/build.log)" >&2; exit 1; }
  rm -f "$1"/*.deb "$1"/*.ddeb "$1"/*.buildinfo "$1"/*.changes
  mv "$W"/*.deb "$W"/*.ddeb "$W"/*.buildinfo "$W"/*.changes "$1"/ 2>/dev/null || true
}

build "$OUT"
echo "package: built in $OUT:"
(cd "$OUT" && sha256sum ./*.deb)
lintian --fail-on error "$OUT"/*.deb >"$ROOT/build/deb-lintian.log" 2>&1 ||
  { cat "$ROOT/build/deb-lintian.log" >&2; echo "package: lintian reports errors" >&2; exit 1; }
echo "package: lintian: no errors ($(grep -c '^W:' "$ROOT/build/deb-lintian.log" || true) warnings, $(grep -c '^I:' "$ROOT/build/deb-lintian.log" || true) infos; log build/deb-lintian.log)"
if [ $REPRO = 1 ]; then
  build "$W.second"
  if (cd "$OUT" && sha256sum ./*.deb) | (cd "$W.second" && sha256sum -c --quiet -); then
    echo "package: reproducible: a second build gives bit-identical .deb files"
    rm -rf "$W.second"
  else
    echo "package: NOT reproducible: compare $OUT and $W.second (diffoscope)" >&2
    exit 1
  fi
fi
