#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# The flight recorder (ktraceb -R): tests/progs/crasher makes known
# syscalls, then crashes (SIGSEGV, abort, a SIGSEGV sent from outside), exits
# or loops.  A crash writes the ring: the file ends with the last syscalls,
# the PSIG and the EXIT, holds no more than the ring, and says how much it
# recovered; a normal exit writes nothing; -D writes the ring on demand
# (twice; kdump marks what a second dump shows again); compact entries hold a longer history; a thread stopped in a read
# keeps its last step while another floods the ring; two recordings keep
# their own files; a user records their own process and no other's.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_user.sh"
. "$(dirname "$0")/lib_json.sh"
own_bpffs "$@" # the pins it looks at: no other build's daemon touches them
need_tracer
CR=$PROGS/crasher
if [ ! -x "$CR" ]; then
	fail build "$CR not built (make O=$O test)"
	e2e_done
fi

# the value of "KEY N" the program printed ("last fd N": KEY last)
pv() { awk -v k="$2" '$1 == k { print $NF }' "$TMP/$1.out" | head -n 1; }
ring() { q "$TMP/$1.norm" '$4 == "RING"' | head -n 1 | cut -f5; }
# the ring's records: those between the first RING line and the per-CPU one
inring() { q "$TMP/$1.norm" '$4 == "RING" { n++; next } n == 1 && $1 != ""'; }
# rings this build pinned in bpffs now (they outlive a daemon killed -9);
# other builds' daemons on the machine have pins of their own
BDIR=/sys/fs/bpf/ktraceb/$BUILD_ID
pins_of_rings() { find "$BDIR" -name 'flight-*' 2>/dev/null | wc -l; }
pins_of_ctls() { find "$BDIR" -name 'flctl-*' 2>/dev/null | wc -l; }
# newest TYPE NAME PID N: how many of PID's N newest records in NAME's dump are TYPE
newest() { q "$TMP/$2.norm" '$1 == pid' pid="$3" | tail -n "$4" | awk -F'\t' -v t="$1" '$4 == t' | wc -l; }
# record_then_kill9 P PID ARGS...: ktraceb ARGS -p PID, then a kill -9 of the daemon
record_then_kill9()
{
	local p=$1 pid=$2
	shift 2
	E2E_PIDS="${E2E_PIDS:-} $pid"
	sleep 0.2
	ktr "$p" "$@" -p "$pid"
	sleep 0.3
	kill_daemons
	sleep 0.2
}
# end_recording P PID: PID's recording cleared, PID ended, its daemon gone
end_recording()
{
	ktr "$1" -c -p "$2"
	tkill "$2" 2>/dev/null
	wait "$2" 2>/dev/null
	daemon_gone 20
}
# the last N records of the crashed process in the ring, "TAG body" each
tail_of() { inring "$1" | awk -F'\t' -v pid="$(pv "$1" pid)" '$1 == pid' | tail -n "$2" |
	cut -f4,5 | tr '\t' ' '; }

# --- a segfault: the seconds before it ----------------------------------------
ktr segv -R 64k -f "$TMP/segv.ktr" "$CR" segv 20000
check segv_status_139 t_krc 139 segv
check segv_written t_grep '^ktraceb: [0-9]+ records written to .*segv.ktr, 0 lost$' \
	"$TMP/segv.err"
kd segv "$TMP/segv.ktr"
check segv_kdump_clean t_kdump_ok segv
check segv_info_first t_eq "$(head -n 1 "$TMP/segv.norm" | cut -f4)" INFO
check segv_ring_line t_match "$(ring segv)" \
	"^recovered [0-9]+/[0-9]+ entries: pid $(pv segv pid) killed by SIGSEGV$"
kept=$(ring segv | sed -E 's|recovered ([0-9]+)/.*|\1|')
produced=$(ring segv | sed -E 's|recovered [0-9]+/([0-9]+) .*|\1|')
check segv_overwrote_most t_num "${produced:-0}" -gt $((${kept:-0} * 10))
# every record said kept is in the file (kdump shows no PROCCTOR, so counted
# by ktrwalk): INFO, the two RING records, the ring's, the per-CPU last
# ones, and the END
nlast=$(q "$TMP/segv.norm" '$4 == "RING" && $5 ~ /^last/' | sed 's/.*: //')
check segv_kept_all_written t_eq "$("$PROGS/ktrwalk" "$TMP/segv.ktr" | awk '$1 == "records" { print $2 }')" \
	"$((4 + ${kept:-0} + ${nlast:-0}))" "records in the file vs INFO, 2 RING, kept, per-CPU and END"
check segv_end_last t_match "$(tail -n 1 "$TMP/segv.norm" | cut -f4,5)" \
	$'^END\ttrace ended: every traced process exited; [0-9]+ records, 0 lost$'
# kdump -J: the RING records' own members, the text's numbers, no captured text
kj segvj "$TMP/segv.ktr"
check segv_json_exit_0 t_eq "$KDRC" 0
check segv_json_lines_ok lines_ok segvj
check segv_json_ring t_eq "$(sel segvj 'r["type"] == "RING" and r["part"] == "ring"' \
	'r["kept"], r["produced"], r["why"], r["ended_pid"], r["signal"], r["signo"], r["compact"], "text" in r')" \
	"(${kept:-x}, ${produced:-x}, 'crash', $(pv segv pid), 'SIGSEGV', 11, False, False)"
check segv_json_ring_out_of_order t_num "$(sel segvj 'r["type"] == "RING" and r["part"] == "ring"' 'r["out_of_order"]')" -ge 0
check segv_json_last_per_cpu t_eq "$(sel segvj 'r["type"] == "RING" and r["part"] == "last_per_cpu"' \
	'r["kept"], "produced" in r, "why" in r, "text" in r')" "(${nlast:-x}, False, False, False)"
check segv_no_more_than_the_ring t_num "$(stat -c %s "$TMP/segv.ktr")" -le $((65536 + 4096))
fd=$(pv segv last)
check segv_ends_with_the_crash t_eq "$(tail_of segv 4)" "CALL close($fd)
RET close 0
PSIG SIGSEGV SIG_DFL code=SEGV_MAPERR
EXIT killed by SIGSEGV"
check segv_getppid_before t_num "$(qn "$TMP/segv.norm" '$4 == "CALL" && $5 == "getppid"')" -gt 100
check segv_no_lost t_nogrep $'\tLOST\t' "$TMP/segv.norm"

# --- abort(), and a SIGSEGV sent from outside -------------------------------------
ktr abrt -R 64k -f "$TMP/abrt.ktr" "$CR" abort 100
kd abrt "$TMP/abrt.ktr"
check abort_ring_line t_match "$(ring abrt)" 'killed by SIGABRT$'
check abort_ends_psig_exit t_eq "$(tail_of abrt 2)" "PSIG SIGABRT SIG_DFL code=SI_TKILL
EXIT killed by SIGABRT"
"$CR" wait 50 >"$TMP/kill.out" &
KP=$!
E2E_PIDS="${E2E_PIDS:-} $KP"
for _ in $(seq 50); do grep -q '^last fd' "$TMP/kill.out" && break; sleep 0.05; done
ktr killr -R 64k -p "$KP" -f "$TMP/kill.ktr"
check kill_attach_exit_0 t_krc 0 killr
check kill_file_empty_until_crash t_eq "$(stat -c %s "$TMP/kill.ktr")" 0
sleep 0.2
tkill -SEGV "$KP"
wait "$KP" 2>/dev/null
daemon_gone 20
kd kill "$TMP/kill.ktr"
check kill_ring_line t_match "$(ring kill)" "pid $KP killed by SIGSEGV\$"
check kill_psig_from_outside t_grep $'\tPSIG\tSIGSEGV SIG_DFL code=SI_USER$' "$TMP/kill.norm"
check kill_ends_exit t_eq "$(inring kill | awk -F'\t' -v pid="$KP" '$1 == pid' | tail -n 1 |
	cut -f4,5)" $'EXIT\tkilled by SIGSEGV'

# --- no trigger: nothing written ------------------------------------------------------
ktr okr -R 64k -f "$TMP/ok.ktr" "$CR" ok 100
check ok_exit_0 t_krc 0 okr
check ok_nothing_written t_grep '^ktraceb: recorder: nothing triggered, nothing written' \
	"$TMP/okr.err"
check ok_no_file t_eq "$(test -e "$TMP/ok.ktr" && echo exists)" ""
ktr ex3 -R 64k -f "$TMP/ex3.ktr" "$CR" exit3 100
check exit3_not_a_trigger t_eq "$(test -e "$TMP/ex3.ktr" && echo exists)" ""
ktr ex3e -R 64k,exit -f "$TMP/ex3e.ktr" "$CR" exit3 100
kd ex3e "$TMP/ex3e.ktr"
check exit3_with_exit_option t_match "$(ring ex3e)" "pid $(pv ex3e pid) exited 3\$"

# --- compact entries: a longer history in the same memory ------------------------------
# Both on one CPU: each CPU has a region of the ring, and a process that
# moves between CPUs (a busy machine) keeps more of its history than one
# that does not.
ktr cmpf -R 64k -f "$TMP/cmpf.ktr" taskset -c 0 "$CR" segv 20000
kd cmpf "$TMP/cmpf.ktr"
ktr cmp -R 64k,compact -f "$TMP/cmp.ktr" taskset -c 0 "$CR" segv 20000
kd cmp "$TMP/cmp.ktr"
check compact_ring_line t_match "$(ring cmp)" '^recovered [0-9]+/[0-9]+ entries, compact: pid'
check compact_only_essentials t_eq "$(q "$TMP/cmp.norm" '$1 == pid' pid="$(pv cmp pid)" |
	cut -f4 | sort -u | tr '\n' ' ')" "EXIT PSIG RET "
ncmp=$(qn "$TMP/cmp.norm" '$4 == "RET" && $5 ~ /^getppid /')
nfull=$(qn "$TMP/cmpf.norm" '$4 == "RET" && $5 ~ /^getppid /')
check compact_three_times_the_history t_num "$ncmp" -ge $((nfull * 3))
check compact_ends_with_the_crash t_eq "$(tail_of cmp 3)" "RET close 0
PSIG SIGSEGV SIG_DFL code=SEGV_MAPERR
EXIT killed by SIGSEGV"

# --- -D while it runs, twice ------------------------------------------------------------
"$CR" loop 10 >"$TMP/loop.out" &
LP=$!
E2E_PIDS="${E2E_PIDS:-} $LP"
sleep 0.2
ktr lpa -R 256k -p "$LP" -f "$TMP/loop.ktr"
sleep 0.3
ktr d1 -D -f "$TMP/loop.ktr"
check dump1_exit_0 t_krc 0 d1
sleep 0.3
T0=$(date +%s%N)
ktr d2 -D -f "$TMP/loop.ktr"
rc2=$KRC
ktr d2b -D -f "$TMP/loop.ktr" # at once: one dump per 250 ms
MS=$((($(date +%s%N) - T0) / 1000000))
check dump2_exit_0 t_eq "$rc2" 0
DUMPS=2
if ! grep -q 'dumped less than 250 ms ago' "$TMP/d2b.err" && [ "$MS" -ge 250 ]; then
	# an emulated kernel: the second command came 250 ms or more after the first
	skip dump_too_soon_refused "the second -D came ${MS} ms after the first's start"
	DUMPS=3
else
	check dump_too_soon_refused t_grep 'dumped less than 250 ms ago' "$TMP/d2b.err"
fi
check dump2_says_count t_grep '^ktraceb: [0-9]+ records written to .*loop.ktr$' "$TMP/d2.err"
kd loop "$TMP/loop.ktr"
check dumps_kdump_clean t_kdump_ok loop
check dumps_two_rings t_eq "$(qn "$TMP/loop.norm" '$4 == "RING" && $5 ~ /on demand$/')" "$DUMPS"
check dumps_one_info t_eq "$(qn "$TMP/loop.norm" '$4 == "INFO"')" 1
check dumps_hold_getppid t_num "$(qn "$TMP/loop.norm" '$4 == "CALL" && $5 == "getppid"')" -gt 50
check dumps_still_recording t_eq "$(tkill -0 "$LP" 2>/dev/null && echo alive)" alive
ktr dx -D -f "$TMP/segv.ktr"
check dump_of_no_recording_refused t_grep 'no trace or recording goes there' "$TMP/dx.err"
check dump_of_no_recording_exit_1 t_krc 1 dx
ktr lpc -c -p "$LP"
for _ in $(seq 20); do [ "$(pins_of_rings)" = 0 ] && break; sleep 0.1; done
check clear_removes_the_ring t_eq "$(pins_of_rings)" 0
check clear_removes_its_control_map t_eq "$(pins_of_ctls)" 0
sleep 0.3
ktr d3 -D -f "$TMP/loop.ktr"
check dump_after_clear_refused t_krc 1 d3
tkill "$LP" 2>/dev/null

# --- two dumps of a ring that still holds the first: the second's replay is marked ----------
"$CR" loop 10 >"$TMP/rep.out" &
RP=$!
E2E_PIDS="${E2E_PIDS:-} $RP"
sleep 0.2
ktr repa -R 4m -p "$RP" -f "$TMP/rep.ktr"
sleep 0.3
ktr rep1 -D -f "$TMP/rep.ktr"
sleep 0.3
ktr rep2 -D -f "$TMP/rep.ktr"
ktr repc -c -p "$RP"
tkill "$RP" 2>/dev/null
check replay_dumps_exit_0 t_eq "$(grep -c '^ktraceb: [0-9]* records written' "$TMP"/rep[12].err |
	awk -F: '{ s += $2 } END { print s }')" 2
"$KDUMP" -T -f "$TMP/rep.ktr" >"$TMP/rep.kd" 2>"$TMP/rep.kderr"
# per dump part: records, those marked, and how the marks match the first dump's records
# (a record with its time is one line: the same line in the first dump is the same record)
awk '
/ RING  recovered/ { sec++; part = 1; next }
/ RING  last recorded/ { part = 2; next }
/ END +trace ended/ { part = 0; next } # written by the daemon after the dump
$4 ~ /^[A-Z]+$/ && sec > 0 {
	line = $0
	rep = sub(/\[replayed\] /, "", line)
	if (part == 1 && sec == 1) { first[line] = 1; m1 += rep }
	if (part == 1 && sec == 2) {
		if (rep) { n2rep++; if (!(line in first)) wrong++ }
		else { n2new++; if (line in first) unmarked++ }
	}
	if (part == 2) { p2++; p2rep += rep }
}
END {
	printf "marked_in_first %d\nsecond_marked %d\nsecond_new %d\n", m1, n2rep, n2new
	printf "marked_not_shown %d\nshown_unmarked %d\nper_cpu %d\nper_cpu_marked %d\n",
		wrong, unmarked, p2, p2rep
}' "$TMP/rep.kd" >"$TMP/rep.counts"
rc() { awk -v k="$1" '$1 == k { print $2 }' "$TMP/rep.counts"; }
check replay_kdump_clean t_eq "$(cat "$TMP/rep.kderr")" ""
check replay_none_in_first_dump t_eq "$(rc marked_in_first)" 0
check replay_second_repeats_first t_num "$(rc second_marked)" -gt 100
check replay_second_has_new t_num "$(rc second_new)" -gt 0
check replay_marks_only_shown t_eq "$(rc marked_not_shown)" 0
check replay_marks_all_shown t_eq "$(rc shown_unmarked)" 0
check replay_per_cpu_all_marked t_eq "$(rc per_cpu_marked)" "$(rc per_cpu)"
check replay_per_cpu_some t_num "$(rc per_cpu)" -gt 0
check replay_json_marks t_eq "$("$KDUMP" -J -f "$TMP/rep.ktr" | grep -c '"replayed":true')" \
	"$(grep -c '\[replayed\]' "$TMP/rep.kd")"
kj repj "$TMP/rep.ktr"
check replay_json_why_demand t_eq "$(sel repj '(r["type"] == "RING" and r["part"] == "ring" and r["why"] == "demand"
	and "ended_pid" not in r)' | wc -l | tr -d ' ')" "$(grep -c 'RING  recovered .*: on demand$' "$TMP/rep.kd")"
check replay_json_dumps t_eq "$(sel repj 'r["type"] == "RING" and r["part"] == "ring"' | wc -l | tr -d ' ')" \
	"$(grep -c 'RING  recovered ' "$TMP/rep.kd")"
# the summary counts each call once
check replay_summary_once t_eq "$("$KDUMP" -Y -f "$TMP/rep.ktr" | awk '$NF == "getppid" { print $6 }')" \
	"$(grep -c 'CALL  getppid$' "$TMP/rep.kd")"

# --- kill -9 of the daemon: the recording outlives it ---------------------------------------
# Its ring, links and procs map are pinned in bpffs: the programs go on
# recording with no daemon; a new daemon (started by -D, or by any trace)
# takes the recording over and writes a crash that happened meanwhile.
"$CR" loop 10 >"$TMP/k9.out" &
K9=$!
E2E_PIDS="${E2E_PIDS:-} $K9"
sleep 0.2
ktr k9a -R 256k -p "$K9" -f "$TMP/k9.ktr"
sleep 0.2
kill_daemons
sleep 0.2
check k9_ring_pinned t_eq "$(pins_of_rings)" 1
check k9_control_map_pinned t_eq "$(pins_of_ctls)" 1
# what no daemon of ours leaves there: a control map whose ring is gone, and
# a "ring" that is no array of slots and has none; the next daemon drops both
PIN_DIR=$(find "$BDIR" -name 'flight-*' | head -n 1)
PIN_DIR=${PIN_DIR%/*}
# no ring pinned: plant nothing (bpftool would mount a bpffs where it was told)
case $PIN_DIR in
"$BDIR" | "$BDIR"/*)
	bpftool map create "$PIN_DIR/flctl-99" type array key 4 value 64 entries 329 name stray
	bpftool map create "$PIN_DIR/flight-98" type array key 4 value 8 entries 1 name junk
	;;
esac
check k9_strays_planted t_eq "$(find "$PIN_DIR" -name flctl-99 -o -name flight-98 | wc -l)" 2
sleep 0.5 # it runs on, recorded by no daemon
ktr k9d -D -f "$TMP/k9.ktr"
check k9_dump_after_kill t_krc 0 k9d
check k9_strays_dropped t_eq "$(find "$PIN_DIR" -name flctl-99 -o -name flight-98 | wc -l)" 0
check k9_own_pins_kept t_eq "$(pins_of_rings) $(pins_of_ctls)" "1 1"
kd k9 "$TMP/k9.ktr"
check k9_dump_kdump_clean t_kdump_ok k9
# getppid every 10 ms: 0.9 s of it, most of it with no daemon
check k9_dump_kept_recording t_num "$(qn "$TMP/k9.norm" '$4 == "CALL" && $5 == "getppid"')" -gt 60
kill_daemons
sleep 0.2
tkill -SEGV "$K9"
wait "$K9" 2>/dev/null
check k9_crash_with_no_daemon daemon_gone 2
ktr k9s -f "$TMP/k9other.ktr" /bin/true # any trace starts a daemon, which takes over
for _ in $(seq 50); do
	"$KDUMP" -f "$TMP/k9.ktr" 2>/dev/null | grep -q 'killed by SIGSEGV' && break
	sleep 0.1
done
kd k9b "$TMP/k9.ktr"
check k9_crash_written t_eq "$(q "$TMP/k9b.norm" '$4 == "RING" && $5 ~ /killed by SIGSEGV$/' |
	cut -f5 | sed 's/.*: //')" "pid $K9 killed by SIGSEGV"
check k9_crash_ends_exit t_eq "$(q "$TMP/k9b.norm" '$4 == "RING" { crash = $5 ~ /killed by/; next }
	crash && $1 == pid' pid="$K9" | tail -n 1 | cut -f4,5)" $'EXIT\tkilled by SIGSEGV'
daemon_gone 20
# a recording's pins all gone; the programs kept for the next daemon stay (ktr_progcache.h)
check k9_no_pins_left t_eq "$(find "$BDIR" -mindepth 1 -not -path '*/cache-*' \
	2>/dev/null | wc -l)" 0

# -z and a kill -9 before the recording's first dump: the next daemon writes
# it compressed all the same (the ring keeps how its file is written)
"$CR" loop 10 >"$TMP/k9z.out" &
K9Z=$!
record_then_kill9 k9za "$K9Z" -z -R 256k -f "$TMP/k9z.ktr"
ktr k9zd -D -f "$TMP/k9z.ktr"
check k9z_dump_after_kill t_krc 0 k9zd
check k9z_written_compressed is_gzip "$TMP/k9z.ktr"
kd k9z "$TMP/k9z.ktr"
check k9z_kdump_clean t_kdump_ok k9z
check k9z_has_calls t_num "$(qn "$TMP/k9z.norm" '$4 == "CALL" && $5 == "getppid"')" -gt 10
end_recording k9zc "$K9Z"

# -D after a kill -9 and a crash meanwhile: the daemon -D starts takes the
# recording over and writes the crash at once; the recording has ended then
# (its process is gone), and -D says what it recovered, and exits 0
"$CR" loop 10 >"$TMP/k9c.out" &
K9C=$!
record_then_kill9 k9ca "$K9C" -R 256k -f "$TMP/k9c.ktr"
tkill -SEGV "$K9C"
wait "$K9C" 2>/dev/null
ktr k9cd -D -f "$TMP/k9c.ktr"
# a second -D hears the same (it is remembered), and writes nothing more:
# asked at once, while the daemon that answered the first is there (idle,
# it leaves after a second, less than the checks below take under emulation)
s0=$(fsize "$TMP/k9c.ktr")
ktr k9cd2 -D -f "$TMP/k9c.ktr"
check k9c_dump_exit_0 t_krc 0 k9cd
check k9c_dump_says_what_it_recovered t_grep "^ktraceb: $TMP/k9c.ktr: recording taken over from a ktraceb daemon that was killed: [1-9][0-9]* records written in 1 dump, the last at pid $K9C killed by SIGSEGV; the recording has ended\$" \
	"$TMP/k9cd.err"
check k9c_dump_count t_grep "^ktraceb: [1-9][0-9]* records written to $TMP/k9c.ktr\$" "$TMP/k9cd.err"
check k9c_dump_no_refusal t_nogrep 'no trace or recording' "$TMP/k9cd.err"
kd k9c "$TMP/k9c.ktr"
check k9c_crash_written t_grep "killed by SIGSEGV\$" <(q "$TMP/k9c.norm" '$4 == "RING"')
check k9c_second_dump_same t_eq "$(head -n 1 "$TMP/k9cd2.err")" "$(head -n 1 "$TMP/k9cd.err")"
check k9c_second_dump_writes_nothing t_eq "$(fsize "$TMP/k9c.ktr")" "$s0"
daemon_gone 20

# context switches (-t w) go on being recorded with no daemon: their link is
# pinned with the others.  A second after the kill -9, -D: the newest of the
# process's records (made while no daemon ran) have its switches among them.
"$CR" loop 10 >"$TMP/k9w.out" &
K9W=$!
record_then_kill9 k9wa "$K9W" -R 4m -t cw -f "$TMP/k9w.ktr"
check k9w_csw_link_pinned t_eq "$(find "$BDIR" -name 'link-ktr_csw*' 2>/dev/null | wc -l)" 1
sleep 1
ktr k9wd -D -f "$TMP/k9w.ktr"
check k9w_dump_after_kill t_krc 0 k9wd
kd k9w "$TMP/k9w.ktr"
check k9w_switches_recorded_with_no_daemon t_num "$(newest CSW k9w "$K9W" 100)" -gt 10
end_recording k9wc "$K9W"

# USDT probes (-t u): the next daemon attaches them again when it takes the
# recording over, those its -e usdt: named (kept with the recording), so the
# process's newest records have its probes again (a kernel before 5.17 has
# no USDT: t_oldkernel.sh)
if ! kernel_before 5.17; then
	"$PROGS/uev_sdt" 3000 10 >"$TMP/k9u.out" & # outlives the takeover, emulated too
	K9U=$!
	record_then_kill9 k9ua "$K9U" -R 4m -t cu -e usdt:uevtest -f "$TMP/k9u.ktr"
	ktr k9ud1 -D -f "$TMP/k9u.ktr" # takes it over
	check k9u_taken_over t_krc 0 k9ud1
	# the probes are attached again on the taken-over daemon's loop: dumps
	# until the newest records have them (a busy machine takes longer)
	k9u_probes_back()
	{
		sleep 0.5
		ktr k9ud2 -D -f "$TMP/k9u.ktr"
		[ "$KRC" = 0 ] || return 1
		kd k9u "$TMP/k9u.ktr"
		[ "$(newest USER k9u "$K9U" 40)" -gt 2 ]
	}
	wait_until 20 k9u_probes_back
	check k9u_dumps_after_kill t_krc 0 k9ud2
	check k9u_probes_after_takeover t_num "$(newest USER k9u "$K9U" 40)" -gt 2
	end_recording k9uc "$K9U"
fi

# --- a thread stopped in a read, another flooding the ring on the other CPU ----------------
if [ "$(nproc)" -ge 2 ]; then
	ktr stk -R 64k -f "$TMP/stuck.ktr" "$CR" stuck 200000
	kd stuck "$TMP/stuck.ktr"
	check stuck_ring_overwritten t_match "$(ring stuck)" '^recovered [0-9]+/[0-9]{6,} entries'
	check stuck_last_per_cpu t_grep $'\tRING\tlast recorded per-CPU events: [0-9]+$' \
		"$TMP/stuck.norm"
	check stuck_read_kept t_eq "$(q "$TMP/stuck.norm" 'seen && $4 == "CALL"
		$4 == "RING" && $5 ~ /^last/ { seen = 1 }' | cut -f5 | grep -c '^\[replayed\] read(')" 1
else
	skip stuck "needs two CPUs"
fi

# --- two recordings, their own files --------------------------------------------------------
ktr two1 -R 64k -f "$TMP/two1.ktr" "$CR" segv 300 &
T1=$!
ktr two2 -R 64k -f "$TMP/two2.ktr" "$CR" abort 300
wait "$T1"
kd two1 "$TMP/two1.ktr"
kd two2 "$TMP/two2.ktr"
check two_first_own t_eq "$(inring two1 | cut -f1 | sort -u)" "$(pv two1 pid)"
check two_second_own t_eq "$(inring two2 | cut -f1 | sort -u)" "$(pv two2 pid)"
check two_first_segv t_match "$(ring two1)" 'SIGSEGV$'
check two_second_abrt t_match "$(ring two2)" 'SIGABRT$'

# --- bad input ----------------------------------------------------------------------------------
ktr bad1 -R 1k -f "$TMP/b.ktr" /bin/true
check bad_size_small t_krc 64 bad1
check bad_size_msg t_grep 'bad recorder size 1k: 64k to 4g' "$TMP/bad1.err"
ktr bad2 -R 64k,fast -f "$TMP/b.ktr" /bin/true
check bad_option t_grep 'bad recorder option fast' "$TMP/bad2.err"
ktr bad3 -R 64k -a -f "$TMP/b.ktr" /bin/true
check bad_with_append t_krc 64 bad3
ktr bad4 -D -p 1
check bad_dump_with_pid t_krc 64 bad4
ktr bad5 -D -f "$TMP/none.ktr"
check bad_dump_no_file t_grep 'none.ktr: No such file or directory' "$TMP/bad5.err"
check bad_no_file_made t_eq "$(test -e "$TMP/b.ktr" && echo made)" ""

# --- a user: their own process, nobody else's -----------------------------------------------
if user_setup; then
	cp "$CR" "$UBIN/"
	chmod 755 "$UBIN/crasher"
	uktr urec -R 64k -f "$UDIR/u.ktr" "$UBIN/crasher" segv 100
	check user_records_own t_grep 'records written to .*u.ktr' "$TMP/urec.err"
	check user_file_owned t_eq "$(stat -c %U "$UDIR/u.ktr")" "$KUSER"
	"$CR" wait 10 >"$TMP/rootp.out" &
	RP=$!
	E2E_PIDS="${E2E_PIDS:-} $RP"
	sleep 0.2
	uktr uroot -R 64k -p "$RP" -f "$UDIR/r.ktr"
	check user_not_roots_process t_krc 1 uroot
	check user_not_roots_msg t_grep "pid $RP: " "$TMP/uroot.err"
	uktr ubig -R 300m -f "$UDIR/big.ktr" "$UBIN/crasher" ok 1
	check user_ring_cap t_grep \
		'too many MiB of recorder rings for uid [0-9]+ \(a user may have 256 at once\)' \
		"$TMP/ubig.err"
	tkill "$RP" 2>/dev/null

	# a user's recording taken over after a kill -9: the new daemon opens its
	# file again as the user, and only that very file (a symlink put in its
	# place to a file of root's is refused, the recording dropped)
	sleep 3600 &
	KEEP=$!
	E2E_PIDS="${E2E_PIDS:-} $KEEP"
	ktr ukeep -t c -p "$KEEP" -f "$TMP/keep.ktr" # root's daemon, which serves the user
	setpriv --reuid="$KUID" --regid="$KGID" --init-groups -- "$UBIN/crasher" wait 10 \
		>"$TMP/uw.out" &
	UP=$!
	E2E_PIDS="${E2E_PIDS:-} $UP"
	sleep 0.2
	uktr uwr -R 64k -p "$UP" -f "$UDIR/uw.ktr"
	check user_recording_started t_krc 0 uwr
	echo "root's" >"$TMP/roots_file"
	chmod 644 "$TMP/roots_file"
	kill_daemons
	sleep 0.2
	as_user rm -f "$UDIR/uw.ktr"
	as_user ln -s "$TMP/roots_file" "$UDIR/uw.ktr"
	tkill -SEGV "$UP"
	wait "$UP" 2>/dev/null
	tkill "$KEEP" 2>/dev/null
	ktr uwk -f "$TMP/uwk.ktr" /bin/true # a new daemon takes over what was pinned
	for _ in $(seq 30); do [ "$(pins_of_rings)" = 0 ] && break; sleep 0.1; done
	check user_takeover_not_through_a_symlink t_eq "$(cat "$TMP/roots_file")" "root's"
	check user_takeover_dropped_the_ring t_eq "$(pins_of_rings)" 0
	check user_takeover_dropped_its_control_map t_eq "$(pins_of_ctls)" 0

	# a group root records (-R -G), taken over after a kill -9: its processes stay in
	# root's recording, of no group of the new daemon's, so a user's group that gets
	# the same slot neither takes them (traced again into a file of his) nor ends
	# them (cleared): the user's process there, moved into it, still crashes into
	# root's file
	CGM=$(awk '$9 == "cgroup2" && $4 == "/" { print $5; exit }' /proc/self/mountinfo)
	TG=${CGM:-/nonexistent}/ktr-flight-$$
	if [ -z "$CGM" ] || ! mkdir "$TG" 2>"$TMP/tg.err"; then
		skip user_group_takeover "no cgroup2 hierarchy to make a group in${CGM:+: $(head -n 1 "$TMP/tg.err")}"
	else
		chown "$KUID:$KGID" "$TG" "$TG/cgroup.procs"
		ubg tgp "$UBIN/att_tick" 20 0 5115
		TP=$(wait_role "$TMP/tgp.pout" pid)
		echo "$TP" >"$TG/cgroup.procs"
		ktr tgrec -R 256k -f "$TMP/tg.ktr" -G "$TG"
		check group_recording_started t_krc 0 tgrec
		kill_daemons
		sleep 3600 &
		KEEP=$!
		E2E_PIDS="${E2E_PIDS:-} $KEEP"
		ktr tgkeep -t c -p "$KEEP" -f "$TMP/tgkeep.ktr" # a new root daemon takes over
		check group_taken_over t_krc 0 tgkeep
		as_user mkdir "$TG/s"
		uktr tgu1 -f "$UDIR/tg1.ktr" -G "$TG/s"
		check group_user_same_slot_set t_krc 0 tgu1
		as_user sh -c 'echo "$0" >"$1"' "$TP" "$TG/s/cgroup.procs"
		uktr tgu2 -f "$UDIR/tg2.ktr" -G "$TG/s"
		check group_user_set_again t_krc 0 tgu2
		uktr tgu3 -c -G "$TG/s"
		check group_user_cleared t_krc 0 tgu3
		tkill -SEGV "$TP"
		for _ in $(seq 100); do
			"$KDUMP" -f "$TMP/tg.ktr" 2>/dev/null | grep -q 'killed by SIGSEGV' && break
			sleep 0.1
		done
		check group_takeover_crash_in_roots_file t_grep "pid $TP killed by SIGSEGV" <("$KDUMP" -f "$TMP/tg.ktr")
		kd tg2 "$UDIR/tg2.ktr"
		check group_takeover_not_the_users t_num "$(qn "$TMP/tg2.norm" '$1 == p' p="$TP")" -eq 0
		tkill "$KEEP" 2>/dev/null
		ktr tgkeep_clear -c -f "$TMP/tgkeep.ktr"
		rmdir "$TG/s" "$TG" 2>/dev/null
	fi

	# a pin directory a user could write to is never used: what is pinned
	# there (a ring's owner and path) would be believed by the next daemon.
	# In a mount namespace of its own, on a bpffs of its own: the machine's
	# /sys/fs/bpf/ktraceb (other builds' pins, their daemons) is untouched.
	daemon_gone 20
	"$CR" wait 10 >"$TMP/pw.out" &
	PW=$!
	E2E_PIDS="${E2E_PIDS:-} $PW"
	sleep 0.2
	if unshare -m --propagation private sh -c '
		mount -t bpf bpf /sys/fs/bpf && mkdir /sys/fs/bpf/ktraceb || exit 99
		chown "$1" /sys/fs/bpf/ktraceb
		"$2" -R 64k -p "$3" -f "$4/pw.ktr" >"$4/pwr.out" 2>"$4/pwr.err"
		echo $? >"$4/pwr.rc"
		find /sys/fs/bpf/ktraceb -mindepth 1 | wc -l >"$4/pw.pins"' \
		pwdir "$KUID" "$KTRACEB" "$PW" "$TMP" 2>"$TMP/pw.unshare"; then
		check user_pin_dir_still_records t_eq "$(cat "$TMP/pwr.rc")" 0
		check user_pin_dir_not_used t_eq "$(cat "$TMP/pw.pins")" 0
		tkill -SEGV "$PW"
		wait "$PW" 2>/dev/null
		for _ in $(seq 30); do [ -s "$TMP/pw.ktr" ] && break; sleep 0.1; done
		check user_pin_dir_crash_written t_grep 'killed by SIGSEGV' <("$KDUMP" -f "$TMP/pw.ktr")
		daemon_gone 20
	else
		skip user_pin_dir "no bpffs of its own in a mount namespace: $(head -n 1 "$TMP/pw.unshare")"
		tkill "$PW" 2>/dev/null
	fi
else
	skip user "$USER_WHY"
fi
e2e_done
