#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# The stages (include/ktraceb/bpf_stage.h): records gathered per CPU and a call's CALL
# kept until its return must still reach the file as BSD writes it.
#  - A call that blocks has its CALL in the file while it blocks (the
#    switch that takes the thread off its CPU makes it), with -t c, where
#    read's CALL is kept until its return, and with the default facilities,
#    where it is made at entry and staged.
#  - A process busy in user space after its calls, which makes no context
#    switch, has its last calls in the file while it spins (the daemon
#    sends each CPU's stage on at its tick), the last write's data too.
#  - A kept CALL keeps its entry time: before its RET's, after the RET
#    before it.
#  - A small ring (-b 4096) is sent stages no bigger than it can hold.
#  - A file whose records a stage still holds at its end ends all the same,
#    with them counted lost, and they reach no other file.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_user.sh"
need_tracer
SPIN=$PROGS/spin_after
daemon_gone 10 # not one with another test's small ring
# cat's read of the FIFO: 128 KiB into its buffer
FIFO_READ=' CALL  read\(3,0x[0-9a-f]*,0x20000\)$'

# blocked NAME TRSTR: cat blocked in a read of a FIFO, traced with TRSTR
blocked()
{
	local name=$1 trstr=$2 i
	mkfifo "$TMP/$name.fifo"
	sleep 30 >"$TMP/$name.fifo" &
	WRITER=$!
	E2E_PIDS="${E2E_PIDS:-} $WRITER"
	ktr_bg "$name" -t "$trstr" -f "$TMP/$name.ktr" cat "$TMP/$name.fifo"
	for i in $(seq 50); do
		"$KDUMP" -f "$TMP/$name.ktr" 2>/dev/null | grep -qE "$FIFO_READ" && break
		sleep 0.1
	done
	sleep 0.3
	"$KDUMP" -f "$TMP/$name.ktr" >"$TMP/$name.during" 2>/dev/null
	tkill "$WRITER"
	wait_exit "$KTRPID" 20
	kd "$name" "$TMP/$name.ktr"
}

blocked blk c
check blk_call_while_blocked t_grep "$FIFO_READ" "$TMP/blk.during"
check blk_last_while_blocked t_eq "$(tail -n 1 "$TMP/blk.during" | grep -cE "$FIFO_READ")" 1
check blk_ret_after_it t_eq "$(grep -A1 -E "$FIFO_READ" "$TMP/blk.kd" | tail -n 1 |
	awk '{ print $3, $4, $5 }')" "RET read 0"
check blk_kdump_clean t_kdump_ok blk

blocked dflt cn
check dflt_call_while_blocked t_grep "$FIFO_READ" "$TMP/dflt.during"
check dflt_last_while_blocked t_eq "$(tail -n 1 "$TMP/dflt.during" | grep -cE "$FIFO_READ")" 1

# --- busy in user space after its calls ----------------------------------------------
# (30 s of spinning at most: ended once looked at; emulated kernels are slow to look)
ktr_bg sp -t c -f "$TMP/sp.ktr" "$SPIN" 300 30000
wait_line "$TMP/sp.out" '^spinning$' 20
SP=$(role "$TMP/sp.out" pid)
sleep 1
"$KDUMP" -f "$TMP/sp.ktr" >"$TMP/sp.during" 2>/dev/null
if tkill -0 "$SP" 2>/dev/null; then
	check spin_all_calls_in_file t_eq "$(grep -c ' RET   getpriority ' "$TMP/sp.during")" 300
	check spin_last_is_a_ret t_eq "$(grep ' getpriority' "$TMP/sp.during" | tail -n 1 |
		awk '{ print $3 }')" RET
else
	skip spin_all_calls_in_file "the spinner ended within its 30 s"
fi
tkill -TERM "$SP" 2>/dev/null
wait_exit "$KTRPID" 20
check spin_ended_by_us t_eq "$WRC" 143

# the same with paths and data: the last writes' data, short, is staged
# with their CALL and RET (record.bpf.h, rec__send), and is there too
ktr_bg spd -t cni -f "$TMP/spd.ktr" "$SPIN" 30 30000
wait_line "$TMP/spd.out" '^spinning$' 20
SP=$(role "$TMP/spd.out" pid)
sleep 1
"$KDUMP" -f "$TMP/spd.ktr" >"$TMP/spd.during" 2>/dev/null
if tkill -0 "$SP" 2>/dev/null; then
	check spin_data_in_file t_grep '^ *"spinning"$' "$TMP/spd.during"
	# (its calls after "spinning": the write of its newline, then the timer's)
	check spin_data_then_ret t_eq "$(tail -n 1 "$TMP/spd.during" | grep -cE ' RET +setitimer 0$')" 1
else
	skip spin_data_in_file "the spinner ended within its 30 s"
	skip spin_data_then_ret "the spinner ended within its 30 s"
fi
tkill -TERM "$SP" 2>/dev/null
wait_exit "$KTRPID" 20

# --- entry times ----------------------------------------------------------------------
ktr ts -t c -f "$TMP/ts.ktr" "$PROGS/getppid_loop" 2000
check ts_exit_0 t_krc 0 ts
"$KDUMP" -T -f "$TMP/ts.ktr" >"$TMP/ts.kd"
# each getppid CALL's time after the RET before it and before its own RET
# (seconds and nanoseconds compared apart: a double has not the digits)
awk 'function lt(a, b,   x, y) { split(a, x, "."); split(b, y, ".")
		return x[1] + 0 < y[1] + 0 || (x[1] == y[1] && x[2] + 0 < y[2] + 0) }
	$4 == "CALL" && $5 == "getppid" { c = $3; have = 1; next }
	$4 == "RET" && $5 == "getppid" && have {
		n++; if ((last != "" && lt(c, last)) || !lt(c, $3)) bad++
		if (c "" == $3 "") same++; last = $3; have = 0 }
	END { printf "%d %d %d\n", n, bad, same }' "$TMP/ts.kd" >"$TMP/ts.check"
read -r npairs nbad nsame <"$TMP/ts.check"
check ts_all_pairs t_eq "$npairs" 2000
check ts_call_before_ret t_eq "$nbad" 0
check ts_call_time_is_entry t_eq "$nsame" 0

# --- a small ring ----------------------------------------------------------------------
# the smallest (4 KiB): a stage is sent on before it outgrows what the ring
# can take, so the first calls of a storm that starts on an empty ring are
# there (a stage as big as the ring would be lost whole, each time), and
# what is kept and lost adds up
daemon_gone 10
# (the storm after a pause in which the daemon takes what the exec made)
ktr small -b 4096 -t c -f "$TMP/small.ktr" env -i "$SPIN" 3000 0 0 300
kd small "$TMP/small.ktr"
read -r nrec nlost _ <<<"$(ktr_summary small)"
check small_storm_head_there t_num "$(q "$TMP/small.norm" '$4 == "CALL" && $5 ~ /^getpriority\(/' |
	head -n 1 | sed -E 's/.*getpriority\([^,]*,([0-9]+).*/\1/')" -lt 100
check small_adds_up t_num "$((nrec + nlost))" -ge 6000

# --- a stage still held at a file's end -------------------------------------------------
# KTRACEB_REFUSE_PROG=stage_send: neither the daemon nor a context switch
# sends a stage on, as when a virtual CPU stops in the middle of a program
# for longer than the daemon asks.  A command that moves itself from CPU 0
# to CPU 1 leaves its records on CPU 0 in that stage.  Its file ends all the
# same, those records counted lost in it (what it has and what it lost add
# up to what a run with stages sent has), and the next file of that daemon
# gets none of them: its route goes to no other file while they may come.
daemon_gone 30
if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null; then
	# (one process from the first exec to the end: nothing of the trace's
	# runs on CPU 0 after it, as a shell waiting for it might)
	MOVER=(taskset -c 0 sh -c 'read -r _ </dev/null; exec taskset -c 1 /bin/true')
	KTRACEB_REFUSE_PROG=none ktr moved -t c -f "$TMP/moved.ktr" "${MOVER[@]}"
	read -r moved_rec moved_lost _ <<<"$(ktr_summary moved)"
	# (the held stage is a fresh daemon's: the one that ran this must be gone)
	daemon_gone 60 || echo "    a daemon of this build stays up: the stage may not be held" >&2
	sleep 120 &
	KEEP=$!
	E2E_PIDS="${E2E_PIDS:-} $KEEP"
	KTRACEB_REFUSE_PROG=stage_send ktr keep -t c -p "$KEEP" -f "$TMP/keep.ktr"
	# a file ends at a tick, and by then the daemon has staging on
	KTRACEB_REFUSE_PROG=stage_send ktr warm -t c -f "$TMP/warm.ktr" taskset -c 1 /bin/true
	# (where the scheduler runs the command first decides what stays behind:
	# tried again if nothing did)
	for _ in 1 2 3; do
		rm -f "$TMP/held.ktr"
		KTRACEB_REFUSE_PROG=stage_send ktr held -t c -f "$TMP/held.ktr" "${MOVER[@]}"
		read -r held_rec held_lost _ <<<"$(ktr_summary held)"
		[ "${held_lost:-0}" -gt 0 ] && break
	done
	check held_exit_0 t_krc 0 held
	kd held "$TMP/held.ktr"
	check held_lost_said t_num "${held_lost:-0}" -gt 0
	check held_lost_in_file t_eq "$(q "$TMP/held.norm" '$4 == "LOST"' | awk '{ n += $5 } END { print n + 0 }')" \
		"${held_lost:-0}"
	# (a LOST record is one of the records written)
	check held_adds_up t_eq "$((held_rec - $(qn "$TMP/held.norm" '$4 == "LOST"') + held_lost))" \
		"$((moved_rec + moved_lost))"
	HELD_PID=$(q "$TMP/held.norm" '$4 == "ARGS"' | head -n 1 | cut -f 1)
	# on CPU 0 at once: its records send the stage on, the earlier file's records in it first
	KTRACEB_REFUSE_PROG=stage_send ktr next -t c -f "$TMP/next.ktr" taskset -c 0 /bin/true
	check next_exit_0 t_krc 0 next
	kd next "$TMP/next.ktr"
	check next_has_its_own t_num "$(qn "$TMP/next.norm" '$4 == "CALL"')" -gt 5
	check next_none_of_held t_eq "$(qn "$TMP/next.norm" '$1 == '"${HELD_PID:-0}")" 0
	tkill "$KEEP" 2>/dev/null
	wait "$KEEP" 2>/dev/null
else
	skip held_at_end "one CPU, or no taskset"
fi

# leave no daemon with a small ring or a held stage to the next test (the
# latter asks each CPU for 0.2 s at each tick before it idles out)
daemon_gone 30

e2e_done
