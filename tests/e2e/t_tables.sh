#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# time limit: 900
# (two scans of every kernel header, minutes each on a busy machine: tests/run.sh gives it more than the default)
#
# tests/progs/newsys under ktraceb: syscalls numbered past the build
# machine's headers are named and recorded like any other (fchmodat2 with
# its NAMI, listmount by name), and extensible structs of sizes the kernel
# refuses show the fields their size holds.
. "$(dirname "$0")/lib.sh"

# The committed tables made of the kernel's headers (scripts/genconsts.sh)
# agree with this machine's headers, for every name both have: a table
# made elsewhere, or edited by hand, shows here.
T=$(cd "$(dirname "$0")/../.." && pwd)
if command -v "${CC:-gcc}" >/dev/null 2>&1 && [ -r /usr/include/linux/ioctl.h ]; then
	check ioctls_agree_with_headers "$T/scripts/genconsts.sh" check-ioctls \
		"$T/src/decode/tables/ioctls.tbl"
	check consts_agree_with_headers "$T/scripts/genconsts.sh" check-consts \
		"$T/src/decode/tables/consts.tbl" "$T/src/decode/tables/consts.spec"
	# and a value changed by hand is caught
	sed 's/^TCGETS\t0x00005401/TCGETS\t0x00005402/' "$T/src/decode/tables/ioctls.tbl" >"$TMP/bad.tbl"
	if "$T/scripts/genconsts.sh" check-ioctls "$TMP/bad.tbl" 2>"$TMP/bad.err"; then
		fail changed_value_caught "a wrong TCGETS passed the check"
	else
		check changed_value_caught t_grep 'TCGETS is 0x00005402 in the table' "$TMP/bad.err"
	fi
else
	skip ioctls_agree_with_headers "no compiler or no linux-libc-dev headers"
fi

need_tracer

W=$TMP/work
mkdir -p "$W"
F=$TMP/n.ktr
ktr n -t cn -f "$F" "$PROGS/newsys" "$W"
check ktraceb_exit_0 t_krc 0 n
kd n "$F"
check kdump_clean t_kdump_ok n
N=$TMP/n.norm
PID=$(awk '$1 == "pid" { print $2 }' "$TMP/n.out")
check prog_reported_pid t_match "${PID:-none}" '^[0-9]+$'

prog() { awk -v n="$1" '$1 == n { print $'"$2"' }' "$TMP/n.out"; }
after() # the line after the CALL of syscall $1
{
	q "$N" '$1 == pid { if (hit) { print $4 " " $5; exit } if ($4 == "CALL" && index($5, s "(") == 1) hit = 1 }' \
		pid="$PID" s="$1"
}

check fchmodat2_ok t_eq "$(prog fchmodat2 2)" 0
check fchmodat2_named t_grep $'\tCALL\tfchmodat2\\(AT_FDCWD,0x[0-9a-f]+,0600,0\\)$' "$N"
check fchmodat2_nami t_eq "$(after fchmodat2)" "NAMI \"$W/newsys.file\""
check fchmodat2_ret t_grep $'\tRET\tfchmodat2 0$' "$N"
check listmount_named t_grep $'\tCALL\tlistmount\\(' "$N"
check listmount_errno t_grep $'\tRET\tlistmount -1 errno '"$(prog listmount 3)"' ' "$N"
check no_unnamed_calls t_nogrep $'\tCALL\t\\[[0-9]+\\]' "$N"

check clone3_56_fields t_eq "$(after clone3)" \
	"STRU struct clone_args { flags=CLONE_VM, pidfd=0, child_tid=0, parent_tid=0, exit_signal=SIGCHLD, stack=0, stack_size=0 }"
check clone3_refused t_grep $'\tRET\tclone3 -1 errno 22 ' "$N"
check open_how_11_fields t_eq "$(after openat2 | sed 's/ NAMI.*//')" \
	"STRU struct open_how { flags=O_RDONLY, <3 bytes more> }"
check no_invalid_records t_nogrep 'invalid record' "$N"
e2e_done
