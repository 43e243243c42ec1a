// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The kernel's part of the tax (bench/run.sh): programs on the same two
 * syscall tracepoints as ktraceb's that do nothing at all (empty_*), and
 * ones that only read the clock, as each of ktraceb's does once (clock_*):
 * empty_tp attaches one pair or the other.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

SEC("tp_btf/sys_enter")
int BPF_PROG(empty_enter, struct pt_regs *regs, long id)
{
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(empty_exit, struct pt_regs *regs, long ret)
{
	return 0;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(clock_enter, struct pt_regs *regs, long id)
{
	bpf_ktime_get_ns(); /* a helper call: never left out */
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(clock_exit, struct pt_regs *regs, long ret)
{
	bpf_ktime_get_ns();
	return 0;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
