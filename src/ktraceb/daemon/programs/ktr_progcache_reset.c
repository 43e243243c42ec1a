// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * A kept program's maps emptied of what the daemon before left in them
 * (ktr_progcache.h): a daemon that starts from the cache starts as clean
 * as one that has just loaded.  A daemon ends by emptying what it used
 * (its traces' entries go with them, the loader empties the holders and
 * marks .bss clean), so after a clean end all this finds nothing, in a
 * few system calls; after a crash or a kill -9 the kept programs are not
 * used (-ESTALE: the loader drops them and loads afresh).  Kept programs
 * are used only when the daemon before left no recording to take over
 * (ktr_takeover.h): nothing of theirs runs then, and nothing in the maps
 * is anyone's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "ktr_progcache.h"

#define BATCH 256

/* Every entry of a hash map deleted, by batches where the kernel has them; 0 or -errno. */
static int reset__hash(const struct bpf_map *m)
{
	int fd = bpf_map__fd(m);
	__u32 ks = bpf_map__key_size(m), vs = bpf_map__value_size(m), n = BATCH;
	void *keys = calloc(BATCH, ks), *vals = calloc(BATCH, vs), *key = keys;
	__u64 batch = 0;
	int err = 0;

	if (!keys || !vals) {
		err = -ENOMEM;
		goto out;
	}
	/* a batch at a time from the first bucket, until none is left (ENOENT) */
	while (bpf_map_lookup_and_delete_batch(fd, NULL, &batch, keys, vals, &n, NULL) == 0 && n)
		n = BATCH;
	/* kernels or map types without batches, and what a batch left: one by one */
	while (bpf_map_get_next_key(fd, NULL, key) == 0)
		if (bpf_map_delete_elem(fd, key) < 0) {
			err = -errno;
			break;
		}
out:
	free(keys);
	free(vals);
	return err;
}

/* Every element of an array zeroed, in one call where the kernel has batches; 0 or -errno. */
static int reset__array(const struct bpf_map *m)
{
	int fd = bpf_map__fd(m);
	__u32 n = bpf_map__max_entries(m), *keys = calloc(n, sizeof(*keys));
	void *zeros = calloc(n, bpf_map__value_size(m));
	int err = 0;

	if (!keys || !zeros) {
		err = -ENOMEM;
		goto out;
	}
	for (__u32 i = 0; i < n; i++)
		keys[i] = i;
	if (bpf_map_update_batch(fd, keys, zeros, &n, NULL) < 0)
		for (__u32 i = 0; i < bpf_map__max_entries(m) && !err; i++)
			if (bpf_map_update_elem(fd, &i, zeros, 0) < 0)
				err = -errno;
out:
	free(keys);
	free(zeros);
	return err;
}

int ktr_progcache__reset(struct ktr_bpf *b)
{
	struct ktraceb_bpf *skel = b->skel;
	/*
	 * Not usdt_quiet: the files a scan found no probe in (ktr_usdt_file.c)
	 * have none whichever daemon scanned them, while their ctime is the
	 * one scanned (bpf_usdt.h), as for a daemon that lived
	 * on; a command mapping them is not stopped for a new scan (5 to 10 ms
	 * of a cold start: ktraceb's own command waits for its scans).
	 */
	const struct bpf_map *hashes[] = {
		skel->maps.procs,	skel->maps.tp_wanted,	skel->maps.tp_events,
		skel->maps.usdt_sites,	skel->maps.fatal_codes, skel->maps.group_ids,
		skel->maps.group_paths, skel->maps.hold_stops,
	};
	__u64 lost = 0;
	int err = 0;

	/*
	 * A daemon ends by clearing this; set, the one before did not end
	 * (killed, crashed), and what it left may be anywhere, recorders in
	 * the arrays of maps too.  Those are not looked through: before Linux
	 * 6.3 or so every lookup in an array of maps from user space waits
	 * for an RCU grace period, and their thousands of slots took minutes
	 * on 6.1.  Its programs are loaded afresh instead.
	 */
	if (b->bss->ktr_daemon_tgid != 0)
		return -ESTALE;
	for (size_t i = 0; i < sizeof(hashes) / sizeof(hashes[0]) && !err; i++)
		err = reset__hash(hashes[i]);
	/* slot 0 counts every loss (ring.bpf.c): zero, so is every other */
	if (!err &&
	    (bpf_map_lookup_elem(bpf_map__fd(skel->maps.lost), &(__u32){ 0 }, &lost) < 0 || lost))
		err = reset__array(skel->maps.lost);
	if (!err)
		err = reset__array(skel->maps.selects);
	if (!err)
		err = reset__array(skel->maps.groups);
	if (err)
		return err;
	/* nothing runs the programs now: plain stores are enough */
	memset(b->bss->ktr_traced, 0, sizeof(b->bss->ktr_traced));
	memset(b->bss->ktr_proc_copies, 0, sizeof(b->bss->ktr_proc_copies));
	b->bss->ktr_procs_gen++;
	b->bss->ktr_group_levels = 0;
	b->bss->ktr_syswide_route = 0;
	b->bss->ktr_stage_on = 0;
	return 0;
}
