# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# What tests/deb/run.sh, tests/deb/vm.sh and the guest's tests/deb/guest.sh
# share: PASS:/FAIL: lines and the summary, and (on this machine) the
# Debian 12 root they start from.
# shellcheck shell=bash

npass=0
nfail=0

pass()
{
	echo "PASS: $*"
	npass=$((npass + 1))
}
fail()
{
	echo "FAIL: $*"
	nfail=$((nfail + 1))
}
# check NAME COMMAND...: PASS or FAIL as COMMAND succeeds; returns its success
check()
{
	local name=$1
	shift
	if "$@"; then
		pass "$name"
	else
		fail "$name"
		return 1
	fi
}
summary()
{
	echo "$npass passed, $nfail failed"
	[ "$nfail" -eq 0 ]
	exit
}
die()
{
	echo "deb-test: $*" >&2
	fail "deb-test: $*"
	summary
}

# BASE: debootstrap's minbase of Debian 12 with systemd (not running in a
# chroot: its systemd-analyze checks the units, and tests/deb/vm.sh boots
# it), kept as a tarball in $CACHE: ~60 MB downloaded once.
deb_base()
{
	BASE=$CACHE/bookworm-minbase-systemd.tar
	[ -s "$BASE" ] && return 0
	rm -rf "$CACHE/base"
	mkdir -p "$CACHE"
	debootstrap --variant=minbase --include=systemd,systemd-sysv bookworm "$CACHE/base" \
		"${KTR_DEB_MIRROR:-http://deb.debian.org/debian}" >"$CACHE/debootstrap.log" 2>&1 ||
		die "debootstrap failed: $CACHE/debootstrap.log"
	tar -C "$CACHE/base" -cf "$BASE.tmp" . && mv "$BASE.tmp" "$BASE"
	rm -rf "$CACHE/base"
}
