#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# The arch layer: the BPF objects and both programs cross-compile for arm64
# (make ARCH=arm64, against vmlinux/arm64/vmlinux.h), the arm64 BPF reads
# the syscall number from pt_regs.syscallno (never x86's orig_ax), and the
# arm64 kdump, run under qemu-user, prints a trace made on arm64 and one
# made on x86_64 exactly as this machine's kdump does.  Needs the cross
# toolchain (scripts/install-deps.sh --cross); without it, one SKIP.
. "$(dirname "$0")/lib.sh"
need_kdump

if ! command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 ||
	[ ! -e /usr/lib/aarch64-linux-gnu/pkgconfig/libbpf.pc ]; then
	skip all "no arm64 cross toolchain (scripts/install-deps.sh --cross)"
	exit 0
fi

B=$TMP/build-arm64
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$REPO" -j"$(nproc)" ARCH=arm64 O="$B" all >"$TMP/make.out" 2>&1
rc=$?
check build_exit_0 t_eq "$rc" 0
[ "$rc" -eq 0 ] || sed -n '1,40p' "$TMP/make.out" >&2
check ktraceb_is_aarch64 t_match "$(file -b "$B/ktraceb" 2>&1)" 'ARM aarch64'
check kdump_is_aarch64 t_match "$(file -b "$B/kdump" 2>&1)" 'ARM aarch64'
check bpf_object_built t_match "$(file -b "$B/ktraceb.bpf.o" 2>&1)" 'eBPF'
# the CO-RE relocations name the arm64 fields: strings of the object's BTF
check bpf_reads_syscallno t_grep '^syscallno$' <(strings -n 3 "$B/ktraceb.bpf.o")
check bpf_keeps_args_at_entry t_grep '^kept_args$' <(strings -n 3 "$B/ktraceb.bpf.o")
check bpf_no_orig_ax t_nogrep '^orig_ax$' <(strings -n 3 "$B/ktraceb.bpf.o")
# the x86 build has neither
check x86_bpf_reads_orig_ax t_grep '^orig_ax$' <(strings -n 3 "$O/ktraceb.bpf.o")

if ! command -v qemu-aarch64 >/dev/null 2>&1; then
	skip arm64_kdump_runs "no qemu-aarch64 (qemu-user)"
	e2e_done
fi
"$PROGS/ktrgen" arm64 "$TMP/arm64.ktr"
"$PROGS/ktrgen" good "$TMP/x86.ktr"
for t in arm64 x86; do
	QEMU_LD_PREFIX=/usr/aarch64-linux-gnu qemu-aarch64 "$B/kdump" -f "$TMP/$t.ktr" \
		>"$TMP/$t.a64" 2>"$TMP/$t.a64err"
	check "kdump_arm64_${t}_trace_exit" t_eq "$?" 0
	"$KDUMP" -f "$TMP/$t.ktr" >"$TMP/$t.host" 2>&1
	check "kdump_arm64_${t}_trace_same" t_eq "$(cmp -s "$TMP/$t.a64" "$TMP/$t.host" && echo same)" same
done
check arm64_trace_named t_grep 'RET   listmount -1 errno 22 ' "$TMP/arm64.a64"
e2e_done
