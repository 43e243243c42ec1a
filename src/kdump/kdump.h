/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The kdump printer: turns records into text lines on a FILE.  kdump.c's
 * main() and the unit tests drive it the same way: kdump__new(), then
 * kdump__run() over a reader (or kdump__record() per record), then
 * kdump__finish() (the -Y table) and kdump__free().
 *
 * Invariants:
 *  - Every payload is size-checked before use.  A record whose payload does
 *    not fit its type prints "invalid record" after its tag and is counted
 *    (kdump__ninvalid()); printing goes on.
 *  - KTR_LOST records are never filtered out by -t or -p.
 *  - PROCCTOR/PROCDTOR are never printed; they choose the syscall table of
 *    their pid (KTR_SV_ILP32 = i386) even when filtered out.
 */
#ifndef KTRACEB_KDUMP_H
#define KTRACEB_KDUMP_H

#include <stdio.h>
#include "ktraceb/ktr.h"
#include "kdump_reader.h"

/* struct kdump_opts.flags, one per option letter */
#define KD_CPU 0x0001 /* -c: CPU column */
#define KD_TIDCOL 0x0002 /* -H: FreeBSD "pid tid" columns */
#define KD_ABSTIME 0x0004 /* -T: wall clock time */
#define KD_ELAPSED 0x0008 /* -E: since the first record shown */
#define KD_RELTIME 0x0010 /* -R: since the previous record shown */
#define KD_NOGIO 0x0020 /* -s: no GIO data */
#define KD_SYSNR 0x0040 /* -S: "name[nr]" */
#define KD_SUMMARY 0x0080 /* -Y: a per-syscall table instead of records */
#define KD_PIDSEL 0x0100 /* -p: only opts.pid (as pid or tid) */
#define KD_FOLLOW 0x0200 /* -l: flush after each record */
#define KD_TRSEL 0x0400 /* -t: only the types in opts.trpoints */
#define KD_TREE 0x0800 /* -G: the span tree (kdump_tree.c) instead of records */
#define KD_JSON 0x1000 /* -J: JSON lines (kdump_json.c) */
#define KD_CHROME 0x2000 /* -P: a Chrome trace-event timeline (kdump_chrome.c) */

#define KD_MAXDATA_DEFAULT 64 /* -m default, as DragonFly kdump; 0 = unlimited */

struct kdump_opts {
	unsigned int flags; /* KD_* */
	int decode; /* KTR_DEC_* for the decoders (-d, -n) */
	int maxdata; /* GIO bytes shown; 0 = all */
	int trpoints; /* with KD_TRSEL: KTRFAC_* mask of the types shown */
	int pid; /* with KD_PIDSEL */
};

struct kdump;

/* A printer writing to out, or NULL with errno set. */
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

/* Every record of r: 0 at end of file, else the error of the reader or printer. */
int kdump__run(struct kdump *kd, struct ktr_reader *r);

/* The end of the input: prints the -Y table.  0 or -ENOMEM. */
int kdump__finish(struct kdump *kd);

/* Records that did not fit their type, printed as "invalid record". */
unsigned long kdump__ninvalid(const struct kdump *kd);

#endif /* KTRACEB_KDUMP_H */
