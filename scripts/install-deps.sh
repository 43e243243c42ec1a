#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# Installs what building and testing ktraceb needs on Debian (12 or later):
# only the packages that are missing, with one apt-get update first.  Then
# mounts tracefs if it is not mounted (the tracer attaches to BTF tracepoints
# and does not need it, but perf trace and bpftool do; failure is ignored).
# systemd-container and debootstrap: t_container.sh runs a Debian root built
# with debootstrap under systemd-nspawn (ktraceb -G on a real container).
# Run as root, or with sudo available.
#
#   scripts/install-deps.sh [--cross] [--vm] [--deb]
#
# --cross also installs what `make ARCH=arm64` cross-compiles with (Debian's
# aarch64 gcc and the arm64 -dev packages, adding the arm64 architecture to
# dpkg) and qemu-user, which runs the arm64 kdump in tests (t_arm64.sh).
# --vm installs what the kernel matrix (tests/vm/run.sh) boots its guests
# with: qemu for x86_64 and arm64 (software emulation; no KVM needed) and a
# static busybox for the x86_64 guest's init.  The arm64 guest's busybox is
# downloaded by the matrix itself, and it runs the tracer --cross builds
# with the arm64 libraries --cross installs: use both for it.
# --deb installs what make deb builds the Debian packages with (debhelper,
# dpkg-dev), what checks them (lintian) and what make deb-test installs
# them into a fresh Debian 12 root with (debootstrap).

set -eu

CROSS=
VM=
DEB=
for arg in "$@"; do
	case $arg in
	--cross) CROSS=1 ;;
	--vm) VM=1 ;;
	--deb) DEB=1 ;;
	*)
		echo "usage: install-deps.sh [--cross] [--vm] [--deb]" >&2
		exit 2
		;;
	esac
done

# autoconf, automake: bench/strace_tests.sh builds strace's test programs with them
PKGS="clang llvm libbpf-dev bpftool libelf-dev libdw-dev zlib1g-dev pkg-config make gcc libc6-dev
linux-libc-dev systemtap-sdt-dev strace linux-perf libcap2-bin clang-format util-linux libclang-rt-dev
coreutils procps tar python3 jq autoconf automake systemd-container debootstrap libc6-dbg file"

if [ "$(id -u)" -eq 0 ]; then
	SUDO=
elif command -v sudo >/dev/null 2>&1; then
	SUDO=sudo
else
	SUDO=
fi

installed()
{
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}

missing=
if command -v dpkg-query >/dev/null 2>&1; then
	for p in $PKGS; do
		installed "$p" || missing="$missing $p"
	done
else
	echo "install-deps: not a Debian system; install by hand:" $PKGS >&2
fi

CROSS_PKGS="gcc-aarch64-linux-gnu libc6-dev-arm64-cross libbpf-dev:arm64 libelf-dev:arm64 libdw-dev:arm64
zlib1g-dev:arm64 systemtap-sdt-dev:arm64 qemu-user"
if [ -n "$CROSS" ] && command -v dpkg-query >/dev/null 2>&1; then
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		$SUDO dpkg --add-architecture arm64
		missing="$missing $CROSS_PKGS" # the arm64 lists need an update first
	else
		for p in $CROSS_PKGS; do
			installed "$p" || missing="$missing $p"
		done
	fi
fi

VM_PKGS="qemu-system-x86 qemu-system-arm busybox-static xz-utils binutils"
if [ -n "$VM" ] && command -v dpkg-query >/dev/null 2>&1; then
	for p in $VM_PKGS; do
		installed "$p" || missing="$missing $p"
	done
fi

DEB_PKGS="debhelper dpkg-dev fakeroot lintian debootstrap"
if [ -n "$DEB" ] && command -v dpkg-query >/dev/null 2>&1; then
	for p in $DEB_PKGS; do
		installed "$p" || missing="$missing $p"
	done
fi

if [ -n "$missing" ]; then
	echo "install-deps: installing$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	$SUDO apt-get update -q
	# shellcheck disable=SC2086
	$SUDO apt-get install -y -q --no-install-recommends $missing
fi

if [ -d /sys/kernel/tracing ] && ! grep -q ' /sys/kernel/tracing ' /proc/mounts 2>/dev/null; then
	$SUDO mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
fi

for f in /sys/kernel/btf/vmlinux; do
	[ -r "$f" ] || echo "install-deps: warning: $f missing: the kernel has no BTF" >&2
done
exit 0
