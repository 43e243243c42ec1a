// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The flight recorders (ktraceb -R): a whole record into its recorder's
 * ring, a crash noted, a trigger freezing the ring.  Global functions,
 * each verified once (flight.bpf.h declares them for the programs; the
 * inline steps are flight_ring.bpf.h's).
 */
#include "flight_ring.bpf.h"
#include "ktraceb/bpf_flight.h"
#include "ktraceb/bpf_sample.h"

/*
 * The claims of the kernels before 5.12 (flight__exit): the first trigger
 * of a recording adds (route, armed_ns), any later one finds it there.
 */
struct flight_claim {
	__u32 route;
	__u32 pad;
	__u64 armed_ns;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 1024);
	__type(key, struct flight_claim);
	__type(value, __u8);
} flight_claims SEC(".maps");

/* One slot's worth of a record: plain loads and stores, cheaper than a helper call. */
static __always_inline void flight__copy_slot(struct ktr_flight_slot *sl, const __u64 *src)
{
	__u64 *dst = (__u64 *)sl->data;

	for (int w = 0; w < KTR_FLIGHT_SLOT_DATA / 8; w++)
		dst[w] = src[w];
}

/*
 * One record (the scratch area: a struct ktr_sample, then the record) into
 * its recorder's ring, in this CPU's region: claim its slots by moving the
 * CPU's head (atomically: another program may run on this CPU between our
 * steps), then fill each, its position written last.  A frozen ring keeps
 * the record out and counts it.
 */
/* A compact entry of h (a RET, PSIG or EXIT; nothing else) into the next slot of cpu's region. */
static __always_inline void flight__put_compact(void *ring, struct ktr_flight_ctl *ctl,
						struct ktr_flight_head *hd, __u32 cpu, __u32 route,
						struct ktr_header *h)
{
	struct ktr_flight_slot *sl;
	int type = h->ktr_type;
	__u64 pos;

	if (!KTR_FLIGHT_COMPACT_KEEPS(type))
		return; /* compact keeps only these */
	pos = flight__claim(hd, 1);
	if (pos == ~0ULL) {
		rec__count_lost_inline(route, 1);
		return;
	}
	hd->records++;
	sl = flight__slot(ring, ctl, hd, cpu, pos);
	if (!sl)
		return;
	ktr_flight_compact__pack((struct ktr_flight_compact *)sl->data, h);
	sl->idx = KTR_FLIGHT_COMPACT_ENTRY;
	sl->nslots = 1;
	barrier();
	sl->pos = (__u32)pos;
}

/* The whole record h, cut to KTR_FLIGHT_MAX_SLOTS, into the next slots of cpu's region. */
static __always_inline void flight__put_full(void *ring, struct ktr_flight_ctl *ctl,
					     struct ktr_flight_head *hd, __u32 cpu, __u32 per,
					     __u32 route, struct ktr_header *h)
{
	struct ktr_flight_slot *sl;
	__u32 total, n;
	__u64 pos;

	total = sizeof(*h) + (__u32)h->ktr_len;
	if (total > KTR_FLIGHT_MAX_SLOTS * KTR_FLIGHT_SLOT_DATA) {
		total = KTR_FLIGHT_MAX_SLOTS * KTR_FLIGHT_SLOT_DATA;
		h->ktr_len = total - sizeof(*h); /* cut, as a GIO is cut at -s bytes */
	}
	n = (total + KTR_FLIGHT_SLOT_DATA - 1) / KTR_FLIGHT_SLOT_DATA;
	if (n > per)
		return;
	pos = flight__claim(hd, n);
	if (pos == ~0ULL) {
		rec__count_lost_inline(route, 1);
		return;
	}
	hd->records++; /* a count, not a position: a rare race costs one in the total */
	for (__u32 i = 0; i < KTR_FLIGHT_MAX_SLOTS; i++) {
		if (i >= n)
			break;
		sl = flight__slot(ring, ctl, hd, cpu, pos + i);
		if (!sl)
			break;
		flight__copy_slot(sl, (const __u64 *)((const char *)h + i * KTR_FLIGHT_SLOT_DATA));
		sl->idx = i;
		sl->nslots = n;
		barrier();
		sl->pos = (__u32)(pos + i);
	}
}

static __always_inline int flight__send_now(struct ktr_sample *s)
{
	struct ktr_header *h;
	struct ktr_flight_ctl *ctl;
	struct ktr_flight_head *hd;
	__u32 cpu, route, per;
	void *ring, *ctls;

	if (!s)
		return 0;
	h = (void *)(s + 1);
	route = s->route;
	ctls = bpf_map_lookup_elem(&flight_ctls, &route);
	ring = bpf_map_lookup_elem(&flights, &route);
	if (!ctls || !ring)
		return 0;
	ctl = flight__ctl(ctls);
	cpu = bpf_get_smp_processor_id();
	hd = flight__head(ctls, cpu);
	if (!ctl || !hd || cpu >= ctl->ncpu)
		return 0;
	if (ctl->state != KTR_FLIGHT_LIVE) {
		__sync_fetch_and_add(&hd->kept_out, 1);
		return 0;
	}
	per = ctl->per_cpu;
	if (!per)
		return 0;
	if (ctl->flags & KTR_FLIGHT_F_COMPACT)
		flight__put_compact(ring, ctl, hd, cpu, route, h);
	else
		flight__put_full(ring, ctl, hd, cpu, per, route, h);
	return 0;
}

#ifndef KTR_OLD_KERNEL
__noinline int flight__send(struct ktr_scratch *sc)
{
	return flight__send_now((struct ktr_sample *)sc);
}
#else
__noinline int flight__send_scratch(void)
{
	__u32 zero = 0, cpu = bpf_get_smp_processor_id();
	void *scratch = bpf_map_lookup_elem(&scratch_holder, &zero);

	return flight__send_now(scratch ? bpf_map_lookup_elem(scratch, &cpu) : NULL);
}
#endif

/*
 * A fatal signal with its default action, one that dumps core, reached a
 * recorded process: the crash begins.  Each CPU's head is noted once, so
 * the dump can say which record was each CPU's last before it.
 */
__noinline int flight__crash_begins(__u32 route)
{
	void *ctls = bpf_map_lookup_elem(&flight_ctls, &route);
	struct ktr_flight_head *hd;
	struct ktr_flight_ctl *ctl;

	if (!ctls)
		return 0;
	ctl = flight__ctl(ctls);
	if (!ctl || ctl->state != KTR_FLIGHT_LIVE)
		return 0;
	for (__u32 cpu = 0; cpu < KTR_FLIGHT_MAX_CPUS; cpu++) {
		if (cpu >= ktr_ncpus || cpu >= ctl->ncpu)
			break;
		hd = flight__head(ctls, cpu);
		if (hd && !hd->crash)
			hd->crash = hd->head + 1;
	}
	return 0;
}

/* The first trigger of the recording takes its claim: true for it, false for any other. */
static __always_inline bool flight__take_claim(__u32 route, struct ktr_flight_ctl *ctl)
{
#ifndef KTR_OLD_KERNEL
	return __sync_val_compare_and_swap(&ctl->claim, 0, 1) == 0;
#else
	struct flight_claim key = { .route = route, .armed_ns = ctl->armed_ns };
	__u8 one = 1;

	/* the hash adds a key once: the compare-and-exchange kernels before 5.12 lack */
	return bpf_map_update_elem(&flight_claims, &key, &one, BPF_NOEXIST) == 0;
#endif
}

/*
 * A recorded process ended (its EXIT is in the ring): a trigger freezes the
 * ring, the first one's why, pid and status kept.  Returns 1 when it froze
 * the ring, for the caller to wake the daemon.
 */
__noinline int flight__exit(__u32 route, __s32 pid, __s32 status)
{
	void *ctls = bpf_map_lookup_elem(&flight_ctls, &route);
	struct ktr_flight_ctl *ctl;
	__u32 why;
	int sig = status & 0x7f;

	if (!ctls)
		return 0;
	ctl = flight__ctl(ctls);
	if (!ctl || ctl->state != KTR_FLIGHT_LIVE)
		return 0;
	if (sig && sig != 0x7f && flight__dumps_core(sig))
		why = KTR_FLIGHT_CRASH;
	else if (!sig && (status & 0xff00) && (ctl->flags & KTR_FLIGHT_F_ON_EXIT))
		why = KTR_FLIGHT_EXIT;
	else
		return 0;
	if (!flight__take_claim(route, ctl))
		return 0;
	ctl->why = why;
	ctl->pid = pid;
	ctl->status = status;
	ctl->frozen_ns = bpf_ktime_get_ns();
	barrier();
	ctl->state = KTR_FLIGHT_FROZEN;
	return 1;
}
