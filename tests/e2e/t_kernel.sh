#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# What a user sees on a kernel that lacks something (issue 21): the kernel
# refusing a program is made real here on any kernel, with the loader's
# fault injection (KTRACEB_REFUSE_PROG=NAME: that program exits with R0
# unset, which every verifier refuses in its own words).
#  - a program only one facility needs (-t w's, -e's, -t u's): that facility
#    alone is refused, in one line naming the program and the verifier's
#    reason, and the rest of the trace runs
#  - a program every trace needs: one line naming it and the reason, exit 69,
#    and nothing of its daemon left in bpffs
#  - with -v, libbpf's log of thousands of lines, into a terminal slower than
#    the client's 10 s wait for an answer: all of it, and the refusal last
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_user.sh"
need_tracer
SDT=$PROGS/uev_sdt

# refused P PROG ARGS...: ktraceb with PROG refused, by a daemon of its own
refused()
{
	local p=$1 prog=$2
	shift 2
	daemon_gone 20 || echo "    a daemon of this build stays up: the next may not be fresh" >&2
	KTRACEB_REFUSE_PROG=$prog ktr "$p" "$@"
}

REASON='the kernel refused the BPF program %s: invalid read from stack.*'

# --- the context-switch program: -t w alone goes --------------------------------
refused csw ktr_csw_switch -t cw -f "$TMP/csw.ktr" /bin/true
check csw_runs t_krc 0 csw
check csw_said_once t_eq "$(grep -c '^ktraceb: -t w: context switches are not recorded on this kernel: ' \
	"$TMP/csw.err")" 1
check csw_names_program t_grep "$(printf "$REASON" ktr_csw_switch)\$" "$TMP/csw.err"
kd csw "$TMP/csw.ktr"
check csw_rest_recorded t_num "$(qn "$TMP/csw.norm" '$4 == "CALL"')" -gt 5
check csw_no_switches t_eq "$(qn "$TMP/csw.norm" '$4 == "CSW"')" 0

# --- the tracepoint program: -e alone goes ---------------------------------------
refused tp ktr_tp_record -t c -e sched:sched_process_exec -f "$TMP/tp.ktr" /bin/true
check tp_runs t_krc 0 tp
check tp_said t_grep "^ktraceb: -e: kernel events are not recorded on this kernel: $(printf "$REASON" ktr_tp_record)\$" \
	"$TMP/tp.err"
kd tp "$TMP/tp.ktr"
check tp_rest_recorded t_num "$(qn "$TMP/tp.norm" '$4 == "CALL"')" -gt 5

# --- the USDT program, loaded when a trace first needs it: said then -------------
# (before 5.17 the kernel lacks what it needs: t_oldkernel.sh, need_usdt)
if [ -x "$SDT" ] && ! kernel_before 5.17; then
	# a trace of a sleeper keeps that daemon up for both (an emulated kernel
	# can take longer over the first one's checks than a daemon idles)
	sleep 120 &
	KEEP=$!
	E2E_PIDS="${E2E_PIDS:-} $KEEP"
	refused keep ktr_usdt_record -t c -p "$KEEP" -f "$TMP/keep.ktr"
	KTRACEB_REFUSE_PROG=ktr_usdt_record ktr usdt -t cu -e usdt:uevtest -f "$TMP/usdt.ktr" "$SDT" 2
	check usdt_runs t_krc 0 usdt
	check usdt_said t_grep "^ktraceb: -t u: USDT probes are not recorded on this kernel: $(printf "$REASON" ktr_usdt_record)\$" \
		"$TMP/usdt.err"
	kd usdt "$TMP/usdt.ktr"
	check usdt_rest_recorded t_num "$(qn "$TMP/usdt.norm" '$4 == "CALL"')" -gt 5
	check usdt_no_user t_eq "$(qn "$TMP/usdt.norm" '$4 == "USER"')" 0
	# the next trace of the same daemon is told too, without loading it again
	ktr usdt2 -t cu -e usdt:uevtest -f "$TMP/usdt2.ktr" "$SDT" 1
	check usdt_next_trace_said t_grep '^ktraceb: -t u: USDT probes are not recorded on this kernel: ' \
		"$TMP/usdt2.err"
	check usdt_same_daemon t_eq "$(info_pid "$TMP/usdt2.ktr")" "$(info_pid "$TMP/usdt.ktr")"
	tkill "$KEEP" 2>/dev/null
	wait "$KEEP" 2>/dev/null
fi

# --- a program every trace needs: nothing runs, one line says why ----------------
refused core ktr_syscall_enter -f "$TMP/core.ktr" /bin/true
check core_exit_69 t_krc 69 core
check core_one_line t_lines 1 "$TMP/core.err"
check core_names_program t_grep "^ktraceb: .*$(printf "$REASON" ktr_syscall_enter)" "$TMP/core.err"
check core_no_file t_eq "$([ -e "$TMP/core.ktr" ] && echo left || echo none)" none

# --- a user's own daemon before 5.11, in the default locked-memory limit ------------
# the kernel counts BPF memory against it there: one line says so
if kernel_before 5.11 && user_setup && wait_no_daemon 15; then
	timeout -k 5 "$KTR_TIMEOUT" setpriv --reuid="$KUID" --regid="$KGID" --init-groups -- \
		"$UBIN/ktraceb" -t c -f "$UDIR/memlock.ktr" /bin/true >"$TMP/memlock.out" \
		2>"$TMP/memlock.err" </dev/null
	KRC=$?
	check memlock_exit_69 t_krc 69 memlock
	check memlock_one_line t_lines 1 "$TMP/memlock.err"
	check memlock_said t_grep \
		'^ktraceb: the kernel counts BPF memory against the locked-memory limit \(Linux 5\.11 moved it to the memory cgroup\), and [0-9]+ KiB \(ulimit -l\) is too little' \
		"$TMP/memlock.err"
	daemon_gone 20
fi

# --- nothing left in bpffs by a daemon that could not start ------------------------
kill_daemons
PINS=/sys/fs/bpf/ktraceb/$BUILD_ID
rm -rf "$PINS" # the programs kept by this build's daemons: the next one loads them again
refused bare ktr_syscall_enter -f "$TMP/bare.ktr" /bin/true
check bare_exit_69 t_krc 69 bare
check bare_nothing_pinned t_eq "$(ls -d "$PINS" 2>/dev/null || echo none)" none

# --- -v into a slow terminal: the whole log, then the refusal ----------------------
# The terminal here is a pipe whose reader starts 12 s late: the daemon's
# log fills it, and the answer must wait for the log, not time out.
daemon_gone 20
mkfifo "$TMP/slow.fifo"
(
	exec 3<"$TMP/slow.fifo" # opened at once (the writer's open waits for it), read late
	sleep 12
	cat <&3 >"$TMP/slow.err"
) &
READER=$!
KTRACEB_REFUSE_PROG=ktr_syscall_enter timeout -k 5 "$KTR_TIMEOUT" "$KTRACEB" -v -f "$TMP/slow.ktr" \
	/bin/true 2>"$TMP/slow.fifo" </dev/null >/dev/null
KRC=$?
wait "$READER"
check slow_exit_69 t_krc 69 slow
check slow_log_passed t_num "$(grep -c '^libbpf: ' "$TMP/slow.err")" -gt 100
check slow_refusal_last t_match "$(tail -n 1 "$TMP/slow.err")" \
	"^ktraceb: .*$(printf "$REASON" ktr_syscall_enter)\$"
check slow_no_timeout t_nogrep 'timed out' "$TMP/slow.err"
e2e_done
