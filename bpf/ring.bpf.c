// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * What every record needs that is worth a function of its own, verified
 * once rather than inlined in every record site (ring.bpf.h declares
 * them): a loss counted for its file, and the header's flags.
 */
#include "ring.bpf.h"

/* ring.bpf.h says why one array for all CPUs, and slot 0 */
__noinline int rec__count_lost(__u32 route, __u32 n)
{
	rec__count_lost_inline(route, n);
	return 0;
}

/*
 * ktr_flags of a record about thread tid: the CPU, and KTRH_THREADED when
 * tid is the current thread and its process has other threads (a record
 * about another thread, a child at its fork, is about a single-threaded
 * process).  One function: the verifier checks a load of task->signal with a
 * search of the kernel's BTF each time it walks one, and it would walk one
 * inlined in every record site of every path.
 */
__noinline __u32 rec__flags(__u32 tid)
{
	struct task_struct *task = task__current();
	__u32 flags = KTRH_CPUID_ENCODE(bpf_get_smp_processor_id());

	if ((__u32)task__read(task, pid) == tid && task__read2(task, signal, nr_threads) > 1)
		flags |= KTRH_THREADED;
	return flags;
}
