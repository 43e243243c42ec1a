#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# The daemon's ring buffers: one a possible CPU (a power of two, 8 at
# most), each thread's records in one of them (bpf/ring.bpf.h).  Threads
# writing at once (tests/progs/seq_threads: each thread's lseek offsets
# count up from 0, each failing with EBADF) must each have every call and
# its return in the file, in the order the thread made them, none lost;
# and -b grows every ring, a trace running through the swap keeping each
# thread's calls in order.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_user.sh"
need_tracer
need_att_progs

NT=4
COUNT=${KTR_RINGS_CALLS:-20000}

want=$(daemon_rings)

# rings_of PID BYTES: how many ring buffers of BYTES the process PID holds
rings_of()
{
	local f n=0
	for f in /proc/"$1"/fdinfo/*; do
		awk '$1 == "map_type:" && $2 == 27 { t = 1 } $1 == "max_entries:" && $2 == b { m = 1 }
			END { exit !(t && m) }' b="$2" "$f" 2>/dev/null && n=$((n + 1))
	done
	echo "$n"
}

# in_order P: for each thread of $TMP/P.out, "TID CALLS BAD": its lseek
# CALLs in the file, and how many of them do not have the offset one past
# the one before (the first must be 0)
in_order()
{
	local tid
	for tid in $(awk '$1 == "thread" { print $4 }' "$TMP/$1.out"); do
		q "$TMP/$1.norm" '$2 == tid && $4 == "CALL" && $5 ~ /^lseek\(/' tid="$tid" |
			awk -F'\t' -v tid="$tid" '
			function num(s,  v, i) {
				if (s !~ /^0x/)
					return s + 0
				for (i = 3; i <= length(s); i++)
					v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
				return v
			}
			{
				a = $5; sub(/^lseek\([^,]*,/, "", a); sub(/,.*/, "", a)
				v = num(a)
				if (v != n) bad++
				n++
			} END { print tid, n + 0, bad + 0 }'
	done
}

# order_checks P [CALLS]: P's trace ended well, every thread's calls (COUNT
# unless CALLS) there, in order
order_checks()
{
	local p=$1 calls=${2:-$COUNT} tid n bad threads=0
	check "${p}_exit_0" t_krc 0 "$p"
	read -r _ lost _ <<<"$(ktr_summary "$p")"
	check "${p}_none_lost" t_eq "${lost:-none}" 0
	kd "$p" "$TMP/$p.ktr"
	check "${p}_kdump_clean" t_kdump_ok "$p"
	while read -r tid n bad; do
		threads=$((threads + 1))
		check "${p}_thread${threads}_every_call" t_eq "$n" "$calls"
		check "${p}_thread${threads}_in_order" t_eq "$bad" 0
	done < <(in_order "$p")
	check "${p}_every_thread" t_eq "$threads" "$NT"
	# each call's return, decoded: lseek(-1, ...) fails with EBADF, once a call
	check "${p}_every_return_ebadf" t_eq \
		"$(qn "$TMP/$p.norm" '$4 == "RET" && $5 ~ /^lseek -1 errno 9 /')" $((NT * calls))
	check "${p}_no_other_return" t_eq "$(qn "$TMP/$p.norm" '$4 == "RET" && $5 ~ /^lseek /')" \
		$((NT * calls))
}

kill_daemons
daemon_gone 10
# an idle trace keeps one daemon up throughout
bg keep "$ATT_TICK" 20 0
K=$(wait_role "$TMP/keep.pout" pid)
ktr keep -f "$TMP/keep.ktr" -p "$K"
check keep_exit_0 t_krc 0 keep
D=$(daemon_pid)
check daemon_found t_match "${D:-none}" '^[0-9]+$'
check rings_one_a_cpu t_eq "$(rings_of "${D:-0}" $((16 << 20)))" "$want"

ktr seq -t c -f "$TMP/seq.ktr" "$PROGS/seq_threads" "$NT" "$COUNT"
order_checks seq

# -b 32m: every ring grown, the old ones gone once read to their end
ktr grow -b 32m -t c -f "$TMP/grow.ktr" "$PROGS/seq_threads" "$NT" "$COUNT"
order_checks grow
check grow_same_daemon t_eq "$(daemon_pid)" "$D"
check grow_every_ring t_eq "$(rings_of "${D:-0}" $((32 << 20)))" "$want"
old_rings_gone() { [ "$(rings_of "${D:-0}" $((16 << 20)))" = 0 ]; }
wait_until 30 old_rings_gone
check grow_old_rings_gone t_eq "$(rings_of "${D:-0}" $((16 << 20)))" 0

# --- the merge alone orders the threads ---------------------------------------
# The daemon is stopped (SIGSTOP) from before the threads start until they
# are done, so that all their records (about 13 MB a 32 MiB ring) wait in
# the rings at once and their order in the file is the merge's alone: each
# ring's own, the rings' interleaved by time (ktr_ring_set.c).  Handed on
# ring after ring, a thread's records would come the whole run (tens of
# ms) after later ones of the others; merged, at most a stage's batch
# apart (ktrwalk's behind_max_us: the most a CALL or RET came after one
# timed later).
MERGE_CALLS=50000
if [ "$want" -lt 2 ]; then
	skip merge "one ring on a machine of one CPU: nothing to merge"
else
	mkfifo "$TMP/merge.go"
	timeout -k 5 "$KTR_TIMEOUT" "$KTRACEB" -t c -f "$TMP/merge.ktr" "$PROGS/seq_threads" "$NT" \
		"$MERGE_CALLS" "$TMP/merge.go" >"$TMP/merge.out" 2>"$TMP/merge.err" </dev/null &
	MERGE=$!
	wait_line "$TMP/merge.out" '^ready$' 30
	[ -n "$D" ] && tkill -STOP "$D"
	timeout 10 sh -c 'echo go >"$1"' sh "$TMP/merge.go"
	# the threads' tids are printed once they are all done
	wait_line "$TMP/merge.out" '^thread 0 tid ' 120
	[ -n "$D" ] && tkill -CONT "$D"
	wait "$MERGE"
	KRC=$?
	order_checks merge "$MERGE_CALLS"
	behind=$("$PROGS/ktrwalk" "$TMP/merge.ktr" | awk '$1 == "behind_max_us" { print $2 }')
	check merge_threads_in_time t_num "${behind:-none}" -le 20000 \
		"no record more than 20 ms after one timed later"
fi

e2e_done
