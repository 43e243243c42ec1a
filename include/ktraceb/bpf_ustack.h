/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * -k's copies of the user stack (bpf/ustack.bpf.h): how much of it a call
 * copies, and how much of the ring buffer a trace's copies may take.
 */
#ifndef KTRACEB_BPF_USTACK_H
#define KTRACEB_BPF_USTACK_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/*
 * -k's copy of the top of the user stack per call (ktraceb -K, in KiB):
 * by default 8 KiB, as perf's --call-graph dwarf; at most 64 KiB.  Read in
 * pieces of KTR_USTACK_PIECE bytes, so a stack whose mapping ends sooner
 * still gives what it has.
 */
#define KTR_USTACK_KIB_DEFAULT 8
#define KTR_USTACK_KIB_MAX     64
#define KTR_USTACK_PIECE       4096
/*
 * What -k's copies of one trace may put into the ring buffer: a burst of
 * KTR_USTACK_BURST bytes, then KTR_USTACK_RATE bytes a second; a copy past
 * it is shed (the kernel's walk instead), as one that would fill the ring
 * past half.  The daemon then writes at most this much more a second for
 * a -k trace, whatever its loop does, and keeps draining the others.
 * ktr_ustack_budgets (.bss), by route: each trace's bucket.
 */
#define KTR_USTACK_RATE	 (64ull << 20)
#define KTR_USTACK_BURST (4ull << 20)
struct ktr_ustack_budget {
	__u64 ns; /* when it was last filled */
	__u64 bytes; /* what may be copied now */
};

#endif /* KTRACEB_BPF_USTACK_H */
