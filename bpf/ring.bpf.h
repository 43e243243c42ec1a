/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * What every way a record takes into the ring buffer shares (record.bpf.h
 * for one record, stage.bpf.h for a CPU's gathered records): the daemon's
 * ring buffer, when to wake its reader, a loss counted for its file, and
 * the header every record starts with.
 */
#ifndef KTRACEB_RING_BPF_H
#define KTRACEB_RING_BPF_H

#include "maps.bpf.h"
#include "ktraceb/bpf_sample.h"

/*
 * One array for every file, shared by all CPUs: losses happen only when the
 * ring is full, so the atomic adds cost nothing on the normal path.  Slot 0
 * counts every loss, so the drainer looks further only when it moved.
 * ring.bpf.c: one function, not inlined in every path.
 */
int rec__count_lost(__u32 route, __u32 n);

/*
 * rec__count_lost's body, inlined where a call would add a level to the
 * deepest chain of calls: a syscall's exit, its structures, the flight
 * recorder (flight.bpf.c).  The verifier bounds a chain's stacks at 512
 * bytes in all, each function's rounded up to 32, at least 32.
 */
static __always_inline void rec__count_lost_inline(__u32 route, __u32 n)
{
	__u32 all = 0;
	__u64 *file = bpf_map_lookup_elem(&lost, &route), *total;

	if (file)
		__sync_fetch_and_add(file, n);
	total = bpf_map_lookup_elem(&lost, &all);
	if (total)
		__sync_fetch_and_add(total, n);
}
__u32 rec__flags(__u32 tid); /* ring.bpf.c: ktr_flags of a record about thread tid */

/*
 * The daemon's ring buffer that thread tid's records go into, NULL between
 * daemons (map_shapes.bpf.h).  Each thread has one ring, so a ring holds a
 * thread's records in the order they were made; threads with neighbouring
 * ids (those of one process, mostly) have different rings, so threads on
 * different CPUs seldom meet at a ring's lock.  A record about another
 * thread (a child at its fork, the thread switched to) goes into the ring
 * of the thread it is about when it bypasses the stage, and with the
 * stage's others when staged (stage.bpf.c: the stage goes to the ring of
 * the thread that made it).
 */
static __always_inline void *rec__ring_of(__u32 tid)
{
	__u32 i = tid & *(volatile __u32 *)&ktr_ring_mask;

	return bpf_map_lookup_elem(&rb_holder, &i);
}

/* The current thread's ring. */
static __always_inline void *rec__ring(void)
{
	/* a plain load: bpf_get_current_pid_tgid() costs a namespace walk */
	return rec__ring_of(task__read(task__current(), pid));
}

/*
 * Wake the drainer only when a quarter of the ring is waiting: a wakeup per
 * record would cost more than the record.  The drainer also polls on a
 * timer, so nothing waits longer than its poll interval.  Each CPU asks
 * the ring only at every KTR_WAKEUP_EVERY-th record: the query reads the
 * consumer's position, a cache line the drainer writes on another CPU,
 * and asking at each record cost a traced syscall more than anything but
 * the clock.  A few records more waiting change nothing at a quarter of
 * the ring.
 */
static __always_inline __u64 rec__wakeup_flag(void)
{
	__u32 cpu = bpf_get_smp_processor_id() & (KTR_WAKEUP_CPUS - 1);
	void *ring;

	if (++ktr_wakeup_ticks[cpu].n % KTR_WAKEUP_EVERY)
		return BPF_RB_NO_WAKEUP;
	ring = rec__ring();
	if (!ring)
		return BPF_RB_NO_WAKEUP;
	return bpf_ringbuf_query(ring, BPF_RB_AVAIL_DATA) >= ktr_wakeup_bytes ?
		       BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
}

/*
 * Fill every header byte: ring memory is not zeroed.  task is a trusted BTF
 * pointer, so its comm is read with plain (CO-RE relocated) loads rather
 * than bpf_probe_read_kernel() calls: this runs twice per syscall.  The
 * comm's last byte and the pad after it are one aligned word (ktr.h): one
 * store.  rec__header_at() for a record of an event at time ns.
 */
static __always_inline void rec__header_at(struct ktr_header *h, int type, int len, __u32 pid,
					   __u32 tid, struct task_struct *task, __u64 ns)
{
	_Static_assert(__builtin_offsetof(struct ktr_header, ktr_comm) + 16 + 8 ==
			       __builtin_offsetof(struct ktr_header, ktr_time_sec),
		       "the comm's last byte and the pad are one word");
	h->ktr_len = len;
	h->ktr_type = type;
	h->ktr_flags = rec__flags(tid);
	h->ktr_pid = pid;
	h->ktr_tid = tid;
	/* comm is 16 bytes, NUL-terminated by the kernel; byte 16 and the pad are ours */
	task__comm(h->ktr_comm, task);
	((__u64 *)h->ktr_comm)[2] = 0;
	h->ktr_time_sec = 0;
	h->ktr_time_usec = 0;
	h->ktr_mono_ns = ns;
}

static __always_inline void rec__header(struct ktr_header *h, int type, int len, __u32 pid,
					__u32 tid, struct task_struct *task)
{
	rec__header_at(h, type, len, pid, tid, task, bpf_ktime_get_ns());
}

/* Header for a record about the current thread, of an event at time ns. */
static __always_inline void rec__header_current_at(struct ktr_header *h, int type, int len,
						   __u64 ns)
{
	struct task_struct *task = task__current();

	rec__header_at(h, type, len, task__read(task, tgid), task__read(task, pid), task, ns);
}

/* Header for a record about the current thread. */
static __always_inline void rec__header_current(struct ktr_header *h, int type, int len)
{
	rec__header_current_at(h, type, len, bpf_ktime_get_ns());
}

#endif /* KTRACEB_RING_BPF_H */
