#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# The Debian packages (make deb) installed, upgraded and purged in a fresh
# Debian 12 root: debootstrap's minbase (kept as a tarball in $CACHE, ~60 MB
# to download once), unpacked anew each run and entered with chroot in a
# mount namespace of its own.  A chroot shares this machine's kernel, so the
# packaged ktraceb traces there as it does here; the root gets its own /run
# and its own bpffs instance, so neither its sockets nor its pins meet
# another ktraceb's on this machine.  systemd does not run in a chroot: the
# units are checked with systemd-analyze verify here, and run for real by
# tests/deb/vm.sh (a Debian 12 guest booted with systemd).
#
#   O=build tests/deb/run.sh       (make deb-test)
#
# Needs root, debootstrap and the Debian mirror of apt's sources (apt's
# proxy settings apply).  The older build to upgrade from is this tree with
# another version and a changed source (so another build id), built once.
# Prints PASS:/FAIL: lines and "N passed, N failed".
# KTR_KEEP=1 keeps the root ($CACHE/root) for a look.
set -uo pipefail
cd "$(dirname "$0")/../.."
REPO=$(pwd)
O=${O:-build}
case $O in
/*) ;;
*) O=$REPO/$O ;;
esac
CACHE=${KTR_DEB_CACHE:-$O/deb-test}
ROOT=$CACHE/root
USER_NAME=ktrtest
. "$REPO/tests/deb/lib.sh"

if [ "${1:-}" = --in-ns ]; then
	npass=$KTR_DEB_PASSED nfail=$KTR_DEB_FAILED
	. "$REPO/tests/deb/inroot.sh" # the tests; does not return
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: deb-test (needs root: debootstrap, chroot, BPF)"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi
for t in debootstrap dpkg-buildpackage unshare chroot; do
	command -v $t >/dev/null || die "$t missing: scripts/install-deps.sh --deb"
done

# --- the packages: this tree's, and an older build to upgrade from -----------
VERSION=$(sed -n '1s/^ktraceb (\([^)]*\)).*/\1/p' debian/changelog)
if ! ls "$O"/deb/ktraceb_"$VERSION"_*.deb >/dev/null 2>&1; then
	make -s O="$O" deb >"$CACHE.build.log" 2>&1 || die "make deb failed: $CACHE.build.log"
fi
NEW=$CACHE/new
OLDVER=$VERSION~debtest1
rm -rf "$NEW" "$ROOT"
mkdir -p "$NEW"
cp "$O"/deb/ktraceb*_"$VERSION"_*.deb "$NEW"/
rm -f "$NEW"/*-dbgsym_*.deb
buildid()
{
	dpkg-deb --ctrl-tarfile "$1" | tar -xO ./postrm | sed -n 's/^BUILD_ID=//p'
}
NEW_ID=$(buildid "$NEW"/ktraceb_"$VERSION"_*.deb)
# The older build: another version and another build id (a changed source),
# as an upgrade brings.  Built once for each build of this tree, and kept.
OLD=$CACHE/old-$NEW_ID
mkdir -p "$OLD"
if ! ls "$OLD"/ktraceb_"$OLDVER"_*.deb >/dev/null 2>&1; then
	src=$OLD/ktraceb-$OLDVER
	rm -rf "$src"
	mkdir -p "$src"
	tar -c --exclude-vcs --exclude=./build --exclude='./build-*' --exclude=./debian/build . |
		tar -x -C "$src"
	sed -i "1s/^ktraceb ($VERSION)/ktraceb ($OLDVER)/" "$src/debian/changelog"
	echo "/* tests/deb: an older build, whose id differs */" >>"$src/src/ktraceb/common/ktr_proto.h"
	(cd "$src" && dpkg-buildpackage -us -uc -b) >"$OLD/build.log" 2>&1 ||
		die "the older build failed: $OLD/build.log"
	rm -rf "$src" "$OLD"/*-dbgsym_*.deb
fi
if command -v lintian >/dev/null; then
	lintian --fail-on error,warning "$O"/deb/ktraceb_"$VERSION"_*.changes >"$CACHE/lintian.out" 2>&1
	check "lintian: no error, no warning ($(grep -c '^[EWI]:' "$CACHE/lintian.out") tags; overrides in debian/)" \
		eval "! grep -q '^[EW]:' '$CACHE/lintian.out'"
fi
OLD_ID=$(buildid "$OLD"/ktraceb_"$OLDVER"_*.deb)
[ -n "$NEW_ID" ] && [ -n "$OLD_ID" ] && [ "$NEW_ID" != "$OLD_ID" ] ||
	die "build ids: old '$OLD_ID', new '$NEW_ID'"

# --- a fresh Debian 12 root -------------------------------------------------------
deb_base # $BASE
mkdir -p "$ROOT"
tar -C "$ROOT" -xf "$BASE"
# apt's settings of this machine (a proxy, a snapshot mirror's dates)
cp /etc/apt/apt.conf.d/* "$ROOT/etc/apt/apt.conf.d/" 2>/dev/null
cp /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null
mkdir -p "$ROOT/debs"
cp -r "$NEW" "$ROOT/debs/new"
cp -r "$OLD" "$ROOT/debs/old"
cp tests/fixtures/bsd/openbsd-amd64-2020.ktrace.out "$ROOT/debs/bsd.ktrace.out"

# The rest runs in a mount namespace of its own: the chroot's mounts end
# with it, whatever happens.
export NEW_ID OLD_ID VERSION OLDVER KTR_DEB_PASSED=$npass KTR_DEB_FAILED=$nfail
exec unshare --mount --propagation private bash "$0" --in-ns
