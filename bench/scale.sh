#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# ktraceb at scale (issue: fixed costs and scale), as root, with the daemon's
# resident memory (RSS) and descriptors after each step:
#   1. TRACES traces of as many idle processes into as many files at once (-p)
#   2. -i over a fork storm of FORKS short processes: every EXIT, none lost
#   3. one process with THREADS threads: each thread's call, none lost
#   4. -d attached to a tree of TREE processes: every one traced
#
#   O=build bench/scale.sh     SCALE_TRACES (1000), SCALE_FORKS (10000),
#                              SCALE_THREADS (1000), SCALE_TREE (2000)

set -u
cd "$(dirname "$0")/.." || exit 1
O=${O:-build}
KTRACEB=$O/ktraceb
KDUMP=$O/kdump
WL=$O/bench/workloads
TRACES=${SCALE_TRACES:-1000}
FORKS=${SCALE_FORKS:-10000}
THREADS=${SCALE_THREADS:-1000}
TREE=${SCALE_TREE:-2000}
for b in "$KTRACEB" "$KDUMP" "$WL"; do
	[ -x "$b" ] || {
		echo "scale: $b is not built; run make bench" >&2
		exit 1
	}
done
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ktraceb-scale.XXXXXX") || exit 1
PIDS=
trap 'kill $PIDS 2>/dev/null; rm -rf "$TMP"' EXIT
ulimit -n 65536 2>/dev/null

now_ms() { echo $(($(date +%s%N) / 1000000)); }
daemon() { pgrep -x ktracebd | head -n 1; }
rss() {
	local d
	d=$(daemon)
	[ -n "$d" ] || {
		echo "no daemon"
		return
	}
	echo "daemon RSS $(awk '/^VmRSS/ { print $2 }' /proc/"$d"/status) kB," \
		"$(ls /proc/"$d"/fd | wc -l) fds"
}

# 1. many traces at once
for ((i = 0; i < TRACES; i++)); do
	sleep 600 &
	PIDS="$PIDS $!"
done
t0=$(now_ms)
ok=0
i=0
for p in $PIDS; do
	"$KTRACEB" -t c -p "$p" -f "$TMP/t$i.ktr" 2>>"$TMP/t.err" && ok=$((ok + 1))
	i=$((i + 1))
done
t1=$(now_ms)
echo "1. $ok of $TRACES traces (-p) into $TRACES files in $((t1 - t0)) ms" \
	"($(((t1 - t0) / (TRACES > 0 ? TRACES : 1))) ms each); $(rss)"
[ -s "$TMP/t.err" ] && echo "   first refusal: $(head -n 1 "$TMP/t.err")"
"$KTRACEB" -C 2>/dev/null
kill $PIDS 2>/dev/null
wait 2>/dev/null
PIDS=
rm -f "$TMP"/t*.ktr

# 2. -i over a fork storm
t0=$(now_ms)
"$KTRACEB" -i -t c -f "$TMP/forks.ktr" "$WL" forks "$FORKS" 2>"$TMP/forks.err"
t1=$(now_ms)
exits=$("$KDUMP" -f "$TMP/forks.ktr" | grep -c ' EXIT ')
echo "2. -i fork storm: $exits EXIT of $((FORKS + 1)) processes in $((t1 - t0)) ms;" \
	"$(tail -n 1 "$TMP/forks.err" | sed 's/^ktraceb: //')"

# 3. a thousand threads
"$KTRACEB" -t c -f "$TMP/threads.ktr" "$WL" threads "$THREADS" 2>"$TMP/threads.err"
tids=$("$KDUMP" -f "$TMP/threads.ktr" | awk '$3 == "CALL" && $4 == "getppid" { print $1 }' |
	sort -u | wc -l)
echo "3. $THREADS threads: getppid from $tids threads;" \
	"$(tail -n 1 "$TMP/threads.err" | sed 's/^ktraceb: //')"

# 4. -d on a tree
"$WL" tree "$TREE" 20 >"$TMP/tree.out"
root=$(awk '$1 == "root" { print $2 }' "$TMP/tree.out")
t0=$(now_ms)
"$KTRACEB" -d -t c -p "$root" -f "$TMP/tree.ktr" 2>"$TMP/tree.err"
t1=$(now_ms)
echo "4. -d on a tree of $(awk '$1 == "up" { print $2 }' "$TMP/tree.out") processes:" \
	"attached in $((t1 - t0)) ms; $(rss)"
kill -KILL "$root" 2>/dev/null
sleep 1
pids=$("$KDUMP" -f "$TMP/tree.ktr" | awk '$3 == "EXIT" { print $1 }' | sort -u | wc -l)
echo "   $pids of them traced to their EXIT"
