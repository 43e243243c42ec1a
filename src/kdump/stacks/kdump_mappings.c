// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kdump_mappings.h"

#define SET_MAX	   1024 /* mappings of one process at one time */
#define FORKS_MAX  16 /* parents followed back */
/*
 * Records kept per process: a process's life rarely gives more than a few
 * hundred (each scan of its mappings writes only what changed); a file
 * with more is hostile, and each stack's look costs at most this many.
 */
#define EVENTS_MAX 16384

struct map_event {
	__u64 ns;
	__u8 flags; /* KTR_MAPPING_* */
	struct kd_mapping map; /* FORK: map.start is the parent */
};

struct map_proc {
	__s32 pid;
	unsigned int n, cap;
	struct map_event *v;
};

struct kd_mappings {
	struct map_proc *procs; /* open addressing by pid; pid 0: free */
	size_t nprocs, cap;
	struct kd_mapping set[SET_MAX];
	/* the set made last (set_pid 0: none): the same for its pid at any time in [lo, hi) */
	__s32 set_pid;
	__u64 set_lo, set_hi, set_key;
	size_t set_n;
};

struct kd_mappings *kd_mappings__new(void)
{
	return calloc(1, sizeof(struct kd_mappings));
}

void kd_mappings__clear(struct kd_mappings *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->procs[i].v);
	free(m->procs);
	m->procs = NULL;
	m->nprocs = m->cap = 0;
	m->set_pid = 0;
}

void kd_mappings__free(struct kd_mappings *m)
{
	if (!m)
		return;
	kd_mappings__clear(m);
	free(m);
}

static size_t slot_of(__s32 pid, size_t cap)
{
	return ((__u32)pid * 2654435761u) & (cap - 1);
}

static struct map_proc *proc__find(const struct kd_mappings *m, __s32 pid)
{
	if (!m->cap || pid == 0)
		return NULL;
	for (size_t i = slot_of(pid, m->cap);; i = (i + 1) & (m->cap - 1)) {
		if (m->procs[i].pid == pid)
			return &m->procs[i];
		if (m->procs[i].pid == 0)
			return NULL;
	}
}

static bool procs__grow(struct kd_mappings *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64;
	struct map_proc *v = calloc(cap, sizeof(*v));

	if (!v)
		return false;
	for (size_t i = 0; i < m->cap; i++) {
		size_t j;

		if (!m->procs[i].pid)
			continue;
		for (j = slot_of(m->procs[i].pid, cap); v[j].pid; j = (j + 1) & (cap - 1))
			;
		v[j] = m->procs[i];
	}
	free(m->procs);
	m->procs = v;
	m->cap = cap;
	return true;
}

static struct map_proc *proc__get(struct kd_mappings *m, __s32 pid)
{
	struct map_proc *p = proc__find(m, pid);
	size_t i;

	if (p || pid == 0)
		return p;
	if ((m->nprocs + 1) * 2 > m->cap && !procs__grow(m))
		return NULL;
	for (i = slot_of(pid, m->cap); m->procs[i].pid; i = (i + 1) & (m->cap - 1))
		;
	m->procs[i].pid = pid;
	m->nprocs++;
	return &m->procs[i];
}

void kd_mappings__add(struct kd_mappings *m, __s32 pid, __u64 ns, const struct ktr_mapping *km)
{
	struct map_proc *p = proc__get(m, pid);
	struct map_event *e;

	if (!p || p->n >= EVENTS_MAX)
		return;
	if (!(km->km_flags & (KTR_MAPPING_EXEC | KTR_MAPPING_FORK)) &&
	    (km->km_end <= km->km_start || km->km_build_id_len == 0 ||
	     km->km_build_id_len > sizeof(km->km_build_id)))
		return;
	if (p->n == p->cap) {
		unsigned int cap = p->cap ? p->cap * 2 : 16;
		struct map_event *v = realloc(p->v, cap * sizeof(*v));

		if (!v)
			return;
		p->v = v;
		p->cap = cap;
	}
	m->set_pid = 0; /* the set made last may change */
	e = &p->v[p->n++];
	e->ns = ns;
	e->flags = km->km_flags;
	e->map.start = km->km_start;
	e->map.end = km->km_end;
	e->map.pgoff = km->km_pgoff;
	memcpy(e->map.build_id, km->km_build_id, sizeof(e->map.build_id));
}

static bool overlaps(const struct kd_mapping *a, const struct kd_mapping *b)
{
	return a->start < b->end && b->start < a->end;
}

/* set[0..n) with every mapping over mp taken out, then mp added */
static size_t set__put(struct kd_mapping *set, size_t n, const struct kd_mapping *mp)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (!overlaps(&set[i], mp))
			set[k++] = set[i];
	if (k < SET_MAX)
		set[k++] = *mp;
	return k;
}

/*
 * pid's set at ns into set, from its parent's at a fork (depth: forks
 * followed); the times of pid's records around ns narrow [*lo, *hi), the
 * times at which the set is the same.
 */
static size_t set__build(const struct kd_mappings *m, __s32 pid, __u64 ns, struct kd_mapping *set,
			 int depth, __u64 *key, __u64 *lo, __u64 *hi)
{
	const struct map_proc *p = proc__find(m, pid);
	size_t n = 0;
	unsigned int i;

	if (!p)
		return 0;
	for (i = 0; i < p->n; i++) {
		if (p->v[i].ns <= ns && p->v[i].ns > *lo)
			*lo = p->v[i].ns;
		else if (p->v[i].ns > ns && p->v[i].ns < *hi)
			*hi = p->v[i].ns;
	}
	for (i = 0; i < p->n && p->v[i].ns <= ns; i++) {
		const struct map_event *e = &p->v[i];

		*key = (*key ^ ((__u64)pid << 32 | i)) * 0x100000001b3ull;
		if (e->flags & KTR_MAPPING_EXEC)
			n = 0;
		else if (e->flags & KTR_MAPPING_FORK)
			n = depth < FORKS_MAX && (__s32)e->map.start != pid ?
				    set__build(m, (__s32)e->map.start, e->ns, set, depth + 1, key,
					       &(__u64){ 0 }, &(__u64){ ~0ull }) :
				    0;
		else
			n = set__put(set, n, &e->map);
	}
	/*
	 * Read after the stack: what overlaps nothing known, up to an exec or
	 * fork; a process whose first record is its fork ran before the daemon
	 * said so, with its parent's mappings.
	 */
	for (; i < p->n && !(p->v[i].flags & KTR_MAPPING_EXEC); i++) {
		const struct map_event *e = &p->v[i];
		bool free_room = n < SET_MAX;

		if ((e->flags & KTR_MAPPING_FORK) && i == 0 && depth < FORKS_MAX &&
		    (__s32)e->map.start != pid) {
			n = set__build(m, (__s32)e->map.start, ns, set, depth + 1, key,
				       &(__u64){ 0 }, &(__u64){ ~0ull });
			continue;
		}
		if (e->flags & KTR_MAPPING_FORK)
			break;
		for (size_t j = 0; free_room && j < n; j++)
			free_room = !overlaps(&set[j], &e->map);
		if (free_room) {
			set[n++] = e->map;
			*key = (*key ^ ((__u64)pid << 32 | i)) * 0x100000001b3ull;
		}
	}
	return n;
}

static int by_start(const void *a, const void *b)
{
	const struct kd_mapping *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

size_t kd_mappings__at(struct kd_mappings *m, __s32 pid, __u64 ns, const struct kd_mapping **out,
		       __u64 *key)
{
	*out = m->set;
	if (m->set_pid && m->set_pid == pid && ns >= m->set_lo && ns < m->set_hi) {
		*key = m->set_key;
		return m->set_n;
	}
	m->set_key = 0xcbf29ce484222325ull;
	m->set_lo = 0;
	m->set_hi = ~0ull;
	m->set_n = set__build(m, pid, ns, m->set, 0, &m->set_key, &m->set_lo, &m->set_hi);
	qsort(m->set, m->set_n, sizeof(m->set[0]), by_start);
	m->set_pid = pid;
	*key = m->set_key;
	return m->set_n;
}

const struct kd_mapping *kd_mappings__find(const struct kd_mapping *maps, size_t n, __u64 addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (addr < maps[mid].start)
			hi = mid;
		else if (addr >= maps[mid].end)
			lo = mid + 1;
		else
			return &maps[mid];
	}
	return NULL;
}
