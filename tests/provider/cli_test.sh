#!/bin/sh
# The openssl command line with the hqckit provider: the sample openssl.cnf activates it with no
# -provider options, `openssl list` shows the KEMs, genpkey/pkey write and read HQC keys (PEM,
# DER, text), and malformed key files are refused with an error.
# Usage: cli_test.sh <module-dir> <sample-openssl.cnf>
set -u
MODDIR=$1 CNF=$2
OPENSSL=${OPENSSL:-openssl}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

export OPENSSL_CONF="$CNF" OPENSSL_MODULES="$MODDIR"
kems=$($OPENSSL list -kem-algorithms) || fail "openssl list"
for n in hqc1 hqc3 hqc5 p256_hqc1 x25519_hqc1 p384_hqc3 x448_hqc3 p521_hqc5; do
  printf '%s\n' "$kems" | grep -q "$n.*@ hqckit" || fail "$n missing from openssl list -kem-algorithms"
done
$OPENSSL list -providers | grep -q hqckit || fail "provider not active through $CNF"

for alg in hqc1 hqc3 hqc5; do
  $OPENSSL genpkey -algorithm "$alg" -out "$WORK/$alg.pem" || fail "genpkey $alg"
  head -1 "$WORK/$alg.pem" | grep -q 'BEGIN PRIVATE KEY' || fail "$alg: not PKCS#8 PEM"
  $OPENSSL pkey -in "$WORK/$alg.pem" -pubout -out "$WORK/$alg.pub.pem" || fail "pkey -pubout $alg"
  $OPENSSL pkey -pubin -in "$WORK/$alg.pub.pem" -noout -text | head -1 | grep -q 'public key' || fail "pkey -text $alg"
  $OPENSSL pkey -in "$WORK/$alg.pem" -outform DER -out "$WORK/$alg.der" || fail "pkey -outform DER $alg"
  $OPENSSL pkey -inform DER -in "$WORK/$alg.der" -pubout | cmp -s - "$WORK/$alg.pub.pem" || fail "DER round trip $alg"
  $OPENSSL pkey -in "$WORK/$alg.pem" -noout -text | grep -q '^priv:' || fail "private text $alg"
  # A public key with padding bits set beyond n (the last byte of the BIT STRING) is refused.
  $OPENSSL pkey -pubin -in "$WORK/$alg.pub.pem" -outform DER -out "$WORK/$alg.pub.der"
  size=$(wc -c <"$WORK/$alg.pub.der")
  { head -c $((size - 1)) "$WORK/$alg.pub.der"; printf '\377'; } >"$WORK/bad.der"
  # (OpenSSL 3.0's decoder chain reports "unsupported" and drops the provider's reason.)
  if $OPENSSL pkey -pubin -inform DER -in "$WORK/bad.der" -noout 2>/dev/null; then fail "$alg: padding bits accepted"; fi
  # A truncated private key is refused.
  head -c 200 "$WORK/$alg.der" >"$WORK/short.der"
  if $OPENSSL pkey -inform DER -in "$WORK/short.der" -noout 2>/dev/null; then fail "$alg: truncated key accepted"; fi
  echo "OK: $alg genpkey/pkey"
done
