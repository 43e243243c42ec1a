# shellcheck shell=bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# Sourced by bench/threads.sh and bench/drain.sh: what the daemon's drain
# takes of a CPU.

# drain_ns PID: nanoseconds on a CPU of the daemon's drain, its main thread,
# which routes the records, and its ring thread (ktraceb-ring), which takes
# them out of the rings while the main thread is busy (schedstat's, to the
# nanosecond, where a clock tick is 10 ms)
drain_ns()
{
	local t n=0 v
	for t in /proc/"$1"/task/*; do
		[ "$t" = "/proc/$1/task/$1" ] || [ "$(cat "$t"/comm 2>/dev/null)" = ktraceb-ring ] ||
			continue
		read -r v _ <"$t"/schedstat 2>/dev/null && n=$((n + v))
	done
	echo "$n"
}
