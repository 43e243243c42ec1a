#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# SIGINT or SIGTERM to ktraceb while the command is busy: tracing stops, the
# summary is printed, and the file is whole (walks to EOF, kdump reads it all
# without complaint).  Also a ^C to the whole process group, and a SIGINT
# while ktraceb waits for a command whose trace ended early.
. "$(dirname "$0")/lib.sh"
need_tracer

# wait_gone PID SECONDS: 0 once PID has exited
wait_gone()
{
	local i
	for ((i = 0; i < $2 * 10; i++)); do
		tkill -0 "$1" 2>/dev/null || return 0
		sleep 0.1
	done
	return 1
}

# wait_file FILE SECONDS: 0 once FILE is non-empty
wait_file()
{
	local i
	for ((i = 0; i < $2 * 10; i++)); do
		[ -s "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

# interrupt NAME SIG GROUP: trace getppid_loop forever, send SIG to ktraceb
# (GROUP=1: to its whole process group, as a terminal's ^C does)
interrupt()
{
	local name=$1 sig=$2 group=$3 kpid cpid
	rm -f "$TMP/$name.pid"
	if [ "$group" = 1 ]; then
		set -m
	fi
	"$KTRACEB" -f "$TMP/$name.ktr" "$PROGS/getppid_loop" 0 "$TMP/$name.pid" \
		>"$TMP/$name.out" 2>"$TMP/$name.err" </dev/null &
	kpid=$!
	set +m
	E2E_PIDS="$kpid"
	if ! wait_file "$TMP/$name.pid" 30; then
		fail "${name}_command_started" "no pid file after 30 s"
		tkill -KILL "$kpid" 2>/dev/null
		return
	fi
	cpid=$(cat "$TMP/$name.pid")
	E2E_PIDS="$kpid $cpid"
	sleep 1
	if [ "$group" = 1 ]; then
		tkill -"$sig" -g "$kpid"
	else
		tkill -"$sig" "$kpid"
	fi
	check "${name}_ktraceb_stops" wait_gone "$kpid" 20
	wait "$kpid"
	KRC=$?
	tkill -KILL "$cpid" 2>/dev/null
	wait_gone "$cpid" 5
	E2E_PIDS=
	check "${name}_summary_line" t_grep \
		"^ktraceb: [0-9]+ records written to $TMP/$name.ktr, [0-9]+ lost\$" "$TMP/$name.err"
	check "${name}_mode_0600" t_eq "$(stat -c %a "$TMP/$name.ktr" 2>&1)" 600
	check "${name}_walks_to_eof" walk "$name" "$TMP/$name.ktr"
	read -r nrec nlost _ <<<"$(ktr_summary "$name")"
	check "${name}_summary_counts_records" t_eq "${nrec:-none}" "$(walkval "$name" records)"
	kd "$name" "$TMP/$name.ktr"
	check "${name}_kdump_clean" t_kdump_ok "$name"
	# if the command's end is in the trace, ktraceb's status says the same
	local body want calls rets
	body=$(q "$TMP/$name.norm" '$1 == p && $4 == "EXIT"' p="$cpid" | cut -f5)
	case $body in
	"exited "*) want=${body#exited } ;;
	"killed by SIG"*) want=$((128 + $(kill -l "${body#killed by SIG}"))) ;;
	*) want= ;;
	esac
	if [ -n "$want" ]; then
		check "${name}_status_matches_exit_record" t_eq "$KRC" "$want" "$body"
	fi
	calls=$(qn "$TMP/$name.norm" '$1 == p && $4 == "CALL" && $5 == "getppid"' p="$cpid")
	rets=$(qn "$TMP/$name.norm" '$1 == p && $4 == "RET" && $5 ~ /^getppid /' p="$cpid")
	check "${name}_traced_calls" t_num "$calls" -gt 1000
	# the last call may have had no return; a RET lost (counted, a busy
	# machine's stage not sent on in time) leaves its CALL alone too
	check "${name}_calls_paired" t_num $((calls - rets)) -le $((1 + ${nlost:-0})) \
		"CALL $calls RET $rets, $nlost lost"
}

interrupt sigint INT 0
interrupt sigterm TERM 0
interrupt ctrl_c INT 1

# A trace that ended before its command (its file system full): ktraceb says
# so and waits for the command, and a SIGINT still ends that wait at once
FULL=$TMP/full
mkdir "$FULL"
if mount -t tmpfs -o size=256k none "$FULL" 2>"$TMP/mount.err"; then
	trap 'umount -l "$FULL" 2>/dev/null; e2e_cleanup' EXIT
	rm -f "$TMP/early.pid"
	"$KTRACEB" -f "$FULL/t.ktr" "$PROGS/getppid_loop" 0 "$TMP/early.pid" \
		>"$TMP/early.out" 2>"$TMP/early.err" </dev/null &
	kpid=$!
	E2E_PIDS="$kpid"
	wait_file "$TMP/early.pid" 30
	cpid=$(cat "$TMP/early.pid" 2>/dev/null)
	E2E_PIDS="$kpid ${cpid:-}"
	for ((i = 0; i < 300; i++)); do
		grep -q '^ktraceb: waiting for ' "$TMP/early.err" && break
		sleep 0.1
	done
	check early_end_said t_grep "^ktraceb: $FULL/t.ktr: No space left on device; tracing stopped" \
		"$TMP/early.err"
	check early_end_waits t_grep "^ktraceb: waiting for .*getppid_loop \(pid ${cpid:-x}\)\$" \
		"$TMP/early.err"
	tkill -INT "$kpid"
	check early_end_sigint_stops wait_gone "$kpid" 20
	tkill -KILL "$kpid" 2>/dev/null # one that did not stop is not waited for forever
	wait "$kpid"
	check early_end_sigint_status t_eq "$?" 130
	tkill -KILL "$cpid" 2>/dev/null
	E2E_PIDS=
	umount -l "$FULL"
else
	skip early_end "cannot mount a tmpfs: $(head -n 1 "$TMP/mount.err")"
fi

e2e_done
