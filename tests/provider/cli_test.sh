#!/bin/sh
# The openssl command line with the hqckit provider: the sample openssl.cnf activates it with no
# -provider options, `openssl list` shows the KEMs, genpkey/pkey write and read HQC keys (PEM,
# DER, text), malformed key files are refused with an error, `pkey -check` recomputes a secret
# key, hybrid groups say that they have no key files, and `hqc info` ($HQC) reports the provider.
# Usage: cli_test.sh <module-dir> <sample-openssl.cnf>
set -u
MODDIR=$1 CNF=$2
OPENSSL=${OPENSSL:-openssl}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
# Writes the two bytes of a DER long-form length 0x82 LL LL for $1.
len82() { printf "\\$(printf %o $(($1 >> 8)))\\$(printf %o $(($1 & 255)))"; }

export OPENSSL_CONF="$CNF" OPENSSL_MODULES="$MODDIR"
kems=$($OPENSSL list -kem-algorithms) || fail "openssl list"
for n in hqc1 hqc3 hqc5 p256_hqc1 x25519_hqc1 p384_hqc3 x448_hqc3 p521_hqc5; do
  printf '%s\n' "$kems" | grep -q "$n.*@ hqckit" || fail "$n missing from openssl list -kem-algorithms"
done
$OPENSSL list -providers | grep -q hqckit || fail "provider not active through $CNF"

pk_bytes() { case $1 in hqc1) echo 2241 ;; hqc3) echo 4514 ;; hqc5) echo 7237 ;; esac; }

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
  # -check / -pubcheck accept generated keys.
  $OPENSSL pkey -in "$WORK/$alg.pem" -check -noout 2>&1 | grep -qx 'Key is valid' || fail "$alg: -check of a good key"
  $OPENSSL pkey -pubin -in "$WORK/$alg.pub.pem" -pubcheck -noout 2>&1 | grep -qx 'Key is valid' ||
    fail "$alg: -pubcheck of a good key"
  # A secret key whose embedded public key is another key's (PKCS#8 = 26 header bytes, then
  # sk = pk || seed_dk || sigma || seed_kem): -check recomputes pk from seed_dk and refuses it.
  pk=$(pk_bytes "$alg")
  $OPENSSL genpkey -algorithm "$alg" -outform DER -out "$WORK/other.der" || fail "genpkey $alg"
  { head -c 26 "$WORK/$alg.der"; tail -c +27 "$WORK/other.der" | head -c "$pk"; tail -c +$((27 + pk)) "$WORK/$alg.der"; } \
    >"$WORK/mixed.der"
  out=$($OPENSSL pkey -inform DER -in "$WORK/mixed.der" -check -noout 2>&1) && fail "$alg: mixed key passes -check"
  printf '%s\n' "$out" | grep -qx 'Key is invalid' || fail "$alg: mixed key: $out"
  printf '%s\n' "$out" | grep -q "hqckit::invalid key::0:$alg private key: the embedded public key does not belong to seed_dk" ||
    fail "$alg: mixed key, reason missing: $out"
  # PKCS#8 with 50 bytes after the key inside the PrivateKeyInfo, and inside the OCTET STRING;
  # an all-zero public key. (OpenSSL 3.0's file loader prints its own "unsupported" for any
  # decoder failure; the provider's reasons are checked in provider_test.)
  size=$(wc -c <"$WORK/$alg.der")
  { printf '\060\202'; len82 $((size - 4 + 50)); tail -c +5 "$WORK/$alg.der"; head -c 50 /dev/zero; } >"$WORK/trail.der"
  { printf '\060\202'; len82 $((size - 4 + 50)); tail -c +5 "$WORK/$alg.der" | head -c 18; printf '\004\202'
    len82 $((size - 26 + 50)); tail -c +27 "$WORK/$alg.der"; head -c 50 /dev/zero; } >"$WORK/trail_oct.der"
  { head -c $(($(wc -c <"$WORK/$alg.pub.der") - pk)) "$WORK/$alg.pub.der"; head -c "$pk" /dev/zero; } >"$WORK/zero.der"
  $OPENSSL pkey -inform DER -in "$WORK/trail.der" -noout 2>/dev/null && fail "$alg: PKCS#8 with trailing bytes accepted"
  $OPENSSL pkey -inform DER -in "$WORK/trail_oct.der" -noout 2>/dev/null && fail "$alg: oversized OCTET STRING accepted"
  out=$($OPENSSL pkey -pubin -inform DER -in "$WORK/zero.der" -pubcheck -noout 2>&1) && fail "$alg: all-zero public key accepted"
  # (OpenSSL 3.0 prints "Could not read key", 3.5 "Could not find private key of Public Key".)
  printf '%s\n' "$out" | grep -Eq 'Could not read key|Could not find private key of Public Key' ||
    fail "$alg: all-zero public key: $out"
  # The same constructions without the defect load (the test builds its files correctly).
  { printf '\060\202'; len82 $((size - 4)); tail -c +5 "$WORK/$alg.der"; } | $OPENSSL pkey -inform DER -noout ||
    fail "$alg: rebuilt PKCS#8 refused"
  echo "OK: $alg genpkey/pkey/check"
done

# Hybrid groups have no key files: genpkey says so instead of "No encoders were found".
for alg in x25519_hqc1 p256_hqc1 x448_hqc3 p384_hqc3 p521_hqc5; do
  out=$($OPENSSL genpkey -algorithm "$alg" -out "$WORK/h.pem" 2>&1) && fail "$alg: genpkey wrote a hybrid key file"
  printf '%s\n' "$out" | grep -q "hqckit::operation not supported::0:$alg: key files are not supported for hybrid groups" ||
    fail "$alg: genpkey message: $out"
done
echo "OK: hybrid groups refuse key files with a clear message"

# Code points and enablement: the provider parameters show them; invalid values stop the provider
# with a message. (A section with `activate = 1` makes OpenSSL 3.0 drop a failing provider
# silently; loading it with -provider shows the reason.)
sed '/^activate = 1$/d' "$CNF" >"$WORK/noact.cnf"
{ cat "$WORK/noact.cnf"; printf '[hqckit_sect]\nhqc1_codepoint = banana\n'; } >"$WORK/bad.cnf"
sed -i 's/^\[default_sect\]$/[default_sect]\nactivate = 1/' "$WORK/bad.cnf"
out=$(OPENSSL_CONF="$WORK/bad.cnf" $OPENSSL list -providers -provider hqckit 2>&1) && fail "invalid hqc1_codepoint accepted"
printf '%s\n' "$out" | grep -q "hqckit: hqc1_codepoint = 'banana' in the provider configuration: not a TLS code point" ||
  fail "invalid hqc1_codepoint: $out"
out=$(OQS_CODEPOINT_HQC5=70000 $OPENSSL list -providers -provider hqckit 2>&1) && fail "OQS_CODEPOINT_HQC5=70000 accepted"
printf '%s\n' "$out" | grep -q "hqckit: OQS_CODEPOINT_HQC5='70000' in the environment: not a TLS code point" ||
  fail "OQS_CODEPOINT_HQC5=70000: $out"
echo "OK: invalid code points refused with a message"

# `hqc info` (when its path is given) tells whether the running OpenSSL has the provider active,
# and shows the active code points: moved by OQS_CODEPOINT_HQC1 here.
if [ -n "${HQC:-}" ]; then
  info=$(OQS_CODEPOINT_HQC1=12000 "$HQC" info --json) || fail "hqc info --json"
  printf '%s\n' "$info" | grep -q '"status": "active"' || fail "hqc info: provider not reported active: $info"
  printf '%s\n' "$info" | grep -q '"tls_groups": "hqc1=0x2EE0 p256_hqc1=0xFE34 ' || fail "hqc info: code points: $info"
  info=$(OPENSSL_CONF="$WORK/noact.cnf" "$HQC" info) || fail "hqc info without activation"
  printf '%s\n' "$info" | grep -q "OpenSSL provider:  hqckit found in $MODDIR, not activated" ||
    fail "hqc info with the provider not activated: $info"
  info=$(OPENSSL_MODULES="$WORK" "$HQC" info) || fail "hqc info without the module"
  printf '%s\n' "$info" | grep -q "OpenSSL provider:  hqckit not found in $WORK" || fail "hqc info without the module: $info"
  info=$(OPENSSL_CONF="$WORK/noact.cnf" HQC_BACKEND=no_such_backend "$HQC" info 2>/dev/null)
  printf '%s\n' "$info" | grep -q "OpenSSL provider:  hqckit in $MODDIR but failed to load: no usable HQC backend" ||
    fail "hqc info with a provider that cannot initialise: $info"
  echo "OK: hqc info reports the provider (active / found / load failed / not found) and its code points"
fi
