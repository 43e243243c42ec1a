// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The maps and configuration every ktraceb program shares, defined once.
 * The loader sizes rb (power of two) and scratch (one slot per CPU) before
 * load and fills the syscall tables from the generated syscall table.
 */
#define KTR_DEFINE_MAPS
#include "ktraceb.bpf.h"

KTR_MAP_RB rb SEC(".maps");
KTR_MAP_PROCS procs SEC(".maps");
KTR_MAP_LOST lost SEC(".maps");
KTR_MAP_SCRATCH scratch SEC(".maps");
KTR_MAP_QUIET usdt_quiet SEC(".maps");

const volatile __u8 ktr_nargs64[KTR_MAX_SYSCALLS] = {};
const volatile __u8 ktr_pathmask64[KTR_MAX_SYSCALLS] = {};
const volatile __u8 ktr_nargs32[KTR_MAX_SYSCALLS] = {};
const volatile __u8 ktr_pathmask32[KTR_MAX_SYSCALLS] = {};
const volatile __u64 ktr_wakeup_bytes = 1 << 22;
const volatile __u8 ktr_genio64[KTR_MAX_SYSCALLS] = {};
const volatile struct ktr_capture ktr_captures64[KTR_MAX_SYSCALLS][KTR_CAPTURES] = {};

/* ktraceb.bpf.h says why one array for all CPUs, and slot 0 */
__noinline int rec__count_lost(__u32 route)
{
	__u32 all = 0;
	__u64 *n = bpf_map_lookup_elem(&lost, &route), *total;

	if (n)
		__sync_fetch_and_add(n, 1);
	total = bpf_map_lookup_elem(&lost, &all);
	if (total)
		__sync_fetch_and_add(total, 1);
	return 0;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
