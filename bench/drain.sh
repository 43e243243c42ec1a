#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# What the daemon's drain costs a record, for one build or several side by
# side (issue 44), as root: each build's daemon is started on CPU 0 with
# -b 256m (its rings made before, not grown during the runs) and kept up by
# a trace of an idle process; then, builds in turn, 1 and 2 threads on
# CPU 1 each write 64 bytes to /dev/null 400,000 times under each.  Said,
# a line a run: the write phase's wall time, records and lost, and the
# drain's CPU time a record (its main and ring threads, from their
# schedstat, to the nanosecond).  Then the median of the runs after the
# first BENCH_WARM of each build: the first passes over 256 MiB of fresh
# ring memory cost three to six times the later ones on a virtual machine.
# Not a test.
#
#   bench/drain.sh [BUILD_DIR...]   (build by default; each with ktraceb and
#                                   bench/workloads built: make bench's)
#   BENCH_RUNS (9), BENCH_WARM (3), BENCH_WRITERS ("1 2")

set -u
cd "$(dirname "$0")/.." || exit 1
RUNS=${BENCH_RUNS:-9}
WARM=${BENCH_WARM:-3}
WRITERS=${BENCH_WRITERS:-"1 2"}
[ $# -gt 0 ] || set -- build
[ "$(nproc)" -ge 2 ] || {
	echo "bench: the daemon and the writers need a CPU each" >&2
	exit 1
}
for o in "$@"; do
	for b in "$o/ktraceb" "$o/bench/workloads"; do
		[ -x "$b" ] || {
			echo "bench: $b is not built; run make bench there" >&2
			exit 1
		}
	done
done
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ktraceb-drain.XXXXXX") || exit 1
KEEPERS=
trap 'kill $KEEPERS 2>/dev/null; rm -rf "$TMP"' EXIT

# daemon BUILD_DIR: that build's daemon (its /proc/PID/exe)
daemon()
{
	local p exe
	exe=$(readlink -f "$1/ktraceb")
	for p in $(pgrep -x ktracebd); do
		[ "$(readlink -f /proc/"$p"/exe 2>/dev/null)" = "$exe" ] && echo "$p" && return
	done
}

# drain_ns PID (bench/lib_drain.sh)
# shellcheck source=bench/lib_drain.sh
. bench/lib_drain.sh

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

i=0
for o in "$@"; do
	sleep 3600 &
	KEEPERS="$KEEPERS $!"
	taskset -c 0 "$o/ktraceb" -b 256m -t c -f "$TMP/keep.$i.ktr" -p $! || exit 1
	[ -n "$(daemon "$o")" ] || {
		echo "bench: $o's daemon is not up" >&2
		exit 1
	}
	i=$((i + 1))
done

printf '%-8s %-28s %4s %9s %10s %7s %12s\n' writers build run wall_s records lost drain_ns/rec
for w in $WRITERS; do
	for ((r = 1; r <= RUNS; r++)); do
		i=0
		for o in "$@"; do
			d=$(daemon "$o")
			a=$(drain_ns "$d")
			"$o/ktraceb" -f "$TMP/w.ktr" taskset -c 1 "$o/bench/workloads" writers "$w" 400000 \
				>"$TMP/out" 2>"$TMP/err"
			c=$(drain_ns "$d")
			read -r wall _ <"$TMP/out"
			read -r recs lost < <(sed -n 's/^ktraceb: \([0-9]*\) records written to .*, \([0-9]*\) lost$/\1 \2/p' "$TMP/err")
			ns=$(((c - a) / (${recs:-0} > 0 ? recs : 1)))
			printf '%-8s %-28s %4s %9s %10s %7s %12s\n' "$w" "$o" "$r" "$wall" "${recs:--}" "${lost:--}" "$ns"
			[ "$r" -gt "$WARM" ] && echo "$ns" >>"$TMP/ns.$w.$i"
			i=$((i + 1))
		done
	done
done
echo
echo "== the drain's ns a record, median of runs $((WARM + 1)) to $RUNS (records a second of its CPU)"
for w in $WRITERS; do
	i=0
	for o in "$@"; do
		m=$(median <"$TMP/ns.$w.$i")
		printf '%s writer(s), %-28s %4s ns  (%s M)\n' "$w" "$o" "$m" \
			"$(awk -v m="$m" 'BEGIN { printf "%.1f", m ? 1000 / m : 0 }')"
		i=$((i + 1))
	done
done
