// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <stdlib.h>
#include <string.h>

#include "ktraceb/ktr.h"
#include "daemon/ktr_clock.h"
#include "ktr_mappings.h"
#include "daemon/ktr_object_id.h"
#include "daemon/ktr_record.h"
#include "ktr_tracefile.h"

#define PROCS_SLOTS   1024 /* processes remembered per trace file: 2 MiB at most */
#define MAPS_PER_PROC 64 /* mappings remembered per process */

struct said_map {
	unsigned long start, end, pgoff;
	__u32 id_hash;
};

struct said_proc {
	pid_t pid; /* 0: a free slot */
	unsigned int n, next;
	struct said_map v[MAPS_PER_PROC];
};

struct ktr_mappings {
	struct said_proc *procs[PROCS_SLOTS];
};

static __u32 id_hash(const struct ktr_object_id *id)
{
	__u32 h = 2166136261u; /* FNV-1a */

	for (int i = 0; i < id->build_id_len && i < 20; i++)
		h = (h ^ id->build_id[i]) * 16777619u;
	return h;
}

/* pid's slot, taken from whoever had it (who may then get records again) */
static struct said_proc *said__proc(struct ktr_tracefile *f, pid_t pid)
{
	struct said_proc **pp;

	if (!f->mappings)
		f->mappings = calloc(1, sizeof(*f->mappings));
	if (!f->mappings)
		return NULL;
	pp = &f->mappings->procs[(unsigned int)pid % PROCS_SLOTS];
	if (!*pp)
		*pp = calloc(1, sizeof(**pp));
	if (*pp && (*pp)->pid != pid) {
		memset(*pp, 0, sizeof(**pp));
		(*pp)->pid = pid;
	}
	return *pp;
}

static void mapping__write(struct ktr_tracefile *f, pid_t pid, const struct ktr_mapping *m)
{
	struct ktr_header h;

	ktr_record__header(&h, KTR_MAPPING, sizeof(*m), 0, pid, pid, "", ktr_mono_ns());
	ktr_tracefile__append_made(f, &h, m, ktr_wall_offset_ns());
}

void ktr_mappings__describe(struct ktr_tracefile *f, pid_t pid, const struct ktr_object_id *id,
			    const struct ktr_object_map *where)
{
	struct said_proc *p = said__proc(f, pid);
	struct said_map said = { where->start, where->end, where->pgoff, id_hash(id) };
	struct ktr_mapping m = { 0 };

	if (id->build_id_len <= 0 || id->build_id_len > (int)sizeof(m.km_build_id) ||
	    where->end <= where->start)
		return;
	for (unsigned int i = 0; p && i < p->n; i++)
		if (memcmp(&p->v[i], &said, sizeof(said)) == 0)
			return;
	if (p) {
		p->v[p->next] = said;
		p->next = (p->next + 1) % MAPS_PER_PROC;
		if (p->n < MAPS_PER_PROC)
			p->n++;
	}
	m.km_start = where->start;
	m.km_end = where->end;
	m.km_pgoff = where->pgoff;
	memcpy(m.km_build_id, id->build_id, id->build_id_len);
	m.km_build_id_len = id->build_id_len;
	mapping__write(f, pid, &m);
}

void ktr_mappings__exec(struct ktr_tracefile *f, pid_t pid)
{
	struct said_proc *p = said__proc(f, pid);
	struct ktr_mapping m = { .km_flags = KTR_MAPPING_EXEC };

	if (p) {
		p->n = 0;
		p->next = 0;
	}
	mapping__write(f, pid, &m);
}

void ktr_mappings__fork(struct ktr_tracefile *f, pid_t parent, pid_t child)
{
	struct said_proc *p = said__proc(f, child);
	struct ktr_mapping m = { .km_start = (__u64)parent, .km_flags = KTR_MAPPING_FORK };

	if (p) {
		p->n = 0;
		p->next = 0;
	}
	mapping__write(f, child, &m);
}

void ktr_mappings__free(struct ktr_mappings *m)
{
	if (!m)
		return;
	for (unsigned int i = 0; i < PROCS_SLOTS; i++)
		free(m->procs[i]);
	free(m);
}
