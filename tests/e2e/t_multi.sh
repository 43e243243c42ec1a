#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# Several traces at once, by root and by an unprivileged user: each file gets
# exactly its own processes' records, and all of them share one set of BPF
# programs (one daemon), not one set per ktraceb command.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_user.sh"
need_tracer
need_att_progs
user_setup

bg x1 "$ATT_TICK" 20 0
X1=$(wait_role "$TMP/x1.pout" pid)
bg x2 "$ATT_TICK" 20 0 4444
X2=$(wait_role "$TMP/x2.pout" pid)
ktr t1 -f "$TMP/one.ktr" -p "$X1"
check root1_exit_0 t_krc 0 t1
ktr t2 -f "$TMP/two.ktr" -p "$X2"
check root2_exit_0 t_krc 0 t2

# a command traced at the same time, in its own file
"$KTRACEB" -f "$TMP/cmd.ktr" "$ATT_TICK" 20 100 7777 >"$TMP/cmd.out" 2>"$TMP/cmd.err" </dev/null &
CMDK=$!
E2E_PIDS="$E2E_PIDS $CMDK"
XC=$(wait_role "$TMP/cmd.out" pid)

# and the test user's own process, traced by the user
if [ -n "$USER_OK" ]; then
	ubg xu "$UBIN/att_tick" 20 3000 5555
	XU=$(wait_role "$TMP/xu.pout" pid)
	uktr tu -f "$UDIR/user.ktr" -p "$XU"
	check user_exit_0 t_krc 0 tu
else
	skip user "$USER_WHY"
fi

check one_grows grows "$TMP/one.ktr"
check two_grows grows "$TMP/two.ktr"
check cmd_grows grows "$TMP/cmd.ktr"
[ -n "$USER_OK" ] && check user_grows grows "$UDIR/user.ktr"
# one daemon writes every file: the FILEINFO record (INFO) carries its pid (info_pid)
D=$(info_pid "$TMP/one.ktr")
check same_daemon_root t_eq "$(info_pid "$TMP/two.ktr") $(info_pid "$TMP/cmd.ktr")" "$D $D"
[ -n "$USER_OK" ] && check same_daemon_user t_eq "$(info_pid "$UDIR/user.ktr")" "$D"
if [ -x /usr/sbin/bpftool ]; then
	foreign=$(foreign_sockets)
	/usr/sbin/bpftool prog show 2>/dev/null |
		awk '$3 == "name" && $4 == "ktr_syscall_enter" { sub(/:$/, "", $1); print $1 }' \
			>"$TMP/enter.ids"
	# another build's programs kept for its next daemon (its cache) are not a set it
	# runs, nor are those a killed daemon of another build left recording (its links)
	for f in /sys/fs/bpf/ktraceb/*/cache-*/prog-ktr_syscall_enter \
		/sys/fs/bpf/ktraceb/*/link-ktr_syscall_enter; do
		case $f in
		/sys/fs/bpf/ktraceb/"$BUILD_ID"/*) continue ;;
		*/link-*)
			[ -e "$f" ] && /usr/sbin/bpftool link show pinned "$f" 2>/dev/null |
				awk 'NR == 1 { for (i = 1; i < NF; i++) if ($i == "prog") print $(i + 1) }'
			;;
		*)
			[ -e "$f" ] && /usr/sbin/bpftool prog show pinned "$f" 2>/dev/null |
				awk -F: 'NR == 1 { print $1 }'
			;;
		esac
	done >"$TMP/kept.ids"
	grep -vxF -f "$TMP/kept.ids" "$TMP/enter.ids" >"$TMP/running.ids" || true
	held=$(grep -h '^prog_id:' /proc/"${D:-0}"/fdinfo/* 2>/dev/null | awk '{ print $2 }' |
		sort -u | grep -cxF -f "$TMP/enter.ids")
	check daemon_one_program t_eq "$held" 1 "ktr_syscall_enter programs held by daemon $D"
	# other ktraceb builds on this machine may run daemons of their own (before
	# the programs were listed, or since)
	foreign=$((foreign + $(foreign_sockets)))
	if [ "$foreign" -eq 0 ]; then
		check one_program_set t_eq "$(wc -l <"$TMP/running.ids")" 1 \
			"ktr_syscall_enter programs loaded"
	else
		skip one_program_set "$foreign foreign ktraceb daemon sockets on this machine"
	fi
else
	skip one_program_set "no /usr/sbin/bpftool"
fi
sleep 0.5

wait_exit "$CMDK" 30
check cmd_exit_0 t_eq "$WRC" 0
check cmd_summary t_grep "^ktraceb: [0-9]+ records written to $TMP/cmd.ktr, 0 lost\$" "$TMP/cmd.err"
ktr c1 -c -p "$X1"
rc1=$KRC
ktr c2 -c -p "$X2"
check clear_exit_0 t_eq "$rc1 $KRC" "0 0"
[ -n "$USER_OK" ] && uktr cu -c -p "$XU"
check one_stops stable "$TMP/one.ktr"
check two_stops stable "$TMP/two.ktr"

# own_only NAME FILE PID TAG: FILE holds PID's records only, getpriority(TAG)
own_only()
{
	kd "$1" "$2"
	check "${1}_kdump_clean" t_kdump_ok "$1"
	check "${1}_only_its_pid" t_eq "$(pids_of "$TMP/$1.norm")" "$3"
	check "${1}_its_calls" t_num "$(qn "$TMP/$1.norm" '$4 == "CALL" && $5 ~ r' \
		r="^getpriority[(]PRIO_PROCESS,($4|$(hexof "$4"))[)]\$")" -ge 5
	check "${1}_no_other_calls" t_eq "$(qn "$TMP/$1.norm" '$4 == "CALL" &&
		$5 ~ /^getpriority/ && $5 !~ r' r="^getpriority[(]PRIO_PROCESS,($4|$(hexof "$4"))[)]\$")" 0
}
own_only one "$TMP/one.ktr" "$X1" 4343
own_only two "$TMP/two.ktr" "$X2" 4444
own_only cmd "$TMP/cmd.ktr" "$XC" 7777
[ -n "$USER_OK" ] && own_only user "$UDIR/user.ktr" "$XU" 5555

# --- the user's daemon came first, then root's: a move by the user must still
# move (its process must not end up traced by both daemons) ---
if [ -z "$USER_OK" ]; then
	skip user_first "$USER_WHY"
elif ! wait_no_daemon 15; then
	skip user_first "a ktraceb daemon stays up: $(daemon_sockets | tr '\n' ' ')"
else
	uktr ua -f "$UDIR/ua.ktr" -p "$XU"
	check user_first_exit_0 t_krc 0 ua
	check user_first_own_daemon t_eq "$(daemon_sockets | tr '\n' ' ')" "@ktraceb-$BUILD_ID.$KUID "
	ktr r3 -f "$TMP/three.ktr" -p "$X1"
	check user_first_root_exit_0 t_krc 0 r3
	uktr ub -f "$UDIR/ub.ktr" -p "$XU"
	check user_first_move_exit_0 t_krc 0 ub
	check user_first_new_file_grows grows "$UDIR/ub.ktr"
	check user_first_old_file_stops stable "$UDIR/ua.ktr"
	uktr ubc -c -p "$XU"
	check user_first_clear_exit_0 t_krc 0 ubc
	check user_first_clear_stops stable "$UDIR/ub.ktr"
	check user_first_clear_stops_all stable "$UDIR/ua.ktr"
	ktr r3c -c -p "$X1"
fi

e2e_done
