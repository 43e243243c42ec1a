#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# The arm64 guest's first process, run by the busybox tests/vm/init brought
# along (/ktr-vm/busybox): the shared root's shell and tools are x86_64 and
# do not run here, so this is POSIX sh with busybox's applets only, found
# first in PATH.  Mounts what the tracer needs, runs tests/vm/arm64-smoke.sh
# against the cross-built tracer in O, prints "vmtest: exit N" and powers
# the guest off.
#   arm64-guest.sh REPO O TIMEOUT [SECTION ...]
#   arm64-guest.sh REPO O TIMEOUT -c COMMAND     (a shell command instead)
REPO=$1
O=$2
TIMEOUT=$3
shift 3

# /proc first: until then it is this machine's, over 9p, and --install
# would link the applets to what its /proc/self/exe names (qemu)
/ktr-vm/busybox mount -t proc proc /proc
/ktr-vm/busybox mkdir -p /ktr-vm/bin
/ktr-vm/busybox --install -s /ktr-vm/bin
export PATH=/ktr-vm/bin
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
ln -sf /proc/self/fd /dev/fd
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -t bpf bpf /sys/fs/bpf
mount -t tracefs tracefs /sys/kernel/tracing
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
hostname ktraceb-vm
export HOME=/root TMPDIR=/tmp LANG=C

off()
{
	echo "vmtest: exit $1"
	sync
	echo o >/proc/sysrq-trigger
	sleep 10
}

echo "vmtest: kernel $(uname -r) $(uname -m), $(nproc) CPUs"
cd "$REPO" || off 1
if [ "${1:-}" = -c ]; then
	O=$O sh -c "$2"
	off $?
fi
# sh, as pid 1, reaps the orphans the tests leave while it waits
O=$O timeout "$TIMEOUT" sh tests/vm/arm64-smoke.sh "$@"
off $?
