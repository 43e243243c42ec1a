#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# make bench: the cost of tracing, ktraceb against strace and perf trace.
# The workloads: `true` (the fixed cost of starting each tracer: for ktraceb
# a cold start, the first since boot loading and verifying the BPF programs,
# a later one opening the programs the last daemon kept pinned, both
# attaching them), a loop of getppid
# calls (the worst case: nothing but syscalls), tar of /usr/include into a
# file (many small file system calls, and the data read and written) and dd
# with 1k blocks traced with -t ci (many small reads and writes, whose data
# ktraceb records).  Each runs untraced, under `ktraceb -f F`, `strace -f -o
# F` and `perf trace -o F` (when perf trace works here), in one run of this
# script.  Apart from the startup row, ktraceb runs with its daemon already
# up (kept alive by a trace of an idle process), as on a machine where
# ktraceb is in use; the startup rows show what a cold start adds.  The
# table shows for each:
#   seconds    median wall time of BENCH_RUNS runs (one run when a run is > 10 s)
#   slowdown   seconds / untraced seconds
#   captured   syscalls the tracer recorded (getppid: getppid calls only)
#   expected   what the program made (getppid: N; others: strace's count)
#   lost       records the tracer says it lost (ktraceb stderr, perf LOST)
#   bytes      size of the trace file
# Workloads: true (cold: the first since boot, and with the programs kept;
# with the daemon up), getppid, open/read/close,
# fork+exec, two threads writing (bench/workloads), tar, find.
# After the table: the tax an untraced process pays while ktraceb traces
# others, right after the last trace ended, and with two empty programs on
# the same tracepoints (what the kernel charges, bench/empty_tp); the cost of a span
# (bench/spans), the USDT tax (an untraced C++ exception loop while another
# copy of it is traced with -t u: libstdc++'s probes), the flight recorder
# (-R: getppid x N then a crash, full and compact entries: seconds, records
# kept of recorded, records per second, lost), the BPF programs' own run
# time per run (bpf_stats; full, compact and empty programs, and ones that
# only read the clock), kdump on a
# hostile file, and
# kdump's text, JSON lines (-J) and timeline (-P) of the tar and find traces
# (bench/kdump.sh: seconds, MB/s in and out); last
# bench/compress.sh: tar and find traced with and without -z (seconds,
# bytes, ratio, kdump's time).
# Not a test: it asserts nothing.  Needs root for ktraceb and perf.
#
#   O=build bench/run.sh       BENCH_N (getppid calls, 2000000), BENCH_RUNS (3),
#                              BENCH_COPY_MB (dd copy size, 32), BENCH_REC_BYTES (64m)

set -u
cd "$(dirname "$0")/.." || exit 1
O=${O:-build}
KTRACEB=$O/ktraceb
KDUMP=$O/kdump
BUILD_ID=$(sed -n 's/^#define KTRACEB_BUILD_ID "\(.*\)"$/\1/p' "$O/gen/build_id.h" 2>/dev/null)
LOOP=$O/tests/progs/getppid_loop
N=${BENCH_N:-2000000}
RUNS=${BENCH_RUNS:-3}
COPY_MB=${BENCH_COPY_MB:-32}

for b in "$KTRACEB" "$KDUMP" "$LOOP"; do
	if [ ! -x "$b" ]; then
		echo "bench: $b is not built; run make bench" >&2
		exit 1
	fi
done
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ktraceb-bench.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

tracers="none ktraceb"
command -v strace >/dev/null && tracers="$tracers strace"
if command -v perf >/dev/null && perf trace -o "$TMP/p" -- true >/dev/null 2>&1; then
	tracers="$tracers perf"
else
	echo "bench: perf trace does not work here; skipped" >&2
fi

# now_ns: CLOCK_REALTIME in ns (date is enough for runs of 0.1 s and more)
now_ns()
{
	date +%s%N
}

# no_daemon: wait (3 s at most) until no ktraceb daemon is left from the
# previous run, so that each ktraceb run pays its own BPF load and attach
no_daemon()
{
	local i
	for ((i = 0; i < 30; i++)); do
		grep -Eq ' (@|/run/ktraceb/)ktraceb-' /proc/net/unix 2>/dev/null || return 0
		sleep 0.1
	done
}

# keep_daemon / drop_daemon: a trace of an idle process keeps the daemon up
KEEPER=
keep_daemon()
{
	[ -n "$KEEPER" ] && return
	sleep 3600 &
	KEEPER=$!
	"$KTRACEB" -t c -f "$TMP/keeper.ktr" -p "$KEEPER" 2>/dev/null
}

drop_daemon()
{
	[ -n "$KEEPER" ] && kill "$KEEPER" 2>/dev/null
	KEEPER=
	no_daemon
	return 0
}

# run_once TRACER OUTFILE CMD...: run CMD under TRACER; prints the seconds
run_once()
{
	local tracer=$1 f=$2 t0 t1
	shift 2
	rm -f "$f" "$TMP/stderr"
	[ "$tracer" = ktraceb ] && [ -z "$KEEPER" ] && no_daemon
	# the first cold start since boot: no programs kept by an earlier daemon
	[ "$tracer" = ktraceb ] && [ -n "$FIRST" ] && rm -rf "/sys/fs/bpf/ktraceb/${BUILD_ID:-none}"/cache-*
	t0=$(now_ns)
	case $tracer in
	none) "$@" >/dev/null 2>"$TMP/stderr" ;;
	ktraceb) "$KTRACEB" $KFLAGS -f "$f" "$@" >/dev/null 2>"$TMP/stderr" ;;
	strace) strace -f -o "$f" "$@" >/dev/null 2>"$TMP/stderr" ;;
	perf) perf trace -o "$f" -- "$@" >/dev/null 2>"$TMP/stderr" ;;
	esac
	t1=$(now_ns)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) / 1e9 }'
}

# median of the numbers on stdin
median()
{
	sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# count TRACER FILE WHAT: syscalls in a trace file (WHAT = getppid or all)
count()
{
	local tracer=$1 f=$2 what=$3
	case $tracer in
	ktraceb)
		if [ "$what" = getppid ]; then
			"$KDUMP" -f "$f" -t c | grep -c 'CALL  getppid$'
		else
			"$KDUMP" -f "$f" -t c | grep -c ' CALL  '
		fi
		;;
	strace)
		if [ "$what" = getppid ]; then
			grep -c '^[0-9]* *getppid()' "$f"
		else
			grep -Evc '^[0-9]* *(\+\+\+|---|<\.\.\. .* resumed>)' "$f"
		fi
		;;
	perf)
		if [ "$what" = getppid ]; then
			grep -c ' getppid()' "$f"
		else
			grep -c '): .*/[0-9]* [a-z_0-9]*(' "$f"
		fi
		;;
	*) echo - ;;
	esac
}

lost()
{
	case $1 in
	ktraceb) sed -n 's/^ktraceb: .* records written to .*, \([0-9]*\) lost$/\1/p' "$TMP/stderr" ;;
	perf) grep -o 'LOST [0-9]* events' "$2" "$TMP/stderr" 2>/dev/null |
		awk '{ n += $2 } END { print n + 0 }' ;;
	strace) echo 0 ;;
	*) echo - ;;
	esac
}

ROWS=$TMP/rows
: >"$ROWS"

# bench NAME WHAT CMD...: every tracer on one workload
bench()
{
	local name=$1 what=$2 tracer i s secs base=1 f captured expected lostn bytes
	shift 2
	local strace_count=-
	: >"$TMP/workload"
	for tracer in $tracers; do
		f=$TMP/trace.$tracer
		: >"$TMP/times"
		# the others run with no BPF program attached anywhere
		if [ "$tracer" = ktraceb ] && [ -n "$WARM" ]; then
			keep_daemon
		else
			drop_daemon
		fi
		for ((i = 0; i < RUNS; i++)); do
			s=$(run_once "$tracer" "$f" "$@")
			echo "$s" >>"$TMP/times"
			awk -v s="$s" 'BEGIN { exit !(s > 10) }' && break
		done
		secs=$(median <"$TMP/times")
		[ "$tracer" = none ] && base=$secs
		captured=$(count "$tracer" "$f" "$what")
		[ "$tracer" = strace ] && strace_count=$captured
		lostn=$(lost "$tracer" "$f")
		bytes=$([ -f "$f" ] && stat -c %s "$f" || echo -)
		drop_daemon
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$tracer" "$secs" "$base" "$captured" \
			"$lostn" "$bytes" >>"$TMP/workload"
		echo "bench: $name $tracer ${secs}s" >&2
	done
	# expected: N getppid calls, or what strace (which never loses) counted
	if [ "$what" = getppid ]; then
		expected=$N
	else
		expected=$strace_count
	fi
	awk -F'\t' -v OFS='\t' -v e="$expected" '{ print $1, $2, $3, $4, $5, e, $6, $7 }' \
		"$TMP/workload" >>"$ROWS"
	rm -f "$TMP/workload"
}

trap 'drop_daemon; rm -rf "$TMP"' EXIT
KFLAGS=
WARM=
FIRST=1
bench "true (cold, first since boot)" all true
FIRST=
bench "true (cold, programs kept)" all true
WARM=1
bench "true (daemon up)" all true
bench "getppid x$N" getppid "$LOOP" "$N"
WL=$O/bench/workloads
if [ -x "$WL" ]; then
	bench "open/read/close x20k" all "$WL" orc 20000
	KFLAGS=-i # strace -f and perf trace follow children too
	bench "fork+exec x300" all "$WL" forkexec 300
	KFLAGS=
	bench "2 threads write x100k" all "$WL" threads2 100000
fi
bench "tar /usr/include" all tar cf "$TMP/out.tar" /usr/include
cp "$TMP/trace.ktraceb" "$TMP/tar.ktr" 2>/dev/null # for kdump's outputs, below
bench "find /usr/share" all find /usr/share -name copyright
cp "$TMP/trace.ktraceb" "$TMP/find.ktr" 2>/dev/null # for kdump's outputs, below
dd if=/dev/urandom of="$TMP/data" bs=1M count="$COPY_MB" status=none
KFLAGS="-t ci"
bench "dd ${COPY_MB}M bs=1k ci" all dd if="$TMP/data" of="$TMP/copy" bs=1k status=none

# --- user events: the cost of a span, untraced and traced -----------------------
SPANS=$O/bench/spans
SPAN_N=${BENCH_SPANS:-100000000}
SPAN_TRACED_N=${BENCH_SPANS_TRACED:-200000}
if [ -x "$SPANS" ]; then
	drop_daemon
	: >"$TMP/span_times"
	for ((i = 0; i < RUNS; i++)); do
		taskset -c 1 "$SPANS" "$SPAN_N" | awk '{ print $4, $6 }' >>"$TMP/span_times"
	done
	UNTRACED_SPAN=$(awk '{ print $1 }' "$TMP/span_times" | median)
	UNTRACED_UTRACE=$(awk '{ print $2 }' "$TMP/span_times" | median)
	keep_daemon
	"$KTRACEB" -t u -f "$TMP/spans.ktr" "$SPANS" "$SPAN_TRACED_N" >"$TMP/spans.out" \
		2>"$TMP/spans.err"
	TRACED_SPAN=$(awk '{ print $4 }' "$TMP/spans.out")
	TRACED_UTRACE=$(awk '{ print $6 }' "$TMP/spans.out")
	SPAN_RECS=$("$KDUMP" -t u -f "$TMP/spans.ktr" | grep -c ' USER  ')
	SPAN_LOST=$(sed -n 's/^ktraceb: .* records written to .*, \([0-9]*\) lost$/\1/p' \
		"$TMP/spans.err")
	drop_daemon
fi

# --- the tax: an untraced getppid storm while ktraceb traces something else ------
# (a) no daemon, (b) while a trace of another process runs, (c) 0.1 s after
# the last trace ended, the daemon still up (its programs should be detached)
TAX_ROWS=$TMP/tax_rows
: >"$TAX_ROWS"
tax_run()
{
	local label=$1 i t0 t1
	: >"$TMP/tax_times"
	for ((i = 0; i < RUNS; i++)); do
		[ "$label" = after ] && "$KTRACEB" -f "$TMP/tax.ktr" true 2>/dev/null && sleep 0.1
		t0=$(now_ns)
		"$LOOP" "$N" >/dev/null
		t1=$(now_ns)
		awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) / 1e9 }' >>"$TMP/tax_times"
	done
	printf '%s\t%s\n' "$label" "$(median <"$TMP/tax_times")" >>"$TAX_ROWS"
}
drop_daemon
sleep 1.5
tax_run none
keep_daemon
tax_run during
drop_daemon
tax_run after
drop_daemon
# the kernel's part: two programs that do nothing, on the same tracepoints
EMPTY=$O/bench/empty_tp
if [ -x "$EMPTY" ]; then
	"$EMPTY" "$O/bench/empty_tp.bpf.o" >"$TMP/empty.out" 2>&1 &
	EMPTY_PID=$!
	for _ in $(seq 50); do grep -q attached "$TMP/empty.out" && break; sleep 0.1; done
	grep -q attached "$TMP/empty.out" && tax_run empty
	kill "$EMPTY_PID" 2>/dev/null
	wait "$EMPTY_PID" 2>/dev/null
fi

# --- the USDT tax: an untraced C++ exception loop while another copy is traced ---
# bench/throw_loop throws and catches for THROW_MS; libstdc++'s throw and
# catch probes have no semaphore.  The untraced loop runs on CPU 1; on CPU
# 0 runs a second copy of it with the daemon: untraced (the load the other
# CPU puts on caches and memory), then under ktraceb -t u (its probes
# attached for that copy only).  Rounds interleave the two; the untraced
# loop's rate should not move.
THROW=$O/bench/throw_loop
THROW_MS=${BENCH_THROW_MS:-1000}
USDT_ROWS=$TMP/usdt_rows
: >"$USDT_ROWS"
if [ -x "$THROW" ] && [ "$(nproc)" -ge 2 ]; then
	drop_daemon
	sleep 3600 &
	KEEPER=$!
	taskset -c 0 "$KTRACEB" -t c -f "$TMP/keeper.ktr" -p "$KEEPER" 2>/dev/null # the daemon on CPU 0
	for ((i = 0; i < RUNS; i++)); do
		taskset -c 0 "$THROW" $((THROW_MS + 500)) >/dev/null &
		other=$!
		sleep 0.2
		alone=$(taskset -c 1 "$THROW" "$THROW_MS" | awk '{ print $2 }')
		wait "$other"
		taskset -c 0 "$KTRACEB" -t u -e usdt:libstdcxx -f "$TMP/throw.ktr" "$THROW" $((THROW_MS + 500)) \
			>"$TMP/throw_traced.out" 2>"$TMP/throw_traced.err" &
		other=$!
		sleep 0.2 # the traced copy runs once its probes are attached
		during=$(taskset -c 1 "$THROW" "$THROW_MS" | awk '{ print $2 }')
		wait "$other"
		traced=$(awk '{ print $2 }' "$TMP/throw_traced.out")
		probes=$("$KDUMP" -t u -f "$TMP/throw.ktr" | grep -c 'libstdcxx:')
		printf '%s\t%s\t%s\t%s\n' "$alone" "$during" "$traced" "$probes" >>"$USDT_ROWS"
	done
	drop_daemon
fi

# --- the flight recorder: getppid storms into a 64 MiB ring, full and compact ----
# crasher segv N: N getppid calls, then a crash, which writes the ring.
# Two times: the whole run (ktraceb returns once the dump is written) and
# the getppid storm alone, as the crasher times it (the cost of recording).
# Rounds interleave the untraced run (no daemon, no program attached) with
# the recorded ones, each storm taken against its own round's untraced one,
# so that the machine's drift over the bench does not count as a cost.
flood_secs() { awk '$1 == "flood_ns" { printf "%.4f\n", $2 / 1e9 }' "$1"; }
CRASHER=$O/tests/progs/crasher
REC_BYTES=${BENCH_REC_BYTES:-64m}
REC_RUNS=${BENCH_REC_RUNS:-$((RUNS > 5 ? RUNS : 5))}
REC_ROWS=$TMP/rec_rows
: >"$REC_ROWS"
if [ -x "$CRASHER" ]; then
	for m in none full compact; do
		: >"$TMP/rec_times_$m"
		: >"$TMP/flood_times_$m"
		: >"$TMP/flood_ratio_$m"
	done
	for ((i = 0; i < REC_RUNS; i++)); do
		drop_daemon
		t0=$(now_ns)
		{ "$CRASHER" segv "$N" >"$TMP/crasher.out"; } 2>/dev/null # its SIGSEGV, said by bash
		t1=$(now_ns)
		awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) / 1e9 }' \
			>>"$TMP/rec_times_none"
		base=$(flood_secs "$TMP/crasher.out")
		echo "$base" >>"$TMP/flood_times_none"
		# a daemon up, kept by a compact recorder (a trace would attach sys_enter)
		sleep 3600 &
		REC_KEEPER=$!
		"$KTRACEB" -R 64k,compact -f "$TMP/rec_keeper.ktr" -p "$REC_KEEPER" 2>/dev/null
		for m in full compact; do
			mode=,$m
			[ "$m" = full ] && mode=
			rm -f "$TMP/rec.ktr"
			t0=$(now_ns)
			"$KTRACEB" -R "$REC_BYTES$mode" -f "$TMP/rec.ktr" "$CRASHER" segv "$N" \
				>"$TMP/crasher.out" 2>"$TMP/rec.err"
			t1=$(now_ns)
			awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) / 1e9 }' \
				>>"$TMP/rec_times_$m"
			flood=$(flood_secs "$TMP/crasher.out")
			echo "$flood" >>"$TMP/flood_times_$m"
			awk -v a="$flood" -v b="$base" 'BEGIN { if (b > 0) printf "%.3f\n", a / b }' \
				>>"$TMP/flood_ratio_$m"
			# the last round's file and counts stand for all
			ring=$("$KDUMP" -f "$TMP/rec.ktr" |
				sed -n 's/.* RING  recovered \([0-9]*\)\/\([0-9]*\) entries.*/\1 \2/p' |
				head -n 1)
			lostn=$(sed -n 's/^ktraceb: .* records written to .*, \([0-9]*\) lost$/\1/p' \
				"$TMP/rec.err")
			printf '%s\t%s\t%s\n' "$ring" "${lostn:-?}" \
				"$(stat -c %s "$TMP/rec.ktr" 2>/dev/null || echo -)" >"$TMP/rec_last_$m"
		done
		kill "$REC_KEEPER" 2>/dev/null
		echo "bench: recorder round $((i + 1)) of $REC_RUNS" >&2
	done
	drop_daemon
	REC_BASE=$(median <"$TMP/rec_times_none")
	FLOOD_BASE=$(median <"$TMP/flood_times_none")
	for m in full compact; do
		IFS=$'\t' read -r ring lostn bytes <"$TMP/rec_last_$m"
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$m" "$(median <"$TMP/rec_times_$m")" \
			"$ring" "$lostn" "$bytes" "$(median <"$TMP/flood_times_$m")" \
			"$(median <"$TMP/flood_ratio_$m")" "$(sort -n "$TMP/flood_ratio_$m" | head -n 1)" \
			"$(sort -n "$TMP/flood_ratio_$m" | tail -n 1)" >>"$REC_ROWS"
	done
fi

# --- where a traced syscall's time goes: each program's own run time ------------
# kernel.bpf_stats_enabled: the kernel times every run of every program (it
# adds two clock reads to each run, so the empty programs' row is the
# measure's own floor).  getppid x N traced, full and compact recorder; the
# median of RUNS runs, each run's time and count taken apart (kept programs
# carry their totals from one daemon to the next).
PROG_ROWS=$TMP/prog_rows
: >"$PROG_ROWS"
# A program's totals, summed over every program of that name (printed with
# %.0f: Debian's awk prints %d no higher than 2^31 - 1, and a program's
# run_time_ns passes that within seconds; the run's difference came out 0)
prog_stats()
{
	bpftool prog show 2>/dev/null | awk -v want="$1" '
		$0 ~ "name " want " " { for (i = 1; i < NF; i++) {
			if ($i == "run_time_ns") t += $(i + 1); if ($i == "run_cnt") c += $(i + 1) } }
		END { printf "%.0f %.0f\n", t, c }'
}
prog_median()
{
	if [ -s "$1" ]; then median <"$1"; else echo -; fi
}
prog_cost()
{
	local label=$1 i e0 n0 x0 m0 e1 n1 x1 m1
	shift
	sysctl -qw kernel.bpf_stats_enabled=1 || return
	: >"$TMP/pc_enter"
	: >"$TMP/pc_exit"
	for ((i = 0; i < RUNS; i++)); do
		read -r e0 n0 <<<"$(prog_stats "$ENTER_PROG")"
		read -r x0 m0 <<<"$(prog_stats "$EXIT_PROG")"
		"$@" >/dev/null 2>&1
		read -r e1 n1 <<<"$(prog_stats "$ENTER_PROG")"
		read -r x1 m1 <<<"$(prog_stats "$EXIT_PROG")"
		# (a daemon that loaded its programs afresh: its totals are the run's)
		[ "$n1" -lt "$n0" ] && e0=0 n0=0
		[ "$m1" -lt "$m0" ] && x0=0 m0=0
		# (a program that ran for no call of the loop was not attached: -)
		[ $((n1 - n0)) -ge "$N" ] && echo $(((e1 - e0) / (n1 - n0))) >>"$TMP/pc_enter"
		[ $((m1 - m0)) -ge "$N" ] && echo $(((x1 - x0) / (m1 - m0))) >>"$TMP/pc_exit"
	done
	printf '%s\t%s\t%s\n' "$label" "$(prog_median "$TMP/pc_enter")" \
		"$(prog_median "$TMP/pc_exit")" >>"$PROG_ROWS"
	sysctl -qw kernel.bpf_stats_enabled=0
}
# The same runs timed for ktraceb's programs and, attached beside them, the
# empty ones and the ones that only read the clock (the machine's pace,
# which drifts between runs here by a quarter, divides out): ktraceb's
# per-run time over each floor's on the same tracepoint, the median of RUNS
# runs.  Each of ktraceb's two programs reads the clock once (the CALL's
# and the RET's times): the clock row is the floor of a program that does.
PROG_RATIO=$TMP/prog_ratio
: >"$PROG_RATIO"
prog_ratio()
{
	local i p floor progs="ktr_syscall_enter ktr_syscall_exit empty_enter empty_exit clock_enter clock_exit"
	sysctl -qw kernel.bpf_stats_enabled=1 || return
	for floor in empty clock; do
		: >"$TMP/pr_${floor}_enter"
		: >"$TMP/pr_${floor}_exit"
	done
	for ((i = 0; i < RUNS; i++)); do
		for p in $progs; do prog_stats "$p"; done >"$TMP/pr_before"
		"$@" >/dev/null 2>&1
		for p in $progs; do prog_stats "$p"; done >"$TMP/pr_after"
		# rows: ktr enter, exit, empty enter, exit, clock enter, exit
		paste -d ' ' "$TMP/pr_before" "$TMP/pr_after" | awk -v n="$N" -v tmp="$TMP/pr_" '
			{ t[NR] = $3 - $1; c[NR] = $4 - $2 }
			function ratio(k, f, file) {
				if (c[k] >= n && c[f] >= n)
					printf "%.2f\n", (t[k] / c[k]) / (t[f] / c[f]) >> file
			}
			END { ratio(1, 3, tmp "empty_enter"); ratio(2, 4, tmp "empty_exit")
			      ratio(1, 5, tmp "clock_enter"); ratio(2, 6, tmp "clock_exit") }'
	done
	for floor in empty clock; do
		printf '%s\t%s\t%s\n' "$floor" "$(prog_median "$TMP/pr_${floor}_enter")" \
			"$(prog_median "$TMP/pr_${floor}_exit")" >>"$PROG_RATIO"
	done
	sysctl -qw kernel.bpf_stats_enabled=0
}
if command -v bpftool >/dev/null && sysctl -qw kernel.bpf_stats_enabled=0 2>/dev/null; then
	ENTER_PROG=ktr_syscall_enter EXIT_PROG=ktr_syscall_exit
	drop_daemon
	prog_cost "full entries (-f)" "$KTRACEB" -f "$TMP/pc.ktr" "$LOOP" "$N"
	drop_daemon
	prog_cost "compact recorder (-R)" "$KTRACEB" -R "$REC_BYTES,compact" -f "$TMP/pc.ktr" \
		"$LOOP" "$N"
	drop_daemon
	if [ -x "$EMPTY" ]; then
		ENTER_PROG=empty_enter EXIT_PROG=empty_exit
		"$EMPTY" "$O/bench/empty_tp.bpf.o" >"$TMP/empty.out" 2>&1 &
		EMPTY_PID=$!
		for _ in $(seq 50); do grep -q attached "$TMP/empty.out" && break; sleep 0.1; done
		grep -q attached "$TMP/empty.out" && prog_cost "empty programs" "$LOOP" "$N"
		ENTER_PROG=clock_enter EXIT_PROG=clock_exit
		"$EMPTY" "$O/bench/empty_tp.bpf.o" clock_ >"$TMP/clock.out" 2>&1 &
		CLOCK_PID=$!
		for _ in $(seq 50); do grep -q attached "$TMP/clock.out" && break; sleep 0.1; done
		grep -q attached "$TMP/clock.out" && prog_cost "a clock read only" "$LOOP" "$N"
		grep -q attached "$TMP/empty.out" && grep -q attached "$TMP/clock.out" &&
			prog_ratio "$KTRACEB" -f "$TMP/pc.ktr" "$LOOP" "$N"
		kill "$EMPTY_PID" "$CLOCK_PID" 2>/dev/null
		wait "$EMPTY_PID" "$CLOCK_PID" 2>/dev/null
	fi
	rm -f "$TMP/pc.ktr"
fi

# --- kdump on a hostile file: thread ids chosen to collide in its maps ----------
GEN=$O/tests/progs/ktrgen
if [ -x "$GEN" ]; then
	"$GEN" tids "$TMP/tids.ktr" 200000
	"$GEN" tidsflood "$TMP/flood.ktr" 200000
	for f in tids flood; do
		: >"$TMP/kd_times"
		for ((i = 0; i < RUNS; i++)); do
			t0=$(now_ns)
			"$KDUMP" -f "$TMP/$f.ktr" >/dev/null
			t1=$(now_ns)
			awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) / 1e9 }' \
				>>"$TMP/kd_times"
		done
		eval "KD_$f=\$(median <\"\$TMP/kd_times\")"
	done
fi

# --- kdump's outputs on the tar and find traces: text, JSON lines (-J), timeline (-P)
KD_OUT=$TMP/kd_out
: >"$KD_OUT"
kd_traces=()
for f in "$TMP/tar.ktr" "$TMP/find.ktr"; do
	[ -s "$f" ] && kd_traces+=("$f")
done
[ ${#kd_traces[@]} -gt 0 ] && O=$O BENCH_RUNS=$RUNS bench/kdump.sh "${kd_traces[@]}" >"$KD_OUT"

echo
printf '%-18s %-8s %9s %9s %10s %10s %8s %12s\n' workload tracer seconds slowdown captured \
	expected lost bytes
awk -F'\t' '{
	ratio = ($4 > 0) ? sprintf("%.1fx", $3 / $4) : "-"
	printf "%-18s %-8s %9.3f %9s %10s %10s %8s %12s\n", $1, $2, $3, ratio, $5, $6, $7, $8
}' "$ROWS"
echo
if [ -n "${UNTRACED_SPAN:-}" ]; then
	echo "user events (bench/spans, utrace.h): ns per span (enter+exit with a key=value"
	echo "format) and per 16-byte utrace(), median of $RUNS, on CPU 1"
	printf '  untraced  %6.2f ns/span  %6.2f ns/utrace  (%s spans)\n' "$UNTRACED_SPAN" \
		"$UNTRACED_UTRACE" "$SPAN_N"
	printf '  traced    %6.0f ns/span  %6.0f ns/utrace  (%s spans: %s USER records of %s, %s lost)\n' \
		"$TRACED_SPAN" "$TRACED_UTRACE" "$SPAN_TRACED_N" "$SPAN_RECS" \
		"$((3 * SPAN_TRACED_N))" "${SPAN_LOST:-?}"
	echo
fi
if [ -s "$TAX_ROWS" ]; then
	echo "tax on an untraced process (getppid x$N, not traced itself):"
	awk -F'\t' 'NR == 1 { base = $2 }
		{ what = $1 == "none" ? "no ktraceb daemon" : $1 == "during" ? \
			"while another process is traced" : $1 == "empty" ? \
			"empty programs there (kernel floor)" : "0.1 s after the last trace ended"
		  printf "  %-34s %7.3f s  %5.2fx\n", what, $2, (base > 0 ? $2 / base : 0) }' "$TAX_ROWS"
	echo
fi
if [ -s "$USDT_ROWS" ]; then
	echo "USDT tax: an untraced C++ exception loop (bench/throw_loop, ${THROW_MS} ms, CPU 1) while a"
	echo "copy of it runs on CPU 0, untraced, then under ktraceb -t u; median of $RUNS interleaved rounds"
	awk -F'\t' '{ print $1 }' "$USDT_ROWS" | median >"$TMP/usdt_alone"
	awk -F'\t' '{ print $2 }' "$USDT_ROWS" | median >"$TMP/usdt_during"
	awk -v a="$(cat "$TMP/usdt_alone")" -v d="$(cat "$TMP/usdt_during")" 'BEGIN {
		printf "  untraced loop, the copy untraced    %10d throws\n", a
		printf "  untraced loop, the copy traced      %10d throws  %5.2fx its time\n", d,
			(d > 0 ? a / d : 0) }'
	awk -F'\t' 'END { printf "  the traced copy (last round)        %10d throws, %d libstdcxx probes recorded\n", $3, $4 }' \
		"$USDT_ROWS"
	echo
fi
if [ -s "$REC_ROWS" ]; then
	echo "flight recorder (-R $REC_BYTES): getppid x$N then a crash, median of $REC_RUNS rounds;" \
		"untraced ${REC_BASE} s (the storm alone ${FLOOD_BASE} s)"
	printf '  %-9s %9s %9s %7s %13s %10s %10s %12s %6s %12s\n' entries seconds slowdown storm \
		"(min-max)" kept recorded "records/s" lost "file bytes"
	awk -F'\t' -v base="$REC_BASE" '{
		split($3, r, " ")
		printf "  %-9s %9.3f %8.1fx %6.2fx %13s %10s %10s %12.0f %6s %12s\n", $1, $2,
			(base > 0 ? $2 / base : 0), $7, sprintf("(%.2f-%.2f)", $8, $9), r[1], r[2],
			(($6 > 0) ? r[2] / $6 : 0), $4, $5
	}' "$REC_ROWS"
	echo "  (slowdown: the whole run, the dump included; storm: the getppid calls alone,"
	echo "  while recorded, against the same round's untraced storm; records/s:"
	echo "  recorded during the storm; kept, recorded, lost, bytes: the last round's)"
	echo
fi
if [ -s "$PROG_ROWS" ]; then
	echo "BPF run time per program run, getppid x$N (kernel.bpf_stats_enabled, ns, median of $RUNS runs):"
	printf '  %-22s %10s %10s\n' "" sys_enter sys_exit
	awk -F'\t' '{ printf "  %-22s %10s %10s\n", $1, $2, $3 }' "$PROG_ROWS"
	[ -s "$PROG_RATIO" ] &&
		awk -F'\t' '{ printf "  %-22s %9sx %9sx\n", "full / " $1 ", same runs", $2, $3 }' "$PROG_RATIO"
	echo
fi
if [ -n "${KD_tids:-}" ]; then
	echo "kdump on 200,000 threads' calls (30 MB): ordinary thread ids ${KD_tids} s,"
	echo "ids chosen to collide in its maps ${KD_flood} s"
	echo
fi
if [ -s "$KD_OUT" ]; then
	cat "$KD_OUT"
	echo
fi
echo "kernel $(uname -r), $(nproc) CPUs; median of $RUNS runs (1 when a run took > 10 s);"
echo "ktraceb: cold starts in the first two rows (the first since boot, then with the"
echo "programs the last daemon kept pinned), a running daemon in the others; it also"
echo "records the execvp PATH probes (failed execve calls) that strace counts too"

# --- compressed traces: tar and find with and without -z ------------------------
drop_daemon
echo
O=$O BENCH_RUNS=$RUNS bench/compress.sh
drop_daemon
echo
O=$O BENCH_RUNS=$RUNS bench/select.sh
