#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# Runs inside the kernel matrix guest as its first process (tests/vm/init
# hands over to it): mounts what a Debian system has mounted, runs the tests
# given, prints "vmtest: exit N" and powers the guest off.
#   guest.sh REPO O TIMEOUT [PATTERN ...]
#   guest.sh REPO O TIMEOUT -c COMMAND     (a shell command instead)
REPO=$1
O=$2
export KTR_TEST_TIMEOUT=$3
shift 3

mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
ln -sf /proc/self/fd /dev/fd
ln -sf /proc/self/fd/0 /dev/stdin
ln -sf /proc/self/fd/1 /dev/stdout
ln -sf /proc/self/fd/2 /dev/stderr
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -t bpf bpf /sys/fs/bpf
mount -t tracefs tracefs /sys/kernel/tracing
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
hostname ktraceb-vm
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root TMPDIR=/tmp LANG=C.UTF-8
# storms sized for emulation: a tenth of the host's still overflows what they test
export KTR_SWL_CALLS=200000

# bash as pid 1 reaps the orphans the tests leave
echo "vmtest: kernel $(uname -r), $(nproc) CPUs"
cd "$REPO" || exit 1
rc=0
if [ "${1:-}" = -c ]; then
	O=$O bash -c "$2"
	echo "vmtest: exit $?"
	sync
	echo o >/proc/sysrq-trigger
	sleep 10
fi
if [ $# -eq 0 ]; then
	set -- ""
fi
for pattern in "$@"; do
	start=$(date +%s)
	O=$O tests/run.sh "$pattern" | sed -n '/^[0-9]* passed, /!p; s/^\([0-9]* passed, .*\)/vmtest: part: \1/p'
	[ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
	echo "vmtest: ${pattern:-all} took $(($(date +%s) - start)) s"
done
echo "vmtest: exit $rc"
sync
echo o >/proc/sysrq-trigger
sleep 10
