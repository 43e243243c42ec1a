/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * kdump's pipeline: records in, one output out.  kdump.c's main() and the
 * unit tests drive it the same way: kdump__new(), then kdump__run() over a
 * reader (or kdump__record() per record), then kdump__finish() (what waits
 * for the end: the -Y table, the -P document's end) and kdump__free().
 * Inside, each record is decoded once, then goes to one sink
 * (kdump_event.h).
 *
 * Invariants:
 *  - Every payload is size-checked before use.  A record whose payload does
 *    not fit its type prints "invalid record" after its tag (or its JSON
 *    says "invalid") and is counted (kdump__ninvalid()); printing goes on.
 *  - KTR_LOST, KTR_FLIGHT and KTR_END records are never filtered out by -t or -p.
 *  - PROCCTOR/PROCDTOR choose the syscall table of their pid (KTR_SV_ILP32
 *    = i386) even when filtered out; only another system's files show them.
 */
#ifndef KTRACEB_KDUMP_PIPELINE_H
#define KTRACEB_KDUMP_PIPELINE_H

#include <stdio.h>
#include "ktraceb/ktr.h"
#include "kdump_opts.h"
#include "kdump_reader.h"

struct kdump;

/* kdump writing to out, or NULL with errno set. */
struct kdump *kdump__new(const struct kdump_opts *opts, FILE *out);
void kdump__free(struct kdump *kd);

/* Print (or, under -Y, count) one record.  0 or -ENOMEM. */
int kdump__record(struct kdump *kd, const struct ktr_header *hdr, const void *data);

/*
 * The file is of another system than ktraceb (kdump_bsd.h): its processes
 * get that system's names, and the text says which system it is first.
 * kdump__run() does it from the reader.
 */
struct kd_bsd_fmt;
void kdump__set_format(struct kdump *kd, const struct kd_bsd_fmt *fmt);

/*
 * The input is the file at path, which can be read again: the stacks'
 * objects (-k's KTR_OBJECT records, which may come after the first stacks
 * that name them) are read from all of it before the first stack.
 */
void kdump__set_path(struct kdump *kd, const char *path);

/* Every record of r: 0 at end of file, else the error of the reader or the output. */
int kdump__run(struct kdump *kd, struct ktr_reader *r);

/* The end of the input: what the output keeps for it.  0 or -ENOMEM. */
int kdump__finish(struct kdump *kd);

/* Records that did not fit their type, printed as "invalid record". */
unsigned long kdump__ninvalid(const struct kdump *kd);

#endif /* KTRACEB_KDUMP_PIPELINE_H */
