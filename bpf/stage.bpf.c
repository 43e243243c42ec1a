// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The stage's functions (stage.bpf.h), verified once each, and the program
 * the daemon runs on a CPU to send on what its stage holds when nothing
 * else would for a while (a thread busy in user space, or in a long
 * syscall, makes no context switch).
 */
#include "ring.bpf.h"
#include "stage.bpf.h"
#include "call.bpf.h"
#include "ktraceb/bpf_stage.h"

/* This CPU's stage, staging on or off. */
static __always_inline struct ktr_stage *stage__this_cpu(void)
{
	__u32 cpu = bpf_get_smp_processor_id();

	return bpf_map_lookup_elem(&stages, &cpu);
}

static __always_inline int stage__send_now(struct ktr_stage *st)
{
	__u64 len, flags;
	void *ring;

	if (!st)
		return 0;
	len = st->len;
	if (st->nrec && len) {
		barrier_var(len); /* the verifier must see this bound, clang may not drop it */
		if (len > sizeof(st->buf))
			len = sizeof(st->buf);
		st->head.route = KTR_ROUTE_BATCH;
		st->head.reserved = len;
		ring = rec__ring();
		flags = ring && bpf_ringbuf_query(ring, BPF_RB_AVAIL_DATA) >= ktr_wakeup_bytes ?
				BPF_RB_FORCE_WAKEUP :
				BPF_RB_NO_WAKEUP;
		if (!ring || bpf_ringbuf_output(ring, &st->head, sizeof(st->head) + len, flags) < 0)
			rec__count_lost(st->route, st->nrec);
	}
	st->len = 0;
	st->nrec = 0;
	return 0;
}

/*
 * The waiting CALL becomes a record, with its entry time, of the current
 * thread: the one in that syscall.  Another thread's would mean its
 * thread left the CPU unseen; it is counted lost, not written as ours.
 */
static __always_inline int stage__call_out_now(struct ktr_stage *st)
{
	struct task_struct *task = task__current();
	struct call_sample *rec;
	struct ktr_stage_call *c;
	__u32 route, len;

	if (!st || !st->call.tid)
		return 0;
	c = &st->call;
	route = c->route;
	if (c->tid != (__u32)task__read(task, pid)) {
		c->tid = 0;
		rec__count_lost(route, 1);
		return 0;
	}
	c->tid = 0;
	rec = (struct call_sample *)stage__room(st, route);
	len = call__fill(rec, c->code, c->narg, c->args);
	rec__header_at(&rec->h, KTR_SYSCALL, len, task__read(task, tgid), task__read(task, pid),
		       task, c->mono_ns);
	rec->h.ktr_flags |= KTRH_ABI_NATIVE; /* a compat call is never kept */
	stage__commit(st, &rec->s, route, len);
	return 0;
}

#ifndef KTR_OLD_KERNEL
__noinline int stage__send(struct ktr_stage *st)
{
	return stage__send_now(st);
}

__noinline int stage__call_out(struct ktr_stage *st)
{
	return stage__call_out_now(st);
}
#else
__noinline int stage__send_cpu(void)
{
	return stage__send_now(stage__this_cpu());
}

__noinline int stage__call_out_cpu(void)
{
	return stage__call_out_now(stage__this_cpu());
}
#endif

/*
 * Run by the daemon on a CPU (BPF_PROG_TEST_RUN, in an interrupt there):
 * a CALL of the thread it interrupted, and the stage, into the ring.  1
 * when a program it interrupted holds the stage: the daemon asks again; 2
 * for the tests' stage that nothing sends on (KTR_REFUSE_STAGE_SEND): it
 * does not.
 */
SEC("raw_tp")
int ktr_stage_flush(void *ctx)
{
	struct task_struct *task = task__current();
	/* staging on or off: what was staged before it went off too */
	struct ktr_stage *st = stage__this_cpu();

	if (!st)
		return 0;
	if (prog__stage_stuck_for_tests())
		return 2;
	if (!stage__enter(st))
		return 1;
	if (st->call.tid == (__u32)task__read(task, pid))
		stage__call_out(st);
	if (st->nrec)
		stage__send(st);
	stage__leave(st);
	return 0;
}
