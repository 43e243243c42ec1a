#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# What -k costs (user stacks, issue 30): getppid x N (bench/stack_calls,
# each call 8 functions deep), from the main thread (a -k copy stops at the
# stack's start: about 3.5 KiB) and from a second thread (every copy as long
# as -K says), as fast as it goes (where -k's budget sheds most copies:
# KTR_USTACK_RATE) and one call every PAUSE us (within it: every stack
# copied), untraced, under ktraceb without -k, with -k -K 0 (the
# kernel's frame-pointer walk alone), -k (8 KiB copies, the default) and
# -k -K 64k, under strace -k and perf trace --call-graph dwarf, and perf
# record --call-graph dwarf, rounds interleaved, in one run.  For each:
#   ns/call    the program's own time per call (its loop, timed inside:
#              median of BENCH_RUNS rounds); per call more than untraced
#   bpf ns     ktraceb's programs' run time per call (sys_enter and
#              sys_exit, kernel.bpf_stats_enabled), the part of it that is
#              ktraceb's own: the rest is the machine's (the daemon and
#              the program share its CPUs and caches)
#   seconds    until the tracer is done (the trace written)
#   bytes/call the trace file's size / N
#   captured   calls recorded (getppid CALLs; strace's and perf's lines)
#   stacks     stacks recorded with a copy / shed (ring half full) / walked
#   lost       records the tracer says it lost
# Then a hot loop's -k beside another trace (does it make the other lose
# anything?), and kdump's time per stack unwound.  Not a test: it asserts
# nothing.  Needs root.
#
#   O=build bench/stack.sh       BENCH_STACK_N (20000), BENCH_RUNS (3),
#                                BENCH_STORM_N (2000000), BENCH_STACK_PACED_N (2000),
#                                BENCH_STACK_PAUSE_US (200)

set -u
cd "$(dirname "$0")/.." || exit 1
O=${O:-build}
KTRACEB=$O/ktraceb
KDUMP=$O/kdump
CALLS=$O/bench/stack_calls
LOOP=$O/tests/progs/getppid_loop
N=${BENCH_STACK_N:-20000}
RUNS=${BENCH_RUNS:-3}
STORM=${BENCH_STORM_N:-2000000}
PACED_N=${BENCH_STACK_PACED_N:-2000}
PAUSE=${BENCH_STACK_PAUSE_US:-200}

for b in "$KTRACEB" "$KDUMP" "$CALLS" "$LOOP"; do
	if [ ! -x "$b" ]; then
		echo "bench: $b is not built; run make bench" >&2
		exit 1
	fi
done
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ktraceb-stackbench.XXXXXX") || exit 1
sleep 3600 &
KEEPER=$!
trap 'kill $KEEPER 2>/dev/null; rm -rf "$TMP"' EXIT
"$KTRACEB" -t c -f "$TMP/keeper.ktr" -p "$KEEPER" 2>/dev/null
PERF=
perf trace -e getppid -o /dev/null true >/dev/null 2>&1 && PERF=1

# this build's daemon's programs (kept up by the keeper's trace): their ids
sleep 1
OWN_IDS=
for p in $(pgrep -x ktracebd); do
	[ "$(readlink "/proc/$p/exe")" = "$(readlink -f "$KTRACEB")" ] &&
		OWN_IDS+=" $(awk '$1 == "prog_id:" { print $2 }' /proc/"$p"/fdinfo/* 2>/dev/null | sort -u)"
done
STATS=
[ -n "$OWN_IDS" ] && command -v bpftool >/dev/null && sysctl -qw kernel.bpf_stats_enabled=1 &&
	STATS=1 && trap 'sysctl -qw kernel.bpf_stats_enabled=0; kill $KEEPER 2>/dev/null; rm -rf "$TMP"' EXIT

# bpf_ns: the syscall programs' run time so far, ns (0 without the stats)
bpf_ns()
{
	[ -n "$STATS" ] || { echo 0; return; }
	for i in $OWN_IDS; do bpftool prog show id "$i" 2>/dev/null; done | awk '
		/name ktr_syscall_(enter|exit) / { for (i = 1; i < NF; i++) if ($i == "run_time_ns") t += $(i + 1) }
		END { printf "%.0f\n", t }'
}

# run NAME CMD...: CMD's wall seconds, the program's ns per call and the
# BPF ns per call into $TMP/NAME.r
run()
{
	local name=$1 t0 t1 b0 b1
	shift
	b0=$(bpf_ns)
	t0=$(date +%s%N)
	"$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
	t1=$(date +%s%N)
	b1=$(bpf_ns)
	printf '%s %s %s\n' "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')" \
		"$(awk '$1 == "calls" { print $4 }' "$TMP/$name.out")" $(((b1 - b0) / N)) >>"$TMP/$name.r"
}

median()
{
	sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# what a ktraceb trace holds: "captured copied shed walked lost bytes"
ktr_counts()
{
	local lost
	lost=$(sed -n 's/^ktraceb: .* records written to .*, \([0-9]*\) lost$/\1/p' "$TMP/$1.err")
	"$KDUMP" -J -f "$TMP/$1.ktr" 2>/dev/null | python3 -c '
import json, sys
calls = copied = shed = walked = 0
for l in sys.stdin:
    r = json.loads(l)
    t = r.get("type")
    if t == "CALL" and r.get("syscall") == "getppid":
        calls += 1
    elif t == "STACK":
        if r.get("unwind") == "dwarf": copied += 1
        elif r.get("shed"): shed += 1
        else: walked += 1
print(calls, copied, shed, walked, end=" ")'
	echo "${lost:-?} $(stat -c %s "$TMP/$1.ktr")"
}

# rows MODE [PAUSE_US]: the table for stack_calls N MODE PAUSE_US (NAME: MODE, or
# MODE-paced); N is BENCH_STACK_N, or BENCH_STACK_PACED_N with a pause
rows()
{
	local mode=$1 pause=${2:-0} names=(plain nok k0 k8 k64 strace ptrace precord) i name u
	local tag=$1 N=$N
	if [ "$pause" != 0 ]; then
		tag=$mode-paced
		N=$PACED_N
	fi
	for ((i = 0; i < RUNS; i++)); do
		run "$tag.plain" "$CALLS" "$N" "$mode" "$pause"
		run "$tag.nok" "$KTRACEB" -t c -e trace=getppid -f "$TMP/$tag.nok.ktr" "$CALLS" "$N" "$mode" "$pause"
		run "$tag.k0" "$KTRACEB" -k -K 0 -e trace=getppid -f "$TMP/$tag.k0.ktr" "$CALLS" "$N" "$mode" "$pause"
		run "$tag.k8" "$KTRACEB" -k -e trace=getppid -f "$TMP/$tag.k8.ktr" "$CALLS" "$N" "$mode" "$pause"
		run "$tag.k64" "$KTRACEB" -k -K 64k -e trace=getppid -f "$TMP/$tag.k64.ktr" "$CALLS" "$N" \
			"$mode" "$pause"
		run "$tag.strace" strace -f -k -qq -e trace=getppid -o "$TMP/$tag.strace.txt" "$CALLS" "$N" \
			"$mode" "$pause"
		if [ -n "$PERF" ]; then
			run "$tag.ptrace" perf trace --call-graph dwarf -e getppid -o "$TMP/$tag.ptrace.txt" \
				"$CALLS" "$N" "$mode" "$pause"
			run "$tag.precord" perf record -q --call-graph dwarf -e syscalls:sys_enter_getppid \
				-o "$TMP/$tag.perf.data" "$CALLS" "$N" "$mode" "$pause"
		fi
	done
	u=$(cut -d' ' -f2 "$TMP/$tag.plain.r" | median)
	printf '\ngetppid x %d from the %s%s, median of %d rounds\n' "$N" \
		"$([ "$mode" = thread ] && echo "a second thread (whole copies)" || echo "main thread")" \
		"$([ "$pause" != 0 ] && echo ", one every $pause us (within -k's budget)")" "$RUNS"
	printf '  %-34s %8s %8s %7s %7s %10s %12s %22s %7s\n' "" ns/call "+ns/call" "bpf ns" seconds \
		bytes/call captured "stacks copied/shed/walk" lost
	for name in "${names[@]}"; do
		local f=$TMP/$tag.$name.r label ns secs cnt bns
		[ -s "$f" ] || continue
		ns=$(cut -d' ' -f2 "$f" | median)
		secs=$(cut -d' ' -f1 "$f" | median)
		bns=$(cut -d' ' -f3 "$f" | median)
		case $name in nok | k0 | k8 | k64) [ -n "$STATS" ] || bns=- ;; *) bns=- ;; esac
		case $name in
		plain) label=untraced ;;
		nok) label="ktraceb -e trace=getppid (no -k)" ;;
		k0) label="ktraceb -k -K 0 (frame pointers)" ;;
		k8) label="ktraceb -k (-K 8k)" ;;
		k64) label="ktraceb -k -K 64k" ;;
		strace) label="strace -f -k" ;;
		ptrace) label="perf trace --call-graph dwarf" ;;
		precord) label="perf record --call-graph dwarf" ;;
		esac
		case $name in
		plain) cnt="- - - - - -" ;;
		nok | k0 | k8 | k64) cnt=$(ktr_counts "$tag.$name") ;;
		strace) cnt="$(grep -c 'getppid(' "$TMP/$tag.strace.txt") - - - 0 $(stat -c %s "$TMP/$tag.strace.txt")" ;;
		ptrace) cnt="$(grep -c ' getppid(' "$TMP/$tag.ptrace.txt") - - - $(awk '/^LOST/ { s += $2 } END { print s + 0 }' "$TMP/$tag.ptrace.txt") -" ;;
		precord) cnt="$(perf script -i "$TMP/$tag.perf.data" -F event 2>/dev/null | grep -c getppid) - - - $(perf report -i "$TMP/$tag.perf.data" --stats 2>/dev/null | awk '/LOST_SAMPLES events:/ && !/%/ { s = $NF } END { print s + 0 }') $(stat -c %s "$TMP/$tag.perf.data")" ;;
		esac
		read -r c cp sh wk lost bytes <<<"$cnt"
		awk -v l="$label" -v ns="$ns" -v u="$u" -v s="$secs" -v c="$c" -v n="$N" -v cp="$cp" \
			-v sh="$sh" -v wk="$wk" -v lost="$lost" -v b="$bytes" -v bns="$bns" 'BEGIN {
			bpc = b == "-" ? "-" : sprintf("%.0f", b / n)
			st = cp == "-" ? "-" : cp "/" sh "/" wk
			printf "  %-34s %8.0f %8.0f %7s %7.2f %10s %12s %22s %7s\n", l, ns, ns - u, bns, s, bpc, c "/" n, st, lost }'
	done
}

echo "-k: user stacks, against strace -k and perf's --call-graph dwarf (getppid from 8 frames deep)"
rows main
rows thread
rows thread "$PAUSE"

# --- a hot loop under -k beside another trace ----------------------------------------
"$KTRACEB" -k -e trace=getppid -f "$TMP/storm.ktr" "$CALLS" "$STORM" thread >"$TMP/storm.out" \
	2>"$TMP/storm.err" &
SP=$!
sleep 0.5
"$KTRACEB" -t c -e trace=getppid -f "$TMP/other.ktr" "$LOOP" 200000 >/dev/null 2>"$TMP/other.err"
wait $SP
read -r sc scp ssh swk slost _ <<<"$(ktr_counts storm)"
olost=$(sed -n 's/^ktraceb: .* records written to .*, \([0-9]*\) lost$/\1/p' "$TMP/other.err")
oc=$("$KDUMP" -f "$TMP/other.ktr" 2>/dev/null | grep -c ' CALL  getppid')
printf '\na hot loop under -k (getppid x %d from a thread, 8 KiB copies) beside another trace\n' "$STORM"
printf '  -k trace:    %d/%d calls, stacks %d copied, %d shed (its budget spent, or the ring half full), %d walked; %s lost\n' \
	"$sc" "$STORM" "$scp" "$ssh" "$swk" "$slost"
printf '  other trace: %d/%d calls (getppid_loop, no -k, during the loop); %s lost\n' "$oc" 200000 \
	"${olost:-?}"

# --- kdump: unwinding a stack ------------------------------------------------------------
for mode in main thread; do
	t0=$(date +%s%N)
	"$KDUMP" -f "$TMP/$mode.k8.ktr" >/dev/null 2>&1
	t1=$(date +%s%N)
	st=$("$KDUMP" -f "$TMP/$mode.k8.ktr" 2>/dev/null | grep -c ' STACK ')
	awk -v a="$t0" -v b="$t1" -v n="$st" -v m="$mode" 'BEGIN {
		printf "kdump: %d stacks (%s) unwound and named in %.2f s: %.0f us a stack\n", n, m, (b - a) / 1e9,
			n ? (b - a) / 1e3 / n : 0 }'
done
