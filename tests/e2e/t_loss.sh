#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# Loss accounting.  200000 getppid calls with the default buffer: every CALL
# and RET is in the file, and nothing is lost.  Then a small buffer and many
# more calls: whatever is lost must be reported, and the records in the file
# plus the lost count must add up to what the program did.
. "$(dirname "$0")/lib.sh"
need_tracer

CALLS=${KTR_LOSS_CALLS:-200000}
F=$TMP/a.ktr
# not a daemon with another test's small ring
daemon_gone 10
ktr a -f "$F" "$PROGS/getppid_loop" "$CALLS"
kd a "$F"
N=$TMP/a.norm
PID=$(awk '$1 == "pid" { print $2 }' "$TMP/a.out")
PID=${PID:-0}
check exit_0 t_krc 0 a
check file_walks_to_eof walk a "$F"
check kdump_clean t_kdump_ok a
check all_calls t_eq "$(qn "$N" '$1 == pid && $4 == "CALL" && $5 == "getppid"' pid="$PID")" \
	"$CALLS"
check all_returns t_eq "$(qn "$N" '$1 == pid && $4 == "RET" && $5 ~ /^getppid [0-9]/' \
	pid="$PID")" "$CALLS"
check no_lost_line t_eq "$(qn "$N" '$4 == "LOST"')" 0
read -r nrec nlost _ <<<"$(ktr_summary a)"
check stderr_0_lost t_eq "${nlost:-none}" 0
check stderr_records t_eq "${nrec:-none}" "$(walkval a records)"
# the records other than the loop's: the same in every run of this binary
base=$(($(walkval a records) - 2 * CALLS))

# The smallest ring (4 KiB, about 50 records) against 2M calls.
BIG=${KTR_LOSS_BIG:-2000000}
daemon_gone 10
ktr b -b 4096 -f "$TMP/b.ktr" "$PROGS/getppid_loop" "$BIG"
kd b "$TMP/b.ktr"
N=$TMP/b.norm
check small_buffer_exit_0 t_krc 0 b
check small_buffer_walks walk b "$TMP/b.ktr"
check small_buffer_kdump_clean t_kdump_ok b
read -r nrec nlost _ <<<"$(ktr_summary b)"
nlost=${nlost:-0}
check small_buffer_stderr_records t_eq "${nrec:-none}" "$(walkval b records)"
if grep -q -- '-b ignored' "$TMP/b.err"; then
	skip lost_accounting "a ktraceb daemon with another ring size was running"
elif [ "$nlost" -eq 0 ]; then
	skip lost_accounting "no records were lost with a 4 KiB ring"
else
	check lost_total_matches_stderr t_eq "$(walkval b lost_total)" "$nlost"
	check lost_sum_matches_total t_eq "$(walkval b lost_sum)" "$nlost"
	last=$(q "$N" '$4 == "LOST"' | tail -n 1 | cut -f5)
	check lost_line_format t_match "$last" "^[0-9]+ records? lost \\($nlost in all\\)\$"
	kept=$(($(walkval b records) - $(walkval b 'type 25')))
	# nothing goes uncounted; and a note to the daemon that found the ring
	# full (the exec's, an executable mapping's: USDT scans, -t u being on by
	# default) counts as a loss of its own, as probe records may go with it:
	# four at most in this program (exec, ld.so, libc, vDSO)
	check records_plus_lost_add_up t_num $((kept + nlost)) -ge $((2 * BIG + base)) \
		"records kept + lost vs 2 x calls + the rest"
	check records_plus_lost_no_more t_num $((kept + nlost)) -le $((2 * BIG + base + 4)) \
		"records kept + lost vs 2 x calls + the rest, and the notes counted lost"
fi

# leave no daemon with a small ring to the next test
daemon_gone 10

e2e_done
