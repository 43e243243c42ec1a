/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Writing into a flight recorder's ring (ktraceb -R; bpf_flight.h gives
 * the layout, map_shapes.bpf.h the maps), inline: finding a slot, and a
 * compact recorder's RET straight into its slot, the one record a compact
 * recording keeps per syscall (syscall.bpf.c).  Whole records go in
 * through flight.bpf.c's global functions.
 */
#ifndef KTRACEB_FLIGHT_RING_BPF_H
#define KTRACEB_FLIGHT_RING_BPF_H

#include "maps.bpf.h"
#include "ring.bpf.h"
#include "ktraceb/bpf_flight.h"

/*
 * The signals whose default action dumps core (signal(7)): SIGQUIT 3,
 * SIGILL 4, SIGTRAP 5, SIGABRT 6, SIGBUS 7, SIGFPE 8, SIGSEGV 11, SIGXCPU
 * 24, SIGXFSZ 25, SIGSYS 31 (the same on x86_64 and arm64).
 */
#define FLIGHT_CORE_SIGNALS                                                                 \
	((1ull << 3) | (1ull << 4) | (1ull << 5) | (1ull << 6) | (1ull << 7) | (1ull << 8) |  \
	 (1ull << 11) | (1ull << 24) | (1ull << 25) | (1ull << 31))

static __always_inline bool flight__dumps_core(int sig)
{
	return sig > 0 && sig < 64 && ((FLIGHT_CORE_SIGNALS >> sig) & 1);
}

/* A recording's control record, and CPU cpu's head (NULL past the map). */
static __always_inline struct ktr_flight_ctl *flight__ctl(void *ctls)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(ctls, &zero);
}

static __always_inline struct ktr_flight_head *flight__head(void *ctls, __u32 cpu)
{
	__u32 i = 1 + cpu;

	return bpf_map_lookup_elem(ctls, &i);
}

/*
 * pos modulo per, the position's place in its CPU's region.  A 64-bit
 * division costs a recorded syscall as much as the rest of its writing,
 * so the head keeps where the current lap began: within it, a subtraction
 * is exact.  A position outside it (a new lap, or a writer that another
 * preempted on this CPU) divides, and leaves its own lap's start.  Only
 * the writers and the daemon (0) set it: always a multiple of per.
 */
static __always_inline __u32 flight__offset(struct ktr_flight_head *hd, __u32 per, __u64 pos)
{
	__u64 lap = hd->lap, off = pos - lap;

	if (off < per)
		return off;
	off = pos % per;
	hd->lap = pos - off;
	return off;
}

/* The slot at position pos of this CPU's region, its position marked in writing. */
static __always_inline struct ktr_flight_slot *flight__slot(void *ring, struct ktr_flight_ctl *ctl,
							    struct ktr_flight_head *hd, __u32 cpu,
							    __u64 pos)
{
	__u32 per = ctl->per_cpu;
	__u32 idx = ctl->base + cpu * per + flight__offset(hd, per, pos);
	struct ktr_flight_slot *sl = bpf_map_lookup_elem(ring, &idx);

	if (sl)
		sl->pos = ~0u;
	barrier();
	return sl;
}

/*
 * n positions of this CPU's region claimed, by moving its head: the first
 * of them.  Only programs of this CPU write there, but one may run between
 * another's steps (an interrupt), hence an atomic fetch.  Kernels before
 * 5.12 have none (old_kernel.bpf.h): the region's busy flag keeps another
 * program of this CPU out while the head moves, and it gets ~0, its record
 * counted lost (rec__count_lost).
 */
static __always_inline __u64 flight__claim(struct ktr_flight_head *hd, __u64 n)
{
#ifndef KTR_OLD_KERNEL
	return __sync_fetch_and_add(&hd->head, n);
#else
	__u64 pos;

	if (*(volatile __u64 *)&hd->busy)
		return ~0ULL;
	*(volatile __u64 *)&hd->busy = 1;
	barrier();
	pos = *(volatile __u64 *)&hd->head;
	*(volatile __u64 *)&hd->head = pos + n;
	barrier();
	*(volatile __u64 *)&hd->busy = 0;
	return pos;
#endif
}

/*
 * A syscall's return for a compact recorder, straight into its slot: the
 * one record a compact recording keeps per syscall, at the least cost
 * (inline, its control map's lookups inlined too: only the slot's lookup
 * and the clock are calls).  Returns -1 when the route has no ring, 1
 * when its ring takes whole records (the caller sends one), 0 when done.
 */
static __always_inline int flight__compact_ret(struct task_struct *task, __u32 route, long id,
					       __u16 flags, __u32 tid, long ret)
{
	void *ctls = bpf_map_lookup_elem(&flight_ctls, &route), *ring;
	struct ktr_flight_compact *c;
	struct ktr_flight_slot *sl;
	struct ktr_flight_head *hd;
	struct ktr_flight_ctl *ctl;
	__u32 cpu;
	__u64 pos;

	if (!ctls)
		return -1;
	ctl = flight__ctl(ctls);
	if (!ctl || !(ctl->flags & KTR_FLIGHT_F_COMPACT))
		return 1;
	cpu = bpf_get_smp_processor_id();
	hd = flight__head(ctls, cpu);
	ring = bpf_map_lookup_elem(&flights, &route);
	if (!hd || !ring || cpu >= ctl->ncpu || !ctl->per_cpu)
		return 0;
	if (ctl->state != KTR_FLIGHT_LIVE) {
		__sync_fetch_and_add(&hd->kept_out, 1);
		return 0;
	}
	pos = flight__claim(hd, 1);
	if (pos == ~0ULL) {
		rec__count_lost(route, 1);
		return 0;
	}
	hd->records++;
	sl = flight__slot(ring, ctl, hd, cpu, pos);
	if (!sl)
		return 0;
	c = (void *)sl->data;
	c->mono = bpf_ktime_get_ns();
	c->pid = task__read(task, tgid);
	c->tid = task__read(task, pid);
	c->value = ret < 0 && ret >= -4095 ? -1 : ret;
	c->error = ret < 0 && ret >= -4095 ? -ret : 0;
	c->code = id;
	task__comm(c->comm, task);
	c->type = KTR_SYSRET;
	c->cpu = cpu;
	c->flags = flags;
	sl->idx = KTR_FLIGHT_COMPACT_ENTRY;
	sl->nslots = 1;
	barrier();
	sl->pos = (__u32)pos;
	return 0;
}

#endif /* KTRACEB_FLIGHT_RING_BPF_H */
