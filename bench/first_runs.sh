#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# What a fresh daemon's first traces pay, as root (issue 44): make
# bench's rows start a daemon for each workload and count its first runs.
# Each round starts a daemon (kept up by a trace of an idle process) and
# runs the workload under ktraceb BENCH_RUNS times in a row; said a line
# a run: its wall time, and what the daemon took meanwhile, its page
# faults (minor) and CPU time (all its threads, /proc/PID/stat).  Then,
# for each run's place in a round, the median over the rounds, beside the
# untraced workload's median.  Last, `true` untraced and traced, with and
# without work at idle priority on the machine (a loop starting processes,
# under chrt -i 0): what work on another CPU costs a command here, where
# the hypervisor maps each page a process uses first.  Not a test.
#
#   O=build bench/first_runs.sh [WORKLOAD ARGS...]
#       (default: bench/workloads orc 20000, open/read/close x20k)
#   BENCH_ROUNDS (5), BENCH_RUNS (5), BENCH_TRUE_RUNS (15)

set -u
cd "$(dirname "$0")/.." || exit 1
O=${O:-build}
KTRACEB=$O/ktraceb
ROUNDS=${BENCH_ROUNDS:-5}
RUNS=${BENCH_RUNS:-5}
TRUE_RUNS=${BENCH_TRUE_RUNS:-15}
[ $# -gt 0 ] || set -- "$O/bench/workloads" orc 20000
[ -x "$KTRACEB" ] || {
	echo "bench: $KTRACEB is not built; run make bench" >&2
	exit 1
}
command -v "$1" >/dev/null || {
	echo "bench: $1: no such program (bench/workloads: make bench builds it)" >&2
	exit 1
}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ktraceb-first.XXXXXX") || exit 1
KEEPER=
IDLE_LOAD=
trap '[ -n "$KEEPER" ] && kill "$KEEPER"; [ -n "$IDLE_LOAD" ] && kill "$IDLE_LOAD"; rm -rf "$TMP"' EXIT

# no_daemon: wait (5 s at most) until no ktraceb daemon listens
no_daemon()
{
	local i
	for ((i = 0; i < 50; i++)); do
		grep -Eq ' (@|/run/ktraceb/)ktraceb-' /proc/net/unix 2>/dev/null || return 0
		sleep 0.1
	done
}

# daemon_pid: the daemon that serves this build (the process named ktracebd
# holding the idle trace's file open)
daemon_pid()
{
	local p f
	for p in $(pgrep -x ktracebd); do
		for f in /proc/"$p"/fd/*; do
			[ "$(readlink "$f" 2>/dev/null)" = "$TMP/keeper.ktr" ] && echo "$p" && return
		done
	done
}

# faults_cpu PID: its minor faults and CPU ticks so far, all threads
faults_cpu()
{
	awk '{ sub(/^.*\) /, ""); print $8, $12 + $13 }' /proc/"$1"/stat 2>/dev/null || echo "0 0"
}

# run_ms CMD...: the wall time of CMD in ms
run_ms()
{
	local t0 t1
	t0=$(date +%s%N)
	"$@" >/dev/null 2>&1
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000))
}

# median of the numbers on stdin
median()
{
	sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

tick_ms=$((1000 / $(getconf CLK_TCK)))
echo "a fresh daemon's runs of: $*  ($ROUNDS rounds of $RUNS runs)"
: >"$TMP/untraced"
for ((i = 0; i < RUNS; i++)); do
	run_ms "$@" >>"$TMP/untraced"
done
for ((r = 1; r <= ROUNDS; r++)); do
	[ -n "$KEEPER" ] && kill "$KEEPER"
	KEEPER=
	no_daemon
	sleep 3600 &
	KEEPER=$!
	"$KTRACEB" -t c -f "$TMP/keeper.ktr" -p "$KEEPER" 2>/dev/null
	D=$(daemon_pid)
	for ((i = 1; i <= RUNS; i++)); do
		read -r f0 c0 <<<"$(faults_cpu "${D:-0}")"
		rm -f "$TMP/run.ktr"
		ms=$(run_ms "$KTRACEB" -f "$TMP/run.ktr" "$@")
		read -r f1 c1 <<<"$(faults_cpu "${D:-0}")"
		echo "$i $ms" >>"$TMP/times"
		printf '  round %d run %d: %4d ms; the daemon meanwhile: %5d faults, %4d ms of CPU\n' \
			"$r" "$i" "$ms" $((f1 - f0)) $(((c1 - c0) * tick_ms))
	done
done
printf '\n%-46s %8s\n' "run" "median ms"
printf '%-46s %8s\n' "untraced" "$(median <"$TMP/untraced")"
for ((i = 1; i <= RUNS; i++)); do
	printf '%-46s %8s\n' "ktraceb run $i of a fresh daemon" \
		"$(awk -v i="$i" '$1 == i { print $2 }' "$TMP/times" | median)"
done

# true, untraced and traced, with and without the idle load, the daemon
# kept up meanwhile
run_ms "$KTRACEB" -f "$TMP/run.ktr" true >/dev/null
true_runs()
{
	local i
	: >"$TMP/true.$1"
	: >"$TMP/true.$1.traced"
	for ((i = 0; i < TRUE_RUNS; i++)); do
		run_ms true >>"$TMP/true.$1"
		run_ms "$KTRACEB" -f "$TMP/run.ktr" true >>"$TMP/true.$1.traced"
	done
}
true_runs quiet
chrt -i 0 bash -c 'while :; do /bin/true; done' &
IDLE_LOAD=$!
sleep 0.3
true_runs idle
kill "$IDLE_LOAD"
IDLE_LOAD=
printf '\n%-46s %8s %8s\n' "true, median of $TRUE_RUNS (ms)" untraced traced
printf '%-46s %8s %8s\n' "  the machine otherwise idle" "$(median <"$TMP/true.quiet")" \
	"$(median <"$TMP/true.quiet.traced")"
printf '%-46s %8s %8s\n' "  processes started at idle priority meanwhile" \
	"$(median <"$TMP/true.idle")" "$(median <"$TMP/true.idle.traced")"
