#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# Dump the running kernel's syscall signatures from tracefs, one line per
# syscall: "name<TAB>nargs<TAB>type name;type name;...".  The committed
# src/decode/tables/syscalls.sig was made with:
#   scripts/dump-syscall-sigs.sh > src/decode/tables/syscalls.sig
# Needs CONFIG_FTRACE_SYSCALLS and tracefs (mount -t tracefs none /sys/kernel/tracing).
set -eu
ev=${TRACEFS:-/sys/kernel/tracing}/events/syscalls
[ -d "$ev" ] || { echo "dump-syscall-sigs: $ev: no syscall events (mount tracefs)" >&2; exit 1; }
printf '# kernel %s (%s); regenerate with scripts/dump-syscall-sigs.sh\n' "$(uname -r)" "$(uname -m)"
for d in "$ev"/sys_enter_*; do
	name=${d##*/sys_enter_}
	awk -v name="$name" '
		/field:/ && !/common_/ && !/__syscall_nr/ {
			sub(/^[ \t]*field:/, ""); sub(/;.*/, "")
			args = args (n ? ";" : "") $0; n++
		}
		END { printf "%s\t%d\t%s\n", name, n, args }' "$d/format"
done | LC_ALL=C sort
