#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# The packages under systemd, for real: a fresh Debian 12 root (the one
# tests/deb/run.sh starts from) with this tree's packages installed is
# booted with systemd as its init, under qemu on a Debian kernel
# (tests/vm/run.sh, KTR_VM_ROOT), and tests/deb/guest.sh runs there as a
# service: ktracebd.socket starts the daemon, each hardening setting is read
# back from it, every facility is traced through it.
#
#   O=build tests/deb/vm.sh [KERNEL]      (make deb-vmtest; KERNEL: 6.1)
#
# Needs root, debootstrap, qemu (scripts/install-deps.sh --deb --vm); about
# 5 minutes under emulation.  Prints PASS:/FAIL: lines and the summary.
set -uo pipefail
cd "$(dirname "$0")/../.."
REPO=$(pwd)
O=${O:-build}
case $O in
/*) ;;
*) O=$REPO/$O ;;
esac
CACHE=${KTR_DEB_CACHE:-$O/deb-test}
ROOT=$CACHE/vmroot
KERNEL=${1:-6.1}
. "$REPO/tests/deb/lib.sh"

[ "$(id -u)" -eq 0 ] || die "needs root"
VERSION=$(sed -n '1s/^ktraceb (\([^)]*\)).*/\1/p' debian/changelog)
ARCH=$(dpkg --print-architecture)
ls "$O"/deb/ktraceb_"$VERSION"_"$ARCH".deb >/dev/null 2>&1 || die "no packages: make deb first"
make -s O="$O" "$O/tests/progs/uev_sdt" || die "cannot build tests/progs/uev_sdt"
deb_base

rm -rf "$ROOT"
	mkdir -p "$ROOT/debs"
	tar -C "$ROOT" -xf "$BASE"
	cp /etc/apt/apt.conf.d/* "$ROOT/etc/apt/apt.conf.d/" 2>/dev/null
	cp /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null
	cp "$O"/deb/ktraceb_"$VERSION"_"$ARCH".deb "$O"/deb/ktraceb-kdump_"$VERSION"_"$ARCH".deb \
		"$ROOT/debs/"
	# the packages installed in a mount namespace of ours (as run.sh does)
	unshare --mount --propagation private bash -c '
		set -e
		R=$1
		mount -t proc proc "$R/proc"
		mount --rbind /dev "$R/dev"
		mount -t tmpfs tmpfs "$R/run"
		in_root() { chroot "$R" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root DEBIAN_FRONTEND=noninteractive "$@"; }
		in_root apt-get -q -y update
		in_root sh -c "apt-get -q -y --no-install-recommends install /debs/*.deb"
		in_root useradd -m -s /bin/sh ktrtest
	' _ "$ROOT" >"$CACHE/vm-install.log" 2>&1 || die "install in the guest's root failed: $CACHE/vm-install.log"
	rm -rf "$ROOT/debs"
	# the test, a service that runs once the system is up
	mkdir -p "$ROOT/usr/local/lib/ktr-debtest" "$ROOT/usr/local/bin"
	cp tests/deb/lib.sh "$ROOT/usr/local/lib/ktr-debtest/"
	install -m 0755 tests/deb/guest.sh "$ROOT/usr/local/lib/ktr-debtest/guest.sh"
	install -m 0755 "$O/tests/progs/uev_sdt" "$ROOT/usr/local/bin/"
	cat >"$ROOT/etc/systemd/system/ktr-debtest.service" <<-EOF
		[Unit]
		Description=ktraceb's package test (tests/deb/guest.sh)
		After=multi-user.target sockets.target
		[Service]
		Type=oneshot
		ExecStart=/usr/local/lib/ktr-debtest/guest.sh
		[Install]
		WantedBy=default.target
	EOF
	mkdir -p "$ROOT/etc/systemd/system/default.target.wants"
	ln -sf ../ktr-debtest.service "$ROOT/etc/systemd/system/default.target.wants/"
	# a quiet console: no login prompt on it
	ln -sf /dev/null "$ROOT/etc/systemd/system/serial-getty@ttyS0.service"
	ln -sf /dev/null "$ROOT/etc/systemd/system/getty@tty1.service"
	echo ktraceb-deb >"$ROOT/etc/hostname"

# The guest's console goes through tests/vm/run.sh's filter: its lines and
# its summary are this test's.
KTR_VM_ROOT=$ROOT KTR_VM_INIT='exec /lib/systemd/systemd' O=$O tests/vm/run.sh "$KERNEL"
