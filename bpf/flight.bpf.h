/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The flight recorders' maps (ktraceb -R; bpf_shared.h gives the layout)
 * and the inline steps of writing into one: maps.bpf.c writes whole
 * records, syscall.bpf.c a compact recorder's RET straight into its slot.
 *
 * Each recording has two arrays, found by its route: its ring, whose size
 * is the user's (so an inner map of BPF_F_INNER_MAP, whose lookups are
 * helper calls), and its control map, of one fixed size for every
 * recording, whose lookups the verifier inlines: the control record and
 * the CPUs' heads are read and moved without a call.
 */
#ifndef KTRACEB_FLIGHT_BPF_H
#define KTRACEB_FLIGHT_BPF_H

#include "ktraceb.bpf.h"

struct ktr_flight_ring {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE | BPF_F_INNER_MAP);
	__uint(max_entries, 1);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(struct ktr_flight_slot));
};

struct ktr_flight_ctl_map {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, KTR_FLIGHT_CTL_SLOTS);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(struct ktr_flight_slot));
};

#define KTR_MAP_FLIGHTS                                                                   \
	struct {                                                                          \
		__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);                                 \
		__uint(max_entries, KTR_MAX_ROUTES);                                      \
		__type(key, __u32);                                                       \
		__array(values, struct ktr_flight_ring);                                  \
	}
#define KTR_MAP_FLIGHT_CTLS                                                               \
	struct {                                                                          \
		__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);                                 \
		__uint(max_entries, KTR_MAX_ROUTES);                                      \
		__type(key, __u32);                                                       \
		__array(values, struct ktr_flight_ctl_map);                               \
	}

#ifndef KTR_DEFINE_MAPS
extern KTR_MAP_FLIGHTS flights SEC(".maps");
extern KTR_MAP_FLIGHT_CTLS flight_ctls SEC(".maps");
#endif

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

#endif /* KTRACEB_FLIGHT_BPF_H */
