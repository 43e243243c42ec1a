/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The tracing state of a process, as every program finds it first: a
 * process that is not traced costs one load of its bit in ktr_traced and
 * nothing else; the syscall programs read a traced one's state from a copy
 * (proc__lookup_syscall).  Every change of an entry says so
 * (proc__changed): the copies are then stale.
 */
#ifndef KTRACEB_PROCS_BPF_H
#define KTRACEB_PROCS_BPF_H

#include "maps.bpf.h"
#include "ktraceb/bpf_procs.h"

/* False if process tgid is not traced: most are not, and one load says so (bpf_procs.h). */
static __always_inline bool proc__may_be_traced(__u32 tgid)
{
	return ktr_traced[KTR_TRACED_WORD(tgid)] & KTR_TRACED_BIT(tgid);
}

/* The tracing state of process tgid, NULL if it is not traced. */
static __always_inline struct ktr_proc_state *proc__lookup_tgid(__u32 tgid)
{
	if (!proc__may_be_traced(tgid))
		return NULL;
	return bpf_map_lookup_elem(&procs, &tgid);
}

/* A process about to enter the procs map: its bit first. */
static __always_inline void proc__mark_traced(__u32 tgid)
{
#ifndef KTR_OLD_KERNEL
	__sync_fetch_and_or(&ktr_traced[KTR_TRACED_WORD(tgid)], KTR_TRACED_BIT(tgid));
#else
	/*
	 * No atomic or before 5.12: an atomic add of the bit, if it is clear.
	 * Only two forks at once of children whose pids are equal modulo
	 * KTR_TRACED_BITS could both add it (a carry); pids come in order.
	 */
	__u64 *w = &ktr_traced[KTR_TRACED_WORD(tgid)];

	if (!(*(volatile __u64 *)w & KTR_TRACED_BIT(tgid)))
		__sync_fetch_and_add(w, KTR_TRACED_BIT(tgid));
#endif
}

/* The tracing state of the current process, NULL if it is not traced. */
static __always_inline struct ktr_proc_state *proc__lookup(void)
{
	/* a plain load: bpf_get_current_pid_tgid() costs a namespace walk */
	return proc__lookup_tgid(task__read(task__current(), tgid));
}

/*
 * A procs entry changed (bpf_procs.h): every copy is stale.  After the
 * change, so that a copy taken before it cannot pass for a new one.
 */
static __always_inline void proc__changed(void)
{
	__sync_fetch_and_add(&ktr_procs_gen, 1);
}

/*
 * A copy's seq, read in order with the loads around it: a plain load is
 * enough on x86 (loads are not reordered with loads), an atomic is the
 * barrier elsewhere.
 */
static __always_inline __u64 proc__copy_seq(struct ktr_proc_copy *cp)
{
#if defined(__TARGET_ARCH_x86)
	__u64 seq;

	barrier();
	seq = *(volatile __u64 *)&cp->seq;
	barrier();
	return seq;
#else
	return __sync_fetch_and_add(&cp->seq, 0);
#endif
}

/*
 * The tracing state of task's process for the syscall programs: its copy
 * (bpf_procs.h) when it is good, read into *copy, else the procs entry,
 * copied for the next time.  NULL if it is not traced.  The copy is only
 * read: a caller that changes the state takes the entry (QUIET here; HELD
 * through proc__lookup_tgid).
 */
static __always_inline struct ktr_proc_state *proc__lookup_syscall(struct task_struct *task,
								  struct ktr_proc_state *copy)
{
#ifdef KTR_OLD_KERNEL
	/* the copies need a compare-and-exchange (5.12): the entry itself */
	return proc__lookup_tgid(task__read(task, tgid));
#else
	__u32 tgid = task->tgid;
	struct ktr_proc_copy *cp = &ktr_proc_copies[tgid % KTR_PROC_COPIES];
	struct ktr_proc_state *ps;
	__u64 gen, seq;

	if (!proc__may_be_traced(tgid))
		return NULL;
	gen = *(volatile __u64 *)&ktr_procs_gen;
	seq = proc__copy_seq(cp);
	if (seq && !(seq & 1) && cp->tgid == tgid && cp->gen == gen) {
		*copy = cp->ps;
		if (proc__copy_seq(cp) == seq)
			return copy;
	}
	ps = bpf_map_lookup_elem(&procs, &tgid);
	if (!ps || (ps->flags & (KTR_PS_QUIET | KTR_PS_HELD)))
		return ps;
	/* one writer at a time: seq odd is taken; a writer that loses skips */
	if ((seq & 1) || __sync_val_compare_and_swap(&cp->seq, seq, seq + 1) != seq)
		return ps;
	cp->gen = gen;
	cp->tgid = tgid;
	cp->ps = *ps;
	barrier();
	seq = __sync_fetch_and_add(&cp->seq, 1); /* a fetch: a barrier on every arch */
	barrier_var(seq);
	return ps;
#endif
}

#endif /* KTRACEB_PROCS_BPF_H */
