/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/* What this kernel, and the daemon's privileges, let it do. */
#ifndef KTRACEB_KTR_KERNEL_CAPS_H
#define KTRACEB_KTR_KERNEL_CAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

/* BPF_TRACE_UPROBE_MULTI: libbpf 1.1's bpf.h does not have the name */
#define ATTACH_UPROBE_MULTI 48

/* How USDT probes are attached (facility 'u'). */
enum ktr_usdt_mode {
	KTR_USDT_NONE,		/* kernel older than 5.17: no USER records from probes */
	KTR_USDT_MULTI,		/* one uprobe_multi link per file (6.6 and later) */
	KTR_USDT_PERF_EVENT,	/* a uprobe perf event per site (CAP_SYS_ADMIN) */
};

/*
 * What the kernel lacks of what ktraceb would use (bpf_kernel.h's
 * KTR_LACKS_*, which the programs are told in .rodata, and the loader's
 * own below), each with a way without it, or a facility refused alone.
 * Probed once.  KTRACEB_KERNEL=X.Y (the tests' knob) makes everything
 * that came after Linux X.Y lacking too, so that the ways without are
 * run on any kernel.
 */
#define KTR_LACKS_ATOMICS   0x100 /* atomics but add: the old build (bpf/old_kernel.bpf.h) */
#define KTR_LACKS_PERF_LINK 0x200 /* BPF links on perf events: PERF_EVENT_IOC_SET_BPF */
#define KTR_LACKS_LOOP	    0x400 /* bpf_loop(): no USDT records */
#define KTR_LACKS_MEMCG	    0x800 /* BPF memory in the memory cgroup: RLIMIT_MEMLOCK counts it */
#define KTR_LACKS_INNER_MAP 0x1000 /* inner arrays of any size: nothing loads (before 5.10) */
#define KTR_LACKS_PROGRAMS  0xff  /* what the programs are told (ktr_kernel_lacks) */
__u32 ktr_caps__lacks(void);
/* What bit (one KTR_LACKS_*) is, and the first Linux that has it ("5.15"). */
const char *ktr_caps__what(__u32 bit);
const char *ktr_caps__since(__u32 bit);

/* Capability cap in the effective set? */
bool ktr_caps__has(int cap);
/* CAP_BPF and CAP_PERFMON? */
bool ktr_caps__bpf(void);
/* How USDT probes can be attached here; with KTR_USDT_NONE, why not into why. */
enum ktr_usdt_mode ktr_caps__usdt_mode(char *why, size_t size);

#endif /* KTRACEB_KTR_KERNEL_CAPS_H */
