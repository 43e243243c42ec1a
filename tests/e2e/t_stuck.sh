#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# Stuck writers (issue 39 item 3): a user makes the daemon's writes into his
# trace files never return, as a FUSE file system that does not answer
# them does; here, as in t_stall.sh, a write(2) of his own holds each
# file's inode lock, its source a mapping on a FUSE file system that does
# not answer (tests/progs/fuse_stall, its server ours).  The daemon's
# thread for such a file waits for good; each trace he ends with -c left
# that thread, with its descriptor and its queue of records, in root's
# daemon, as many as he liked.  Now:
#  - a stuck writer stays his: with 4 of them (three traces ended with -c,
#    one still running), his next trace is refused in one line that says
#    why; root and his other traces meanwhile are served;
#  - it holds no queue: his running trace's burst of records, which the old
#    writer queued up to 32 MiB of, leaves the daemon's memory as it was;
#  - once the writes return, the traces end (each file has its END) and
#    he is served again.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_user.sh"
need_tracer
need_att_progs
if ! user_setup; then
	skip all "$USER_WHY"
	e2e_done
fi
if [ ! -x "$PROGS/fuse_stall" ]; then
	fail build "$PROGS/fuse_stall not built (make O=$O test)"
	e2e_done
fi
if [ ! -c /dev/fuse ] && ! modprobe fuse 2>/dev/null; then
	skip all "no /dev/fuse on this machine"
	e2e_done
fi
cp "$PROGS/getppid_loop" "$UBIN/"
chmod 755 "$UBIN/getppid_loop"
STUCK=4 # KTR_FILES_UID_STUCK
STALLS=
MNTS=

stuck_cleanup()
{
	local p m
	for p in $STALLS; do
		tkill -USR1 "$p" 2>/dev/null
	done
	for m in $MNTS; do
		umount -l "$m" 2>/dev/null
	done
	# the traced command, if it still waits to be told (twice), ends
	for m in 1 2; do
		[ -p "$UDIR/go" ] && timeout -k 1 1 sh -c "echo go >'$UDIR/go'" 2>/dev/null
	done
	user_cleanup
}
trap 'stuck_cleanup' EXIT

# stall I: the user's file $UDIR/sI.ktr made, its inode lock held (fuse_stall)
stall()
{
	local m=$TMP/fuse$1
	mkdir "$m"
	MNTS="$MNTS $m"
	setpriv --reuid="$KUID" --regid="$KGID" --init-groups -- sh -c ": >'$UDIR/s$1.ktr'"
	"$PROGS/fuse_stall" "$m" "$UDIR/s$1.ktr" "$KUID" "$KGID" >"$TMP/fs$1.out" 2>&1 &
	STALLS="$STALLS $!"
	E2E_PIDS="${E2E_PIDS:-} $!"
	wait_line "$TMP/fs$1.out" '^(held|no-fuse)' 20 && ! grep -q '^no-fuse' "$TMP/fs$1.out"
}

# wait_file FILE SECONDS: 0 once FILE exists
wait_file()
{
	local i
	for ((i = 0; i < $2 * 20; i++)); do
		[ -e "$1" ] && return 0
		sleep 0.05
	done
	echo "    $1 did not appear in $2 s" >&2
	return 1
}

rss_kib() { awk '$1 == "VmRSS:" { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }

# refused_stuck: the user's next trace refused for his stuck files, within
# 30 s (a write is stuck after 5 s); a trace accepted meanwhile is cleared
refused_stuck()
{
	local i
	for ((i = 0; i < 60; i++)); do
		plain probe -p "$MINE" -f "$UDIR/probe.ktr"
		[ "$KRC" -ne 0 ] && return 0
		plain probec -c -f "$UDIR/probe.ktr"
		sleep 0.5
	done
	echo "    the user's trace was still accepted after 30 s" >&2
	return 1
}

# served P: the user's trace of his process into a file of its own, then cleared
served()
{
	plain "$1" -p "$MINE" -f "$UDIR/$1.ktr"
	t_krc 0 "$1" || return 1
	plain "$1c" -c -f "$UDIR/$1.ktr"
	t_grep "^ktraceb: $UDIR/$1.ktr: cleared by pid [0-9]+ \\(uid $KUID\\); [0-9]+ records written, 0 lost\$" \
		"$TMP/$1c.err"
}

# root's daemon stays up throughout; its ring touched whole before memory is measured
bg keeper "$ATT_TICK" 200 0
KEEP=$(wait_role "$TMP/keeper.pout" pid)
ktr keep -f "$TMP/keep.ktr" -p "$KEEP"
check setup_keeper_traced t_krc 0 keep
DPID=$(daemon_pid)
check setup_daemon_found t_num "${DPID:-0}" -gt 0
ktr warm -f "$TMP/warm.ktr" "$PROGS/getppid_loop" 500000
ubg mine "$UBIN/att_tick" 100 0
MINE=$(wait_role "$TMP/mine.pout" pid)

# --- three traces into stalled files, ended with -c: their writers stay ---
for i in 1 2 3; do
	if ! stall "$i"; then
		skip all "cannot mount a FUSE file system: $(head -n 1 "$TMP/fs$i.out")"
		e2e_done
	fi
	plain "t$i" -a -p "$MINE" -f "$UDIR/s$i.ktr"
	check "stalled${i}_traced" t_krc 0 "t$i"
	plain "c$i" -c -f "$UDIR/s$i.ktr"
	check "stalled${i}_cleared" t_krc 0 "c$i"
done
# --- a fourth, running: a command that makes a burst of records when told ---
stall 4
mkfifo "$UDIR/go"
chown "$KUID" "$UDIR/go"
ubg run "$UBIN/plain" -a -i -f "$UDIR/s4.ktr" sh -c \
	"read x <'$UDIR/go'; '$UBIN/getppid_loop' 1000000 >/dev/null; : >'$UDIR/burst.done'; read x <'$UDIR/go'"
RUN=$BGPID

# --- the fifth refused, in one line that says why ---
check fifth_refused refused_stuck
check fifth_one_line t_oneline probe
check fifth_says_why t_grep \
	"^ktraceb: too many stuck trace files for uid $KUID \\(a user may have $STUCK at once\\): their writes have not returned for 5 s\$" \
	"$TMP/probe.err"
ktr root1 -f "$TMP/root1.ktr" "$PROGS/getppid_loop" 1000
check root_served_meanwhile t_krc 0 root1

# --- the running trace's burst: nothing of it is held for the stuck file ---
RSS0=$(rss_kib "$DPID")
echo go >"$UDIR/go"
check burst_made wait_file "$UDIR/burst.done" 60
# the ring thread's queue may hold some of the burst while the loop is busy
# (ktr_queue.h): its memory goes once the loop has routed it
grown_less() {
	RSS1=$(rss_kib "$DPID")
	[ $((RSS1 - RSS0)) -lt 16384 ]
}
wait_until 10 grown_less 2>/dev/null
check burst_not_held t_num $((RSS1 - RSS0)) -lt 16384 "KiB the daemon grew by ($RSS0 to $RSS1)"
echo "INFO: the daemon's memory during the stuck file's burst: $RSS0 KiB, then $RSS1 KiB" >&2

# --- the writes return: every trace ends, the user is served again ---
for p in $STALLS; do
	tkill -USR1 "$p" 2>/dev/null
done
for i in 1 2 3 4; do
	wait_line "$TMP/fs$i.out" '^released$' 30
done
STALLS=
echo go >"$UDIR/go"
wait_exit "$RUN" 60
check running_trace_ends t_eq "$WRC" 0
for i in 1 2 3 4; do
	kd "s$i" "$UDIR/s$i.ktr"
	check "stalled${i}_has_its_end" t_eq "$(tail -n 1 "$TMP/s$i.norm" | cut -f4)" END
done
check served_again served again
ktr keepc -c -f "$TMP/keep.ktr"
e2e_done
