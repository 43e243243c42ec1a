#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# BSD's permission rules (ktrcanset) for an unprivileged user with a
# cap_bpf,cap_perfmon copy of ktraceb: the user traces its own processes,
# into a file it owns, and is refused (one line, exit 1, nothing traced) on a
# root process, a set-id process, a process that made itself non-dumpable
# and a process root set tracing on; its -C leaves root's tracing alone.
# Without the capabilities (and no daemon running) ktraceb fails cleanly.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_user.sh"
need_tracer
need_att_progs
if ! user_setup; then
	skip all "$USER_WHY"
	e2e_done
fi

# user_refused NAME PID REASON: the user's -p PID is refused with REASON and
# PID's records go nowhere the user can see
user_refused()
{
	local name=$1 pid=$2 why=$3 f
	uktr "$name" -f "$UDIR/$name.ktr" -p "$pid"
	check "${name}_exit_1" t_krc 1 "$name"
	check "${name}_message" t_eq "$(cat "$TMP/$name.err")" "ktraceb: pid $pid: $why"
	sleep 0.5
	for f in "$UDIR"/*.ktr; do
		kd "$name.scan" "$f"
		if ! t_no_pid "$TMP/$name.scan.norm" "$pid"; then
			fail "${name}_not_traced" "pid $pid has records in $f"
			return
		fi
	done
	pass "${name}_not_traced"
}

# --- without capabilities: a clean error (only testable with no daemon up,
# since a running daemon would serve the plain binary too) ---
if wait_no_daemon 15; then
	ubg plain "$ATT_TICK" 20 0
	P0=$(wait_role "$TMP/plain.pout" pid)
	timeout -k 5 "$KTR_TIMEOUT" setpriv --reuid="$KUID" --regid="$KGID" --init-groups -- \
		"$UBIN/plain" -f "$UDIR/plain.ktr" -p "$P0" >"$TMP/plain.out" 2>"$TMP/plain.err" \
		</dev/null
	KRC=$?
	check plain_fails t_num "$KRC" -ne 0
	check plain_one_line_error t_oneline plain
	check plain_names_capabilities t_grep 'CAP_BPF|root' "$TMP/plain.err"
	sleep 0.3
	check plain_no_daemon_left t_eq "$(daemon_sockets | tr '\n' ' ')" ""
	tkill "$P0" 2>/dev/null
else
	skip plain_fails "a ktraceb daemon stays up: $(daemon_sockets | tr '\n' ' ')"
fi

# --- the user's own process, into the user's own file ---
ubg own "$UBIN/att_tick" 20 3000
U1=$(wait_role "$TMP/own.pout" pid)
uktr own -f "$UDIR/own.ktr" -p "$U1"
check own_exit_0 t_krc 0 own
check own_silent t_lines 0 "$TMP/own.err"
check own_file_grows grows "$UDIR/own.ktr"
check own_file_owner t_eq "$(stat -c %U:%G "$UDIR/own.ktr")" "$KUSER:$(id -gn "$KUSER")"
check own_file_mode_0600 t_eq "$(stat -c %a "$UDIR/own.ktr")" 600

# a root process, a set-id one and a non-dumpable one: refused
bg rootp "$ATT_TICK" 20 0
R=$(wait_role "$TMP/rootp.pout" pid)
user_refused root_process "$R" "not your process"

ubg suid "$UBIN/suidsleep" 60
S=$BGPID
for ((i = 0; i < 100; i++)); do
	[ "$(readlink "/proc/$S/exe" 2>/dev/null)" = "$UBIN/suidsleep" ] && break
	sleep 0.05
done
check suid_runs_setuid t_eq "$(awk '$1 == "Uid:" { print $2, $3 }' "/proc/$S/status")" "$KUID 0"
user_refused suid_process "$S" "set-id process (real and saved ids differ)"

ubg nodump "$UBIN/att_tick" 20 3000 4343 nodump
ND=$(wait_role "$TMP/nodump.pout" pid)
user_refused nodump_process "$ND" "process gained privileges by exec (not dumpable)"

# --- a process root traces: the user can neither take it nor clear it ---
ubg rs "$UBIN/att_tick" 20 3000
U2=$(wait_role "$TMP/rs.pout" pid)
ktr rootset -f "$TMP/rootset.ktr" -p "$U2"
check rootset_root_exit_0 t_krc 0 rootset
user_refused rootset "$U2" "tracing on it was set by root"
check rootset_root_file_still_grows grows "$TMP/rootset.ktr"
uktr rootset_clear -c -p "$U2"
check rootset_user_clear_refused t_krc 1 rootset_clear
check rootset_user_clear_message t_eq "$(cat "$TMP/rootset_clear.err")" \
	"ktraceb: pid $U2: tracing on it was set by root"
check rootset_root_file_grows_after_clear grows "$TMP/rootset.ktr"

# --- the user's own trace survives a root daemon coming up: the user can
# still clear it (own.ktr was set up before root traced anything here) ---
uktr own_clear -c -p "$U1"
check own_clear_exit_0 t_krc 0 own_clear
# Nothing, or the file's end line: a root daemon that was up before the
# user's trace (another checkout's of this build) served it, and a clear
# that ends a trace says so (t_attach); the user's own daemon's answer is
# not relayed (ktr_others.h).
grep -Ev "^ktraceb: $UDIR/own.ktr: cleared by pid [0-9]+ \\(uid $KUID\\); [0-9]+ records written, 0 lost\$" \
	"$TMP/own_clear.err" >"$TMP/own_clear.other"
check own_clear_says_no_more t_lines 0 "$TMP/own_clear.other"
check own_clear_stops stable "$UDIR/own.ktr"
kd own "$UDIR/own.ktr"
check own_kdump_clean t_kdump_ok own
check own_records_of_pid t_has_pid "$TMP/own.norm" "$U1"
check own_getpriority_calls t_num "$(qn "$TMP/own.norm" '$1 == p && $4 == "CALL" &&
	$5 ~ /^getpriority\(PRIO_PROCESS,(4343|0x10f7)\)$/' p="$U1")" -ge 5
check own_only_pid t_eq "$(pids_of "$TMP/own.norm")" "$U1"

# --- -C by the user: clears the user's own tracing, not root's ---
ubg mine "$UBIN/att_tick" 20 3000
U3=$(wait_role "$TMP/mine.pout" pid)
uktr mine -f "$UDIR/mine.ktr" -p "$U3"
check C_user_trace_exit_0 t_krc 0 mine
check C_user_trace_grows grows "$UDIR/mine.ktr"
uktr userC -C
check C_user_exit_0 t_krc 0 userC
check C_user_clears_own stable "$UDIR/mine.ktr"
check C_user_leaves_root grows "$TMP/rootset.ktr"
ktr rootc -c -f "$TMP/rootset.ktr"
check C_root_clearfile_exit_0 t_krc 0 rootc
check C_root_clearfile_stops stable "$TMP/rootset.ktr"
kd rootset "$TMP/rootset.ktr"
check rootset_kdump_clean t_kdump_ok rootset
check rootset_only_pid t_eq "$(pids_of "$TMP/rootset.norm")" "$U2"

e2e_done
