#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# make test-fixtures: what the tests need that takes minutes to make, made
# outside any test's time limit (tests/run.sh's 300 s per script), before
# make test runs them.  Today one fixture: the Debian root t_container.sh
# runs under systemd-nspawn, debootstrap's minbase of bookworm (about 60 MB
# downloaded, one to several minutes), in $KTR_CONTAINER_ROOT (default
# /var/cache/ktraceb-test/bookworm, shared by every checkout of the machine).
#
# It is built in a temporary folder beside it and renamed into place when
# whole, under a lock (two checkouts' runs may start at once); a partial one
# left by a build that was killed is removed first.  A machine that cannot
# build it (not root, no debootstrap or nspawn, no mirror) gets no root: the
# reason goes to $ROOT.why, which t_container.sh's SKIP quotes, and this
# script still succeeds: what the machine lacks is skipped, not failed.
# The guest kernels of tests/vm are fetched by make vmtest itself, outside
# any test's limit.

ROOT=${KTR_CONTAINER_ROOT:-/var/cache/ktraceb-test/bookworm}
MIRROR=${KTR_DEBIAN_MIRROR:-http://deb.debian.org/debian}

# why REASON: no root made, and why (for t_container.sh's SKIP)
why()
{
	echo "test-fixtures: no container root at $ROOT: $1" >&2
	printf '%s\n' "$1" >"$ROOT.why" 2>/dev/null
	exit 0
}

if [ -x "$ROOT/bin/sh" ]; then
	rm -f "$ROOT.why"
	exit 0
fi
[ "$(id -u)" -eq 0 ] || why "debootstrap needs root"
command -v systemd-nspawn >/dev/null || why "no systemd-nspawn (systemd-container)"
command -v debootstrap >/dev/null || why "no debootstrap (scripts/install-deps.sh --deb)"
command -v flock >/dev/null || why "no flock (util-linux)"
mkdir -p "$(dirname "$ROOT")" || why "cannot make $(dirname "$ROOT")"

exec 9>"$ROOT.lock" || why "cannot open $ROOT.lock"
flock 9
# another checkout's run may have built it while this one waited
if [ -x "$ROOT/bin/sh" ]; then
	rm -f "$ROOT.why"
	exit 0
fi
# what a killed build left (this lock's holder is the only builder): the
# partial roots, the one before this script's ($ROOT.new) and its own
# ($ROOT.tmp.*), and a partial root in place (no /bin/sh, debootstrap's
# work folder still in it); anything else there is not this script's
rm -rf "$ROOT.new" "$ROOT".tmp.*
if [ -e "$ROOT" ]; then
	[ -d "$ROOT/debootstrap" ] || why "$ROOT is there, without /bin/sh: not a root (remove it)"
	rm -rf "$ROOT"
fi
tmp=$(mktemp -d "$ROOT.tmp.XXXXXX") || why "cannot make a folder beside $ROOT"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
echo "test-fixtures: building $ROOT with debootstrap (once)" >&2
start=$(date +%s)
if ! debootstrap --variant=minbase bookworm "$tmp" "$MIRROR" >"$tmp.log" 2>&1; then
	w=$(tail -n 1 "$tmp.log")
	rm -f "$tmp.log"
	why "debootstrap from $MIRROR failed: $w"
fi
rm -f "$tmp.log"
[ -x "$tmp/bin/sh" ] || why "debootstrap made no /bin/sh"
chmod 755 "$tmp"
mv -T "$tmp" "$ROOT" || why "cannot rename $tmp to $ROOT"
rm -f "$ROOT.why"
echo "test-fixtures: $ROOT built in $(($(date +%s) - start)) s" >&2
