/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/* What this kernel, and the daemon's privileges, let it do. */
#ifndef KTRACEB_KTR_KERNEL_CAPS_H
#define KTRACEB_KTR_KERNEL_CAPS_H

#include <stdbool.h>
#include <stddef.h>

/* BPF_TRACE_UPROBE_MULTI: libbpf 1.1's bpf.h does not have the name */
#define ATTACH_UPROBE_MULTI 48

/* How USDT probes are attached (facility 'u'). */
enum ktr_usdt_mode {
	KTR_USDT_NONE,		/* kernel older than 5.17: no USER records from probes */
	KTR_USDT_MULTI,		/* one uprobe_multi link per file (6.6 and later) */
	KTR_USDT_PERF_EVENT,	/* a uprobe perf event per site (CAP_SYS_ADMIN) */
};

/* Capability cap in the effective set? */
bool ktr_caps__has(int cap);
/* CAP_BPF and CAP_PERFMON? */
bool ktr_caps__bpf(void);
/* How USDT probes can be attached here; with KTR_USDT_NONE, why not into why. */
enum ktr_usdt_mode ktr_caps__usdt_mode(char *why, size_t size);

#endif /* KTRACEB_KTR_KERNEL_CAPS_H */
