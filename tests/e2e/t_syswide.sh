#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# System-wide kernel events (ktraceb -S -e ..., root's): every task's hits
# of the events, on every CPU, with the CPU in each record.  An untraced
# tests/progs/tp_events run meanwhile must be in the file by the pids it
# prints (its child's sched_process_exec of /bin/true, the SIGUSR1 it sends
# itself), every record's CPU one of this machine's, the records in time
# order; -c ends it and detaches the events.  With a command, it lasts as
# long as the command.  A per-CPU buffer too small for a syscall storm says
# what it lost, per CPU.  Users are refused (t_hostile.sh sends the
# requests themselves).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_user.sh"
need_tracer
TP=$PROGS/tp_events
NCPU=$(nproc)

# tp_links: the kernel events this build's daemon has attached now: the
# links of its tracepoint program, or, where the kernel has no links on perf
# events (before 5.15), the perf events it holds with a (stub) program on
tp_links()
{
	local id d n
	id=$(daemon_prog ktr_tp_record)
	[ -n "$id" ] || {
		echo 0
		return
	}
	d=$(daemon_pid)
	n=$(bpftool link show 2>/dev/null | grep -cE "prog $id *\$")
	echo $((n + $(bpftool perf show 2>/dev/null | grep -cE "^pid $d  fd [0-9]+: prog_id [0-9]+  tracepoint ")))
}
# cpus_ok KD: every record's CPU (kdump -c's column after pid:tid) within 0..NCPU-1, and some
cpus_ok()
{
	awk -v n="$NCPU" '$2 !~ /^[0-9]+$/ || $2 >= n { bad++; print "    bad line: " $0 > "/dev/stderr" }
		END { exit bad > 0 || NR == 0 }' "$1"
}

# --- alone: from now until -c ----------------------------------------------------------
ktr sw -S -e sched:sched_process_exec -e signal:signal_generate -f "$TMP/sw.ktr"
check sw_started t_krc 0 sw
D=$(daemon_pid)
check sw_daemon_found test -n "$D"
check sw_events_attached t_eq "$(tp_links)" 2
"$TP" /bin/true >"$TMP/tp.out" # not traced by anyone
P=$(role "$TMP/tp.out" pid)
C=$(role "$TMP/tp.out" child)
ktr swc -c -f "$TMP/sw.ktr"
check sw_cleared t_krc 0 swc
for _ in $(seq 50); do [ "$(tp_links)" = 0 ] && break; sleep 0.1; done
check sw_detached_after_clear t_eq "$(tp_links)" 0
"$KDUMP" -c -f "$TMP/sw.ktr" >"$TMP/sw.kdc" 2>"$TMP/sw.kdcerr"
check sw_kdump_ok t_eq "$?" 0
kd sw "$TMP/sw.ktr"
check sw_untraced_exec t_eq "$(qn "$TMP/sw.norm" '$1 == c && $4 == "TRACE" && $5 == ("sched:sched_process_exec filename=\"/bin/true\" pid=" c " old_pid=" c)' c="$C")" 1
check sw_untraced_signal t_eq "$(qn "$TMP/sw.norm" '$1 == p && $4 == "TRACE" && $5 ~ ("^signal:signal_generate sig=10 errno=0 code=0 comm=\"tp_events\" pid=" p " ")' p="$P")" 1
check sw_other_tasks_too t_num "$(q "$TMP/sw.norm" '$4 == "TRACE" && $1 != p && $1 != c' p="$P" c="$C" | wc -l)" -gt 0
check sw_cpu_column_valid cpus_ok <(grep ' TRACE ' "$TMP/sw.kdc")
check sw_only_asked t_eq "$(q "$TMP/sw.norm" '$4 == "TRACE"' | cut -f5 | cut -d' ' -f1 | sort -u | tr '\n' ' ')" \
	"sched:sched_process_exec signal:signal_generate "
# merged by time: kdump -R (time since the previous record) never goes back
"$KDUMP" -R -f "$TMP/sw.ktr" >"$TMP/swr.kd"
check sw_time_order t_eq "$(awk '$4 ~ /^-/' "$TMP/swr.kd" | wc -l | tr -d ' ')" 0
# the daemon's own events are not recorded (its writes would feed the trace);
# other daemons (a user's exiting, another build's) are tasks like any other
check sw_not_daemon t_eq "$(q "$TMP/sw.norm" '$1 == d && $4 == "TRACE"' d="${D:-none}" | wc -l | tr -d ' ')" 0
# -J knows the CPU
"$KDUMP" -J -f "$TMP/sw.ktr" >"$TMP/sw.json"
check sw_json_cpu t_num "$(grep -c '"type":"TRACE".*"cpu":[0-9]' "$TMP/sw.json")" -gt 0

# --- with a command: for its life ---------------------------------------------------------
ktr swcmd -S -e sched:sched_process_exec -f "$TMP/swcmd.ktr" "$TP" /bin/true
check swcmd_exit_0 t_krc 0 swcmd
for _ in $(seq 50); do [ "$(tp_links)" = 0 ] && break; sleep 0.1; done
check swcmd_detached_at_end t_eq "$(tp_links)" 0
kd swcmd "$TMP/swcmd.ktr"
C2=$(role "$TMP/swcmd.out" child)
check swcmd_exec t_eq "$(qn "$TMP/swcmd.norm" '$1 == c && $4 == "TRACE" && $5 ~ /^sched:sched_process_exec filename="\/bin\/true"/' c="$C2")" 1
# the command itself is traced as usual (its syscalls), the system's events besides
check swcmd_command_traced t_num "$(qn "$TMP/swcmd.norm" '$4 == "CALL"')" -gt 0
# its own exec is both its trace's and the system's, into one file: written once
P2=$(role "$TMP/swcmd.out" pid)
check swcmd_own_exec_once t_eq "$(qn "$TMP/swcmd.norm" '$1 == p && $4 == "TRACE" && $5 ~ /^sched:sched_process_exec filename=".*tp_events"/' p="$P2")" 1

# --- one at a time; bad uses ---------------------------------------------------------------
ktr sw1 -S -e sched:sched_process_exec -f "$TMP/sw1.ktr"
ktr sw2 -S -e sched:sched_process_exec -f "$TMP/sw2.ktr"
check sw_second_refused t_grep 'a system-wide trace already runs \(into .*sw1\.ktr\)' "$TMP/sw2.err"
check sw_second_rc t_num "$KRC" -ne 0
ktr swC -C
check sw_C_ends_it t_krc 0 swC
for _ in $(seq 50); do [ "$(tp_links)" = 0 ] && break; sleep 0.1; done
check sw_detached_after_C t_eq "$(tp_links)" 0
ktr swnoe -S -f "$TMP/swnoe.ktr"
check sw_needs_events t_grep '^ktraceb: -S records kernel events system-wide: name them with -e' "$TMP/swnoe.err"
ktr swp -S -e sched:sched_switch -p 1 -f "$TMP/swp.ktr"
check sw_not_with_p t_grep '^ktraceb: -S: with a command, or alone' "$TMP/swp.err"

# --- the file cannot take more: a full disk, a deleted file end the trace ------------------
FULL=$TMP/full
mkdir "$FULL"
if mount -t tmpfs -o size=128k none "$FULL" 2>"$TMP/mount.err"; then
	trap 'umount -l "$FULL" 2>/dev/null; user_cleanup' EXIT
	ktr swf -S -e 'sched:sched_switch' -f "$FULL/f.ktr"
	check swf_started t_krc 0 swf
	"$PROGS/getppid_loop" 1000 >/dev/null # switches enough to fill 128k
	for _ in $(seq 50); do [ "$(tp_links)" = 0 ] && break; sleep 0.2; done
	check swf_full_ends_it t_eq "$(tp_links)" 0
	check swf_full_walks walk swf "$FULL/f.ktr"
	umount -l "$FULL"
	trap 'user_cleanup' EXIT
else
	skip swf_full "cannot mount a tmpfs: $(head -n 1 "$TMP/mount.err")"
fi
ktr swd -S -e 'sched:sched_switch' -f "$TMP/swd.ktr"
rm -f "$TMP/swd.ktr"
for _ in $(seq 50); do [ "$(tp_links)" = 0 ] && break; sleep 0.1; done
check swd_deleted_ends_it t_eq "$(tp_links)" 0

# --- per-CPU losses: a syscall storm into the smallest buffers ---------------------------
if wait_no_daemon 15; then
	# (fewer under emulation: KTR_SWL_CALLS, tests/vm/guest.sh; 4 KiB fill in any case)
	ktr swl -b 4k -S -e raw_syscalls:sys_enter -f "$TMP/swl.ktr" "$PROGS/getppid_loop" \
		"${KTR_SWL_CALLS:-2000000}"
	check swl_exit_0 t_krc 0 swl
	"$KDUMP" -c -f "$TMP/swl.ktr" >"$TMP/swl.kdc" 2>/dev/null
	check swl_lost_said t_num "$(grep -cE ' LOST  [0-9]+ records? lost on CPU [0-9]+ \([0-9]+ in all there\)$' "$TMP/swl.kdc")" -gt 0
	check swl_lost_per_cpu cpus_ok <(grep ' LOST ' "$TMP/swl.kdc")
	check swl_records_too t_num "$(grep -c ' TRACE ' "$TMP/swl.kdc")" -gt 100
	# the CPUs' losses are the trace's too: ktraceb's last line and the END
	# count every loss its LOST records say, each once (the command's own
	# records, traced as usual, may add losses of their own)
	said_lost=$(sed -n 's/.* LOST  \([0-9]*\) records\{0,1\} lost .*/\1/p' "$TMP/swl.kdc" |
		awk '{ n += $1 } END { print n + 0 }')
	read -r _ swl_lost _ <<<"$(ktr_summary swl)"
	check swl_summary_counts_cpus t_eq "${swl_lost:-none}" "$said_lost"
	check swl_end_counts_cpus t_grep "END .*, $said_lost lost\$" "$TMP/swl.kdc"
else
	skip swl_lost "a daemon is still up"
fi

# --- a user: refused ---------------------------------------------------------------------
if user_setup; then
	uktr swu -S -e sched:sched_switch -f "$UDIR/swu.ktr"
	check swu_refused t_num "$KRC" -ne 0
	check swu_one_line t_oneline swu
	check swu_says_root t_grep '^ktraceb: -S: system-wide tracing is root.s alone' "$TMP/swu.err"
else
	skip swu "${USER_WHY:-no test user}"
fi

e2e_done
