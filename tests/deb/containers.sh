#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# Containers as people run them: the Debian 12 root tests/deb/vm.sh boots,
# with Debian's podman and docker.io in it and this build's ktraceb and
# kdump, booted with systemd (cgroup v2) under qemu; tests/deb/guest_containers.sh
# runs there as a service: each runtime's container, made from an image
# imported from a tarball (no registry), is traced by name from its first
# process, serves HTTP on its loopback, has a process crash into a -R
# recording, and is cleared by name; an ordinary user's podman
# (rootless) is traced by name by that user and refused to another
# (tests/deb/guest_rootless.sh).  KTR_CT_BENCH=1 runs bench/container.sh
# there too.
#
#   O=build tests/deb/containers.sh [KERNEL]      (make container-vmtest; KERNEL: 6.1)
#
# Needs root, debootstrap, qemu (scripts/install-deps.sh --deb --vm) and, the
# first time, the mirror: the root with the runtimes is kept in $CACHE
# (bookworm-containers.tar, about 150 MB more than vm.sh's).  Prints
# PASS:/FAIL: lines and the summary.
set -uo pipefail
cd "$(dirname "$0")/../.."
REPO=$(pwd)
O=${O:-build}
case $O in
/*) ;;
*) O=$REPO/$O ;;
esac
CACHE=${KTR_DEB_CACHE:-$O/deb-test}
ROOT=$CACHE/ctroot
KERNEL=${1:-6.1}
. "$REPO/tests/deb/lib.sh"

[ "$(id -u)" -eq 0 ] || die "needs root"
[ -x "$O/ktraceb" ] && [ -x "$O/kdump" ] || die "no ktraceb or kdump in $O: make first"
deb_base

# The runtimes and what ktraceb links with, installed once into a copy of
# the base root (in a mount namespace of ours, as run.sh installs), again
# when this list changes (the cache keeps the list it was made with).
# apparmor: docker.io recommends it, and dockerd starts no container
# without apparmor_parser where the kernel has AppArmor on (Debian's does).
PKGS="podman docker.io apparmor busybox-static libbpf1 libdw1 libelf1 uidmap
	dbus-user-session strace"
CTBASE=$CACHE/bookworm-containers.tar
if [ ! -s "$CTBASE" ] || [ "$(cat "$CTBASE.packages" 2>/dev/null)" != "$PKGS" ]; then
	rm -rf "$CACHE/ctbase"
	mkdir -p "$CACHE/ctbase"
	tar -C "$CACHE/ctbase" -xf "$BASE"
	cp /etc/resolv.conf "$CACHE/ctbase/etc/resolv.conf" 2>/dev/null
	unshare --mount --propagation private bash -c '
		set -e
		R=$1
		mount -t proc proc "$R/proc"
		mount --rbind /dev "$R/dev"
		mount -t tmpfs tmpfs "$R/run"
		in_root() { chroot "$R" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root DEBIAN_FRONTEND=noninteractive "$@"; }
		in_root apt-get -q -y update
		# shellcheck disable=SC2086 # the packages, one word each
		in_root apt-get -q -y --no-install-recommends install $2
		in_root apt-get clean
		in_root useradd -m -s /bin/sh ktrtest
	' _ "$CACHE/ctbase" "$PKGS" >"$CACHE/ct-install.log" 2>&1 ||
		die "the runtimes' install failed: $CACHE/ct-install.log"
	rm -rf "$CACHE/ctbase/var/lib/apt/lists"/*
	tar -C "$CACHE/ctbase" -cf "$CTBASE.tmp" . && mv "$CTBASE.tmp" "$CTBASE"
	echo "$PKGS" >"$CTBASE.packages"
	rm -rf "$CACHE/ctbase"
fi

rm -rf "$ROOT"
mkdir -p "$ROOT"
tar -C "$ROOT" -xf "$CTBASE"
install -m 0755 "$O/ktraceb" "$O/kdump" "$ROOT/usr/local/bin/"
mkdir -p "$ROOT/usr/local/lib/ktr-debtest"
cp tests/deb/lib.sh "$ROOT/usr/local/lib/ktr-debtest/"
install -m 0755 tests/deb/guest_containers.sh "$ROOT/usr/local/lib/ktr-debtest/"
install -m 0644 tests/deb/guest_rootless.sh "$ROOT/usr/local/lib/ktr-debtest/"
# KTR_CT_BENCH=1: bench/container.sh after the checks, for both runtimes
if [ -n "${KTR_CT_BENCH:-}" ]; then
	make -s O="$O" "$O/bench/http_load" || die "cannot build bench/http_load"
	install -m 0755 bench/container.sh "$O/bench/http_load" "$ROOT/usr/local/lib/ktr-debtest/"
fi
cat >"$ROOT/etc/systemd/system/ktr-cttest.service" <<-EOF
	[Unit]
	Description=ktraceb's container test (tests/deb/guest_containers.sh)
	After=multi-user.target sockets.target
	[Service]
	Type=oneshot
	ExecStart=/usr/local/lib/ktr-debtest/guest_containers.sh
	[Install]
	WantedBy=default.target
EOF
mkdir -p "$ROOT/etc/systemd/system/default.target.wants"
ln -sf ../ktr-cttest.service "$ROOT/etc/systemd/system/default.target.wants/"
# docker starts when the test asks: not at boot, beside everything else
rm -f "$ROOT/etc/systemd/system/multi-user.target.wants/docker.service" \
	"$ROOT/etc/systemd/system/sockets.target.wants/docker.socket"
ln -sf /dev/null "$ROOT/etc/systemd/system/serial-getty@ttyS0.service"
ln -sf /dev/null "$ROOT/etc/systemd/system/getty@tty1.service"
echo ktraceb-ct >"$ROOT/etc/hostname"

KTR_VM_WALL=${KTR_VM_WALL:-1500} KTR_VM_ROOT=$ROOT KTR_VM_INIT='exec /lib/systemd/systemd' O=$O \
	tests/vm/run.sh "$KERNEL"
