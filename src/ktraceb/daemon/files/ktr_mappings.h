/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Where the processes of a -k trace map their objects (KTR_MAPPING
 * records, ktr.h): kdump unwinds a stack copy with the objects at these
 * addresses.  A trace file keeps what it last said of each process (a
 * bounded table: a process pushed out of it may get a record again, which
 * costs 64 bytes and misleads nobody), so the daemon's scans, which see
 * every mapping again at each new one, write only what changed.
 */
#ifndef KTRACEB_KTR_MAPPINGS_H
#define KTRACEB_KTR_MAPPINGS_H

#include <sys/types.h>

struct ktr_tracefile;
struct ktr_object_id;
struct ktr_object_map;
struct ktr_mappings;

/* pid maps the object of id at where: said in f unless said already. */
void ktr_mappings__describe(struct ktr_tracefile *f, pid_t pid, const struct ktr_object_id *id,
			    const struct ktr_object_map *where);
/* pid exec'd: what it mapped is gone (a KTR_MAPPING_EXEC record). */
void ktr_mappings__exec(struct ktr_tracefile *f, pid_t pid);
/* child, forked by parent, maps what parent maps (a KTR_MAPPING_FORK record). */
void ktr_mappings__fork(struct ktr_tracefile *f, pid_t parent, pid_t child);
void ktr_mappings__free(struct ktr_mappings *m);

#endif /* KTRACEB_KTR_MAPPINGS_H */
