#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# Attaching to running processes, BSD style: -p returns at once and records
# keep arriving until -c -p; -c -f clears one file; -F stays in the
# foreground until the process ends or SIGINT; -g traces a process group;
# bad or missing pids fail cleanly; an exited process leaves nothing behind.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_user.sh"
need_tracer
need_att_progs

now_ms()
{
	echo $(($(date +%s%N) / 1000000))
}

# --- -p returns at once, records keep coming until -c -p ---
# (the daemon started first and kept up by another trace: what is timed is
# the attach, not the programs' first load, which takes seconds in an
# emulated guest)
bg warm sleep 600
W=$BGPID
ktr warm -t c -f "$TMP/warm.ktr" -p "$W"
bg a "$ATT_TICK" 20 0
A=$(wait_role "$TMP/a.pout" pid)
t0=$(now_ms)
ktr p -f "$TMP/a.ktr" -p "$A"
t1=$(now_ms)
ktr warmc -c -p "$W"
check p_warm_cleared t_krc 0 warmc
check p_exit_0 t_krc 0 p
check p_silent t_silent p
check p_returns_within_5s t_num $((t1 - t0)) -lt 5000 "milliseconds"
check p_target_still_running tkill -0 "$A"
CALLRET='$1 == pid && ($4 == "CALL" || $4 == "RET")'
wait_kd p1 "$TMP/a.ktr" 1 "$CALLRET" pid="$A"
n1=$(npid "$TMP/p1.norm" "$A")
check p_records_after_return t_num "$n1" -gt 0
check p_file_grows grows "$TMP/a.ktr"
wait_kd p2 "$TMP/a.ktr" $((n1 + 10)) "$CALLRET" pid="$A"
check p_more_records_later t_num "$(npid "$TMP/p2.norm" "$A")" -gt "$n1"
check p_kdump_clean t_kdump_ok p2
check p_starts_with_info t_eq "$(head -n 1 "$TMP/p2.norm" | cut -f4)" INFO
check p_getpriority_calls t_num "$(qn "$TMP/p2.norm" '$1 == p && $4 == "CALL" &&
	$5 ~ /^getpriority\(PRIO_PROCESS,(4343|0x10f7)\)$/' p="$A")" -ge 5
# attached mid-run: no execve, the comm is the program's
check p_no_execve t_eq "$(qn "$TMP/p2.norm" '$4 == "CALL" && $5 ~ /^execve/')" 0
check p_comm t_eq "$(q "$TMP/p2.norm" '$1 == p' p="$A" | cut -f3 | sort -u)" att_tick

ktr pc -c -p "$A"
check pc_exit_0 t_krc 0 pc
# the one line -c says: the file it stopped, why, what it wrote and lost
check pc_says_the_end t_lines 1 "$TMP/pc.err"
check pc_end_line t_grep "^ktraceb: $TMP/a.ktr: cleared by pid [0-9]+ \\(uid 0\\); [1-9][0-9]* records written, 0 lost\$" \
	"$TMP/pc.err"
check pc_stops_growth stable "$TMP/a.ktr"
check pc_target_still_running tkill -0 "$A"

# --- -c -f FILE: every process tracing into FILE, and only those ---
bg b "$ATT_TICK" 20 0
B=$(wait_role "$TMP/b.pout" pid)
bg c "$ATT_TICK" 20 0
C=$(wait_role "$TMP/c.pout" pid)
ktr cf1 -f "$TMP/bc.ktr" -p "$A"
rc1=$KRC
ktr cf2 -a -f "$TMP/bc.ktr" -p "$B"
rc2=$KRC
ktr cf3 -f "$TMP/other.ktr" -p "$C"
check cf_setup_exit_0 t_eq "$rc1 $rc2 $KRC" "0 0 0"
wait_kd bc1 "$TMP/bc.ktr" 1 "$CALLRET" pid="$B"
wait_kd bc1 "$TMP/bc.ktr" 1 "$CALLRET" pid="$A"
check cf_both_traced t_eq "$(pids_of "$TMP/bc1.norm")" "$(sorted "$A" "$B")"
ktr cf -c -f "$TMP/bc.ktr"
check cf_exit_0 t_krc 0 cf
check cf_stops_file stable "$TMP/bc.ktr"
check cf_other_file_goes_on grows "$TMP/other.ktr"
check cf_targets_running tkill -0 "$A" "$B"
ktr cfc -c -p "$C"
check cf_other_cleared stable "$TMP/other.ktr"

# --- -F: in the foreground until the process ends ---
bg f "$ATT_TICK" 20 300 # 6 s: the attach of a cold daemon under emulation takes seconds
F=$(wait_role "$TMP/f.pout" pid)
ktr_bg fg -F -f "$TMP/f.ktr" -p "$F"
sleep 0.3
if tkill -0 "$F" 2>/dev/null; then
	check F_stays_while_target_runs tkill -0 "$KTRPID"
else
	skip F_stays_while_target_runs "the target ended within 0.3s"
fi
wait_exit "$KTRPID" 30
KRC=$WRC
check F_exit_0 t_krc 0 fg
check F_target_done t_grep '^ticks 300$' "$TMP/f.pout"
check F_summary t_grep "^ktraceb: [0-9]+ records written to $TMP/f.ktr, 0 lost\$" "$TMP/fg.err"
walk fg "$TMP/f.ktr"
check F_summary_counts t_eq "$(ktr_summary fg | cut -d' ' -f1)" "$(walkval fg records)"
kd fg "$TMP/f.ktr"
check F_kdump_clean t_kdump_ok fg
check F_exit_record t_eq "$(q "$TMP/fg.norm" '$4 == "EXIT"' | cut -f1,5 | tr '\t' ' ')" \
	"$F exited 0"

# -F and SIGINT: exits 0, the file is whole, the process lives on untraced
bg g "$ATT_TICK" 20 0
G=$(wait_role "$TMP/g.pout" pid)
ktr_bg fint -F -f "$TMP/fint.ktr" -p "$G"
wait_size "$TMP/fint.ktr" 2000
sleep 0.2
tkill -INT "$KTRPID"
wait_exit "$KTRPID" 10
check F_sigint_exit_0 t_eq "$WRC" 0
check F_sigint_summary t_grep "^ktraceb: [0-9]+ records written to $TMP/fint.ktr, 0 lost\$" \
	"$TMP/fint.err"
check F_sigint_target_alive tkill -0 "$G"
check F_sigint_stops stable "$TMP/fint.ktr"
check F_sigint_walks walk fint "$TMP/fint.ktr"
check F_sigint_summary_counts t_eq "$(ktr_summary fint | cut -d' ' -f1)" "$(walkval fint records)"
kd fint "$TMP/fint.ktr"
check F_sigint_kdump_clean t_kdump_ok fint
check F_sigint_has_records t_num "$(npid "$TMP/fint.norm" "$G")" -gt 10

# --- -g: every member of a process group ---
bg tree "$ATT_TREE" 60
P=$(wait_role "$TMP/tree.pout" parent)
CH=$(wait_role "$TMP/tree.pout" child)
GC=$(wait_role "$TMP/tree.pout" grandchild)
pg()
{
	awk '{ sub(/.*\) /, ""); print $3 }' "/proc/$1/stat" 2>/dev/null
}
check g_tree_is_group t_eq "$(pg "$P") $(pg "$CH") $(pg "$GC")" "$P $P $P"
ktr g -f "$TMP/g.ktr" -g "$P"
check g_exit_0 t_krc 0 g
check g_silent t_silent g
for p in "$P" "$CH" "$GC"; do
	wait_kd g "$TMP/g.ktr" 1 "$CALLRET" pid="$p"
done
ktr gc -c -g "$P"
check g_clear_exit_0 t_krc 0 gc
check g_clear_stops stable "$TMP/g.ktr"
kd g "$TMP/g.ktr"
check g_kdump_clean t_kdump_ok g
check g_all_members t_eq "$(pids_of "$TMP/g.norm")" "$(sorted "$P" "$CH" "$GC")"
tkill -KILL "$P"

# --- bad targets ---
PMAX=$(cat /proc/sys/kernel/pid_max)
NOPID=$((PMAX - 1))
while [ -e "/proc/$NOPID" ]; do
	NOPID=$((NOPID - 1))
done
ktr nopid -f "$TMP/nopid.ktr" -p "$NOPID"
check nopid_exit_1 t_krc 1 nopid
check nopid_message t_eq "$(cat "$TMP/nopid.err")" "ktraceb: pid $NOPID: no such process"
ktr nogrp -f "$TMP/nogrp.ktr" -g "$NOPID"
check nogrp_exit_1 t_krc 1 nogrp
check nogrp_one_line t_oneline nogrp
check nogrp_message t_grep "^ktraceb: process group $NOPID: no such process" "$TMP/nogrp.err"
for bad in abc 12x "" 0 -5 99999999999; do
	name=badpid_$(printf '%s' "$bad" | tr -c 'a-z0-9' '_')
	ktr "$name" -f "$TMP/bad.ktr" -p "$bad"
	check "${name}_exit_64" t_krc 64 "$name"
	check "${name}_message" t_grep '^ktraceb: |^usage: ' "$TMP/$name.err"
done
ktr pg2 -f "$TMP/bad.ktr" -p 1 -g 1
check p_and_g_exit_64 t_krc 64 pg2
check p_and_g_message t_grep 'only one -g or -p' "$TMP/pg2.err"

# --- a traced process that exits: EXIT recorded, nothing left behind ---
# (a second trace keeps the daemon up: -c -p must find it running)
ktr keep -f "$TMP/keep.ktr" -p "$C"
# (12 s of ticks: an emulated guest on a busy host may take seconds to attach)
bg e "$ATT_TICK" 200 60
E=$(wait_role "$TMP/e.pout" pid)
ktr e -f "$TMP/e.ktr" -p "$E"
check exit_attach_0 t_krc 0 e
wait_line "$TMP/e.pout" '^ticks 60$' 60
check exit_target_finished t_grep '^ticks 60$' "$TMP/e.pout"
wait_kd e0 "$TMP/e.ktr" 1 '$1 == pid && $4 == "EXIT"' pid="$E" # its end seen by the daemon
ktr ec -c -p "$E"
check exit_clear_fails t_krc 1 ec
check exit_clear_message t_match "$(cat "$TMP/ec.err")" \
	"^ktraceb: pid $E: (no such process|not traced|process has exited)\$"
kd e1 "$TMP/e.ktr"
check exit_record t_eq "$(q "$TMP/e1.norm" '$4 == "EXIT"' | cut -f1,5 | tr '\t' ' ')" \
	"$E exited 0"
check exit_stops stable "$TMP/e.ktr"
bg e2 "$ATT_TICK" 20 0
E2=$(wait_role "$TMP/e2.pout" pid)
ktr e2 -a -f "$TMP/e.ktr" -p "$E2"
check exit_new_attach_0 t_krc 0 e2
wait_kd e2 "$TMP/e.ktr" 1 "$CALLRET" pid="$E2"
ktr e2c -c -p "$E2"
kd e2 "$TMP/e.ktr"
check exit_new_kdump_clean t_kdump_ok e2
check exit_new_pid_traced t_has_pid "$TMP/e2.norm" "$E2"
check exit_old_records_kept t_eq "$(q "$TMP/e2.norm" '$4 == "EXIT"' | cut -f1,5 | tr '\t' ' ')" \
	"$E exited 0"
# nothing of the old process after the new one's first record
check exit_old_pid_gone t_eq "$(q "$TMP/e2.norm" '$1 == e2 { seen = 1 } seen && $1 == e' \
	e="$E" e2="$E2" | wc -l)" 0
ktr keepc -c -p "$C"

# --- -c -p on a pid that does not exist, or is not traced: the answer must
# not depend on whether a daemon happens to be running ---
# (processes of their own, running until killed: a slow machine may be past
# the 60 s the ones above run for)
bg cu "$ATT_TICK" 100 0
CU=$(wait_role "$TMP/cu.pout" pid)
bg ck "$ATT_TICK" 100 0
CK=$(wait_role "$TMP/ck.pout" pid)
if wait_no_daemon 15; then
	ktr cn0 -c -p "$NOPID"
	check clear_nopid_no_daemon_exit_1 t_krc 1 cn0
	check clear_nopid_no_daemon_message t_eq "$(cat "$TMP/cn0.err")" \
		"ktraceb: pid $NOPID: no such process"
	ktr cu0 -c -p "$CU"
	r0="$KRC $(cat "$TMP/cu0.err")"
	ktr keep2 -f "$TMP/keep2.ktr" -p "$CK"
	ktr cn1 -c -p "$NOPID"
	check clear_nopid_daemon_exit_1 t_krc 1 cn1
	check clear_nopid_daemon_message t_eq "$(cat "$TMP/cn1.err")" \
		"ktraceb: pid $NOPID: no such process"
	ktr cu1 -c -p "$CU"
	check clear_untraced_same_either_way t_eq "$r0" "$KRC $(cat "$TMP/cu1.err")" \
		"-c -p of an untraced process, without / with a daemon running"
	ktr keep2c -c -p "$CK"
else
	skip clear_nopid_no_daemon "a ktraceb daemon stays up: $(daemon_sockets | tr '\n' ' ')"
fi

e2e_done
