/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * An open-addressing map from a 32-bit key (a pid or tid a trace file
 * chose) to two values, for the decoder's and the sinks' per-process and
 * per-thread state.  Entries are never removed (a trace names a bounded
 * set of pids and tids), so lookups need no tombstones; the hash is keyed
 * with a per-run random seed, so that no file can choose its collisions.
 */
#ifndef KTRACEB_KDUMP_MAP_H
#define KTRACEB_KDUMP_MAP_H

#include <stddef.h>
#include <linux/types.h>

struct kd_map_ent {
	__s32 key;
	__u32 used;
	__u64 v1;
	__s64 v2;
};

struct kd_map {
	struct kd_map_ent *ents;
	size_t cap; /* a power of two, or 0 */
	size_t count;
};

/* Entries looked at past the first by every lookup so far (the tests' measure). */
extern unsigned long long kd_map_probes;
/* A random number for keyed hashing, never 0. */
__u64 kd_random_seed(void);

struct kd_map_ent *kd_map__get(const struct kd_map *m, __s32 key);
/* The entry for key, added zeroed if absent; NULL when out of memory. */
struct kd_map_ent *kd_map__add(struct kd_map *m, __s32 key);
void kd_map__free(struct kd_map *m);

#endif /* KTRACEB_KDUMP_MAP_H */
