#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# ktraceb at scale (issue: fixed costs and scale), as root, with the daemon's
# resident memory (RSS) and descriptors after each step:
#   1. TRACES traces of as many idle processes into as many files at once (-p)
#      by root, then by USERS users at once (TRACES/USERS each, of their own
#      processes, through root's daemon; users ktrscale1.. are created if
#      missing and removed after)
#   2. -i over a fork storm of FORKS short processes: every EXIT, none lost
#   3. one process with THREADS threads: each thread's call, none lost
#   4. -d attached to a tree of TREE processes: every one traced
#
#   O=build bench/scale.sh     SCALE_TRACES (1000), SCALE_USERS (4), SCALE_FORKS (10000),
#                              SCALE_THREADS (1000), SCALE_TREE (2000)

set -u
cd "$(dirname "$0")/.." || exit 1
O=${O:-build}
KTRACEB=$O/ktraceb
KDUMP=$O/kdump
WL=$O/bench/workloads
TRACES=${SCALE_TRACES:-1000}
USERS=${SCALE_USERS:-4}
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
MADE_USERS=
trap 'kill $PIDS 2>/dev/null; for u in $MADE_USERS; do userdel "$u"; done; rm -rf "$TMP"' EXIT
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

# 1b. as many traces at once by several users, each of their own processes
per=$((TRACES / (USERS > 0 ? USERS : 1)))
sleep 600 &
keeper=$!
"$KTRACEB" -t c -p "$keeper" -f "$TMP/keeper.ktr" # root's daemon, which users reach
chmod 755 "$TMP"
for ((u = 1; u <= USERS; u++)); do
	user=ktrscale$u
	if ! id "$user" >/dev/null 2>&1; then
		useradd -M -r -s /bin/sh "$user" || continue
		MADE_USERS="$MADE_USERS $user"
	fi
	mkdir -m 700 "$TMP/$user" && chown "$user:" "$TMP/$user"
	cat >"$TMP/$user/run.sh" <<EOF
for ((i = 0; i < $per; i++)); do sleep 600 & done
ok=0
for p in \$(jobs -p); do
	"$PWD/$KTRACEB" -t c -p "\$p" -f "$TMP/$user/t\$p.ktr" 2>>"$TMP/$user/t.err" && ok=\$((ok + 1))
done
echo \$ok >"$TMP/$user/ok"
while [ ! -e "$TMP/go" ]; do sleep 0.1; done
"$PWD/$KTRACEB" -C 2>/dev/null
kill \$(jobs -p)
EOF
done
t0=$(now_ms)
users=
for ((u = 1; u <= USERS; u++)); do
	[ -f "$TMP/ktrscale$u/run.sh" ] || continue
	setpriv --reuid="ktrscale$u" --regid="ktrscale$u" --clear-groups \
		bash "$TMP/ktrscale$u/run.sh" 2>/dev/null &
	users="$users $!"
done
for ((u = 1; u <= USERS; u++)); do # all traces up (or refused)
	while [ -f "$TMP/ktrscale$u/run.sh" ] && [ ! -e "$TMP/ktrscale$u/ok" ] &&
		kill -0 $users 2>/dev/null; do sleep 0.1; done
done
t1=$(now_ms)
mem=$(rss)
touch "$TMP/go"
wait $users 2>/dev/null
ok=0
for ((u = 1; u <= USERS; u++)); do
	ok=$((ok + $(cat "$TMP/ktrscale$u/ok" 2>/dev/null || echo 0)))
done
echo "1b. $ok of $((per * USERS)) traces by $USERS users at once ($per each, of their own" \
	"processes) in $((t1 - t0)) ms; all up: $mem; after -C: $(rss)"
for ((u = 1; u <= USERS; u++)); do
	[ -s "$TMP/ktrscale$u/t.err" ] &&
		echo "   ktrscale$u's first refusal: $(head -n 1 "$TMP/ktrscale$u/t.err")"
done
"$KTRACEB" -C 2>/dev/null
kill "$keeper" 2>/dev/null
wait 2>/dev/null

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
