// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* The procs map (ktr_procmap.h): its entries read, written and listed. */
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>

#include "ktraceb/bpf_procs.h"
#include "daemon/programs/ktr_bpf.h"
#include "ktr_procmap.h"

struct ktr_procmap {
	struct ktraceb_bpf__bss *bss;
	int fd;
};

struct ktr_procmap *ktr_procmap__new(struct ktr_bpf *b)
{
	struct ktr_procmap *pm = calloc(1, sizeof(*pm));

	if (!pm)
		return NULL;
	pm->bss = b->bss;
	pm->fd = ktr_bpf__map_fd(b, procs);
	return pm;
}

void ktr_procmap__free(struct ktr_procmap *pm)
{
	free(pm);
}

bool ktr_procmap__get(const struct ktr_procmap *pm, __u32 pid, struct ktr_proc_state *ps)
{
	return bpf_map_lookup_elem(pm->fd, &pid, ps) == 0;
}

void ktr_procmap__mark_traced(struct ktr_procmap *pm, __u32 tgid)
{
	__atomic_fetch_or(&pm->bss->ktr_traced[KTR_TRACED_WORD(tgid)], KTR_TRACED_BIT(tgid),
			  __ATOMIC_SEQ_CST);
}

/* Every change of the map goes through these two: the programs' copies go stale. */
int ktr_procmap__put(struct ktr_procmap *pm, __u32 tgid, const struct ktr_proc_state *ps,
		     __u64 flags)
{
	int err = bpf_map_update_elem(pm->fd, &tgid, ps, flags);

	__atomic_fetch_add(&pm->bss->ktr_procs_gen, 1, __ATOMIC_SEQ_CST);
	return err;
}

void ktr_procmap__drop(struct ktr_procmap *pm, __u32 tgid)
{
	bpf_map_delete_elem(pm->fd, &tgid);
	__atomic_fetch_add(&pm->bss->ktr_procs_gen, 1, __ATOMIC_SEQ_CST);
}

void ktr_procmap__untrace_all(struct ktr_procmap *pm)
{
	memset(pm->bss->ktr_traced, 0, sizeof(pm->bss->ktr_traced));
}

int ktr_procmap__keys(const struct ktr_procmap *pm, int r, __u32 **out)
{
	__u32 key, next, *prev = NULL, *keys = NULL, *tmp;
	int n = 0, cap = 0;

	while (bpf_map_get_next_key(pm->fd, prev, &next) == 0) {
		struct ktr_proc_state ps;

		key = next;
		prev = &key;
		if (!ktr_procmap__get(pm, key, &ps))
			continue;
		if (r >= 0 && ps.route != (__u32)r)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			tmp = reallocarray(keys, cap, sizeof(*keys));
			if (!tmp)
				break;
			keys = tmp;
		}
		keys[n++] = key;
	}
	*out = keys;
	return n;
}
