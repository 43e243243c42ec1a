#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# Two builds side by side: a second build of the same sources in another
# directory ($O/twin/ktraceb, as "make O=$O/twin" makes it: Makefile) has a
# build id of its own, hence daemons, sockets, locks and pins of its own.
# While its root daemon traces a process and records another, and its
# user's own daemon traces one of the user's, this build does what its
# tests do to their daemons (kill -9, ktraceb -C, new daemons): the twin's
# traces go on.  A kill -9 of either build's daemon leaves its recording
# pinned for its own next daemon, and the other build's daemon, starting
# meanwhile, leaves those pins alone (ktr_pin.c).  Both builds' daemons run
# on a bpffs of their own (own_bpffs): no third build on the machine
# touches their pins.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_user.sh"
own_bpffs "$@"
need_tracer
need_att_progs
TWIN=$O/twin/ktraceb
CR=$PROGS/crasher
for p in "$TWIN" "$CR"; do
	if [ ! -x "$p" ]; then
		fail build "$p not built (make O=$O test)"
		e2e_done
	fi
done
TWIN_ID=$(sed -n 's/^#define KTRACEB_BUILD_ID "\(.*\)"$/\1/p' "$O/twin/gen/build_id.h")
TSOCK=/run/ktraceb/ktraceb-$TWIN_ID.sock
TDIR=/sys/fs/bpf/ktraceb/$TWIN_ID
BDIR=/sys/fs/bpf/ktraceb/$BUILD_ID
check ids_differ t_ne "$TWIN_ID" "$BUILD_ID"
TWIN_RX="^(@|/run/ktraceb/)ktraceb-$TWIN_ID(\\.[0-9]+|\\.sock)?\$"
SOCK_RX=$TWIN_RX kill_daemons # a twin's daemon left by an earlier run
# twin_alive PID / twin_tkill ARGS...: alive and tkill for the twin's daemons
# too, which are the test's as this build's are (lib.sh's own_pid)
twin_alive() { SOCK_RX=$TWIN_RX alive "$1"; }
twin_tkill() { SOCK_RX=$TWIN_RX tkill "$@"; }

# twin P ARGS...: the twin's ktraceb, like ktr
twin()
{
	local p=$1
	shift
	timeout -k 5 "$KTR_TIMEOUT" "$TWIN" "$@" >"$TMP/$p.out" 2>"$TMP/$p.err" </dev/null
	KRC=$?
}

# twin_gone: no daemon of the twin listens (its traces cleared)
twin_gone()
{
	local i
	for ((i = 0; i < 100; i++)); do
		! awk -v id="ktraceb-$TWIN_ID" 'index($NF, id) { f = 1 } END { exit !f }' \
			/proc/net/unix && return 0
		sleep 0.1
	done
	return 1
}

rings_in() { find "$1" -name 'flight-*' 2>/dev/null | wc -l; }

# --- the twin: a user's own daemon, a root daemon with a trace and a recording -
if user_setup; then
	cp "$TWIN" "$UBIN/twin"
	setcap cap_bpf,cap_perfmon+ep "$UBIN/twin"
	ubg tu "$UBIN/att_tick" 300 0
	TU=$(wait_role "$TMP/tu.pout" pid)
	timeout -k 5 60 setpriv --reuid="$KUID" --regid="$KGID" --init-groups -- \
		"$UBIN/twin" -f "$UDIR/tu.ktr" -p "$TU" >"$TMP/tu.out" 2>"$TMP/tu.err" </dev/null
	check twin_user_trace_set t_eq "$?" 0
	TUD=$(sock_pid "@ktraceb-$TWIN_ID.$KUID")
	check twin_user_daemon t_num "${TUD:-0}" -gt 0
else
	skip twin_user "$USER_WHY"
fi
bg tt "$ATT_TICK" 300 0
TT=$(wait_role "$TMP/tt.pout" pid)
twin tt -f "$TMP/tt.ktr" -p "$TT"
check twin_trace_set t_krc 0 tt
"$CR" loop 10 >"$TMP/tr.out" &
TR=$!
E2E_PIDS="${E2E_PIDS:-} $TR"
twin tr -R 256k -p "$TR" -f "$TMP/tr.ktr"
check twin_recording_set t_krc 0 tr
TD=$(sock_pid "$TSOCK")
check twin_daemon t_num "${TD:-0}" -gt 0
check twin_trace_grows grows "$TMP/tt.ktr"

# --- this build does what its tests do to its own daemons --------------------------
bg ot "$ATT_TICK" 300 0
OT=$(wait_role "$TMP/ot.pout" pid)
ktr ot -f "$TMP/ot.ktr" -p "$OT"
check own_trace_set t_krc 0 ot
ktr oc -C
check own_clear_all t_krc 0 oc
check own_trace_cleared stable "$TMP/ot.ktr"
ktr ot2 -f "$TMP/ot2.ktr" -p "$OT"
kill_daemons
daemon_gone 5
ktr ot3 -f "$TMP/ot3.ktr" /bin/true
check own_new_daemon t_krc 0 ot3
kill_daemons
check own_daemons_gone daemon_gone 5
check twin_daemon_lives twin_alive "$TD"
check twin_daemon_same t_eq "$(sock_pid "$TSOCK")" "$TD"
check twin_trace_still_grows grows "$TMP/tt.ktr"
if [ -n "$USER_OK" ]; then
	check twin_user_daemon_lives twin_alive "$TUD"
	check twin_user_trace_still_grows grows "$UDIR/tu.ktr"
fi

# --- pins: a kill -9 of the twin's daemon; this build's daemon starts meanwhile ----
twin_tkill -KILL "$TD"
sleep 0.2
check twin_ring_pinned t_eq "$(rings_in "$TDIR")" 1
ktr ot4 -f "$TMP/ot4.ktr" /bin/true
check own_daemon_started t_krc 0 ot4
check twin_pins_left_alone t_eq "$(rings_in "$TDIR")" 1
twin trd -D -f "$TMP/tr.ktr" # the twin's next daemon takes the recording over
check twin_dump_after_takeover t_krc 0 trd
kd tr "$TMP/tr.ktr"
check twin_recording_kept t_num "$(qn "$TMP/tr.norm" '$4 == "CALL" && $5 == "getppid"')" -gt 10

# --- and the other way round: this build's recording, the twin's daemon starting -
"$CR" loop 10 >"$TMP/or.out" &
OR=$!
E2E_PIDS="${E2E_PIDS:-} $OR"
ktr or -R 256k -p "$OR" -f "$TMP/or.ktr"
check own_recording_set t_krc 0 or
sleep 0.2
kill_daemons
sleep 0.2
check own_ring_pinned t_eq "$(rings_in "$BDIR")" 1
twin_tkill -KILL "$(sock_pid "$TSOCK")" 2>/dev/null # its daemon has a recording again
sleep 0.2
twin tw -f "$TMP/tw.ktr" /bin/true # a new daemon of the twin
check twin_daemon_started t_krc 0 tw
check own_pins_left_alone t_eq "$(rings_in "$BDIR")" 1
ktr ord -D -f "$TMP/or.ktr"
check own_dump_after_takeover t_krc 0 ord
kd or "$TMP/or.ktr"
check own_recording_kept t_num "$(qn "$TMP/or.norm" '$4 == "CALL" && $5 == "getppid"')" -gt 10

# --- the end: each build's traces ended by its own ktraceb -------------------------
ktr orc -c -p "$OR"
twin trc -c -p "$TR"
twin ttc -c -p "$TT"
[ -n "$USER_OK" ] && ktr tuc -c -p "$TU" # root's -c reaches only this build's daemons
tkill "$OR" "$TR" "$TT" 2>/dev/null
if [ -n "$USER_OK" ]; then
	check twin_user_not_reached_by_own_clear grows "$UDIR/tu.ktr"
	tkill "$TU" 2>/dev/null
fi
check twin_daemons_gone twin_gone
SOCK_RX=$TWIN_RX kill_daemons
daemon_gone 10
e2e_done
