#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# A process already traced into one file that gets a new -p request moves to
# the new file (BSD ktrops replaces the process's trace vnode): from then on
# its records go to the new file only.  Processes that inherited tracing from
# it stay with the old file; what it forks afterwards follows it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_user.sh"
need_tracer
need_att_progs

# times P FILE PID: the -T timestamps of PID's CALL/RET records, in order
times()
{
	"$KDUMP" -T -f "$2" 2>/dev/null |
		awk -v p="$3" '{ split($1, a, ":") } a[1] == p && ($4 == "CALL" || $4 == "RET") { print $3 }' \
			>"$TMP/$1.times"
}

# --- one process, A -> B ---
bg x "$ATT_TICK" 20 0
X=$(wait_role "$TMP/x.pout" pid)
ktr a -f "$TMP/A.ktr" -p "$X"
check a_exit_0 t_krc 0 a
check a_grows grows "$TMP/A.ktr"
ktr b -f "$TMP/B.ktr" -p "$X"
check b_exit_0 t_krc 0 b
check b_silent t_silent b
check a_stops_after_move stable "$TMP/A.ktr"
check b_grows grows "$TMP/B.ktr"
sleep 0.3
ktr bc -c -p "$X"
check b_clear_exit_0 t_krc 0 bc
check b_stops_after_clear stable "$TMP/B.ktr"
kd A "$TMP/A.ktr"
kd B "$TMP/B.ktr"
check a_kdump_clean t_kdump_ok A
check b_kdump_clean t_kdump_ok B
check a_has_pid t_has_pid "$TMP/A.norm" "$X"
check b_has_pid t_has_pid "$TMP/B.norm" "$X"
check a_only_pid t_eq "$(pids_of "$TMP/A.norm")" "$X"
check b_only_pid t_eq "$(pids_of "$TMP/B.norm")" "$X"
times tA "$TMP/A.ktr" "$X"
times tB "$TMP/B.ktr" "$X"
lastA=$(tail -n 1 "$TMP/tA.times")
firstB=$(head -n 1 "$TMP/tB.times")
check b_starts_after_a_ends t_eq "$(awk -v a="${lastA:-9e99}" -v b="${firstB:-0}" \
	'BEGIN { print (b + 0 >= a + 0) ? "yes" : "no" }')" yes "last in A $lastA, first in B $firstB"
# the move is not a new attach of a new process: B gets the same call pattern
check b_getpriority_calls t_num "$(qn "$TMP/B.norm" '$1 == p && $4 == "CALL" &&
	$5 ~ /^getpriority\(PRIO_PROCESS,(4343|0x10f7)\)$/' p="$X")" -ge 3

# --- a move that changes the facilities: the new ones take effect at once ---
# (the syscall programs read a copy of the process's state: the move must
# make it stale, or the records would keep going to N, as names only)
bg facs "$ATT_TICK" 20 0
F=$(wait_role "$TMP/facs.pout" pid)
ktr fn -t n -f "$TMP/N.ktr" -p "$F"
sleep 0.3
ktr fc -t c -f "$TMP/C.ktr" -p "$F"
check facs_moves_exit_0 t_krc 0 fc
check facs_c_grows grows "$TMP/C.ktr"
ktr fcc -c -p "$F"
tkill -KILL "$F"
kd FN "$TMP/N.ktr"
kd FC "$TMP/C.ktr"
check facs_n_no_calls t_eq "$(qn "$TMP/FN.norm" '$4 == "CALL" || $4 == "RET"')" 0
check facs_c_calls t_num "$(qn "$TMP/FC.norm" '$1 == p && $4 == "CALL" &&
	$5 ~ /^getpriority\(/' p="$F")" -ge 3
check facs_c_no_names t_eq "$(qn "$TMP/FC.norm" '$4 == "NAMI"')" 0

# --- a move back with -a: B's records stay, new ones are appended ---
nB=$(npid "$TMP/B.norm" "$X")
ktr a2 -f "$TMP/A.ktr" -p "$X"
ktr b2 -a -f "$TMP/B.ktr" -p "$X"
check append_move_exit_0 t_krc 0 b2
check append_move_grows grows "$TMP/B.ktr"
ktr b2c -c -p "$X"
check append_move_stops stable "$TMP/B.ktr"
kd B2 "$TMP/B.ktr"
check append_move_kdump_clean t_kdump_ok B2
check append_move_kept_old t_num "$(npid "$TMP/B2.norm" "$X")" -gt "$nB"
check append_move_two_infos t_eq "$(qn "$TMP/B2.norm" '$4 == "INFO"')" 2

# --- -i: inherited children stay in the old file, later ones follow ---
bg tree "$ATT_TREE" 60
P=$(wait_role "$TMP/tree.pout" parent)
ktr ti -i -f "$TMP/TA.ktr" -p "$P"
check tree_attach_exit_0 t_krc 0 ti
tkill -USR1 "$P"
LC=$(wait_role "$TMP/tree.pout" latechild)
LG=$(wait_role "$TMP/tree.pout" lategrandchild)
sleep 0.3
ktr tm -f "$TMP/TB.ktr" -p "$P"
check tree_move_exit_0 t_krc 0 tm
sleep 0.2
# the parent forks again: with its -i it passes on the new file
tkill -USR1 "$P"
wait_line "$TMP/tree.pout" '^latechild [0-9]+$' 5 >/dev/null
for ((i = 0; i < 100; i++)); do
	[ "$(grep -c '^lategrandchild ' "$TMP/tree.pout")" -ge 2 ] && break
	sleep 0.05
done
LC2=$(awk '$1 == "latechild" { v = $2 } END { print v + 0 }' "$TMP/tree.pout")
LG2=$(awk '$1 == "lategrandchild" { v = $2 } END { print v + 0 }' "$TMP/tree.pout")
check tree_second_pair t_num "$LC2" -ne "$LC"
sleep 0.5
ktr tac -c -f "$TMP/TA.ktr"
ktr tbc -c -f "$TMP/TB.ktr"
check tree_cleared stable "$TMP/TA.ktr"
kd TA "$TMP/TA.ktr"
kd TB "$TMP/TB.ktr"
check tree_a_kdump_clean t_kdump_ok TA
check tree_b_kdump_clean t_kdump_ok TB
check tree_a_pids t_eq "$(pids_of "$TMP/TA.norm")" "$(sorted "$P" "$LC" "$LG")"
check tree_b_pids t_eq "$(pids_of "$TMP/TB.norm")" "$(sorted "$P" "$LC2" "$LG2")"
# the children of the first pair kept writing to A after the parent moved
times tLC "$TMP/TA.ktr" "$LC"
times tPB "$TMP/TB.ktr" "$P"
check tree_a_children_after_move t_eq "$(awk -v b="$(head -n 1 "$TMP/tPB.times")" \
	'$1 + 0 > b + 0 { n++ } END { print (n > 0) ? "yes" : "no" }' "$TMP/tLC.times")" yes
tkill -KILL "$P"

e2e_done
