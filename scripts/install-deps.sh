#!/usr/bin/env bash
# Installs the Debian 12 packages hqckit needs to build, test and benchmark (as root; a no-op
# when everything is present). Used by the README's two commands and by CI.
set -euo pipefail
PKGS=(
  cmake ninja-build g++ clang libclang-rt-14-dev pkg-config   # toolchains (clang: ASan/UBSan build)
  clang-format clang-tidy                                     # scripts/check-style.sh: the tree stays formatted and lint-clean
  libssl-dev openssl                                          # OpenSSL 3: provider, CLI digests, tests
  libgtest-dev libbenchmark-dev                               # GoogleTest, Google Benchmark
  valgrind                                                    # constant-time harness, instruction counts
  libcli11-dev nlohmann-json3-dev                             # hqc CLI: argument parsing, --json output
  python3 curl nginx-light iproute2 gnuplot-nox jq util-linux # provider/TLS tests and reports
  debhelper dpkg-dev fakeroot lintian debootstrap             # Debian packages (scripts/package.sh, package_test)
  gcc-arm-none-eabi libstdc++-arm-none-eabi-picolibc picolibc-arm-none-eabi qemu-system-arm  # Cortex-M4 build, QEMU (scripts/m4-test.sh)
)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  if [ "$(id -u)" != 0 ]; then
    echo "install-deps: missing packages and not root; run as root or install: ${missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
