#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# Trace files that cannot be used or go bad while tracing:
#  - a symlink, a directory, a FIFO (must not hang), a file owned by someone
#    else with -a: one-line error, non-zero exit, the path untouched, nothing
#    traced;
#  - a full filesystem (a 256k tmpfs): the command still completes, ktraceb
#    says why tracing stopped, the file is whole up to its last record;
#  - a trace file deleted while tracing: the daemon stops writing it within
#    about a second, -F reports it, the process can be traced again.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_user.sh"
need_tracer
need_att_progs

bg x "$ATT_TICK" 20 0
X=$(wait_role "$TMP/x.pout" pid)

# refused NAME PATH [ktraceb args before -f]: -p X into PATH fails cleanly
refused()
{
	local name=$1 path=$2 before
	shift 2
	before=$(ls -ld "$path" 2>&1)
	ktr "$name" "$@" -f "$path" -p "$X"
	check "${name}_no_hang" t_num "$KRC" -ne 124
	check "${name}_fails" t_num "$KRC" -ne 0
	check "${name}_one_line" t_oneline "$name"
	check "${name}_names_path" t_grep "^ktraceb: $path: " "$TMP/$name.err"
	check "${name}_path_untouched" t_eq "$(ls -ld "$path" 2>&1)" "$before"
}

ln -s "$TMP/target.ktr" "$TMP/link.ktr"
refused symlink "$TMP/link.ktr"
check symlink_target_not_created t_eq "$(ls "$TMP/target.ktr" 2>/dev/null)" ""
check symlink_message t_grep 'symbolic link' "$TMP/symlink.err"
refused symlink_append "$TMP/link.ktr" -a
check symlink_append_target_not_created t_eq "$(ls "$TMP/target.ktr" 2>/dev/null)" ""
# the command form refuses before running anything
ktr symlink_cmd -f "$TMP/link.ktr" touch "$TMP/ran"
check symlink_cmd_fails t_num "$KRC" -ne 0
check symlink_cmd_not_run t_eq "$(ls "$TMP/ran" 2>/dev/null)" ""

mkdir "$TMP/dir.ktr"
refused directory "$TMP/dir.ktr"
check directory_empty t_eq "$(ls -A "$TMP/dir.ktr")" ""

mkfifo "$TMP/fifo.ktr"
refused fifo "$TMP/fifo.ktr"
refused fifo_append "$TMP/fifo.ktr" -a

echo "not yours" >"$TMP/other.ktr"
chown 54321:54321 "$TMP/other.ktr"
refused other_append "$TMP/other.ktr" -a
check other_append_message t_grep 'not owned by you' "$TMP/other_append.err"
check other_append_content t_eq "$(cat "$TMP/other.ktr")" "not yours"

# nothing of X went anywhere: X is not traced (a -c -f of any of these would
# have nothing to clear), and no trace file appeared in $TMP
check refused_no_trace_files t_eq "$(find "$TMP" -maxdepth 1 -name '*.ktr' -type f \
	! -name other.ktr | wc -l)" 0

# --- a full filesystem ---
FULL=$TMP/full
mkdir "$FULL"
if mount -t tmpfs -o size=256k none "$FULL" 2>"$TMP/mount.err"; then
	MOUNTED=$FULL
	trap 'umount -l "$MOUNTED" 2>/dev/null; user_cleanup' EXIT
	# a command: a tight getppid loop fills 256k in a few milliseconds
	ktr full -f "$FULL/t.ktr" "$PROGS/getppid_loop" 200000
	FP=$(awk '$1 == "pid" { print $2 }' "$TMP/full.out")
	check full_command_completes t_grep '^calls 200000 ppid [0-9]+$' "$TMP/full.out"
	check full_exit_nonzero t_num "$KRC" -ne 0
	# the pid is named when the daemon stopped it; the command may have
	# ended first (200000 calls are quick), and then the error is found at
	# the file's end: said all the same, with what was not written
	check full_reports_enospc t_grep "^ktraceb: $FULL/t.ktr: No space left on device(; tracing stopped for pid ${FP:-x})?; [0-9]+ records not written\$" \
		"$TMP/full.err"
	check full_summary t_grep "^ktraceb: [0-9]+ records written to $FULL/t.ktr, [0-9]+ lost\$" \
		"$TMP/full.err"
	# what was not written is lost, and said so: never "0 lost"
	FLOST=$(sed -n 's/^ktraceb: [0-9]* records written to .*, \([0-9]*\) lost$/\1/p' "$TMP/full.err")
	FNOTW=$(sed -n 's/.*; \([0-9]*\) records not written$/\1/p' "$TMP/full.err")
	check full_summary_counts_lost t_num "${FLOST:-0}" -gt 0
	check full_lost_has_not_written t_num "${FLOST:-0}" -ge "${FNOTW:-1}"
	check full_walks walk full "$FULL/t.ktr"
	check full_summary_counts t_eq "$(ktr_summary full | cut -d' ' -f1)" \
		"$(walkval full records)"
	kd full "$FULL/t.ktr"
	check full_kdump_clean t_kdump_ok full
	check full_kdump_no_short t_nogrep 'data too short|bogus length' "$TMP/full.kderr"
	# its last record says why it ended, and the same count of lost records
	check full_end_record t_eq "$(tail -n 1 "$TMP/full.norm" | cut -f4,5 | sed 's/; [0-9]* records.*//')" \
		"END	trace ended: the file took no more records: No space left on device (ENOSPC)"
	check full_end_counts_lost t_grep "^[0-9]+ records, ${FLOST:-x} lost \\(${FNOTW:-x} the file did not take\\)\$" \
		<(tail -n 1 "$TMP/full.norm" | cut -f5 | sed 's/.*; //')
	# BSD writes record by record: the records that fit are kept, so the file
	# fills the 256k (a detached slow trace below gets to ~250k)
	check full_fills_the_disk t_num "$(fsize "$FULL/t.ktr")" -gt $((128 * 1024)) \
		"bytes kept of a 256k filesystem"
	rm -f "$FULL/t.ktr"

	# -p: the same for a detached trace; the process goes on untraced.  A
	# trace of X keeps the daemon up meanwhile, so that it still knows of
	# the dead trace when it is asked
	ktr keeper -f "$TMP/keeper.ktr" -p "$X"
	bg y "$ATT_TICK" 1 0
	Y=$(wait_role "$TMP/y.pout" pid)
	ktr fullp -f "$FULL/p.ktr" -p "$Y"
	check full_p_exit_0 t_krc 0 fullp
	check full_p_stops settles "$FULL/p.ktr" 15
	check full_p_filled t_num "$(fsize "$FULL/p.ktr")" -gt $((128 * 1024))
	check full_p_process_alive tkill -0 "$Y"
	check full_p_walks walk fullp "$FULL/p.ktr"
	kd fullp "$FULL/p.ktr"
	check full_p_kdump_clean t_kdump_ok fullp
	check full_p_keeps_records t_has_pid "$TMP/fullp.norm" "$Y"
	# the file says how it ended, and counts what it did not take
	check full_p_end_record t_grep $'^ktraceb\tEND\ttrace ended: the file took no more records: No space left on device \\(ENOSPC\\); [0-9]+ records, [1-9][0-9]* lost \\([1-9][0-9]* the file did not take\\)$' \
		<(tail -n 1 "$TMP/fullp.norm" | cut -f3-)
	check full_p_end_json t_grep '"type":"END".*"why":"write_error","error":28,"errno":"ENOSPC"' \
		<("$KDUMP" -J -f "$FULL/p.ktr" | tail -n 1)
	# nobody waited for it: the daemon's log says it (no syslog here)
	check full_p_logged t_grep "$FULL/p.ktr: No space left on device; tracing stopped for pid $Y\$" \
		"/run/ktraceb/ktraceb-$BUILD_ID.log"
	# and the next -c of its process hears how its trace ended, once
	ktr fullpc -c -p "$Y"
	check full_p_clear_exit_0 t_krc 0 fullpc
	check full_p_clear_says_end t_grep "^ktraceb: pid $Y: not traced: its trace ended before: $FULL/p.ktr: No space left on device; [0-9]+ records written, [1-9][0-9]* lost\$" \
		"$TMP/fullpc.err"
	ktr fullpc2 -c -p "$Y"
	check full_p_clear_says_it_once t_nogrep 'ended before' "$TMP/fullpc2.err"
	# with no daemon left, -c reads it in the daemon's log (root's)
	ktr keeperc0 -c -f "$TMP/keeper.ktr"
	daemon_gone 20
	ktr fullpc3 -c -p "$Y"
	check full_p_clear_after_daemon_reads_log t_grep "^ktraceb: pid $Y: not traced: its trace ended at [-0-9T:]+: $FULL/p.ktr: No space left on device; tracing stopped for pid $Y\$" \
		"$TMP/fullpc3.err"
	ktr keeper -f "$TMP/keeper.ktr" -p "$X"
	ktr fullp2 -f "$TMP/after.ktr" -p "$Y"
	check full_p_retrace_exit_0 t_krc 0 fullp2
	check full_p_retrace_grows grows "$TMP/after.ktr"
	# -c says, per file it stops, what was written and lost, and why
	ktr fullp2c -c -p "$Y"
	check full_p_clear_reports t_grep "^ktraceb: $TMP/after.ktr: cleared by pid [0-9]+ \\(uid 0\\); [0-9]+ records written, 0 lost\$" \
		"$TMP/fullp2c.err"
	tkill -KILL "$Y"
	kd after "$TMP/after.ktr"
	check full_p_retrace_records t_has_pid "$TMP/after.norm" "$Y"
	check full_p_cleared_end t_grep $'^ktraceb\tEND\ttrace ended: cleared by pid [0-9]+ \\(uid 0\\); [0-9]+ records, 0 lost$' \
		<(tail -n 1 "$TMP/after.norm" | cut -f3-)
	check full_p_cleared_counts t_eq "$(tail -n 1 "$TMP/after.norm" | sed 's/.*; \([0-9]*\) records.*/\1/')" \
		"$(sed -n 's/^ktraceb: .*after.ktr: cleared .*; \([0-9]*\) records written.*/\1/p' "$TMP/fullp2c.err")"
	ktr keeperc -c -f "$TMP/keeper.ktr"
	rm -f "$TMP/after.ktr"
else
	skip full "cannot mount a tmpfs: $(head -n 1 "$TMP/mount.err")"
fi

# --- the daemon killed: the next one ends its files, and says so ------------
# kill -9 leaves no END; the next daemon (started by any ktraceb) finds what
# the dead one was writing (/run/ktraceb/ktraceb-BUILD.files), cuts each file
# back to where it was written whole, and appends an END that says so
bg k "$ATT_TICK" 5 0
K=$(wait_role "$TMP/k.pout" pid)
bg kz "$ATT_TICK" 5 0
KZ=$(wait_role "$TMP/kz.pout" pid)
ktr killed -f "$TMP/killed.ktr" -p "$K"
ktr killedz -z -f "$TMP/killed.ktz" -p "$KZ"
check killed_attached t_eq "$KRC $(grows "$TMP/killed.ktr" && echo grows)" "0 grows"
kill_daemons
sleep 0.3
ktr next -f "$TMP/next.ktr" /bin/true
check killed_next_ktraceb_runs t_krc 0 next
KILLED_END=$'END\ttrace ended: the ktraceb daemon writing it was killed: its last records are missing'
for _ in $(seq 50); do
	"$KDUMP" -f "$TMP/killed.ktz" 2>/dev/null | tail -n 1 | grep -q 'was killed' && break
	sleep 0.1
done
for f in killed:killed.ktr killedz:killed.ktz; do
	p=${f%%:*}
	kd "$p" "$TMP/${f#*:}"
	check "${p}_kdump_clean" t_kdump_ok "$p"
	check "${p}_end_says_killed" t_eq "$(tail -n 1 "$TMP/$p.norm" | cut -f4,5)" "$KILLED_END"
	check "${p}_records_before" t_has_pid "$TMP/$p.norm" "$([ "$p" = killed ] && echo "$K" || echo "$KZ")"
done
check killed_walks walk killed "$TMP/killed.ktr"
check killedz_whole_members is_gzip "$TMP/killed.ktz"
check killed_logged t_grep "$TMP/killed.ktr: the ktraceb daemon writing it was killed" \
	"/run/ktraceb/ktraceb-$BUILD_ID.log"
tkill "$K" "$KZ" 2>/dev/null

# --- a trace file deleted while tracing ---
# fdsize: the size of the deleted file, through our descriptor
fdsize()
{
	stat -L -c %s "/proc/$$/fd/7" 2>/dev/null || echo 0
}
ktr del -f "$TMP/del.ktr" -p "$X"
check deleted_attach_exit_0 t_krc 0 del
check deleted_grows grows "$TMP/del.ktr"
exec 7<"$TMP/del.ktr"
rm "$TMP/del.ktr"
sleep 1.5
s0=$(fdsize)
sleep 1
check deleted_stops_within_1s t_eq "$(fdsize)" "$s0" "size of the deleted file 1s apart"
exec 7<&-
check deleted_process_alive tkill -0 "$X"
ktr del2 -f "$TMP/del2.ktr" -p "$X"
check deleted_retrace_exit_0 t_krc 0 del2
check deleted_retrace_grows grows "$TMP/del2.ktr"
ktr del2c -c -p "$X"
check deleted_retrace_clear_exit_0 t_krc 0 del2c
kd del2 "$TMP/del2.ktr"
check deleted_retrace_kdump_clean t_kdump_ok del2
check deleted_retrace_records t_has_pid "$TMP/del2.norm" "$X"

# -F: ktraceb reports the deletion and returns
ktr_bg delF -F -f "$TMP/delF.ktr" -p "$X"
wait_size "$TMP/delF.ktr" 2000
rm "$TMP/delF.ktr"
wait_exit "$KTRPID" 10
check deleted_F_returns t_num "$WRC" -ne 124
check deleted_F_message t_grep "^ktraceb: $TMP/delF.ktr: trace file deleted; tracing stopped for pid $X\$" \
	"$TMP/delF.err"
check deleted_F_summary t_grep "^ktraceb: [0-9]+ records written to $TMP/delF.ktr, 0 lost\$" \
	"$TMP/delF.err"
check deleted_F_exit_nonzero t_num "$WRC" -ne 0

e2e_done
