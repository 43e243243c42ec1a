#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# The build of the programs for kernels before 5.12 (bpf/old_kernel.bpf.h),
# checked before the loader may take it (Makefile):
#
#   scripts/check_old_bpf.sh OLD_OBJECT SKELETON OLD_SKELETON
#
#  - no atomic instruction but an add without fetch: a 5.10 or 5.11 kernel
#    refuses a program with another anywhere in it ("BPF_STX uses reserved
#    fields"), even in code the verifier would never walk;
#  - the old skeleton's structure is the other one's, names aside: the
#    loader opens the old object through the other skeleton (ktr_skel.c),
#    which finds maps and programs by name and its variables at the
#    offsets it was built with.
# Each failure names what differs; exit 1.
set -euo pipefail
obj=$1 skel=$2 old=$3
OBJDUMP=${LLVM_OBJDUMP:-$(command -v llvm-objdump || command -v llvm-objdump-14 || true)}
[ -n "$OBJDUMP" ] || {
	echo "check_old_bpf: llvm-objdump missing (Debian's llvm)" >&2
	exit 1
}

# llvm-objdump names an add without fetch "lock *(u64 *)(r1 + 0) += r2";
# every other atomic is "atomic_fetch_*", "xchg", "cmpxchg" or a lock with
# another operator
bad=$("$OBJDUMP" -d --no-show-raw-insn "$obj" | awk '
	/^[0-9a-f]+ <.*>:$/ && $2 !~ /^<LBB/ { fn = $2 }
	/atomic_|xchg|cmpxchg/ || (/lock / && !/lock \*\(u(32|64) \*\)\(r[0-9]+ [+-] [0-9]+\) \+= r[0-9]+/) {
		sub(/^[ \t]+/, ""); print fn " " $0 }')
if [ -n "$bad" ]; then
	echo "check_old_bpf: $obj has atomics kernels before 5.12 refuse:" >&2
	echo "$bad" >&2
	exit 1
fi

# the skeleton's struct (maps, programs, links, each datasec's variables)
shape()
{
	sed "s/$2/ktraceb_bpf/g" "$1" | awk '/^struct ktraceb_bpf \{/ { on = 1 } on { print } on && /^};/ { exit }'
}
if ! diff -u <(shape "$skel" ktraceb_bpf) <(shape "$old" ktraceb_old_bpf) >&2; then
	echo "check_old_bpf: the old build's maps, programs or variables differ (above)" >&2
	exit 1
fi
[ -n "$(shape "$skel" ktraceb_bpf)" ] || {
	echo "check_old_bpf: no struct ktraceb_bpf in $skel" >&2
	exit 1
}
