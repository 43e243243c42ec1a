#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
#
# The ways without what older kernels lack (issue 34), run on this kernel:
# KTRACEB_KERNEL=5.10 makes the daemon take everything after Linux 5.10 as
# missing (src/ktraceb/daemon/programs/ktr_kernel_lacks.c), so the build of the
# programs for kernels before 5.12 (bpf/old_kernel.bpf.h) and the ways
# without attach cookies, links on perf events, bpf_task_pt_regs() and
# sched_switch's prev_state run on every run of the suite, not only in the
# 5.10 guest (tests/vm/run.sh 5.10, where the kernel itself lacks them):
#  - the old build is the one loaded: its fork program has no atomic or;
#    the INFO record and -v say so
#  - c n i s w record: calls, paths, I/O, signals with their masks, context
#    switches stopping in the kernel to sleep and, made to give way while
#    in user space, in user space (the registers found at the top of the
#    task's stack)
#  - inheritance (-i): the children's bits set by an atomic add
#  - -e: each event through a stub that names it (no attach cookies), and
#    -S: every task's hits of an event
#  - -R: a crash freezes the recorder (the claim taken by a hash, its heads
#    moved without an atomic fetch) and the ring is written
#  - -t u alone is refused, in one line naming bpf_loop() and Linux 5.17
#    (asked for: -t u or -e usdt:; the default -t leaves it out unsaid)
#  - KTRACEB_KERNEL=5.9: nothing loads, one line names Linux 5.10, and
#    nothing is left in bpffs
. "$(dirname "$0")/lib.sh"
need_tracer
export KTRACEB_KERNEL=5.10
# a daemon started without it must not serve these, nor this one the next script
kill_daemons
daemon_gone 20
trap 'kill_daemons; e2e_cleanup' EXIT

# --- the old build ---------------------------------------------------------------
ktr all -i -t cnisw -f "$TMP/all.ktr" "$PROGS/fac_sig" caught
check all_exit_0 t_krc 0 all
kd all "$TMP/all.ktr"
N=$TMP/all.norm
fork=$(ls -d /sys/fs/bpf/ktraceb/"$BUILD_ID"/cache-*/prog-ktr_proc_fork 2>/dev/null | head -n 1)
if [ -n "$fork" ] && command -v bpftool >/dev/null; then
	bpftool prog dump xlated pinned "$fork" >"$TMP/fork.xlated" 2>&1
	check old_build_loaded t_grep 'lock \*\(u64 \*\)\(r[0-9]+ \+0\) \+= r' "$TMP/fork.xlated"
	check old_build_no_atomic_or t_nogrep 'lock .*\|=|atomic_fetch|cmpxchg' "$TMP/fork.xlated"
else
	skip old_build_loaded "no kept programs to look at (bpftool, or no bpffs pins)"
fi

# which build, said: in the INFO record, and by -v
check old_build_in_info t_grep $'\tINFO\tktraceb format [0-9]+, .*, BPF programs for kernels before 5\\.12$' "$N"
ktr verbose -v -t c -f "$TMP/v.ktr" /bin/true
check old_build_said_by_v t_grep '^ktraceb: BPF programs: the build for kernels before 5\.12 \(' "$TMP/verbose.err"

# --- c n i s w -------------------------------------------------------------------
P=$(awk '$1 == "pid" { print $2 }' "$TMP/all.out")
check all_calls t_num "$(qn "$N" '$1 == p && $4 == "CALL"' p="$P")" -gt 10
check all_returns t_num "$(qn "$N" '$1 == p && $4 == "RET"' p="$P")" -gt 10
check all_nami_exec t_grep $'\tNAMI\t"'"$PROGS/fac_sig"'"$' "$N"
check all_gio t_num "$(qn "$N" '$1 == p && $4 == "GIO"' p="$P")" -ge 1
for sig in SIGUSR1 SIGUSR2 SIGHUP; do
	check "all_psig_$sig" t_eq "$(qn "$N" '$1 == p && $4 == "PSIG" && $5 ~ ("^" s " caught handler=0x[0-9a-f]+ mask=0x8000000 ")' \
		p="$P" s="$sig")" 1
done

ktr sleep -t cw -f "$TMP/sleep.ktr" "$PROGS/fac_sleep" 4 20
kd sleep "$TMP/sleep.ktr"
check sleep_stops_kernel t_num "$(qn "$TMP/sleep.norm" '$4 == "CSW" && $5 == "stop kernel \"sleep\""')" -ge 4
check sleep_resumes t_num "$(qn "$TMP/sleep.norm" '$4 == "CSW" && $5 ~ /^resume /')" -ge 4

# two spinners on one CPU: the traced one is preempted while in user space
# (taskset execs the shell: $! is the spinner itself, killed here or at the end)
taskset -c 0 sh -c 'while :; do :; done' &
SPIN=$!
E2E_PIDS="${E2E_PIDS:-} $SPIN"
ktr spin -i -t w -f "$TMP/spin.ktr" taskset -c 0 timeout 1 sh -c 'while :; do :; done'
tkill -KILL "$SPIN"
kd spin "$TMP/spin.ktr"
check spin_stops_user t_num "$(qn "$TMP/spin.norm" '$3 == "sh" && $4 == "CSW" && $5 ~ /^stop user /')" -ge 1

# --- inheritance -----------------------------------------------------------------
ktr tree -i -t c -f "$TMP/tree.ktr" "$PROGS/forkexec" /bin/true
kd tree "$TMP/tree.ktr"
check tree_exit_0 t_krc 0 tree
check tree_three_processes t_eq "$(q "$TMP/tree.norm" '$4 == "CALL"' | cut -f1 | sort -u | wc -l |
	tr -d ' ')" 3
check tree_grandchild_exec t_grep $'\tRET\texecve 0$' "$TMP/tree.norm"

# --- kernel events, each through its stub -----------------------------------------
ktr tp -i -t c -e sched:sched_process_fork -e sched:sched_process_exec -e signal:signal_generate \
	-f "$TMP/tp.ktr" "$PROGS/tp_events" /bin/true
kd tp "$TMP/tp.ktr"
P=$(awk '$1 == "pid" { print $2 }' "$TMP/tp.out")
C=$(awk '$1 == "child" { print $2 }' "$TMP/tp.out")
check tp_exit_0 t_krc 0 tp
check tp_fork t_eq "$(qn "$TMP/tp.norm" '$1 == p && $4 == "TRACE" && $5 ~ ("^sched:sched_process_fork .* child_pid=" c "$")' \
	p="$P" c="$C")" 1
check tp_exec t_eq "$(qn "$TMP/tp.norm" '$1 == c && $4 == "TRACE" && $5 ~ /^sched:sched_process_exec filename="\/bin\/true"/' \
	c="$C")" 1
check tp_signal t_eq "$(qn "$TMP/tp.norm" '$1 == p && $4 == "TRACE" && $5 ~ /^signal:signal_generate sig=10 /' \
	p="$P")" 1

# --- system-wide: every task's hits, through the stubs, into per-CPU buffers ------------
ktr sw -S -e sched:sched_process_exec -f "$TMP/sw.ktr" "$PROGS/tp_events" /bin/true
kd sw "$TMP/sw.ktr"
C=$(awk '$1 == "child" { print $2 }' "$TMP/sw.out")
check sw_exit_0 t_krc 0 sw
check sw_child_exec t_eq "$(qn "$TMP/sw.norm" '$1 == c && $4 == "TRACE" && $5 ~ /^sched:sched_process_exec filename="\/bin\/true"/' \
	c="$C")" 1

# --- the flight recorder: a crash ---------------------------------------------------
ktr segv -R 64k -f "$TMP/segv.ktr" "$PROGS/crasher" segv 2000
check segv_status_139 t_krc 139 segv
kd segv "$TMP/segv.ktr"
P=$(awk '$1 == "pid" { print $2 }' "$TMP/segv.out")
check segv_psig t_eq "$(qn "$TMP/segv.norm" '$1 == p && $4 == "PSIG" && $5 ~ /^SIGSEGV /' p="$P")" 1
check segv_exit t_eq "$(qn "$TMP/segv.norm" '$1 == p && $4 == "EXIT"' p="$P")" 1
check segv_last_calls t_num "$(qn "$TMP/segv.norm" '$1 == p && $4 == "RET" && $5 ~ /^getppid /' p="$P")" -ge 10

# --- USDT: refused alone, naming what the kernel lacks and where it came -------------
if [ -x "$PROGS/uev_sdt" ]; then
	ktr usdt -t cu -f "$TMP/usdt.ktr" "$PROGS/uev_sdt" 2
	check usdt_runs t_krc 0 usdt
	check usdt_said t_grep '^ktraceb: -t u: USDT probes are not recorded on this kernel: the kernel has no bpf_loop\(\) \(Linux 5\.17\)$' \
		"$TMP/usdt.err"
	kd usdt "$TMP/usdt.ktr"
	check usdt_rest_recorded t_num "$(qn "$TMP/usdt.norm" '$4 == "CALL"')" -gt 5
	# the default -t has u, but nobody asked for it: left out without a word
	ktr usdt_default -f "$TMP/usdtd.ktr" "$PROGS/uev_sdt" 2
	check usdt_default_runs t_krc 0 usdt_default
	check usdt_default_unsaid t_nogrep 'not recorded on this kernel' "$TMP/usdt_default.err"
	check usdt_default_summary_alone t_eq "$(grep -c '^ktraceb: ' "$TMP/usdt_default.err")" 1
	kd usdtd "$TMP/usdtd.ktr"
	check usdt_default_rest_recorded t_num "$(qn "$TMP/usdtd.norm" '$4 == "CALL"')" -gt 5
	# -e usdt: asks for it, -t or not
	ktr usdt_e -e usdt:uevtest -f "$TMP/usdte.ktr" "$PROGS/uev_sdt" 2
	check usdt_e_runs t_krc 0 usdt_e
	check usdt_e_said t_grep '^ktraceb: -t u: USDT probes are not recorded on this kernel: ' \
		"$TMP/usdt_e.err"
fi

# --- older than 5.10: nothing can load -------------------------------------------------
kill_daemons
daemon_gone 20
rm -rf "/sys/fs/bpf/ktraceb/$BUILD_ID" # the kept programs: the next daemon loads them again
KTRACEB_KERNEL=5.9 ktr k59 -f "$TMP/k59.ktr" /bin/true
check k59_exit_69 t_krc 69 k59
check k59_one_line t_lines 1 "$TMP/k59.err"
check k59_names_5_10 t_grep '^ktraceb: the kernel has no inner maps of any size \(ktraceb needs Linux 5\.10\)$' \
	"$TMP/k59.err"
check k59_nothing_pinned t_eq "$(ls -d "/sys/fs/bpf/ktraceb/$BUILD_ID" 2>/dev/null || echo none)" none
e2e_done
