/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * -k: the user stack of a recorded call (KTR_USTACK, ktr.h), for
 * syscall.bpf.c.  Two ways, one per record:
 *
 *  - the user registers at the call and a copy of the top of the user
 *    stack (ps->ustack_kib KiB, from the stack pointer up), which kdump
 *    unwinds with the objects' DWARF call frame information: whole stacks
 *    through code without frame pointers (Debian's libc, ld.so,
 *    libstdc++, python).  The copy is read in pieces of
 *    KTR_USTACK_PIECE bytes, so a stack whose mapping ends sooner still
 *    gives what it has; a main thread's stops at the stack's start.
 *  - the kernel's frame-pointer walk, each frame named by build id and
 *    file offset: with -K 0, for a 32-bit process, and when the copy is
 *    shed.
 *
 * A copy is shed (KTR_USTACK_F_SHED, the walk instead) when it would fill
 * the ring buffer past half (ktr_stack_room), or take its trace past its
 * budget (KTR_USTACK_RATE bytes a second after a burst): -k on a hot loop
 * then never takes the room other traces' records need, nor the daemon's
 * time to write them.  A flight recorder's copy is cut to what one of its
 * records holds.
 */
#ifndef KTRACEB_USTACK_BPF_H
#define KTRACEB_USTACK_BPF_H

#include "record.bpf.h"
#include "arch.bpf.h"
#include "ktraceb/bpf_flight.h"
#include "ktraceb/bpf_limits.h"
#include "ktraceb/bpf_procs.h"
#include "ktraceb/bpf_sample.h"
#include "ktraceb/bpf_ustack.h"

/* The record with a stack copy, as built in the scratch area. */
struct ustack_rec {
	struct ktr_sample s;
	struct ktr_header h;
	struct ktr_ustack us;
	struct ktr_uregs ur;
	__u64 regs[ARCH_DWARF_NREGS];
	unsigned char stack[];
};

#define USTACK_COPY_MAX (KTR_USTACK_KIB_MAX * 1024)
/* the longest copy a flight recorder's record holds */
#define USTACK_FLIGHT_MAX                                                                    \
	((KTR_FLIGHT_MAX_SLOTS * KTR_FLIGHT_SLOT_DATA - sizeof(struct ktr_header) -           \
	  sizeof(struct ktr_ustack) - sizeof(struct ktr_uregs) - 8 * ARCH_DWARF_NREGS) &       \
	 ~7u)

_Static_assert(sizeof(struct ustack_rec) + USTACK_COPY_MAX + 2 * KTR_USTACK_PIECE <=
		       KTR_SCRATCH_SIZE,
	       "a stack copy fits the scratch area, with pieces to spare for the verifier");

/*
 * The frame-pointer walk's record (flags: KTR_USTACK_F_SHED or 0), its
 * frames already in the scratch area.  A global function, verified once
 * (bpf_get_stack needs the program's context, which 6.1 passes to no
 * global function, so the walk is the caller's).
 */
KTR_GLOBAL int ustack__send_walk(struct ktr_scratch *sc, __u32 route, long n, __u32 flags)
{
	struct ktr_sample *s = (void *)sc;
	struct ktr_ustack *us;
	__u32 frames;

	if (!s)
		return 0;
	us = (void *)((struct ktr_header *)(s + 1) + 1);
	frames = n > 0 ? n / sizeof(struct ktr_ustack_frame) :
			 0; /* none: said by an empty record */
	frames &= KTR_USTACK_MAXFRAMES * 2 - 1;
	us->us_nframes = frames;
	us->us_flags = flags;
	rec__send(s, route, KTR_USTACK, sizeof(*us) + frames * sizeof(struct ktr_ustack_frame));
	return 0;
}

static __always_inline void ustack__walk(void *ctx, struct ktr_sample *s, __u32 route,
					 __u32 flags)
{
	long n = bpf_get_stack(
		ctx, (char *)s + sizeof(*s) + sizeof(struct ktr_header) + sizeof(struct ktr_ustack),
		KTR_USTACK_MAXFRAMES * sizeof(struct ktr_ustack_frame),
		BPF_F_USER_STACK | BPF_F_USER_BUILD_ID);

	ustack__send_walk((struct ktr_scratch *)s, route, n, flags);
}

/*
 * May route's trace put want bytes more of copies into the ring now?  Its
 * bucket, filled at KTR_USTACK_RATE up to KTR_USTACK_BURST, pays for them
 * if so.  Threads of one trace on several CPUs may race on the bucket: it
 * is a bound, not an account.
 */
static __always_inline bool ustack__budget(__u32 route, __u32 want)
{
	struct ktr_ustack_budget *b = &ktr_ustack_budgets[route & (KTR_MAX_ROUTES - 1)];
	__u64 now = bpf_ktime_get_ns(), since = now - b->ns, bytes = b->bytes;

	bytes = since >= 1000000000ull ? KTR_USTACK_BURST :
					 bytes + since * (KTR_USTACK_RATE >> 10) / (1000000000ull >> 10);
	if (bytes > KTR_USTACK_BURST)
		bytes = KTR_USTACK_BURST;
	b->ns = now;
	if (bytes < want) {
		b->bytes = bytes;
		return false;
	}
	b->bytes = bytes - want;
	return true;
}

/*
 * The record with a copy of ur_stack_len bytes, sent: a global function of
 * its own, so the verifier checks the way out once, not again for each
 * length the copy's loop may end with.
 */
KTR_GLOBAL int ustack__send_copied(struct ktr_scratch *sc, __u32 route)
{
	struct ustack_rec *r = (void *)sc;
	__u64 len;

	if (!r)
		return 0;
	len = r->ur.ur_stack_len;
	if (len > USTACK_COPY_MAX)
		len = USTACK_COPY_MAX;
	len += sizeof(r->us) + sizeof(r->ur) + sizeof(r->regs);
	rec__send(&r->s, route, KTR_USTACK, len);
	return 0;
}

/*
 * Copy the stack (registers filled by the caller) and send the record:
 * want bytes from ur_sp, fewer up to top (non-zero: the main thread's
 * stack start).  0 if sent; -1 if the copy is shed (the caller walks).
 *
 * Page by page, so a read fails only where the stack does: the rest of
 * sp's page first, then whole pages, each of a constant size at an offset
 * the verifier knows in each turn of the loop (a copy a little past want
 * is not sent).  Its only branches are the loop's end and a page that
 * cannot be read: the verifier's work stays small on every kernel.
 */
KTR_GLOBAL int ustack__send_copy(struct ktr_scratch *sc, __u32 route, __u32 want, __u64 top)
{
	struct ustack_rec *r = (void *)sc;
	__u32 end = KTR_UREGS_END_WANT, first, pages, got;
	__u64 sp;
	void *ring;

	if (!r)
		return 0;
	sp = r->ur.ur_sp;
	if (want > USTACK_COPY_MAX)
		want = USTACK_COPY_MAX;
	if (top > sp && top - sp < want) {
		want = top - sp;
		end = KTR_UREGS_END_TOP;
	}
	if (rec__to_flight(route)) {
		if (want > USTACK_FLIGHT_MAX) {
			want = USTACK_FLIGHT_MAX;
			end = KTR_UREGS_END_RECORD;
		}
	} else {
		ring = rec__ring();
		if (!ring || bpf_ringbuf_query(ring, BPF_RB_AVAIL_DATA) + sizeof(*r) + want >
				     ktr_stack_room ||
		    !ustack__budget(route, want))
			return -1;
	}
	first = KTR_USTACK_PIECE - (sp & (KTR_USTACK_PIECE - 1));
	if (first > want)
		first = want;
	/* the verifier's bound, kept: clang knows it and would drop the mask */
	asm volatile("%0 &= %1" : "+r"(first) : "i"(2 * KTR_USTACK_PIECE - 1));
	got = 0;
	if (first && bpf_probe_read_user(r->stack, first, (const void *)sp) == 0)
		got = first;
	else if (first)
		end = KTR_UREGS_END_FAULT;
	pages = got && want > first ? (want - first + KTR_USTACK_PIECE - 1) / KTR_USTACK_PIECE : 0;
	for (__u32 i = 0; i < USTACK_COPY_MAX / KTR_USTACK_PIECE; i++) {
		if (i >= pages)
			break;
		if (bpf_probe_read_user(r->stack + first + i * KTR_USTACK_PIECE, KTR_USTACK_PIECE,
					(const void *)(sp + first + i * KTR_USTACK_PIECE))) {
			end = KTR_UREGS_END_FAULT;
			break;
		}
		got += KTR_USTACK_PIECE;
	}
	r->ur.ur_stack_len = got < want ? got : want;
	r->ur.ur_end = end;
	return ustack__send_copied(sc, route);
}

/* -k's record for the current call; regs: the user registers saved at its entry. */
static __always_inline void ustack__record(void *ctx, struct pt_regs *regs,
					   const struct ktr_proc_state *ps, int compat)
{
	struct task_struct *task = task__current();
	struct ustack_rec *r = (void *)rec__scratch();
	__u32 want = (__u32)ps->ustack_kib * 1024, route = ps->route;
	__u64 top = 0;

	if (!r)
		return;
	if (!want || compat) {
		ustack__walk(ctx, &r->s, route, 0);
		return;
	}
	r->us.us_nframes = 0;
	r->us.us_flags = KTR_USTACK_F_REGS;
	r->ur.ur_machine = ARCH_EM;
	r->ur.ur_nregs = ARCH_DWARF_NREGS;
	r->ur.ur_stack_want = want;
	arch__dwarf_regs(regs, r->regs, &r->ur.ur_sp, &r->ur.ur_pc);
	if (task__read(task, pid) == task__read(task, tgid))
		top = BPF_CORE_READ(task, mm, start_stack);
	if (ustack__send_copy((struct ktr_scratch *)r, route, want, top) < 0)
		ustack__walk(ctx, &r->s, route, KTR_USTACK_F_SHED);
}

#endif /* KTRACEB_USTACK_BPF_H */
