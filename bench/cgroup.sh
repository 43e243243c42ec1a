#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# ktraceb -G (issue 33): a group's processes traced by their cgroup cost
# what the same processes traced by ktraceb -i cost, and processes outside
# the group pay what they pay while any other trace runs.  As root, on the
# machine's cgroup2 mount (one mounted here if there is none):
#   1. N busy processes (BENCH_CG_N, default the CPUs), each BENCH_CG_CALLS
#      getppid calls, in a group the script makes: untraced, traced with
#      -G group (set before they start: each is forked into the group),
#      and the same processes started by `ktraceb -i sh` (inherited): wall
#      seconds (median of BENCH_RUNS), ns per call above untraced (the
#      processes run side by side: the wall time each call adds), getppid
#      RETs captured of expected, records lost;
#   2. the tax outside: an untraced getppid loop (BENCH_N calls) and an
#      untraced fork loop (BENCH_FORKS forks) with no trace, while a -p
#      trace of an idle process runs, and while a -G trace of a group
#      with an idle member runs (every fork on the machine looks up its
#      cgroup's ancestors at the traced groups' levels).
# Not a test: it asserts nothing.
#
#   O=build bench/cgroup.sh

set -u
cd "$(dirname "$0")/.." || exit 1
O=${O:-build}
KTRACEB=$O/ktraceb
KDUMP=$O/kdump
LOOP=$O/tests/progs/getppid_loop
WL=$O/bench/workloads
NPROC=${BENCH_CG_N:-$(nproc)}
CALLS=${BENCH_CG_CALLS:-500000}
N=${BENCH_N:-2000000}
FORKS=${BENCH_FORKS:-20000}
RUNS=${BENCH_RUNS:-5}
for b in "$KTRACEB" "$KDUMP" "$LOOP" "$WL"; do
	[ -x "$b" ] || {
		echo "bench: $b is not built; run make bench" >&2
		exit 1
	}
done
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ktraceb-cgbench.XXXXXX") || exit 1
CGM=$(awk '$9 == "cgroup2" && $4 == "/" { print $5; exit }' /proc/self/mountinfo)
MOUNTED=
if [ -z "$CGM" ]; then
	CGM=$TMP/cgroup2
	mkdir -p "$CGM" && mount -t cgroup2 none "$CGM" || exit 1
	MOUNTED=$CGM
fi
G=$CGM/ktr-bench-$$
IDLE=
cleanup()
{
	[ -n "$IDLE" ] && kill "$IDLE" 2>/dev/null
	"$KTRACEB" -C 2>/dev/null
	sleep 0.3
	for d in "$G/idle" "$G/busy" "$G"; do
		[ -d "$d" ] || continue
		while read -r p; do echo "$p" >"$CGM/cgroup.procs" 2>/dev/null; done <"$d/cgroup.procs"
		rmdir "$d" 2>/dev/null
	done
	[ -n "$MOUNTED" ] && umount "$MOUNTED"
	rm -rf "$TMP"
}
trap cleanup EXIT
mkdir -p "$G/busy" "$G/idle"

now_ns()
{
	date +%s%N
}
median()
{
	sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
BUILD_ID=$(sed -n 's/^#define KTRACEB_BUILD_ID "\(.*\)"$/\1/p' "$O/gen/build_id.h" 2>/dev/null)
# wait until this build's daemon is gone: each traced run starts alike
no_daemon()
{
	for _ in $(seq 50); do
		grep -q "ktraceb-${BUILD_ID:-x}" /proc/net/unix 2>/dev/null || return 0
		sleep 0.1
	done
}

# busy: NPROC getppid loops started in the busy group, waited for
BUSY="for i in \$(seq $NPROC); do \"$LOOP\" $CALLS >/dev/null & done; wait"

# cpu CMD: run CMD (a shell command), print the CPU seconds (user + system) its
# processes took: on a loaded machine a truer cost than the wall time
cpu()
{
	bash -c "$1; times" | awk 'NR == 2 { split($0, t, /[ ms]+/); print t[1] * 60 + t[2] + t[3] * 60 + t[4] }'
}

# run MODE: one run's CPU seconds; the trace in $TMP/MODE.ktr
run()
{
	local mode=$1 busy="echo \$\$ >'$G/busy/cgroup.procs'; $BUSY"
	rm -f "$TMP/$mode.ktr"
	case $mode in
	none)
		cpu "$busy"
		;;
	G)
		"$KTRACEB" -t c -f "$TMP/G.ktr" -G "$G/busy" 2>/dev/null
		cpu "$busy"
		"$KTRACEB" -c -G "$G/busy" 2>"$TMP/G.err"
		;;
	i)
		cpu "'$KTRACEB' -i -t c -f '$TMP/i.ktr' sh -c '$BUSY' 2>'$TMP/i.err'"
		;;
	esac
}

# the trace's getppid returns and its lost records
counted()
{
	local f=$TMP/$1.ktr
	[ -s "$f" ] || {
		echo "- -"
		return
	}
	sleep 1.2 # the file is finished a tick after its last process
	echo "$("$KDUMP" -f "$f" -t c | grep -c 'RET   getppid') $("$KDUMP" -f "$f" | awk '$3 == "LOST" { n++ } END { print n + 0 }')"
}

# a trace of an idle process keeps the daemon up: no run pays for starting it
sleep 3600 &
IDLE=$!
"$KTRACEB" -t c -f "$TMP/keep.ktr" -p "$IDLE" 2>/dev/null
printf '1. %d busy processes of %d getppid calls each, in a group; median of %d runs\n' \
	"$NPROC" "$CALLS" "$RUNS"
printf '  %-26s %8s %10s %18s %7s\n' "how" "CPU s" "ns/call" "captured/expected" "LOST"
base=
for mode in none G i; do
	: >"$TMP/times"
	for ((r = 0; r < RUNS; r++)); do
		run "$mode" >>"$TMP/times"
	done
	secs=$(median <"$TMP/times")
	[ "$mode" = none ] && base=$secs
	read -r got lost <<<"$(counted "$mode")"
	case $mode in
	none) label="untraced" ;;
	G) label="ktraceb -G group" ;;
	i) label="ktraceb -i sh (inherited)" ;;
	esac
	printf '  %-26s %8.3f %10s %18s %7s\n' "$label" "$secs" \
		"$(awk -v s="$secs" -v b="$base" -v c="$((NPROC * CALLS))" 'BEGIN { printf "%.0f", (s - b) * 1e9 / c }')" \
		"$got/$((NPROC * CALLS))" "$lost"
done

kill "$IDLE"
IDLE=

# --- the tax outside the group -------------------------------------------------------
tax()
{
	: >"$TMP/tax"
	for ((r = 0; r < RUNS; r++)); do
		if [ "$1" = getppid ]; then
			cpu "'$LOOP' $N >/dev/null" >>"$TMP/tax"
		else
			cpu "'$WL' forks $FORKS >/dev/null" >>"$TMP/tax"
		fi
	done
	median <"$TMP/tax"
}
printf '\n2. the tax outside: untraced loops, median of %d runs (CPU seconds; ns per call or fork)\n' "$RUNS"
printf '  %-34s %12s %8s %12s %8s\n' "while" "getppid x$N" ns "forks x$FORKS" ns
row()
{
	local label=$1 a b
	a=$(tax getppid)
	b=$(tax forks)
	printf '  %-34s %12.3f %8.0f %12.3f %8.0f\n' "$label" "$a" \
		"$(awk -v s="$a" -v n="$N" 'BEGIN { print s * 1e9 / n }')" "$b" \
		"$(awk -v s="$b" -v n="$FORKS" 'BEGIN { print s * 1e9 / n }')"
}
no_daemon
row "nothing is traced"
sleep 3600 &
IDLE=$!
"$KTRACEB" -t c -f "$TMP/p.ktr" -p "$IDLE" 2>/dev/null
row "a -p trace of an idle process"
"$KTRACEB" -c -p "$IDLE" 2>/dev/null
kill "$IDLE"
no_daemon
sh -c "echo \$\$ >\"$G/idle/cgroup.procs\"; exec sleep 3600" &
IDLE=$!
sleep 0.2
"$KTRACEB" -t c -f "$TMP/gi.ktr" -G "$G/idle" 2>/dev/null
row "a -G trace of a group, one idle"
"$KTRACEB" -c -G "$G/idle" 2>/dev/null
printf '\nkernel %s, %d CPUs\n' "$(uname -r)" "$(nproc)"
