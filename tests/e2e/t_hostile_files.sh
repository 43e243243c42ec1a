#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# t_hostile.sh's section 5, the per-user limit of trace files, in a script
# of its own (1025 traces set by one hostile client take a busy machine a
# minute and more): 1025 of the user's processes, one SET each into a file
# of its own, 1024 let in and the 1025th refused with the reason; root
# still served; the daemon's descriptors closed again when they end.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_user.sh"
need_tracer
need_att_progs
. "$(dirname "$0")/lib_hostile.sh"

hostile_keeper
mkdir -m 755 "$UDIR/files"
chown "$KUID" "$UDIR/files"
# 1025 of the user's processes that live until killed: with a lifetime of
# their own (sleep 120), a busy machine's first ones had ended, and their
# traces with them, before the last were traced, and 1025 traces were open
# at once no more.  Their shell waits for them (they stay the test's).
as_user sh -c 'i=0; while [ $i -lt 1025 ]; do sleep 100000 & echo $!; i=$((i+1)); done; wait' \
	>"$TMP/sleepers" 2>/dev/null </dev/null &
E2E_PIDS="${E2E_PIDS:-} $!"
check files_sleepers_started wait_until 120 eval '[ "$(wc -l <"$TMP/sleepers")" -ge 1025 ]'
E2E_PIDS="${E2E_PIDS:-} $(tr '\n' ' ' <"$TMP/sleepers")"
HOSTILE_LIMIT=200 hostile files "$ROOT_SOCK" files "$UDIR/files" "$TMP/sleepers"
check files_1024_at_once t_eq "$(hval files ok)" 1024
check files_limit_message t_grep "last=too many traces for uid $KUID" "$TMP/files.h"
check files_root_served root_works files_root
check files_daemon_fds t_num "$(fdcount "$DPID")" -ge 1024
tkill $(cat "$TMP/sleepers") 2>/dev/null
# 1025 ends to see: a busy machine's daemon takes seconds
for ((i = 0; i < 600; i++)); do
	[ "$(fdcount "$DPID")" -le $((FD0 + 8)) ] && break
	sleep 0.1
done
check files_closed_when_done t_num "$(fdcount "$DPID")" -le $((FD0 + 8))

ktr keepc -c -p "$KEEP"
tkill "$KEEP" 2>/dev/null
wait_no_daemon 15
e2e_done
