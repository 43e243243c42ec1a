// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <sys/random.h>

#include "kdump_map.h"

__u64 kd_random_seed(void)
{
	__u64 seed = 0;
	struct timespec ts;

	if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) == sizeof(seed) && seed)
		return seed;
	/* no entropy yet: the clock and an address, still unknown to a file's author */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((__u64)ts.tv_nsec << 32) ^ (__u64)ts.tv_sec ^ (__u64)(uintptr_t)&seed ^ 1;
}

/*
 * The keys are pids and tids a trace file chose: a fixed hash would let a
 * file aim every key at one probe chain and make each lookup walk it
 * (quadratic time).  Mixed with a per-run random seed through a 64-bit
 * finaliser (murmur3's fmix64), no key set is worse than any other.
 */
static __u64 map_seed;

static size_t slot(__s32 key, size_t cap)
{
	__u64 h;

	if (!map_seed)
		map_seed = kd_random_seed();
	h = (__u64)(__u32)key ^ map_seed;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 33;
	return (size_t)(h & (cap - 1));
}

unsigned long long kd_map_probes;

struct kd_map_ent *kd_map__get(const struct kd_map *m, __s32 key)
{
	size_t i;

	if (!m->cap)
		return NULL;
	for (i = slot(key, m->cap); m->ents[i].used; i = (i + 1) & (m->cap - 1)) {
		kd_map_probes++;
		if (m->ents[i].key == key)
			return &m->ents[i];
	}
	return NULL;
}

static int grow(struct kd_map *m)
{
	size_t ncap = m->cap ? m->cap * 2 : 64, i, j;
	struct kd_map_ent *ne;

	ne = calloc(ncap, sizeof(*ne));
	if (!ne)
		return -ENOMEM;
	for (i = 0; i < m->cap; i++) {
		if (!m->ents[i].used)
			continue;
		for (j = slot(m->ents[i].key, ncap); ne[j].used; j = (j + 1) & (ncap - 1))
			;
		ne[j] = m->ents[i];
	}
	free(m->ents);
	m->ents = ne;
	m->cap = ncap;
	return 0;
}

struct kd_map_ent *kd_map__add(struct kd_map *m, __s32 key)
{
	struct kd_map_ent *e = kd_map__get(m, key);
	size_t i;

	if (e)
		return e;
	/* Keep the load under 1/2 so probe chains stay short. */
	if ((m->count + 1) * 2 > m->cap && grow(m))
		return NULL;
	for (i = slot(key, m->cap); m->ents[i].used; i = (i + 1) & (m->cap - 1))
		kd_map_probes++;
	e = &m->ents[i];
	e->key = key;
	e->used = 1;
	e->v1 = 0;
	e->v2 = 0;
	m->count++;
	return e;
}

void kd_map__free(struct kd_map *m)
{
	free(m->ents);
	m->ents = NULL;
	m->cap = m->count = 0;
}
