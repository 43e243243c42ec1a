// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <stdlib.h>

#include "kdump_priv.h"

static size_t slot(__s32 key, size_t cap)
{
	/* Fibonacci hashing: pids and tids are dense, this spreads them. */
	return (size_t)(((__u32)key * 2654435769u) & (cap - 1));
}

struct kd_map_ent *kd_map__get(const struct kd_map *m, __s32 key)
{
	size_t i;

	if (!m->cap)
		return NULL;
	for (i = slot(key, m->cap); m->ents[i].used; i = (i + 1) & (m->cap - 1))
		if (m->ents[i].key == key)
			return &m->ents[i];
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
		;
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
