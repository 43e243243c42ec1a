// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* The ring buffer's fill and pace (ktr_ring_gauge.h). */
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>
#include <bpf/bpf.h>

#include "ktr_clock.h"
#include "ktr_ring_gauge.h"

struct ktr_ring_gauge {
	const unsigned long *consumer; /* the ring's first page: how far the reader is */
	const unsigned long *producer; /* its second: how far the programs wrote */
	size_t page;
	double size; /* the ring's data bytes */
	unsigned long produced_then; /* the producer's position at the last question */
	__u64 then_ns;
};

struct ktr_ring_gauge *ktr_ring_gauge__new(int ring_fd)
{
	struct bpf_map_info info = { 0 };
	__u32 len = sizeof(info);
	struct ktr_ring_gauge *g;
	void *cons, *prod;

	if (bpf_obj_get_info_by_fd(ring_fd, &info, &len) < 0 || !info.max_entries)
		return NULL;
	g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	g->page = sysconf(_SC_PAGESIZE);
	g->size = info.max_entries;
	/* read-only mappings: the kernel lets them be taken anywhere in the ring */
	cons = mmap(NULL, g->page, PROT_READ, MAP_SHARED, ring_fd, 0);
	prod = mmap(NULL, g->page, PROT_READ, MAP_SHARED, ring_fd, g->page);
	if (cons == MAP_FAILED || prod == MAP_FAILED) {
		if (cons != MAP_FAILED)
			munmap(cons, g->page);
		if (prod != MAP_FAILED)
			munmap(prod, g->page);
		free(g);
		return NULL;
	}
	g->consumer = cons;
	g->producer = prod;
	g->produced_then = __atomic_load_n(g->producer, __ATOMIC_ACQUIRE);
	g->then_ns = ktr_mono_ns();
	return g;
}

void ktr_ring_gauge__free(struct ktr_ring_gauge *g)
{
	if (!g)
		return;
	munmap((void *)g->consumer, g->page);
	munmap((void *)g->producer, g->page);
	free(g);
}

bool ktr_ring_gauge__may_take(void *gauge, long long ns)
{
	struct ktr_ring_gauge *g = gauge;
	unsigned long produced = __atomic_load_n(g->producer, __ATOMIC_ACQUIRE);
	unsigned long consumed = __atomic_load_n(g->consumer, __ATOMIC_ACQUIRE);
	__u64 now = ktr_mono_ns();
	double pace = now > g->then_ns ?
			      (double)(produced - g->produced_then) / (double)(now - g->then_ns) :
			      0;

	g->produced_then = produced;
	g->then_ns = now;
	return (double)(produced - consumed) + pace * (double)(ns > 0 ? ns : 0) < g->size / 2;
}
