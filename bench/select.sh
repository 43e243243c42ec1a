#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# Syscall selection in the kernel (ktraceb -e trace=openat): tar czf of
# /usr/include untraced, traced with only openat selected, traced whole,
# and under strace -f -e trace=openat, rounds interleaved, in one run: the
# median seconds of BENCH_RUNS rounds and the slowdown of each, the openat
# calls each tracer recorded against strace -c's count of the same
# workload, the records written and lost.  The daemon is kept up by a trace
# of an idle process.  Then what -k's user stacks cost a call, in sys_enter's
# run time (kernel.bpf_stats_enabled).  bench/run.sh runs it; it also runs
# alone.  Not a test: it asserts nothing.  Needs root.
#
#   O=build bench/select.sh       BENCH_RUNS (3)

set -u
cd "$(dirname "$0")/.." || exit 1
O=${O:-build}
KTRACEB=$O/ktraceb
KDUMP=$O/kdump
RUNS=${BENCH_RUNS:-3}

for b in "$KTRACEB" "$KDUMP"; do
	if [ ! -x "$b" ]; then
		echo "bench: $b is not built; run make bench" >&2
		exit 1
	fi
done
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ktraceb-selbench.XXXXXX") || exit 1
sleep 3600 &
KEEPER=$!
trap 'kill $KEEPER 2>/dev/null; rm -rf "$TMP"' EXIT
"$KTRACEB" -t c -f "$TMP/keeper.ktr" -p "$KEEPER" 2>/dev/null

WORK=(tar czf "$TMP/out.tgz" -C /usr include)

# secs CMD...: the seconds CMD took (its output to $TMP/last.out, .err)
secs()
{
	local t0 t1
	t0=$(date +%s%N)
	"$@" >"$TMP/last.out" 2>"$TMP/last.err"
	t1=$(date +%s%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) / 1e9 }'
}

median()
{
	sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# written FILE: "records lost" as ktraceb's last line says them
written()
{
	sed -n 's/^ktraceb: \([0-9]*\) records written to .*, \([0-9]*\) lost$/\1 \2/p' "$1"
}

: >"$TMP/rounds"
for ((i = 0; i < RUNS; i++)); do
	u=$(secs "${WORK[@]}")
	s=$(secs "$KTRACEB" -i -e trace=openat -f "$TMP/sel.ktr" "${WORK[@]}")
	sw=$(written "$TMP/last.err")
	f=$(secs "$KTRACEB" -i -f "$TMP/full.ktr" "${WORK[@]}")
	fw=$(written "$TMP/last.err")
	st=$(secs strace -f -qq -e trace=openat -o "$TMP/strace.out" "${WORK[@]}")
	printf '%s %s %s %s %s %s\n' "$u" "$s" "$f" "$st" "${sw:-? ?}" "${fw:-? ?}" >>"$TMP/rounds"
done
strace -f -qq -c -e trace=openat -o "$TMP/strace.c" "${WORK[@]}" >/dev/null 2>&1
EXPECTED=$(awk '$NF == "openat" { print $4 }' "$TMP/strace.c")
SEL_CALLS=$("$KDUMP" -f "$TMP/sel.ktr" | grep -c ' CALL  openat(')
SEL_OTHER=$("$KDUMP" -f "$TMP/sel.ktr" | awk '$3 == "CALL" || $4 == "CALL"' | grep -vc ' CALL  openat(')
FULL_CALLS=$("$KDUMP" -f "$TMP/full.ktr" | grep -c ' CALL  openat(')
STRACE_CALLS=$(grep -c 'openat(' "$TMP/strace.out")

U=$(awk '{ print $1 }' "$TMP/rounds" | median)
awk -v u="$U" -v runs="$RUNS" -v expected="$EXPECTED" -v sc="$SEL_CALLS" -v so="$SEL_OTHER" \
	-v fc="$FULL_CALLS" -v stc="$STRACE_CALLS" '
	{ s[NR] = $2; f[NR] = $3; st[NR] = $4; sw = $5; sl = $6; fw = $7; fl = $8 }
	function med(a, n,   i, j, t) {
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
	END {
		n = NR
		ms = med(s, n); mf = med(f, n); mst = med(st, n)
		printf "syscall selection in the kernel: tar czf /usr/include, median of %d interleaved rounds\n", runs
		printf "  %-34s %8s %9s %12s %14s %8s\n", "", "seconds", "slowdown", "openat calls", "records", "lost"
		printf "  %-34s %8.3f %9s %12s %14s %8s\n", "untraced", u, "1.00x", expected " (strace -c)", "-", "-"
		printf "  %-34s %8.3f %8.2fx %12d %14s %8s\n", "ktraceb -i -e trace=openat", ms, ms / u, sc, sw, sl
		printf "  %-34s %8.3f %8.2fx %12d %14s %8s\n", "ktraceb -i (every call)", mf, mf / u, fc, fw, fl
		printf "  %-34s %8.3f %8.2fx %12d %14s %8s\n", "strace -f -e trace=openat", mst, mst / u, stc, "-", "-"
		printf "  other calls in the selected trace: %d\n", so
	}' "$TMP/rounds"

# --- -k: what a user stack costs a call (kernel.bpf_stats_enabled) ------------
LOOP=$O/tests/progs/getppid_loop
if [ -x "$LOOP" ] && command -v bpftool >/dev/null && sysctl -qw kernel.bpf_stats_enabled=0 2>/dev/null; then
	prog_ns()
	{
		bpftool prog show 2>/dev/null | awk -v want="$1" '
			$0 ~ "name " want " " { for (i = 1; i < NF; i++) {
				if ($i == "run_time_ns") t += $(i + 1); if ($i == "run_cnt") c += $(i + 1) } }
			END { if (c > 0) printf "%.0f", t / c; else printf "-" }'
	}
	own_daemons()
	{
		for p in $(pgrep -x ktracebd); do
			[ "$(readlink "/proc/$p/exe")" = "$(readlink -f "$KTRACEB")" ] && echo "$p"
		done
	}
	echo
	echo "-k: sys_enter's run time per call, getppid x200000 selected (-e trace=getppid), ns:"
	for k in "" "-k -K 0" -k; do
		kill $KEEPER 2>/dev/null
		for p in $(own_daemons); do kill "$p"; done
		sleep 1.5
		sysctl -qw kernel.bpf_stats_enabled=1
		"$KTRACEB" -t c $k -e trace=getppid -f "$TMP/k.ktr" "$LOOP" 200000 >/dev/null 2>&1
		printf '  %-22s %6s   (%s bytes)\n' "${k:-without -k}" "$(prog_ns ktr_syscall_enter)" \
			"$(stat -c %s "$TMP/k.ktr")"
		sysctl -qw kernel.bpf_stats_enabled=0
	done
	echo "  (-K 0: the kernel's frame-pointer walk, each frame named by build id; -k: a copy of the"
	echo "  stack's top, most shed past the trace's budget in this loop: bench/stack.sh has the rest)"
fi
