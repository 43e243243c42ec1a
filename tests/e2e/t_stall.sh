#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# A stuck trace file stalls only itself (issue 31): a user holds his own
# trace file's inode lock with a write(2) whose source is a mapping of a
# file on a FUSE file system that does not answer (tests/progs/fuse_stall,
# its server ours), while his traced command makes records in bursts.
# Meanwhile root and another user trace commands through root's daemon: both
# complete while the stall is still held, and lose nothing.  Then the stall
# is let go: the user's trace ends, the records its file could not take in
# time counted lost there (its END and its ktraceb's summary), the file whole.
# The daemon writes each file on a thread of its own; with the old single
# loop, root's ktraceb timed out here.  KTR_STALL_SECONDS (10) the stall;
# bench/stall.sh holds it 60 s and prints the times.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_user.sh"
need_tracer
need_att_progs
STALL=${KTR_STALL_SECONDS:-10}
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
MNT=$TMP/fuse
mkdir "$MNT"
OTHER=65534 # a second user: nobody
mkdir -m 755 "$TMP/n"
chown "$OTHER:$OTHER" "$TMP/n"
FS=

stall_cleanup()
{
	[ -n "$FS" ] && tkill -USR1 "$FS" 2>/dev/null && sleep 0.5
	umount -l "$MNT" 2>/dev/null
	user_cleanup
}
trap 'stall_cleanup' EXIT

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# traced P WHO FILE N: WHO (root, user, other) traces getppid_loop N into
# FILE in the foreground; $TMP/P.ms: how long it took
traced()
{
	local p=$1 who=$2 f=$3 n=$4 t0
	t0=$(now_ms)
	case $who in
	root) ktr "$p" -f "$f" "$PROGS/getppid_loop" "$n" ;;
	user) uktr "$p" -f "$f" "$UBIN/getppid_loop" "$n" ;;
	other)
		timeout -k 5 "$KTR_TIMEOUT" setpriv --reuid="$OTHER" --regid="$OTHER" --clear-groups \
			-- "$UBIN/ktraceb" -f "$f" "$UBIN/getppid_loop" "$n" \
			>"$TMP/$p.out" 2>"$TMP/$p.err" </dev/null
		KRC=$?
		;;
	esac
	echo $(($(now_ms) - t0)) >"$TMP/$p.ms"
}

# completes P FILE N: P's trace ran and exited 0, every call of its command
# in FILE, nothing lost
completes()
{
	local p=$1 f=$2 n=$3 pid
	t_krc 0 "$p" || return 1
	t_grep "^ktraceb: [0-9]+ records written to $f, 0 lost\$" "$TMP/$p.err" || return 1
	kd "$p" "$f"
	pid=$(awk '$1 == "pid" { print $2 }' "$TMP/$p.out")
	t_eq "$(qn "$TMP/$p.norm" '$1 == pid && $4 == "RET" && $5 ~ /^getppid/' pid="${pid:-0}")" "$n"
}

# --- root's daemon, and times with nothing stalled --------------------------
bg keeper "$ATT_TICK" 200 0
KEEP=$(wait_role "$TMP/keeper.pout" pid)
ktr keep -f "$TMP/keep.ktr" -p "$KEEP"
check setup_keeper t_krc 0 keep
traced root0 root "$TMP/root0.ktr" 20000
check before_root_completes completes root0 "$TMP/root0.ktr" 20000

# --- the stall -----------------------------------------------------------------
# the user's command: bursts of 25000 getppid calls (50000 records, 4 MB:
# each fits the ring), 0.2 s apart, once the stall is in place; then, once
# the stall is let go (the fifo "after"), one last burst of 5000
mkfifo "$UDIR/go" "$UDIR/after"
chown "$KUID" "$UDIR/go" "$UDIR/after"
(setpriv --reuid="$KUID" --regid="$KGID" --init-groups -- "$UBIN/ktraceb" -i -f "$UDIR/stuck.ktr" \
	sh -c "read x <'$UDIR/go'; i=0; while [ \$i -lt 40 ]; do '$UBIN/getppid_loop' 25000 >/dev/null; sleep 0.2; i=\$((i + 1)); done; read x <'$UDIR/after'; '$UBIN/getppid_loop' 5000 >/dev/null" \
	>"$TMP/stuck.out" 2>"$TMP/stuck.err" </dev/null) &
STK=$!
E2E_PIDS="${E2E_PIDS:-} $STK"
wait_size "$UDIR/stuck.ktr" 100
"$PROGS/fuse_stall" "$MNT" "$UDIR/stuck.ktr" "$KUID" "$KGID" >"$TMP/fs.out" 2>&1 &
FS=$!
E2E_PIDS="${E2E_PIDS:-} $FS"
if ! wait_line "$TMP/fs.out" '^(held|no-fuse)' 20 || grep -q '^no-fuse' "$TMP/fs.out"; then
	skip stall "cannot mount a FUSE file system: $(head -n 1 "$TMP/fs.out")"
	e2e_done
fi
pass stall_holds_the_files_lock
T0=$(now_ms)
echo go >"$UDIR/go"
size0=$(fsize "$UDIR/stuck.ktr")
sleep 1 # the bursts pile up behind the lock

# root and another user trace commands, in normal time, losing nothing
traced root1 root "$TMP/root1.ktr" 20000
check root_traces_during_the_stall completes root1 "$TMP/root1.ktr" 20000
traced other1 other "$TMP/n/other1.ktr" 20000
check other_user_traces_during_the_stall completes other1 "$TMP/n/other1.ktr" 20000
traced user1 user "$UDIR/own1.ktr" 20000
check stalled_user_other_file_not_stalled completes user1 "$UDIR/own1.ktr" 20000
# the daemon answers at once: a -p trace starts and is cleared
bg tick "$ATT_TICK" 20 0
TICK=$(wait_role "$TMP/tick.pout" pid)
ktr attach -f "$TMP/attach.ktr" -p "$TICK"
check root_attaches_during_the_stall t_krc 0 attach
ktr attachc -c -f "$TMP/attach.ktr"
check root_clears_during_the_stall t_grep "^ktraceb: $TMP/attach.ktr: cleared by pid [0-9]+ \\(uid 0\\); [0-9]+ records written, 0 lost\$" \
	"$TMP/attachc.err"
# all that while the stall held: nothing of the user's trace written, the lock still taken
check stall_still_held t_nogrep '^released' "$TMP/fs.out"
check stalled_file_took_nothing t_eq "$(fsize "$UDIR/stuck.ktr")" "$size0"
check stalled_trace_waits tkill -0 "$STK"
echo "INFO: stall ${STALL}s: root $(cat "$TMP/root0.ms") ms before, $(cat "$TMP/root1.ms") ms during;" \
	"another user $(cat "$TMP/other1.ms") ms; the stalled user's other file $(cat "$TMP/user1.ms") ms" >&2

# --- let go: the stalled trace ends, its losses counted in its file -----------
left=$((STALL * 1000 - ($(now_ms) - T0)))
[ "$left" -gt 0 ] && sleep "$((left / 1000)).$(printf '%03d' $((left % 1000)))"
tkill -USR1 "$FS"
wait_line "$TMP/fs.out" '^released$' 30
check stall_released t_grep '^released$' "$TMP/fs.out"
check lock_holders_write_wrote_nothing t_grep '^write: failed EFAULT, nothing written$' "$TMP/fs.out"
FS=
# the writer's own write goes through once the lock is free: the file grows;
# then the bursts end and the ring is drained (the file stops changing), so
# that the last burst meets a file that takes records and an empty ring
bigger() { [ "$(fsize "$1")" -gt "$2" ]; }
check stalled_file_written_after wait_until 60 bigger "$UDIR/stuck.ktr" "$size0"
check stalled_file_settles settles "$UDIR/stuck.ktr" 60
timeout 120 sh -c 'echo go >"$1"' sh "$UDIR/after"
wait_exit "$STK" 120
check stalled_trace_ends t_eq "$WRC" 0
read -r srec slost _ <<<"$(ktr_summary stuck)"
check stalled_trace_counts_its_loss t_num "${slost:-0}" -gt 0
check stalled_file_walks walk stuck "$UDIR/stuck.ktr"
check stalled_summary_counts t_eq "$(walkval stuck records)" "${srec:-x}"
kd stuck "$UDIR/stuck.ktr"
check stalled_kdump_clean t_kdump_ok stuck
check stalled_end_says_the_loss t_match "$(tail -n 1 "$TMP/stuck.norm" | cut -f4,5)" \
	$'^END\ttrace ended: every traced process exited; [0-9]+ records, '"${slost:-x}"$' lost \\([1-9][0-9]* the file did not take\\)$'
# what the stuck file could not take was dropped (after KTR_WRITER_STUCK_MS),
# how many bursts that was depends on the machine's speed; the burst made
# after the stall was let go is written whole
check stalled_records_kept t_num "$(qn "$TMP/stuck.norm" '$4 == "RET" && $5 ~ /^getppid/')" -ge 5000
# nothing of anyone else's was lost meanwhile: the trace that ran all along
ktr keepc -c -f "$TMP/keep.ktr"
check keeper_lost_nothing t_grep "^ktraceb: $TMP/keep.ktr: cleared by .*, 0 lost\$" "$TMP/keepc.err"
e2e_done
