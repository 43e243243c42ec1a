#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# time limit: 600
# (large traces compressed and read back: tests/run.sh gives it more than the default)
#
# Compressed traces (ktraceb -z) and kdump reading them:
#  - tar and find traced with -z: a real gzip file, kdump prints exactly what
#    it prints of the same file decompressed by zcat, the same calls and
#    paths as an uncompressed trace of the same run, far fewer bytes;
#  - stdin, several members (-a -z, cat), -a refusing to mix the two kinds;
#  - a kill -9 of the daemon mid-trace of a busy program, a full disk: the
#    file holds whole gzip members, kdump reads it to its last record;
#  - kdump -l following a growing compressed trace;
#  - cut and corrupt files: one-line errors; -R -z: a compressed dump, and
#    compressed dumps still after a new daemon took the recording over;
#  - the request flag on the protocol: only with a SET, unknown bits refused,
#    a file traced into one way not joined the other way.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_user.sh"
own_bpffs "$@" # the recording a kill -9 leaves pinned: no other build's daemon touches it
need_tracer
need_att_progs

# calls NORM: the syscall names of the CALL records, one per line
calls()
{
	q "$1" '$4 == "CALL"' | cut -f5 | sed 's/(.*//'
}

# t_same A B: two files are equal (diff on failure)
t_same()
{
	cmp -s "$1" "$2" && return 0
	echo "    $1 and $2 differ:" >&2
	diff "$1" "$2" | head -n 8 | sed 's/^/      /' >&2
	return 1
}

# t_err_line P MSG-REGEX: kdump exit 1, stderr one line matching
t_err_line()
{
	t_eq "$KDRC" 1 "kdump exit status" && t_lines 1 "$TMP/$1.kderr" &&
		t_grep "$2" "$TMP/$1.kderr"
}

# --- tar and find, -z and not ----------------------------------------------------
SRC=$TMP/src
mkdir -p "$SRC/a/b" "$SRC/c"
for i in $(seq 1 40); do
	seq 1 $((i * 50)) >"$SRC/a/b/f$i.txt"
	echo "$i" >"$SRC/c/g$i"
done

for prog in tar find; do
	if [ "$prog" = tar ]; then
		set -- tar -cf /dev/null -C "$TMP" src
	else
		set -- find "$SRC" -name '*.txt' -size +1k
	fi
	ktr "${prog}_z" -z -f "$TMP/$prog.ktz" "$@"
	check "${prog}_z_exit_0" t_krc 0 "${prog}_z"
	check "${prog}_z_is_gzip" is_gzip "$TMP/$prog.ktz"
	ktr "${prog}_plain" -f "$TMP/$prog.ktr" "$@"
	check "${prog}_plain_exit_0" t_krc 0 "${prog}_plain"
	# the file itself, and what zcat makes of it: the same text
	kd "${prog}_z" "$TMP/$prog.ktz"
	check "${prog}_z_kdump_clean" t_kdump_ok "${prog}_z"
	zcat "$TMP/$prog.ktz" >"$TMP/$prog.unz"
	kd "${prog}_unz" "$TMP/$prog.unz"
	check "${prog}_z_same_as_zcat" t_same "$TMP/${prog}_z.kd" "$TMP/${prog}_unz.kd"
	check "${prog}_z_walks" walk "${prog}_z" "$TMP/$prog.unz"
	read -r nrec _ <<<"$(ktr_summary "${prog}_z")"
	check "${prog}_z_counts" t_eq "$(walkval "${prog}_z" records)" "${nrec:-x}"
	# the same run uncompressed: the same calls in the same order, the same paths
	kd "${prog}_plain" "$TMP/$prog.ktr"
	calls "$TMP/${prog}_z.norm" >"$TMP/$prog.zcalls"
	calls "$TMP/${prog}_plain.norm" >"$TMP/$prog.calls"
	check "${prog}_calls_recorded" t_num "$(wc -l <"$TMP/$prog.zcalls")" -gt 50
	check "${prog}_same_calls" t_same "$TMP/$prog.zcalls" "$TMP/$prog.calls"
	q "$TMP/${prog}_z.norm" '$4 == "NAMI"' | cut -f5 >"$TMP/$prog.znami"
	q "$TMP/${prog}_plain.norm" '$4 == "NAMI"' | cut -f5 >"$TMP/$prog.nami"
	check "${prog}_same_paths" t_same "$TMP/$prog.znami" "$TMP/$prog.nami"
	check "${prog}_z_smaller" t_num $((4 * $(fsize "$TMP/$prog.ktz"))) -lt \
		"$(fsize "$TMP/$prog.ktr")" "4x smaller at least"
done
check tar_read_the_files t_grep 'NAMI  "([^"]*/)?f40.txt"' "$TMP/tar_z.kd"

# --- stdin, members, append ---------------------------------------------------
timeout 60 "$KDUMP" -f - <"$TMP/tar.ktz" >"$TMP/stdin.kd" 2>"$TMP/stdin.kderr"
check stdin_exit_0 t_eq "$?" 0
check stdin_same t_same "$TMP/stdin.kd" "$TMP/tar_z.kd"
cat "$TMP/find.ktz" | timeout 60 "$KDUMP" -f - >"$TMP/pipe.kd" 2>"$TMP/pipe.kderr"
check pipe_exit_0 t_eq "$?" 0
check pipe_same t_same "$TMP/pipe.kd" "$TMP/find_z.kd"
cat "$TMP/find.ktz" "$TMP/find.ktz" >"$TMP/twice.ktz"
kd twice "$TMP/twice.ktz"
check members_cat_clean t_kdump_ok twice
check members_cat_double t_eq "$(wc -l <"$TMP/twice.kd")" $((2 * $(wc -l <"$TMP/find_z.kd")))

cp "$TMP/find.ktz" "$TMP/app.ktz"
ktr app_z -a -z -f "$TMP/app.ktz" "$PROGS/exitcode" 3
check append_z_exit_3 t_krc 3 app_z
check append_z_is_gzip is_gzip "$TMP/app.ktz"
kd app_z "$TMP/app.ktz"
check append_z_clean t_kdump_ok app_z
check append_z_two_info t_eq "$(qn "$TMP/app_z.norm" '$4 == "INFO"')" 2
check append_z_ends_exit_3 t_eq "$(q "$TMP/app_z.norm" '$4 == "EXIT"' | tail -n 1 | cut -f5)" \
	"exited 3"
# never compressed and plain data in one file
cp "$TMP/find.ktz" "$TMP/mix1.ktz"
ktr mix1 -a -f "$TMP/mix1.ktz" "$PROGS/exitcode" 0
check append_plain_to_z_refused t_num "$KRC" -ne 0
check append_plain_to_z_one_line t_oneline mix1
check append_plain_to_z_says t_grep 'a compressed trace: append to it with -z' "$TMP/mix1.err"
check append_plain_to_z_untouched t_same "$TMP/mix1.ktz" "$TMP/find.ktz"
cp "$TMP/find.ktr" "$TMP/mix2.ktr"
ktr mix2 -a -z -f "$TMP/mix2.ktr" "$PROGS/exitcode" 0
check append_z_to_plain_refused t_num "$KRC" -ne 0
check append_z_to_plain_one_line t_oneline mix2
check append_z_to_plain_says t_grep 'not a compressed trace' "$TMP/mix2.err"
check append_z_to_plain_untouched t_same "$TMP/mix2.ktr" "$TMP/find.ktr"
ktr zc -z -c -f "$TMP/none.ktz"
check z_with_c_refused t_num "$KRC" -ne 0

# --- cut and corrupt files ---------------------------------------------------------
zsize=$(fsize "$TMP/tar.ktz")
head -c $((zsize / 2)) "$TMP/tar.ktz" >"$TMP/cut.ktz"
kd cut "$TMP/cut.ktz"
check cut_data_too_short t_err_line cut '^kdump: data too short$'
check cut_prints_a_prefix t_num "$(wc -l <"$TMP/cut.kd")" -gt 10
check cut_prefix_of_whole t_same "$TMP/cut.kd" <(head -n "$(wc -l <"$TMP/cut.kd")" "$TMP/tar_z.kd")
head -c 2 "$TMP/tar.ktz" >"$TMP/magic.ktz"
kd magic "$TMP/magic.ktz"
check magic_only_too_short t_err_line magic '^kdump: data too short$'
for off in 12 200 $((zsize / 3)) $((zsize - 6)); do
	cp "$TMP/tar.ktz" "$TMP/bad$off.ktz"
	printf '\xff\x00\xa5\x5a' | dd of="$TMP/bad$off.ktz" bs=1 seek="$off" conv=notrunc 2>/dev/null
	kd "bad$off" "$TMP/bad$off.ktz"
	check "corrupt_at_${off}_one_line_error" t_err_line "bad$off" '^kdump: '
done
check corrupt_header_names_it t_grep "^kdump: $TMP/bad12.ktz: corrupt compressed data: " \
	"$TMP/bad12.kderr"
check corrupt_crc_names_it t_grep "corrupt compressed data: incorrect (data|length) check" \
	"$TMP/bad$((zsize - 6)).kderr"

# --- kill -9 of the daemon in the middle of a busy trace ----------------------------

bg busy "$PROGS/getppid_loop" 0
BUSY=$(wait_role "$TMP/busy.pout" pid)
ktr k9 -z -f "$TMP/k9.ktz" -p "$BUSY"
check kill9_attached t_krc 0 k9
check kill9_file_grows wait_size "$TMP/k9.ktz" $((256 * 1024))
DPID=$(daemon_pid)
check kill9_daemon_found t_num "${DPID:-0}" -gt 0
[ -n "$DPID" ] && tkill -KILL "$DPID"
check kill9_file_settles settles "$TMP/k9.ktz" 10
tkill -KILL "$BUSY" 2>/dev/null
kd k9 "$TMP/k9.ktz"
# whole members but for a write the kill cut (rare): then "data too short"
if is_gzip "$TMP/k9.ktz" 2>/dev/null; then
	check kill9_kdump_clean t_kdump_ok k9
else
	check kill9_cut_write_too_short t_err_line k9 '^kdump: data too short$'
fi
check kill9_records_of_busy t_num "$(qn "$TMP/k9.norm" '$1 == p && $4 == "RET"' p="$BUSY")" -gt 1000
check kill9_last_line_whole t_num "$(tail -n 1 "$TMP/k9.norm" | cut -f4 | grep -c '^[A-Z]')" -eq 1
daemon_gone 10

# --- a full filesystem ---------------------------------------------------------------
FULL=$TMP/full
mkdir "$FULL"
# 4m: room for a few members (one per write-out of up to 1 MiB of records,
# stored rather than compressed while the storm outpaces the compression)
if mount -t tmpfs -o size=4m none "$FULL" 2>"$TMP/mount.err"; then
	ktr full -z -f "$FULL/t.ktz" "$PROGS/getppid_loop" 3000000
	FP=$(awk '$1 == "pid" { print $2 }' "$TMP/full.out")
	check full_command_completes t_grep '^calls 3000000 ppid [0-9]+$' "$TMP/full.out"
	check full_exit_nonzero t_num "$KRC" -ne 0
	check full_reports_enospc t_grep \
		"^ktraceb: $FULL/t.ktz: No space left on device(; tracing stopped for pid ${FP:-x})?; [1-9][0-9]* records not written\$" \
		"$TMP/full.err"
	read -r _ flost _ <<<"$(ktr_summary full)"
	check full_summary_lost t_num "${flost:-0}" -gt 0
	check full_filled t_num "$(fsize "$FULL/t.ktz")" -gt $((2 * 1024 * 1024))
	check full_whole_members is_gzip "$FULL/t.ktz"
	kd full "$FULL/t.ktz"
	check full_kdump_clean t_kdump_ok full
	check full_records_of_loop t_num "$(qn "$TMP/full.norm" '$1 == p && $4 == "RET"' p="$FP")" \
		-gt 1000
	zcat "$FULL/t.ktz" >"$TMP/full.unz"
	check full_walks walk full "$TMP/full.unz"
	read -r nrec _ <<<"$(ktr_summary full)"
	check full_summary_counts t_eq "$(walkval full records)" "${nrec:-x}"
	# the last member is whole and holds the END, in place of what did not fit
	check full_end_record t_match "$(tail -n 1 "$TMP/full.norm" | cut -f4,5)" \
		$'^END\ttrace ended: the file took no more records: No space left on device \\(ENOSPC\\); [0-9]+ records, '"${flost:-x}"$' lost \\([0-9]+ the file did not take\\)$'
	umount "$FULL"
else
	skip full "cannot mount a tmpfs: $(head -n 1 "$TMP/mount.err")"
fi

# --- kdump -l on a growing compressed trace ------------------------------------------
bg tick "$ATT_TICK" 20 0 4747
TICK=$(wait_role "$TMP/tick.pout" pid)
ktr fl -z -f "$TMP/fl.ktz" -p "$TICK"
check follow_attached t_krc 0 fl
timeout -k 2 30 "$KDUMP" -l -f "$TMP/fl.ktz" >"$TMP/follow.kd" 2>"$TMP/follow.kderr" &
KDPID=$!
E2E_PIDS="$E2E_PIDS $KDPID"
check follow_sees_records wait_line "$TMP/follow.kd" "getpriority.*4747" 10
n1=$(grep -c "RET   getpriority" "$TMP/follow.kd")
sleep 1.5
n2=$(grep -c "RET   getpriority" "$TMP/follow.kd")
check follow_keeps_reading t_num "$n2" -gt "$n1"
check follow_still_running tkill -0 "$KDPID"
ktr flc -c -p "$TICK"
tkill "$KDPID" 2>/dev/null
wait "$KDPID" 2>/dev/null
check follow_no_error t_eq "$(cat "$TMP/follow.kderr")" ""
tkill -KILL "$TICK" 2>/dev/null

# --- -R -z: the recorder's dump compressed ------------------------------------------
ktr rec -z -R 64k -f "$TMP/rec.ktz" "$PROGS/crasher" segv 2000
check recorder_dumped t_grep 'records written' "$TMP/rec.err"
check recorder_is_gzip is_gzip "$TMP/rec.ktz"
kd rec "$TMP/rec.ktz"
check recorder_kdump_clean t_kdump_ok rec
check recorder_ring_record t_num "$(qn "$TMP/rec.norm" '$4 == "RING"')" -ge 1
check recorder_ends_with_segv t_grep 'PSIG  SIGSEGV' "$TMP/rec.kd"

# a compressed recording taken over by a new daemon after a kill -9: its
# dumps stay compressed (the file starts with gzip's magic)
bg rk9 "$PROGS/crasher" loop 10
RK9=$BGPID
sleep 0.2
ktr rk9a -z -R 256k -p "$RK9" -f "$TMP/rk9.ktz"
check recorder_takeover_attached t_krc 0 rk9a
ktr rk9d1 -D -f "$TMP/rk9.ktz"
check recorder_takeover_first_dump t_krc 0 rk9d1
check recorder_takeover_first_is_gzip is_gzip "$TMP/rk9.ktz"
DPID=$(daemon_pid)
[ -n "$DPID" ] && tkill -KILL "$DPID"
sleep 0.5
ktr rk9d2 -D -f "$TMP/rk9.ktz" # a new daemon takes the recording over
check recorder_takeover_second_dump t_krc 0 rk9d2
check recorder_takeover_still_gzip is_gzip "$TMP/rk9.ktz"
kd rk9 "$TMP/rk9.ktz"
check recorder_takeover_kdump_clean t_kdump_ok rk9
check recorder_takeover_two_dumps t_eq "$(qn "$TMP/rk9.norm" '$4 == "RING" && $5 ~ /on demand$/')" 2
ktr rk9c -c -p "$RK9"
tkill -KILL "$RK9" 2>/dev/null

# --- the request flag (ktr_hostile speaks the protocol) -------------------------------
HOSTILE=$PROGS/ktr_hostile
if [ -x "$HOSTILE" ]; then
	SOCK=/run/ktraceb/ktraceb-$BUILD_ID.sock
	DEF=0x301be
	bg hold "$ATT_TICK" 50 0 4848
	HOLD=$(wait_role "$TMP/hold.pout" pid)
	ktr hold -f "$TMP/hold.ktr" -p "$HOLD" # also keeps the daemon up
	"$HOSTILE" "$SOCK" op 2 0 8 "$HOLD" none >"$TMP/h_clear.h" 2>&1
	check proto_gzip_on_clear_refused t_grep 'error=22 .*flags only a SET takes' "$TMP/h_clear.h"
	"$HOSTILE" "$SOCK" op 1 "$DEF" 0x28 "$HOLD" "new:$TMP/h_bits.ktz" >"$TMP/h_bits.h" 2>&1
	check proto_unknown_bits_refused t_grep 'error=22 .*unknown flags' "$TMP/h_bits.h"
	"$HOSTILE" "$SOCK" op 1 "$DEF" 8 "$HOLD" "wo:$TMP/hold.ktr" >"$TMP/h_join.h" 2>&1
	check proto_join_plain_with_gzip_refused t_grep 'error=16 .*already traced into uncompressed' \
		"$TMP/h_join.h"
	ktr hold_c -c -p "$HOLD"
	check proto_plain_trace_still_plain walk hold "$TMP/hold.ktr"
	tkill -KILL "$HOLD" 2>/dev/null
else
	fail proto_built "$HOSTILE not built (make O=$O test)"
fi

e2e_done
