#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# What the ring buffers (one a CPU, a thread's always the same one) and
# their one drain cost as threads and traces grow (issue 44), as root, in
# one run:
#   1. 1, 2 and 4 threads each writing 64 bytes to /dev/null N times,
#      untraced, with the floor any tracer of the syscall tracepoints pays
#      (bench/empty_tp: "empty", two programs there that do nothing, the
#      kernel's part; "clock", two that only read the clock, what a record
#      with a time costs at least), and under ktraceb, ktraceb -t c (the
#      calls alone, no data), strace -f and perf trace: the write
#      phase's wall time, the process's CPU time per write (user and system:
#      the BPF programs run in the writing thread), the slowdown against
#      untraced with as many threads, and that slowdown against one
#      thread's; for ktraceb the records, those lost, and the CPU ns per
#      record of the daemon's drain (its main and ring threads) and of the whole
#      daemon (the drain and the trace files' writer threads), and how far
#      the file's threads are out of time order: the most a CALL or RET
#      came after one timed later, in microseconds (ktrwalk's behind_max_us,
#      the last run's file)
#   2. open/read/close, fork+exec (-i) and `true`, the same tracers: seconds
#      (for ktraceb, after a run not counted, as in part 1)
#   3. the drain's ceiling: the daemon on CPU 0, started with -b 256m (its
#      rings made before the run, not grown in it), 1 and 2 writing threads
#      on CPU 1: records per second written, records per second
#      of the drain's CPU time (what one drain takes at most), and how busy
#      the drain was
#   3b. the drain while the daemon serves requests: 2 writing threads under
#      the default ring and under a 1 MiB one (a few ms of their records:
#      an attach's time shows), alone and while 200 idle processes are
#      attached (-p) one after another: records lost
#   4. the untraced tax: an untraced getppid loop, ns a call, with no daemon
#      and while ktraceb traces an idle process
#   6. the ring's lock in a storm: 4 threads a CPU writing under ktraceb,
#      perf record of every CPU: the writers' share of samples in the ring's
#      reservation and its spin lock (contended if the slow path shows)
#   7. -S (every task on every CPU, the raw syscall events) while two
#      threads a CPU write: the write phase's wall time against untraced,
#      records and lost (each CPU's buffer says its own losses)
#   5. many traces: TRACES of idle processes at once (-p each), the time an
#      attach takes, the daemon's threads, descriptors and memory
# ktraceb runs with its daemon up (a trace of an idle process keeps it).
# Only this build's daemon is looked at (its /proc/PID/exe).  Not a test.
#
# Median of BENCH_RUNS runs, one run when a run takes more than 10 s.
#
#   O=build bench/threads.sh   BENCH_N (writes per thread, 100000), BENCH_RUNS (3),
#                              BENCH_TRACES ("1000 5000"), BENCH_ATTACH_JOBS (attaches
#                              at once in part 5, 1), BENCH_PARTS ("1 2 3 4 6 7 5")

set -u
cd "$(dirname "$0")/.." || exit 1
O=${O:-build}
KTRACEB=$O/ktraceb
KDUMP=$O/kdump
WL=$O/bench/workloads
LOOP=$O/tests/progs/getppid_loop
WALK=$O/tests/progs/ktrwalk
N=${BENCH_N:-100000}
RUNS=${BENCH_RUNS:-3}
TRACES=${BENCH_TRACES:-"1000 5000"}
JOBS=${BENCH_ATTACH_JOBS:-1}
PARTS=" ${BENCH_PARTS:-1 2 3 4 6 7 5} "
part() { [[ $PARTS == *" $1 "* ]]; }
for b in "$KTRACEB" "$KDUMP" "$WL" "$LOOP" "$WALK"; do
	[ -x "$b" ] || {
		echo "bench: $b is not built; run make bench" >&2
		exit 1
	}
done
EXE=$(readlink -f "$KTRACEB")
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ktraceb-threads.XXXXXX") || exit 1
KEEPER=
IDLE=
trap 'kill $KEEPER $IDLE $FLOOR 2>/dev/null; rm -rf "$TMP"' EXIT
ulimit -n 65536 2>/dev/null

tracers="none"
[ -x "$O/bench/empty_tp" ] && [ -f "$O/bench/empty_tp.bpf.o" ] && tracers="$tracers empty clock"
tracers="$tracers ktraceb ktraceb-c"
command -v strace >/dev/null && tracers="$tracers strace"
if command -v perf >/dev/null && perf trace -o "$TMP/p" -- true >/dev/null 2>&1; then
	tracers="$tracers perf"
else
	echo "bench: perf trace does not work here; skipped" >&2
fi

# the time in ns, from bash itself: a date(1) per reading would add a
# process start to each timed run (4 ms here, as long as a `true`)
now_ns() { echo "${EPOCHREALTIME//[!0-9]/}000"; }
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# this build's daemon, if up
daemon()
{
	local p
	for p in $(pgrep -x ktracebd); do
		[ "$(readlink -f /proc/"$p"/exe 2>/dev/null)" = "$EXE" ] && echo "$p" && return
	done
}

# cpu_ticks PID: clock ticks of user and system time of the whole daemon,
# its trace files' writer threads included, those that have ended too
cpu_ticks()
{
	awk '{ sub(/^.*\) /, ""); n += $12 + $13 } END { print n + 0 }' /proc/"$1"/stat 2>/dev/null || echo 0
}
# drain_ns PID (bench/lib_drain.sh)
# shellcheck source=bench/lib_drain.sh
. bench/lib_drain.sh
HZ=$(getconf CLK_TCK)

# floor_on empty|clock: bench/empty_tp's programs of that kind attached; floor_off
FLOOR=
floor_on()
{
	local i
	"$O/bench/empty_tp" "$O/bench/empty_tp.bpf.o" "$1"_ >"$TMP/floor.out" 2>&1 &
	FLOOR=$!
	for ((i = 0; i < 100; i++)); do
		grep -q attached "$TMP/floor.out" && return
		sleep 0.05
	done
	echo "bench: bench/empty_tp $1_ did not attach" >&2
}
floor_off()
{
	[ -n "$FLOOR" ] && kill "$FLOOR" 2>/dev/null && wait "$FLOOR" 2>/dev/null
	FLOOR=
}
# tracer_on TRACER, tracer_off: what TRACER needs up while its runs run
tracer_on()
{
	case $1 in
	ktraceb*) keep_daemon ;;
	empty | clock) floor_on "$1" ;;
	esac
}
tracer_off()
{
	drop_daemon
	floor_off
}

keep_daemon()
{
	[ -n "$KEEPER" ] && return
	sleep 3600 &
	KEEPER=$!
	# shellcheck disable=SC2086 # KEEP_FLAGS: options, split
	$PIN "$KTRACEB" $KEEP_FLAGS -t c -f "$TMP/keeper.ktr" -p "$KEEPER" 2>/dev/null
}
drop_daemon()
{
	local i
	[ -n "$KEEPER" ] && kill "$KEEPER" 2>/dev/null
	KEEPER=
	for ((i = 0; i < 50; i++)); do
		[ -z "$(daemon)" ] && return
		sleep 0.1
	done
}

# run TRACER FILE CMD...: CMD's stdout into $TMP/out, ktraceb's or perf's stderr into $TMP/err
run()
{
	local tracer=$1 f=$2
	shift 2
	rm -f "$f"
	# shellcheck disable=SC2086 # KFLAGS: options, split
	case $tracer in
	none | empty | clock) "$@" >"$TMP/out" 2>"$TMP/err" ;;
	ktraceb) "$KTRACEB" $KFLAGS -f "$f" "$@" >"$TMP/out" 2>"$TMP/err" ;;
	ktraceb-c) "$KTRACEB" $KFLAGS -t c -f "$f" "$@" >"$TMP/out" 2>"$TMP/err" ;;
	strace) strace -f -o "$f" "$@" >"$TMP/out" 2>"$TMP/err" ;;
	perf) perf trace -o "$f" -- "$@" >"$TMP/out" 2>"$TMP/err" ;;
	esac
}

lost()
{
	case $1 in
	ktraceb*) sed -n 's/^ktraceb: .* records written to .*, \([0-9]*\) lost$/\1/p' "$TMP/err" ;;
	perf) grep -o 'LOST [0-9]* events' "$2" "$TMP/err" 2>/dev/null | awk '{ n += $2 } END { print n + 0 }' ;;
	*) echo - ;;
	esac
}
records() { sed -n 's/^ktraceb: \([0-9]*\) records written to .*/\1/p' "$TMP/err"; }

PIN=
KFLAGS=
KEEP_FLAGS=
drop_daemon

# --- 1. writing threads -----------------------------------------------------
if part 1; then
echo "== 1, 2 and 4 threads, each writing 64 bytes to /dev/null x$N ($(nproc) CPUs)"
printf '%-8s %-9s %9s %9s %9s %9s %9s %7s %10s %10s %9s\n' threads tracer wall_s cpu_ns/w slowdown \
	vs_1thr records lost drain_ns/r daemon_ns/r behind_us
declare -A base one
for tracer in $tracers; do
	tracer_on "$tracer"
	# (a run first, not counted: a fresh daemon's rings are memory not yet
	# touched, slow on a virtual machine the first time through)
	[[ $tracer == ktraceb* ]] && run "$tracer" "$TMP/f.$tracer" "$WL" writers 4 "$N"
	for t in 1 2 4; do
		: >"$TMP/walls"
		: >"$TMP/cpus"
		: >"$TMP/dr"
		: >"$TMP/wr"
		for ((i = 0; i < RUNS; i++)); do
			d=$(daemon)
			[ -n "$d" ] && m0=$(drain_ns "$d") && w0=$(cpu_ticks "$d")
			run "$tracer" "$TMP/f.$tracer" "$WL" writers "$t" "$N"
			read -r wall cpu <"$TMP/out"
			echo "$wall" >>"$TMP/walls"
			echo "$cpu" >>"$TMP/cpus"
			awk -v s="$wall" 'BEGIN { exit !(s > 10) }' && break # one run of a slow tracer
			if [[ $tracer == ktraceb* ]] && [ -n "$d" ]; then
				recs=$(records)
				awk -v a="$(drain_ns "$d")" -v b="$m0" -v r="$recs" \
					'BEGIN { printf "%.0f\n", (a - b) / (r ? r : 1) }' >>"$TMP/dr"
				awk -v a="$(cpu_ticks "$d")" -v b="$w0" -v r="$recs" -v hz="$HZ" \
					'BEGIN { printf "%.0f\n", (a - b) / hz * 1e9 / (r ? r : 1) }' >>"$TMP/wr"
			fi
		done
		wall=$(median <"$TMP/walls")
		cpu=$(median <"$TMP/cpus")
		[ "$tracer" = none ] && base[$t]=$wall
		slow=$(awk -v a="$wall" -v b="${base[$t]}" 'BEGIN { printf "%.2f", a / b }')
		[ "$t" = 1 ] && one[$tracer]=$slow
		vs1=$(awk -v a="$slow" -v b="${one[$tracer]}" 'BEGIN { printf "%.2f", a / b }')
		if [[ $tracer == ktraceb* ]]; then
			printf '%-8s %-9s %9s %9s %9s %9s %9s %7s %10s %10s %9s\n' "$t" "$tracer" "$wall" "$cpu" \
				"$slow" "$vs1" "$(records)" "$(lost "$tracer")" "$(median <"$TMP/dr")" \
				"$(median <"$TMP/wr")" \
				"$("$WALK" "$TMP/f.$tracer" | awk '$1 == "behind_max_us" { print $2 }')"
		else
			printf '%-8s %-9s %9s %9s %9s %9s %9s %7s %10s %10s %9s\n' "$t" "$tracer" "$wall" "$cpu" \
				"$slow" "$vs1" - "$(lost "$tracer" "$TMP/f.$tracer")" - - -
		fi
	done
	tracer_off
done
fi

# --- 2. the other workloads ---------------------------------------------------
if part 2; then
echo
echo "== open/read/close, fork+exec, true: median seconds (slowdown)"
printf '%-24s' workload
# shellcheck disable=SC2086 # one column each
printf ' %14s' $tracers
echo
other()
{
	local name=$1 tracer line="" s b=
	shift
	for tracer in $tracers; do
		tracer_on "$tracer"
		# a run first, not counted: a daemon just started pays for its first commands
		[[ $tracer == ktraceb* ]] && KFLAGS=$FLAGS run "$tracer" "$TMP/f.$tracer" "$@"
		: >"$TMP/times"
		for ((i = 0; i < RUNS; i++)); do
			t0=${EPOCHREALTIME//[!0-9]/}
			# shellcheck disable=SC2153 # FLAGS: other's caller sets it
			KFLAGS=$FLAGS run "$tracer" "$TMP/f.$tracer" "$@"
			t1=${EPOCHREALTIME//[!0-9]/}
			echo $(((t1 - t0) * 1000)) >>"$TMP/times"
			[ $((t1 - t0)) -gt 10000000 ] && break
		done
		s=$(median <"$TMP/times")
		[ -z "$b" ] && b=$s
		line="$line $(awk -v s="$s" -v b="$b" 'BEGIN { printf "%14s", sprintf("%.3f (%.2fx)", s / 1e9, s / b) }')"
		tracer_off
	done
	printf '%-24s%s\n' "$name" "$line"
}
FLAGS='' other "open/read/close x20k" "$WL" orc 20000
FLAGS=-i other "fork+exec x300 (-i)" "$WL" forkexec 300
# (the program, not the shell's builtin)
FLAGS='' other "true" "$(type -P true)"
fi

# --- 3. the drain's ceiling ---------------------------------------------------
if part 3; then
echo
echo "== the drain's ceiling: daemon on CPU 0, writers on CPU 1, -b 256m, x$((N * 4)) each"
printf '%-8s %10s %9s %7s %12s %14s %10s\n' threads records wall_s lost records/s drain_recs/cpu_s drain_busy
if [ "$(nproc)" -ge 2 ]; then
	# the daemon started at 256m, so that what is measured is the drain,
	# not the rings' growth (making a 256 MiB ring took up to 0.95 s here)
	PIN="taskset -c 0"
	KEEP_FLAGS="-b 256m"
	keep_daemon
	PIN=
	KEEP_FLAGS=
	for t in 1 1 1 2 2 2; do # each run said: the spread is part of the result
		d=$(daemon)
		m0=$(drain_ns "$d")
		run ktraceb "$TMP/f.ceil" taskset -c 1 "$WL" writers "$t" $((N * 4))
		m1=$(drain_ns "$d")
		read -r wall _ <"$TMP/out"
		recs=$(records)
		awk -v t="$t" -v r="$recs" -v w="$wall" -v l="$(lost ktraceb)" -v c=$((m1 - m0)) \
			'BEGIN { printf "%-8s %10d %9.3f %7s %12.0f %14.0f %9.0f%%\n", t, r, w, l, r / w,
				 c ? r / (c / 1e9) : 0, c / 1e9 / w * 100 }'
	done
	drop_daemon
fi
fi

# --- 3b. the drain while the daemon serves requests ------------------------------
for ring in default 1m; do
part 3 || break
echo
echo "== 2 writing threads x$((N * 4)) each, $ring ring: lost, alone and while attaches are served"
# the daemon's ring: as its first trace asks
KEEP_FLAGS=
[ "$ring" = default ] || KEEP_FLAGS="-b $ring"
keep_daemon
KEEP_FLAGS=
for busy in no yes; do
	: >"$TMP/lost"
	for ((i = 0; i < RUNS; i++)); do
		if [ "$busy" = yes ]; then
			(
				for ((j = 0; j < 200; j++)); do
					sleep 3600 &
					echo $! >>"$TMP/busy.pids"
					"$KTRACEB" -t c -f "$TMP/busy.$j" -p $! 2>/dev/null
				done
			) &
			busy_pid=$!
		fi
		run ktraceb "$TMP/f.busy" "$WL" writers 2 $((N * 4))
		echo "$(records) $(lost ktraceb)" >>"$TMP/lost"
		if [ "$busy" = yes ]; then
			wait "$busy_pid"
			# shellcheck disable=SC2046 # one pid a word
			kill $(cat "$TMP/busy.pids") 2>/dev/null
			rm -f "$TMP"/busy.*
		fi
	done
	echo "attaching: $busy; records and lost, each run: $(tr '\n' ';' <"$TMP/lost")"
done
drop_daemon
done

# --- 4. the untraced tax --------------------------------------------------------
if part 4; then
echo
echo "== what an untraced getppid costs (ns a call, x2000000, median of $RUNS)"
tax()
{
	: >"$TMP/times"
	for ((i = 0; i < RUNS; i++)); do
		t0=$(now_ns)
		"$LOOP" 2000000 >/dev/null
		echo $((($(now_ns) - t0) / 2000000)) >>"$TMP/times"
	done
	median <"$TMP/times"
}
a=$(tax)
keep_daemon
b=$(tax)
drop_daemon
echo "no daemon $a ns, while an idle process is traced $b ns ($(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", b / a }')x)"
fi

# --- 6. the ring's lock in a storm ---------------------------------------------
if part 6 && command -v perf >/dev/null; then
	t=$(($(nproc) * 4))
	echo
	echo "== the ring's lock: $t threads writing x$N each under ktraceb, perf record -a"
	keep_daemon
	perf record -a -q -o "$TMP/storm.data" -- "$KTRACEB" -f "$TMP/f.storm" "$WL" writers "$t" "$N" \
		>"$TMP/out" 2>"$TMP/err"
	[ -n "$(records)" ] || cat "$TMP/err"
	echo "records $(records), lost $(lost ktraceb); of the writers' own samples, in:"
	# the writers' own samples (their comm), flat, by symbol
	perf report -i "$TMP/storm.data" --stdio --no-children --comm workloads --sort sym 2>/dev/null |
		awk '$1 ~ /%$/ { p = $1; sub(/%/, "", p); s = $NF
			if (s ~ /ringbuf_reserve|ringbuf_output|ringbuf_commit|ringbuf_query/) r[s] += p
			if (s ~ /spin_lock/) l[s] += p; all += p }
		END { if (!all) all = 100
			for (s in r) printf "  %-40s %6.2f%%\n", s, r[s] * 100 / all
			for (s in l) printf "  %-40s %6.2f%%\n", s, l[s] * 100 / all
			if (!length(l)) print "  no spin lock symbol among them"
			print "  (queued_spin_lock_slowpath among them: the lock contended)" }'
	drop_daemon
fi

# --- 7. -S in a storm on every CPU ------------------------------------------------
if part 7; then
	t=$(($(nproc) * 2))
	echo
	echo "== -S -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit while $t threads write x$N each ($(nproc) CPUs), median of $RUNS"
	printf '%-10s %9s %9s %10s %9s\n' run wall_s slowdown records lost
	for mode in untraced -S; do
		: >"$TMP/walls"
		: >"$TMP/recs"
		: >"$TMP/lost"
		for ((i = 0; i < RUNS; i++)); do
			if [ "$mode" = untraced ]; then
				run none "$TMP/f.sw" "$WL" writers "$t" "$N"
			else
				KFLAGS="-S -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit" \
					run ktraceb "$TMP/f.sw" "$WL" writers "$t" "$N"
				records >>"$TMP/recs"
				lost ktraceb >>"$TMP/lost"
			fi
			read -r wall _ <"$TMP/out"
			echo "$wall" >>"$TMP/walls"
		done
		wall=$(median <"$TMP/walls")
		[ "$mode" = untraced ] && base_sw=$wall
		printf '%-10s %9s %9s %10s %9s\n' "$mode" "$wall" \
			"$(awk -v a="$wall" -v b="$base_sw" 'BEGIN { printf "%.2f", a / b }')" \
			"$(tr '\n' ' ' <"$TMP/recs")" "$(tr '\n' ' ' <"$TMP/lost")"
	done
fi

# --- 5. many traces -----------------------------------------------------------
part 5 || exit 0
echo
echo "== many traces at once: one idle process each, -p, $JOBS attach(es) at a time"
printf '%-8s %8s %10s %9s %8s %8s %10s\n' traces attached ms/attach threads fds rss_MB ms/stop
for k in $TRACES; do
	# k idle processes, a tree of them (bench/workloads tree): each forked at once
	"$WL" tree "$k" 3600 >"$TMP/tree.out" &
	for ((i = 0; i < 600; i++)); do
		grep -q '^up' "$TMP/tree.out" && break
		sleep 0.1
	done
	root=$(awk '/^root/ { print $2 }' "$TMP/tree.out")
	IDLE=$(ps -eo pid=,ppid= | awk -v r="$root" '{ pp[$1] = $2 } END {
		for (p in pp) { q = p; while (q in pp && q != r && q > 1) q = pp[q]; if (q == r) print p } }')
	t0=$(now_ns)
	# shellcheck disable=SC2086
	printf '%s\n' $IDLE | xargs -P "$JOBS" -I{} sh -c \
		'"$1" -t c -f "$2/many.$3" -p "$3" 2>>"$2/many.err" && echo ok' - "$KTRACEB" "$TMP" {} \
		>"$TMP/many.ok"
	t1=$(now_ns)
	ok=$(grep -c ok "$TMP/many.ok")
	d=$(daemon)
	thr=$(ls /proc/"$d"/task 2>/dev/null | wc -l)
	fds=$(ls /proc/"$d"/fd 2>/dev/null | wc -l)
	rss=$(awk '/^VmRSS/ { printf "%.0f", $2 / 1024 }' /proc/"$d"/status 2>/dev/null)
	t2=$(now_ns)
	kill "$root" 2>/dev/null # its children die with it (PR_SET_PDEATHSIG)
	wait 2>/dev/null
	IDLE=
	for ((i = 0; i < 600; i++)); do
		[ -z "$(daemon)" ] && break
		sleep 0.1
	done
	t3=$(now_ns)
	printf '%-8s %8s %10.1f %9s %8s %8s %10.2f\n' "$k" "$ok" \
		"$(awk -v a=$((t1 - t0)) -v k="$k" 'BEGIN { print a / 1e6 / k }')" "$thr" "$fds" "$rss" \
		"$(awk -v a=$((t3 - t2)) -v k="$k" 'BEGIN { print a / 1e6 / k }')"
	grep -m 3 . "$TMP/many.err" 2>/dev/null
	rm -f "$TMP"/many.*
done
