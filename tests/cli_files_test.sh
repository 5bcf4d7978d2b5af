#!/usr/bin/env bash
# Safe outputs of the hqc CLI: a command changes all its output files or none, never writes
# through a symlink, never reuses an existing file, and refuses (exit 2, before any work) two
# arguments that name one file however they are spelled. Every case checks the exit code, the
# message, and that the directory is byte-for-byte unchanged (names, types, modes, link targets,
# SHA-256 of every file) with no temporary file left.
# Run as root it runs every case as root (plus the ENOSPC and read-only-mount cases, in a private
# mount namespace), then again as the unprivileged user nobody.
set -u
HQC=${1:?usage: cli_files_test.sh path/to/hqc}
HQC=$(readlink -f "$HQC")
SELF=$(readlink -f "$0")
fail=0; pass=0
ok()  { pass=$((pass+1)); }
bad() { echo "FAIL[$(id -un)]: $*"; fail=$((fail+1)); }

# The state of a directory tree: every name with type, mode and link target, and every file's hash.
snap() { (cd "$1" && find . -printf '%p %y %m %l\n' | sort && find . -type f -exec sha256sum {} + | sort); }
no_temps() { [ -z "$(find "$1" -name '.hqc-tmp-*' -o -name '*.tmp.*' ! -name 'k.tmp.*')" ]; }

# must CODE "message" DIR desc cmd...: exits CODE, prints message, leaves DIR as it was.
must() {
  local code=$1 want=$2 dir=$3 desc=$4; shift 4
  local before rc
  before=$(snap "$dir")
  (cd "$dir" && "$@") >"$W/.out" 2>"$W/.err"; rc=$?
  if [ $rc -ne "$code" ]; then bad "$desc: exit $rc, expected $code: $(head -1 "$W/.err")"; return; fi
  if ! grep -qF -- "$want" "$W/.err"; then bad "$desc: stderr lacks '$want': $(head -1 "$W/.err")"; return; fi
  if [ "$before" != "$(snap "$dir")" ]; then bad "$desc: the directory changed"; diff <(echo "$before") <(snap "$dir") | head -5; return; fi
  no_temps "$dir" || { bad "$desc: temporary left: $(find "$dir" -name '.hqc-tmp-*')"; return; }
  ok
}

# A fresh directory holding a key pair, a ciphertext and a shared secret.
fresh() {
  local d=$W/$1
  rm -rf "$d"; mkdir -p "$d"; cp -p "$W/ref/"* "$d/"; echo "$d"
}

make_ref() {
  W=$1
  mkdir -p "$W/ref"
  (cd "$W/ref" && "$HQC" keygen --level 1 --pk pk --sk sk && "$HQC" encaps --pk pk --ct ct --ss ss)
}

run_cases() {
  make_ref "$1" || { bad "setup"; return; }
  local D
  # 1. An output equal to an input (the secret key must survive).
  D=$(fresh same)
  must 2 "are the same file" "$D" "decaps --ss sk" "$HQC" decaps --sk sk --ct ct --ss sk
  must 2 "are the same file" "$D" "encaps --ct pk" "$HQC" encaps --pk pk --ct pk --ss s2
  must 2 "are the same file" "$D" "decaps --ss ./ct" "$HQC" decaps --sk sk --ct ct --ss ./ct
  must 2 "are the same file" "$D" "encaps --ss ../same/pk" "$HQC" encaps --pk pk --ct c2 --ss ../same/pk
  must 2 "are the same file" "$D" "encaps --ct ss --ss ./ss (two outputs)" "$HQC" encaps --pk pk --ct ss --ss ./ss
  ln "$D/sk" "$D/sk.hardlink"
  must 2 "are the same file" "$D" "decaps --ss hard link of sk" "$HQC" decaps --sk sk --ct ct --ss sk.hardlink
  ln -s sk "$D/sk.symlink"
  must 2 "are the same file" "$D" "decaps --ss symlink to sk" "$HQC" decaps --sk sk --ct ct --ss sk.symlink
  must 2 "are the same file" "$D" "decaps --sk via symlink, --ss sk" "$HQC" decaps --sk sk.symlink --ct ct --ss sk
  # 3. Two spellings of one file that does not exist yet.
  must 2 "are the same file" "$D" "keygen --pk a --sk ./a" "$HQC" keygen --level 1 --pk a --sk ./a
  mkdir "$D/sub"
  must 2 "are the same file" "$D" "keygen --pk sub/../a --sk a" "$HQC" keygen --level 1 --pk sub/../a --sk a
  must 2 "are the same file" "$D" "keygen --pk a --sk \$PWD/a" "$HQC" keygen --level 1 --pk a --sk "$D/a"
  must 2 "are the same file" "$D" "keygen --pk a --sk a" "$HQC" keygen --level 1 --pk a --sk a

  # 2. A two-file command whose second output cannot be written changes neither.
  D=$(fresh half); mkdir "$D/d"
  must 1 "cannot write 'd': is a directory" "$D" "keygen --pk DIR" "$HQC" keygen --level 1 --pk d --sk sk
  must 1 "cannot write 'd': is a directory" "$D" "encaps --ct DIR" "$HQC" encaps --pk pk --ct d --ss ss
  must 1 "names a directory" "$D" "keygen --sk sk/" "$HQC" keygen --level 1 --pk pk --sk sk/
  must 1 "names a directory" "$D" "keygen --pk ." "$HQC" keygen --level 1 --pk . --sk sk
  must 1 "cannot write 'no/such/pk'" "$D" "keygen --pk missing dir" "$HQC" keygen --level 1 --pk no/such/pk --sk sk
  must 1 "Not a directory" "$D" "keygen --pk under a file" "$HQC" keygen --level 1 --pk ct/pk --sk sk
  # (A FIFO of our own, never /dev/null: a broken hqc run as root would replace the host's.)
  mkfifo "$D/fifo"
  must 1 "is not a regular file" "$D" "keygen --pk FIFO" "$HQC" keygen --level 1 --pk fifo --sk sk
  must 1 "not an HQC public key" "$D" "encaps bad pk leaves ct, ss" "$HQC" encaps --pk sk --ct ct --ss ss

  # 4. Symlinks at the final name (dangling, to a file, to a directory) are refused, not followed.
  D=$(fresh links); mkdir "$D/victimdir"
  ln -s "$D/victim" "$D/k"; ln -s ct "$D/k2"; ln -s victimdir "$D/k3"
  must 1 "is a symbolic link" "$D" "keygen --sk dangling link" "$HQC" keygen --level 1 --pk p --sk k
  must 1 "is a symbolic link" "$D" "keygen --sk link to file" "$HQC" keygen --level 1 --pk p --sk k2
  must 1 "is a symbolic link" "$D" "decaps --ss link to dir" "$HQC" decaps --sk sk --ct ct --ss k3
  [ ! -e "$D/victim" ] && ok || bad "the secret key went through the link"

  # Symlinks and world-readable files at temporary names: the old PATH.tmp.<pid> pattern (the pid
  # is the one `exec` gives hqc) and the new prefix. None is opened, followed or changed.
  D=$(fresh tmpnames)
  (cd "$D" && bash -c 'ln -s "$1/victim" k.tmp.$$; exec "$0" keygen --level 1 --pk p --sk k' "$HQC" "$D") ||
    bad "keygen with a link at k.tmp.<pid>"
  [ ! -e "$D/victim" ] && ok || bad "secret key written through k.tmp.<pid>"
  [ "$(stat -c '%F %a' "$D/k")" = "regular file 600" ] && ok || bad "k: $(stat -c '%F %a' "$D/k")"
  (cd "$D" && bash -c 'echo public > k.tmp.$$; chmod 644 k.tmp.$$; exec "$0" keygen --level 1 --pk p --sk k' "$HQC") ||
    bad "keygen with a world-readable k.tmp.<pid>"
  [ "$(find "$D" -name 'k.tmp.*' -type f -exec cat {} +)" = public ] && ok || bad "key landed in k.tmp.<pid>"
  for i in 0 1 2 3 4 5 6 7; do ln -s "$D/victim$i" "$D/.hqc-tmp-planted$i"; done
  (cd "$D" && "$HQC" keygen --level 1 --pk pk --sk sk) || bad "keygen among planted links"
  [ -z "$(find "$D" -name 'victim*')" ] && ok || bad "a planted link was followed"
  [ "$(find "$D" -name '.hqc-tmp-*' | wc -l)" = 8 ] && ok || bad "planted links changed"

  # An existing world-readable secret key is replaced by a new 0600 file (never rewritten in place),
  # a hard link to the old one keeps the old bytes, and the outputs work together.
  D=$(fresh replace)
  chmod 644 "$D/sk"; ln "$D/sk" "$D/sk.old"
  (cd "$D" && "$HQC" keygen --level 3 --pk pk --sk sk && "$HQC" encaps --pk pk --ct ct --ss ss &&
    "$HQC" decaps --sk sk --ct ct --ss ss2) || bad "keygen over existing files"
  [ "$(stat -c %a "$D/sk")" = 600 ] && [ "$(stat -c %a "$D/ss")" = 600 ] && [ "$(stat -c %a "$D/ss2")" = 600 ] &&
    ok || bad "secret modes $(stat -c %a "$D/sk" "$D/ss" "$D/ss2" | tr '\n' ' ')"
  cmp -s "$D/sk.old" "$W/ref/sk" && ok || bad "the old secret key was rewritten in place"
  [ "$(stat -c %s "$D/sk")" = 4602 ] && cmp -s "$D/ss" "$D/ss2" && ok || bad "round trip after replacing"
  [ "$(stat -c %a "$D/pk")" = "$(printf '%o' $((0644 & ~$(umask))))" ] && ok || bad "pk mode $(stat -c %a "$D/pk")"
  no_temps "$D" && ok || bad "temporaries left after success"

  # Interrupted while writing: strace holds the first fsync for 2 s, SIGINT arrives once the
  # temporaries exist. hqc ends by the signal only after renaming every output: a new, matching key
  # pair and no temporary (never the old pair beside a temporary holding the new secret key).
  if command -v strace >/dev/null; then
    D=$(fresh interrupt)
    (cd "$D" && exec strace -f -o /dev/null -e trace=fsync -e inject=fsync:delay_enter=2000000:when=1 \
      "$HQC" keygen --level 1 --pk pk --sk sk) &
    local sp=$! hp="" i rc
    for i in $(seq 200); do
      [ -n "$(find "$D" -name '.hqc-tmp-*')" ] && hp=$(pgrep -P "$sp") && break
      sleep 0.02
    done
    if [ -n "$hp" ]; then
      kill -INT "$hp"
      wait "$sp"; rc=$?
      (cd "$D" && "$HQC" encaps --pk pk --ct c2 --ss s2 && "$HQC" decaps --sk sk --ct c2 --ss s3 && cmp -s s2 s3) &&
        ! cmp -s "$D/sk" "$W/ref/sk" && [ $rc -eq 130 ] && no_temps "$D" && ok ||
        bad "interrupted keygen: exit $rc, files: $(ls -A "$D" | tr '\n' ' ')"
    else
      wait "$sp"; bad "interrupted keygen: no temporary seen"
    fi
  fi

  # Read-only directory (for root only under a read-only mount, below): nothing changes, also when
  # the other output's directory is writable.
  if [ "$(id -u)" != 0 ]; then
    D=$(fresh ro); mkdir "$D/rw" "$D/ro"; cp -p "$D/sk" "$D/rw/"; cp -p "$D/pk" "$D/ro/"; chmod 555 "$D/ro"
    must 1 "Permission denied" "$D" "keygen into read-only dir" "$HQC" keygen --level 1 --pk ro/pk --sk ro/sk
    must 1 "cannot write 'ro/pk'" "$D" "keygen, one dir read-only" "$HQC" keygen --level 1 --pk ro/pk --sk rw/sk
    must 1 "cannot write 'ro/ss'" "$D" "encaps, one dir read-only" "$HQC" encaps --pk pk --ct rw/ct --ss ro/ss
    chmod 755 "$D/ro"
  fi
}

# As root: cases that need a mount, in a private mount namespace (the host's mounts are untouched).
root_mount_cases() {
  make_ref "$1" || { bad "setup"; return; }
  local D=$W/full
  mkdir -p "$D"
  # ENOSPC: 3 pages of tmpfs hold pk and sk and one temporary, so the second output cannot be written.
  mount -t tmpfs -o size=12k,mode=755 hqc-test "$D" || { bad "tmpfs mount"; return; }
  cp -p "$W/ref/pk" "$W/ref/sk" "$D/"
  must 1 "No space left on device" "$D" "keygen on a full file system" "$HQC" keygen --level 1 --pk pk --sk sk
  umount "$D"
  # EROFS: a read-only bind mount (root ignores directory modes).
  local R=$W/romnt; mkdir -p "$R"; cp -p "$W/ref/pk" "$W/ref/sk" "$R/"
  mount --bind "$R" "$R" && mount -o remount,bind,ro "$R" || { bad "read-only bind mount"; return; }
  must 1 "Read-only file system" "$R" "keygen on a read-only mount" "$HQC" keygen --level 1 --pk pk --sk sk
  umount "$R"
}

if [ "${HQC_FILES_TEST_PART:-}" = user ]; then
  run_cases "$2"
elif [ "${HQC_FILES_TEST_PART:-}" = mounts ]; then
  root_mount_cases "$2"
else
  T=$(mktemp -d)
  trap 'rm -rf "$T"' EXIT
  chmod 755 "$T"
  mkdir "$T/self"; run_cases "$T/self"
  if [ "$(id -u)" = 0 ]; then
    mkdir "$T/mnt"
    if unshare -m --propagation private env HQC_FILES_TEST_PART=mounts "$SELF" "$HQC" "$T/mnt"; then ok; else bad "mount cases"; fi
    mkdir "$T/nobody"; chown nobody: "$T/nobody"
    if setpriv --reuid=nobody --regid=nogroup --clear-groups env HQC_FILES_TEST_PART=user "$SELF" "$HQC" "$T/nobody"; then
      ok
    else
      bad "the cases as user nobody"
    fi
  else
    echo "note: not root: ran as $(id -un) only (as root the cases also run as nobody, and on full/read-only mounts)"
  fi
fi
echo "cli_files_test as $(id -un) (${HQC_FILES_TEST_PART:-main}): $pass passed, $fail failed"
[ $fail -eq 0 ]
