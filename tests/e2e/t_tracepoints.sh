#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# Kernel tracepoints (ktraceb -e subsys:event): tests/progs/tp_events sends
# itself SIGUSR1, sleeps, forks a child that execs /bin/true, and prints its
# pids.  The TRACE records kdump decodes by name, from the formats the file
# carries, must name those pids and that signal: sched_process_fork's
# parent_pid and child_pid, sched_process_exec's filename (a __data_loc
# string), signal_generate's sig and pid, the sched_switch of the sleep (a
# glob).  The file is read again where tracefs is not mounted.  Bad event
# names and a daemon that cannot read tracefs each give one clear error.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_user.sh"
. "$(dirname "$0")/lib_json.sh"
need_tracer
TP=$PROGS/tp_events

ktr ev -i -t k -e sched:sched_process_fork -e sched:sched_process_exec \
	-e signal:signal_generate -e 'sched:sched_sw*' -f "$TMP/ev.ktr" "$TP" /bin/true
kd ev "$TMP/ev.ktr"
P=$(role "$TMP/ev.out" pid)
C=$(role "$TMP/ev.out" child)
n=$TMP/ev.norm
check ev_exit_0 t_krc 0 ev
check ev_kdump_clean t_kdump_ok ev
check ev_pids_known t_num "$P" -gt 0 && check ev_child_known t_num "$C" -gt 0
check ev_fork t_eq "$(qn "$n" '$1 == p && $4 == "TRACE" && $5 ~ ("^sched:sched_process_fork parent_comm=\"tp_events\" parent_pid=" p " child_comm=\"tp_events\" child_pid=" c "$")' p="$P" c="$C")" 1
check ev_exec_data_loc t_eq "$(qn "$n" '$1 == c && $4 == "TRACE" && $5 == ("sched:sched_process_exec filename=\"/bin/true\" pid=" c " old_pid=" c)' c="$C")" 1
check ev_signal t_eq "$(qn "$n" '$1 == p && $4 == "TRACE" && $5 ~ ("^signal:signal_generate sig=10 errno=0 code=0 comm=\"tp_events\" pid=" p " ")' p="$P")" 1
check ev_sleep_switch t_num "$(qn "$n" '$1 == p && $4 == "TRACE" && $5 ~ ("^sched:sched_switch prev_comm=\"tp_events\" prev_pid=" p " .* prev_state=1 ")' p="$P")" -ge 1
# the glob matched sched_switch and sched_stat_* is not there: only the events asked for
check ev_only_asked t_eq "$(q "$n" '$4 == "TRACE"' | cut -f5 | cut -d' ' -f1 | sort -u | tr '\n' ' ')" \
	"sched:sched_process_exec sched:sched_process_fork sched:sched_switch signal:signal_generate "
# only the traced processes' events, and nothing but TRACE with -t k
check ev_only_traced t_eq "$(q "$n" '$4 == "TRACE" && $1 != p && $1 != c' p="$P" c="$C" | wc -l | tr -d ' ')" 0
check ev_no_syscalls t_eq "$(qn "$n" '$4 == "CALL" || $4 == "RET"')" 0


# kdump -J: a TRACE's event and its fields, numbers as numbers and strings
# as strings, read from the entry (no captured text)
kj evj "$TMP/ev.ktr"
check json_ev_exit_0 t_eq "$KDRC" 0
check json_ev_lines_ok lines_ok evj
check json_ev_count t_eq "$(sel evj 'r["type"] == "TRACE"' | wc -l | tr -d ' ')" "$(qn "$n" '$4 == "TRACE"')"
check json_ev_members t_eq "$(sel evj '(r["type"] == "TRACE" and not (isinstance(r.get("event"), str)
	and isinstance(r.get("fields"), dict) and isinstance(r.get("event_id"), int) and "text" not in r))' |
	wc -l | tr -d ' ')" 0
check json_ev_fork t_eq "$(sel evj 'r["type"] == "TRACE" and r["event"] == "sched:sched_process_fork"' \
	'r["fields"]')" "{'parent_comm': 'tp_events', 'parent_pid': $P, 'child_comm': 'tp_events', 'child_pid': $C}"
check json_ev_exec_data_loc t_eq "$(sel evj 'r["type"] == "TRACE" and r["event"] == "sched:sched_process_exec" and r["pid"] == '"$C" \
	'r["pid"], r["fields"]')" "($C, {'filename': '/bin/true', 'pid': $C, 'old_pid': $C})"
check json_ev_signal t_eq "$(sel evj '(r["type"] == "TRACE" and r["event"] == "signal:signal_generate"
	and r["pid"] == '"$P"' and r["fields"]["sig"] == 10)' \
	'r["fields"]["errno"], r["fields"]["code"], r["fields"]["comm"], r["fields"]["pid"]')" "(0, 0, 'tp_events', $P)"
check json_ev_switch_state t_num "$(sel evj '(r["type"] == "TRACE" and r["event"] == "sched:sched_switch"
	and r["fields"]["prev_pid"] == '"$P"' and r["fields"]["prev_state"] == 1
	and r["fields"]["prev_comm"] == "tp_events")' | wc -l | tr -d ' ')" -ge 1
# kdump -t k shows only them, -t c hides them; -Y counts them by name
ktr evc -t c -e signal:signal_generate -f "$TMP/evc.ktr" "$TP" /bin/true
kd evc "$TMP/evc.ktr"
PC=$(role "$TMP/evc.out" pid)
check evc_exit_0 t_krc 0 evc
check evc_signal_with_calls t_eq "$(qn "$TMP/evc.norm" '$1 == p && $4 == "TRACE" && $5 ~ /^signal:signal_generate sig=10 /' p="$PC")" 1
check evc_has_calls t_num "$(qn "$TMP/evc.norm" '$4 == "CALL"')" -gt 0
kd evk "$TMP/evc.ktr" -t k
check kdump_t_k_only_trace t_eq "$(q "$TMP/evk.norm" '$4 != "TRACE" && $4 != "INFO" && $4 != "EXIT" && $4 != "END"' | wc -l | tr -d ' ')" 0
check kdump_t_k_all_trace t_eq "$(qn "$TMP/evk.norm" '$4 == "TRACE"')" "$(qn "$TMP/evc.norm" '$4 == "TRACE"')"
kd evnk "$TMP/evc.ktr" -t c
check kdump_t_c_no_trace t_eq "$(qn "$TMP/evnk.norm" '$4 == "TRACE"')" 0
# signals: its SIGUSR1 to itself, and the child's SIGCHLD to it at the child's
# end (the child, past its EXIT, is untraced then: the subject rule, below)
kd evy "$TMP/ev.ktr" -Y
check kdump_Y_counts t_eq "$(awk '$2 == "sched:sched_process_fork" || $2 == "signal:signal_generate" { print $1, $2 }' "$TMP/evy.kd" | tr '\n' ' ')" \
	"1 sched:sched_process_fork 2 signal:signal_generate "
check ev_sigchld_subject t_eq "$(qn "$n" '$1 == p && $4 == "TRACE" && $5 ~ ("^signal:signal_generate sig=17 .* pid=" p " ")' p="$P")" 1

# the subject rule: events a traced process is only the subject of, made by
# untraced tasks (a kill from outside, the timer waking its sleep), are in
# its file, the header naming it
bg subj "$PROGS/att_tick" 50 0
S=$(wait_role "$TMP/subj.pout" pid)
ktr subjt -t k -e signal:signal_generate -e sched:sched_wakeup -p "$S" -f "$TMP/subj.ktr"
check subj_traced t_krc 0 subjt
# an untraced sender (/bin/kill, not bash's), to the test's own process only
check subj_sender_own own_pid "$S"
own_pid "$S" && /bin/kill -CONT "$S"
sleep 0.4
ktr subjc -c -p "$S"
tkill "$S" 2>/dev/null
kd subj "$TMP/subj.ktr"
check subj_signal_from_outside t_eq "$(qn "$TMP/subj.norm" '$1 == s && $2 == s && $3 == "att_tick" && $4 == "TRACE" && $5 ~ ("^signal:signal_generate sig=18 .* pid=" s " ")' s="$S")" 1
check subj_woken t_num "$(qn "$TMP/subj.norm" '$1 == s && $4 == "TRACE" && $5 ~ ("^sched:sched_wakeup comm=\"att_tick\" pid=" s " ")' s="$S")" -ge 3
check subj_only_about_it t_eq "$(q "$TMP/subj.norm" '$4 == "TRACE" && $1 != s' s="$S" | wc -l | tr -d ' ')" 0

# with a recorder (-R): the events go into its ring, their formats into the
# file at the dump, before them; the crash's own SIGSEGV is there, decoded
ktr rec -R 1m -e signal:signal_generate -f "$TMP/rec.ktr" "$PROGS/crasher" segv 100
kd rec "$TMP/rec.ktr"
RP=$(role "$TMP/rec.out" pid)
check rec_crashed t_krc 139 rec
check rec_kdump_clean t_kdump_ok rec
check rec_dumped t_num "$(qn "$TMP/rec.norm" '$4 == "RING"')" -gt 0
# in the ring, and again, marked, as its CPU's last record (RING last recorded per-CPU events)
check rec_segv_event t_eq "$(qn "$TMP/rec.norm" '$1 == p && $4 == "TRACE" && $5 ~ ("^signal:signal_generate sig=11 errno=0 code=1 comm=\"crasher\" pid=" p " ")' p="$RP")" 1
check rec_segv_event_replayed t_eq "$(qn "$TMP/rec.norm" '$1 == p && $4 == "TRACE" && $5 ~ ("^\\[replayed\\] signal:signal_generate sig=11 errno=0 code=1 comm=\"crasher\" pid=" p " ")' p="$RP")" 1

# kdump never needs tracefs: the same output where tracefs is not mounted
if command -v unshare >/dev/null; then
	unshare -m sh -c 'umount /sys/kernel/tracing 2>/dev/null; umount /sys/kernel/debug/tracing 2>/dev/null
		if [ -e /sys/kernel/tracing/available_events ]; then echo mounted; exit 1; fi
		exec "$0" -f "$1"' "$KDUMP" "$TMP/ev.ktr" >"$TMP/nofs.kd" 2>"$TMP/nofs.kderr"
	check kdump_without_tracefs_runs t_eq "$?" 0
	check kdump_without_tracefs_same t_eq "$(cmp -s "$TMP/nofs.kd" "$TMP/ev.kd" && echo same)" same
else
	skip kdump_without_tracefs "unshare not installed"
fi

# tracefs not mounted: the daemon mounts it (here in a mount namespace of the test's own)
if command -v unshare >/dev/null && daemon_gone 15; then
	unshare -m --propagation private sh -c '
		umount /sys/kernel/tracing 2>/dev/null; umount /sys/kernel/debug/tracing 2>/dev/null
		[ -e /sys/kernel/tracing/available_events ] && exit 99
		"$0" -f "$1" -t k -e signal:signal_generate "$2" /bin/true >"$3" 2>"$4"' \
		"$KTRACEB" "$TMP/mnt.ktr" "$TP" "$TMP/mnt.out" "$TMP/mnt.err"
	check mount_tracefs_traced t_eq "$?" 0
	kd mnt "$TMP/mnt.ktr"
	check mount_tracefs_signal t_eq "$(qn "$TMP/mnt.norm" '$1 == p && $4 == "TRACE" && $5 ~ /^signal:signal_generate sig=10 /' p="$(role "$TMP/mnt.out" pid)")" 1
	daemon_gone 15
else
	skip mount_tracefs "unshare not installed, or a daemon still up"
fi

# bad input: one line naming what is wrong, non-zero, no trace file left
bad()
{
	local name=$1 rc=$2 rx=$3
	shift 3
	ktr "$name" -f "$TMP/$name.ktr" "$@" /bin/true
	check "${name}_exit" t_krc "$rc" "$name"
	check "${name}_one_line" t_said 1 "$name"
	check "${name}_says_why" t_grep "$rx" "$TMP/$name.err"
	check "${name}_no_file" t_eq "$([ -e "$TMP/$name.ktr" ] && echo left)" ""
}
bad unknown 1 '^ktraceb: -e sched:no_such_event: no such kernel event$' -e sched:no_such_event
bad unknown_glob 1 '^ktraceb: -e nosuchsys:\*: no such kernel event$' -e 'nosuchsys:*'
bad bad_glob 64 '^ktraceb: -e sched:\[ab: only letters' -e 'sched:[ab'
bad no_colon 64 '^ktraceb: -e sched: not subsys:event$' -e sched
bad path_chars 64 '^ktraceb: -e \.\./x:y: only letters' -e '../x:y'
bad too_long 64 'name too long' -e "sched:$(printf 'x%.0s' $(seq 80))"
bad too_many_events 1 'more than 256 events in one trace' -e '*:*'
bad k_without_e 64 '^ktraceb: -t k: name the kernel events with -e' -t k
bad with_compact_recorder 64 'a compact recorder keeps returns and signals only' -R 1m,compact -e sched:sched_switch
bad with_dump 64 'not with -c, -C or -D' -D -e sched:sched_switch
args=()
for i in $(seq 17); do args+=(-e "sched:sched_switch"); done
bad too_many_names 64 'at most 16 event names' "${args[@]}"

# a user's own daemon cannot read tracefs: one line saying so
if user_setup && wait_no_daemon 15; then
	# -t c: no other facility this kernel may lack for users (USDT) adds its own line
	uktr user -t c -e sched:sched_switch -f "$UDIR/user.ktr" "$UBIN/att_tick" 1 10
	check user_refused t_num "$KRC" -ne 0
	check user_one_line t_oneline user
	check user_says_root t_grep '^ktraceb: -e: reading tracefs needs root' "$TMP/user.err"
else
	skip user_daemon "${USER_WHY:-a daemon of root is still up}"
fi

e2e_done
