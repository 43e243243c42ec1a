/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The one way a record leaves a program: built in place, in the on-disk
 * layout (a struct ktr_sample naming its file, then the header, then the
 * payload), and put into the ring buffer, or into its file's flight
 * recorder when the file has one (ktraceb -R).  The emitters never choose:
 *
 *	struct rec_ref r = rec__reserve_current(sizeof(*rec), route, type, len);
 *	if (!r.rec) return;      (the ring was full: counted lost already)
 *	... fill the payload ...
 *	rec__submit(r);
 *
 * and a record whose size is known only at run time is built in the
 * per-CPU scratch area and sent with rec__send(), unless it has a short
 * bound: then it is reserved at its longest and its length set before the
 * submit (a short read's or write's data, genio.bpf.h).  A reserved record
 * is built in its CPU's stage while staging is on (stage.bpf.h); one sent
 * with rec__send() is copied there when it is short (a path, a short
 * readv's data); the rest go into the ring buffer after what the stage
 * holds.  A note to the daemon (note__emit) goes into the ring buffer
 * only, after the stage.
 * A CALL also waits in the stage for its return (stage.bpf.h), so it is
 * made in three places; its payload and length come from call__fill()
 * (call.bpf.h) in each.
 */
#ifndef KTRACEB_RECORD_BPF_H
#define KTRACEB_RECORD_BPF_H

#include "maps.bpf.h"
#include "ring.bpf.h"
#include "flight.bpf.h"
#include "stage.bpf.h"
#include "ktraceb/bpf_limits.h"
#include "ktraceb/bpf_stage.h"

/*
 * Does route's file have a flight recorder?  An inlined lookup (an array of
 * maps), answered as a 0 or 1 of its own: kept as the pointer, the answer
 * would be tested again at the submit, and 6.1's verifier, which does not
 * know that a map pointer is never 0, walks a path where a scratch record
 * goes to bpf_ringbuf_submit() and refuses the program.
 */
static __always_inline bool rec__to_flight(__u32 route)
{
	bool flight = bpf_map_lookup_elem(&flight_ctls, &route) != NULL;

	asm volatile("" : "+r"(flight));
	return flight;
}

/* The per-CPU scratch area for records whose size is known only at run time. */
static __always_inline struct ktr_sample *rec__scratch(void)
{
	__u32 zero = 0, cpu = bpf_get_smp_processor_id();
	void *scratch = bpf_map_lookup_elem(&scratch_holder, &zero);

	return scratch ? bpf_map_lookup_elem(scratch, &cpu) : NULL;
}

/*
 * A record being made, and where it goes: its CPU's stage, the ring
 * buffer's reserved room, or the scratch area its recorder takes it from.
 * where is a constant on each of the verifier's paths, so each path knows
 * what rec points to.
 */
#define REC_RING   0
#define REC_STAGE  1
#define REC_FLIGHT 2
struct rec_ref {
	void *rec;
	struct ktr_stage *stage; /* REC_STAGE: held until rec__submit() */
	int where;
	int len;
};

/*
 * What this CPU's stage holds, into the ring buffer now: a record that
 * does not go through the stage must not pass the ones before it.
 */
static __always_inline void rec__stage_out(void)
{
	struct ktr_stage *st = stage__get();

	if (st && st->nrec && stage__enter(st)) {
		stage__send(st);
		stage__leave(st);
	}
}

/*
 * Room for a struct { struct ktr_sample s; struct ktr_header h; payload }
 * of size bytes, sample and header filled (the record's time: ns), for the
 * caller to fill the payload and rec__submit(); rec is NULL when the ring
 * is full (the record is counted lost for its file) or no room could be
 * had.
 */
static __always_inline struct rec_ref rec__reserve_at(__u64 size, __u32 route, int type, int len,
						      __u32 pid, __u32 tid,
						      struct task_struct *task, __u64 ns)
{
	struct rec_ref r = { .rec = NULL, .stage = NULL, .where = REC_RING, .len = len };
	struct ktr_stage *st;
	struct ktr_sample *s;
	void *ring;

	if (rec__to_flight(route)) {
		r.where = REC_FLIGHT;
		s = rec__scratch();
	} else if (size <= KTR_STAGE_SLACK && (st = stage__get()) && stage__enter(st)) {
		r.where = REC_STAGE;
		r.stage = st;
		s = stage__room(st, route);
	} else {
		rec__stage_out();
		ring = rec__ring_of(tid);
		s = ring ? bpf_ringbuf_reserve(ring, size, 0) : NULL;
		if (!s)
			rec__count_lost(route, 1);
	}
	if (!s)
		return r;
	s->route = route;
	s->reserved = 0;
	rec__header_at((struct ktr_header *)(s + 1), type, len, pid, tid, task, ns);
	r.rec = s;
	return r;
}

/* rec__reserve_at() for a record of now. */
static __always_inline struct rec_ref rec__reserve(__u64 size, __u32 route, int type, int len,
						   __u32 pid, __u32 tid, struct task_struct *task)
{
	return rec__reserve_at(size, route, type, len, pid, tid, task, bpf_ktime_get_ns());
}

/* rec__reserve_at() for a record about the current thread. */
static __always_inline struct rec_ref rec__reserve_current_at(__u64 size, __u32 route, int type,
							      int len, __u64 ns)
{
	struct task_struct *task = task__current();

	return rec__reserve_at(size, route, type, len, task__read(task, tgid),
			       task__read(task, pid), task, ns);
}

/* rec__reserve() for a record about the current thread. */
static __always_inline struct rec_ref rec__reserve_current(__u64 size, __u32 route, int type,
							   int len)
{
	return rec__reserve_current_at(size, route, type, len, bpf_ktime_get_ns());
}

static __always_inline void rec__submit(struct rec_ref r)
{
	if (r.where == REC_FLIGHT) {
		flight__send(r.rec);
	} else if (r.where == REC_STAGE) {
		stage__commit(r.stage, r.rec, ((struct ktr_sample *)r.rec)->route, r.len);
		stage__leave(r.stage);
	} else {
		bpf_ringbuf_submit(r.rec, rec__wakeup_flag());
	}
}

/*
 * The one way a record built in scratch (s, its header right after it, len
 * bytes of payload after that) leaves: copied into the ring buffer (after
 * what the stage holds) or its recorder, or counted lost for its file.
 * rec__send() fills the header for the current thread first.
 */
static __always_inline void rec__output(struct ktr_sample *s, __u32 route, __u64 len)
{
	__u64 size = sizeof(*s) + sizeof(struct ktr_header) + len;
	void *ring;

	s->route = route;
	s->reserved = 0;
	if (rec__to_flight(route)) {
		flight__send((struct ktr_scratch *)s);
		return;
	}
	rec__stage_out();
	barrier_var(size); /* the verifier must see this bound, clang may not drop it */
	if (size > KTR_SCRATCH_SIZE)
		size = KTR_SCRATCH_SIZE;
	ring = rec__ring_of(((struct ktr_header *)(s + 1))->ktr_tid);
	if (!ring || bpf_ringbuf_output(ring, s, size, rec__wakeup_flag()) < 0)
		rec__count_lost(route, 1);
}

/* rec__send() of a record whose time is ns: every record of a syscall's return has the return's. */
static __always_inline void rec__send_at(struct ktr_sample *s, __u32 route, int type, __u64 len,
					 __u64 ns)
{
	__u64 size = sizeof(*s) + sizeof(struct ktr_header) + len;
	struct ktr_stage *st;
	struct ktr_sample *to;

	rec__header_current_at((struct ktr_header *)(s + 1), type, len, ns);
	/*
	 * A short one (a small read's or write's data, a path) is copied
	 * into the stage, after the call's CALL: sent on through the ring, it
	 * would send the stage on first, two copies into the ring a call.
	 */
	if (size <= KTR_STAGE_SLACK && !rec__to_flight(route) && (st = stage__get()) &&
	    stage__enter(st)) {
		to = stage__room(st, route);
		barrier_var(size); /* the verifier must see this bound, clang may not drop it */
		if (size > KTR_STAGE_SLACK)
			size = KTR_STAGE_SLACK;
		if (bpf_probe_read_kernel(to, size, s) == 0)
			stage__commit(st, to, route, len);
		else
			rec__count_lost(route, 1);
		stage__leave(st);
		return;
	}
	rec__output(s, route, len);
}

static __always_inline void rec__send(struct ktr_sample *s, __u32 route, int type, __u64 len)
{
	rec__send_at(s, route, type, len, bpf_ktime_get_ns());
}

/*
 * Tell the daemon a process traced with 'u' changed what it maps (exec,
 * an executable mapping) or forked: its USDT probes need a scan.  Woken at
 * once: probes of a new image are armed as soon as the daemon can.  A note
 * the ring has no room for is counted lost for the process's file, since
 * probe records of that image may go missing; an EXIT or FLIGHT note only
 * hurries the daemon (its tick finds the same), so losing one loses no
 * record.  Returns whether it was sent.
 */
static __always_inline bool note__emit(__u32 route, __u32 kind, __u32 pid, __u32 child,
				       __u32 flags)
{
	void *ring;
	struct {
		struct ktr_sample s;
		struct ktr_note n;
	} *rec;

	rec__stage_out(); /* the records before it are the daemon's to see first */
	ring = rec__ring();
	rec = ring ? bpf_ringbuf_reserve(ring, sizeof(*rec), 0) : NULL;
	if (!rec) {
		if (kind != KTR_NOTE_EXIT && kind != KTR_NOTE_FLIGHT)
			rec__count_lost(route, 1);
		return false;
	}
	rec->s.route = KTR_ROUTE_DAEMON;
	rec->s.reserved = 0;
	rec->n.kind = kind;
	rec->n.pid = pid;
	rec->n.child = child;
	rec->n.flags = flags;
	bpf_ringbuf_submit(rec, BPF_RB_FORCE_WAKEUP);
	return true;
}

#endif /* KTRACEB_RECORD_BPF_H */
