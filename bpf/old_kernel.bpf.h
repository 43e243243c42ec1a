/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * What the programs do without on kernels older than 5.12.  The programs
 * are built twice (Makefile): for Linux 5.12 and later, and with
 * KTR_OLD_KERNEL for 5.10 and 5.11, whose build the loader takes when the
 * kernel has no BPF atomics but add (ktr_kernel_caps.c, ktr_skel.c).  The
 * old build does without:
 *
 *   - atomics other than add (5.12): a kernel without them refuses a
 *     program that has one anywhere, even where it never runs, so the
 *     build has none (scripts/check_old_bpf.sh fails the build otherwise);
 *     each use has its own way without (procs.bpf.h, flight*.bpf.*).
 *   - pointers as arguments of global functions (5.12): KTR_GLOBAL is
 *     static there, so that the verifier checks such a function in each
 *     caller; the ones other files call take no pointer there and find
 *     what they work on themselves (stage.bpf.h, note.bpf.h, flight.bpf.h).
 *   - bpf_get_current_task_btf() (5.11): the current task is a plain number
 *     there (bpf_get_current_task()), its fields read with CO-RE probe reads
 *     (task__read); the tasks the tracepoints hand over are still BTF
 *     pointers, and task__read reads those too.
 *   - task storage (5.11): arm64's arguments kept from sys_enter are in an
 *     LRU hash by thread (syscall.bpf.c).
 *
 * What either build may find missing the loader tells it before load, in
 * ktr_kernel_lacks (.rodata; bpf_kernel.h's KTR_LACKS_*): the verifier
 * drops the branch not taken, so a helper the kernel does not know is
 * never seen.
 */
#ifndef KTRACEB_OLD_KERNEL_BPF_H
#define KTRACEB_OLD_KERNEL_BPF_H

#include "map_shapes.bpf.h"

#ifdef KTR_OLD_KERNEL

#define KTR_GLOBAL static __noinline

static __always_inline struct task_struct *task__current(void)
{
	return (struct task_struct *)bpf_get_current_task();
}

#define task__read(task, field)		BPF_CORE_READ(task, field)
/* a field of what a pointer field points to: task->ptr->field */
#define task__read2(task, ptr, field)	BPF_CORE_READ(task, ptr, field)

/* The task's 16-byte comm into dst (8-byte aligned) */
static __always_inline void task__comm(void *dst, struct task_struct *task)
{
	if (bpf_core_read(dst, 16, &task->comm) < 0)
		__builtin_memset(dst, 0, 16);
}

#else /* Linux 5.12 and later */

#define KTR_GLOBAL __noinline

static __always_inline struct task_struct *task__current(void)
{
	return bpf_get_current_task_btf();
}

/* task is a trusted BTF pointer: a plain (CO-RE relocated) load, no helper call */
#define task__read(task, field)		((task)->field)
#define task__read2(task, ptr, field)	((task)->ptr->field)

static __always_inline void task__comm(void *dst, struct task_struct *task)
{
	const __u64 *comm = (const __u64 *)task->comm;

	((__u64 *)dst)[0] = comm[0];
	((__u64 *)dst)[1] = comm[1];
}

#endif /* KTR_OLD_KERNEL */

#endif /* KTRACEB_OLD_KERNEL_BPF_H */
