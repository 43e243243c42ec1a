#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# A share per user (src/ktraceb/daemon/requests/ktr_share.h): a user other than root
# holds at most a quarter of each pool root's daemon holds for users, and
# users together never its last eighth.  A hostile user (the test user,
# speaking the protocol with tests/progs/ktr_hostile.c, and with ktraceb
# itself) takes his whole share of syscall selections, recorders, trace
# files and connections; root and a second user still get each, and the
# user's next request is refused in one line naming the limit.  Four users
# together take all users may have of the selections: root still gets one.
# (The rule's numbers for every pool: tests/unit/test_share.c.)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_user.sh"
need_tracer
need_att_progs
if ! user_setup; then
	skip all "$USER_WHY"
	e2e_done
fi
if [ ! -x "$PROGS/ktr_hostile" ]; then
	fail build "$PROGS/ktr_hostile not built (make O=$O test)"
	e2e_done
fi
cp "$PROGS/ktr_hostile" "$UBIN/"
ROOT_SOCK=/run/ktraceb/ktraceb-$BUILD_ID.sock

# Three more users, by number only (setpriv needs no passwd entry): the
# first free uids from 61000 on.
OTHERS=
for ((u = 61000; u < 62000; u++)); do
	getent passwd "$u" >/dev/null && continue
	OTHERS="$OTHERS $u"
	[ "$(echo $OTHERS | wc -w)" -eq 3 ] && break
done
set -- $OTHERS
UB=$1 UC=$2 UD=$3
for u in $UB $UC $UD; do
	mkdir -m 755 "$TMP/u$u"
	chown "$u:$u" "$TMP/u$u"
done

# as_uid UID CMD...: CMD as that user (the test user's uid: with its groups)
as_uid()
{
	local u=$1
	shift
	if [ "$u" = "$KUID" ]; then
		setpriv --reuid="$KUID" --regid="$KGID" --init-groups -- "$@"
	else
		setpriv --reuid="$u" --regid="$u" --clear-groups -- "$@"
	fi
}

# udir UID: where that user's files go
udir()
{
	if [ "$1" = "$KUID" ]; then echo "$UDIR"; else echo "$TMP/u$1"; fi
}

# sleepers UID N P: N sleeping processes of that user, their pids in $TMP/P.pids.
# They live until killed (stop_sleepers), and their shell waits for them:
# with a lifetime of their own (300 s), a busy machine's first ones of 1025
# had ended, and their traces, before the last was traced, and the per-user
# limit let more in than it holds at once.
sleepers()
{
	local pids=$TMP/$3.pids n=$2
	as_uid "$1" sh -c 'i=0; while [ $i -lt '"$2"' ]; do sleep 100000 & echo $!; i=$((i+1)); done; wait' \
		>"$TMP/$3.pids" 2>/dev/null </dev/null &
	E2E_PIDS="${E2E_PIDS:-} $!"
	wait_until 120 eval '[ "$(wc -l <"$pids")" -ge "$n" ]'
	E2E_PIDS="${E2E_PIDS:-} $(tr '\n' ' ' <"$TMP/$3.pids")"
}

# files UID P [VAR=VALUE...]: ktr_hostile's "files" as that user, for the
# pids in $TMP/P.pids, each into a new file of its own; output in $TMP/P.h
files()
{
	local u=$1 p=$2 d
	shift 2
	d=$(udir "$u")/$p
	mkdir -m 755 "$d"
	chown "$u" "$d"
	env "$@" timeout -k 5 200 setpriv --reuid="$u" --regid="$(id -g "$u" 2>/dev/null || echo "$u")" \
		--clear-groups -- "$UBIN/ktr_hostile" "$ROOT_SOCK" files "$d" "$TMP/$p.pids" \
		>"$TMP/$p.h" 2>"$TMP/$p.herr" </dev/null
}

hval()
{
	grep -o "$2=[^ ]*" "$TMP/$1.h" | head -n 1 | cut -d= -f2-
}

# plain P UID ARGS...: ktraceb without capabilities as that user (served by root's daemon);
# lib_user.sh's plain, for any user
plain()
{
	local p=$1 u=$2
	shift 2
	as_uid "$u" timeout -k 5 "$KTR_TIMEOUT" "$UBIN/plain" "$@" >"$TMP/$p.out" \
		2>"$TMP/$p.err" </dev/null
	KRC=$?
}

fdcount()
{
	ls "/proc/$1/fd" 2>/dev/null | wc -l
}

# settled: the daemon's descriptors back to what they were at the start
# (the traces of the sleepers killed have ended)
settled()
{
	local i
	for ((i = 0; i < 600; i++)); do
		[ "$(fdcount "$DPID")" -le $((FD0 + 4)) ] && return 0
		sleep 0.1
	done
	echo "    the daemon has $(fdcount "$DPID") descriptors, $FD0 at the start" >&2
	return 1
}

# stop_sleepers P: the sleepers of $TMP/P.pids killed, their traces ended
stop_sleepers()
{
	tkill $(cat "$TMP/$1.pids") 2>/dev/null
}

# root_gets P ARGS...: root's ktraceb traces /bin/true with ARGS into a file of its
# own (a recorder: nothing triggered, nothing written)
root_gets()
{
	ktr "$1" "${@:2}" -f "$TMP/$1.ktr" /bin/true
	[ "$KRC" -eq 0 ] && grep -Eq "records written|recorder: nothing triggered" "$TMP/$1.err" &&
		return 0
	echo "    root's ktraceb exit $KRC: $(head -n 2 "$TMP/$1.err")" >&2
	return 1
}

# root's daemon stays up throughout
bg keeper "$ATT_TICK" 300 0
KEEP=$(wait_role "$TMP/keeper.pout" pid)
ktr keep -f "$TMP/keep.ktr" -p "$KEEP"
check setup_keeper_traced t_krc 0 keep
DPID=$(daemon_pid)
check setup_daemon_found t_num "${DPID:-0}" -gt 0
FD0=$(fdcount "${DPID:-0}")

# --- syscall selections: 255 slots, 63 a user's, 224 users' together ----------
sleepers "$KUID" 64 selA
files "$KUID" selA KTR_HOSTILE_SELECT=1
check sel_user_share_taken t_eq "$(hval selA ok)" 63
check sel_user_next_refused t_grep \
	"last=.*too many traces with a syscall selection for uid $KUID \(a user may have 63 at once\)" \
	"$TMP/selA.h"
sleepers "$KUID" 1 selA1
plain sel_one "$KUID" -e trace=read -f "$UDIR/sel_one.ktr" -p "$(cat "$TMP/selA1.pids")"
check sel_user_ktraceb_refused t_krc 1 sel_one
check sel_user_ktraceb_one_line t_oneline sel_one
check sel_user_ktraceb_names_limit t_grep 'too many traces with a syscall selection for uid' \
	"$TMP/sel_one.err"
# the user's traces without a selection still start: only the selections are full
plain sel_none "$KUID" -f "$UDIR/sel_none.ktr" -p "$(cat "$TMP/selA1.pids")"
check sel_user_unselected_trace_starts t_krc 0 sel_none
check sel_root_gets_one root_gets sel_root -e trace=read
sleepers "$UB" 63 selB
files "$UB" selB KTR_HOSTILE_SELECT=1
check sel_second_user_share t_eq "$(hval selB ok)" 63
sleepers "$UC" 63 selC
files "$UC" selC KTR_HOSTILE_SELECT=1
check sel_third_user_share t_eq "$(hval selC ok)" 63
# 189 taken; the fourth user gets 224 - 189 = 35, then users together are refused
sleepers "$UD" 36 selD
files "$UD" selD KTR_HOSTILE_SELECT=1
check sel_users_together_until_root_part t_eq "$(hval selD ok)" 35
check sel_users_together_refused t_grep \
	'last=.*too many traces with a syscall selection for users together \(they may have 224 at once; the last 31 are root.s\)' \
	"$TMP/selD.h"
check sel_root_still_gets_one root_gets sel_root2 -e trace=read
for p in selA selA1 selB selC selD; do
	stop_sleepers $p
done
check sel_traces_ended settled

# --- recorders (-R): a user's rings at most 256 MiB ------------------------------
sleepers "$KUID" 5 recA
files "$KUID" recA KTR_HOSTILE_FLIGHT=$((64 << 20))
check rec_user_share_taken t_eq "$(hval recA ok)" 4
check rec_user_next_refused t_grep \
	"last=too many MiB of recorder rings for uid $KUID \(a user may have 256 at once\)" \
	"$TMP/recA.h"
sleepers "$KUID" 1 recA1
plain rec_one "$KUID" -R 64k -f "$UDIR/rec_one.ktr" -p "$(cat "$TMP/recA1.pids")"
check rec_user_ktraceb_refused t_krc 1 rec_one
check rec_user_ktraceb_one_line t_oneline rec_one
check rec_user_ktraceb_names_limit t_grep 'too many MiB of recorder rings for uid' \
	"$TMP/rec_one.err"
sleepers "$UB" 1 recB
files "$UB" recB KTR_HOSTILE_FLIGHT=$((64 << 20))
check rec_second_user_gets_one t_eq "$(hval recB ok)" 1
check rec_root_gets_one root_gets rec_root -R 64m
for p in recA recA1 recB; do
	stop_sleepers $p
done
check rec_traces_ended settled

# --- trace files: 1024 a user's --------------------------------------------------
sleepers "$KUID" 1025 fileA
files "$KUID" fileA
check files_user_share_taken t_eq "$(hval fileA ok)" 1024
check files_user_next_refused t_grep \
	"last=too many traces for uid $KUID \(a user may have 1024 at once\)" "$TMP/fileA.h"
sleepers "$KUID" 1 fileA1
plain file_one "$KUID" -f "$UDIR/file_one.ktr" -p "$(cat "$TMP/fileA1.pids")"
check files_user_ktraceb_refused t_krc 1 file_one
check files_user_ktraceb_one_line t_oneline file_one
check files_user_ktraceb_names_limit t_grep 'too many traces for uid' "$TMP/file_one.err"
sleepers "$UB" 1 fileB
plain file_b "$UB" -f "$TMP/u$UB/file_b.ktr" -p "$(cat "$TMP/fileB.pids")"
check files_second_user_gets_one t_krc 0 file_b
check files_root_gets_one root_gets file_root
for p in fileA fileA1 fileB; do
	stop_sleepers $p
done
check files_traces_ended settled

# --- connections: 256 a user's, 896 users' together -----------------------------
# (idle ones are closed after 3 s: the checks run within that)
# conns P UID N: N idle connections of that user in the background, output in $TMP/P.h
conns()
{
	as_uid "$2" "$UBIN/ktr_hostile" "$ROOT_SOCK" conns "$3" 4 >"$TMP/$1.h" 2>&1 &
	CPIDS="$CPIDS $!"
}
CPIDS=
conns connA "$KUID" 300
sleep 1.2
plain conn_a "$KUID" -f "$UDIR/conn_a.ktr" /bin/true
plain conn_b "$UB" -f "$TMP/u$UB/conn_b.ktr" /bin/true
check conns_root_served root_gets conn_root
wait $CPIDS
check conns_user_refused t_grep \
	"too many connections for uid $KUID \(a user may have 256 at once\)" "$TMP/conn_a.err"
check conns_user_one_line t_oneline conn_a
check conns_second_user_served t_krc 0 conn_b
check conns_user_share_taken t_eq $(($(hval connA opened) - $(hval connA refused))) 256
CPIDS=
conns connA2 "$KUID" 300
conns connB "$UB" 300
conns connC "$UC" 300
conns connD "$UD" 200
sleep 1.2
plain conn_d "$UD" -f "$TMP/u$UD/conn_d.ktr" /bin/true
check conns_users_root_served root_gets conn_root2
wait $CPIDS
check conns_users_together_refused t_grep \
	"too many connections for users together \(they may have 896 at once; the last 128 are root.s\)" \
	"$TMP/conn_d.err"
TAKEN=0
for p in connA2 connB connC connD; do
	TAKEN=$((TAKEN + $(hval $p opened) - $(hval $p refused)))
done
check conns_users_together_taken t_eq "$TAKEN" 896

check daemon_still_the_same t_eq "$(daemon_pid)" "$DPID"
ktr keepc -c -p "$KEEP"
e2e_done
