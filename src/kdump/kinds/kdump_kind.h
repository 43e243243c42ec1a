/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * A record kind: everything kdump knows of one kind of record, in one file
 * of src/kdump/kinds/ (kinds/call.c, kinds/psig.c ...) and one row of the
 * table of kinds (kdump_kinds.c).  Its tag, the record type it has in
 * ktraceb's files, the function that checks its payload and takes its
 * fields out (the decoder's part), its text (what follows the tag on a
 * line of kdump's text), its JSON members (-J), what the -Y summary
 * counts of it and how the -P timeline draws it.
 *
 * One number is one kind: a type of ktraceb's own files is looked up in
 * this table (kd_kind_of_type); another system's reader gives its records
 * their kind itself (kd_bsd__kind, kdump_bsd.c).
 *
 * tests/unit/test_kinds.c checks that every kind has its row, its tag, its
 * text, its JSON (of fields, not its text, for ktraceb's own kinds), its
 * count and timeline hooks (or their "not shown" markers), and that no two
 * kinds have one type.
 */
#ifndef KTRACEB_KDUMP_KIND_H
#define KTRACEB_KDUMP_KIND_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>

enum kd_kind {
	KD_NONE, /* a record no output shows: MAPPING, TPFORMAT, and PROCCTOR, PROCDTOR
		    in ktraceb's files; the types DragonFly's kdump skips */
	KD_UNKNOWN, /* a type outside 1..KTR_TYPE_MAX */
	KD_CALL,
	KD_RET,
	KD_NAMEI,
	KD_GENIO,
	KD_PSIG,
	KD_CSW,
	KD_USER,
	KD_STRUCT,
	KD_ARGS,
	KD_ENVS,
	KD_FILEINFO,
	KD_LOST,
	KD_EXIT,
	KD_FLIGHT,
	KD_TRACEPOINT,
	KD_FILTER, /* INFO: the syscall selection the trace was made with */
	KD_USTACK, /* STACK: the user stack of the call before it (-k) */
	KD_OBJECT, /* OBJ: an object file's build id and path (-k) */
	KD_CGROUP, /* CGRP: where a process of a traced cgroup was (-G) */
	KD_FD, /* FD: a descriptor a process had when attached (-p, -g, -G) */
	KD_END, /* END: why the trace ended in this file, what it wrote and lost */
	KD_MAPPING, /* MAPPING: where a process mapped an object (-k); never shown */
	KD_TPFORMAT, /* TPFORMAT: a kernel event's format; never shown */
	/* only in another system's files (kdump_bsd.h KD_T_*) */
	KD_SYSCTL,
	KD_CAPFAIL,
	KD_FAULT,
	KD_FAULTEND,
	KD_STRUCT_ARRAY,
	KD_EXTERR,
	KD_EMUL,
	KD_MIB,
	KD_PLEDGE,
	KD_START,
	KD_OTHER,
	KD_PROCCTOR,
	KD_PROCDTOR,
	KD_NKINDS
};

struct kd_decoder;
struct kd_event;
struct kdump_opts;
struct kd_json_out;
struct kd_summary;
struct kd_timeline;
struct kd_tl_thread;

struct kd_kind_def {
	enum kd_kind kind;
	/* the word it shows by ("CALL"): the text pads it to 4 columns, JSON prints it */
	const char *tag;
	/* its type in ktraceb's files (ktr.h KTR_*); 0: only another system's files have it */
	int type;
	/* never shown: its event's kind is NONE once decoded (its decode keeps what it says) */
	bool hidden;
	/*
	 * Checks the payload's layout and takes its fields into ev (0), or
	 * makes ev !valid (0); -ENOMEM.  NULL: any payload is valid.
	 */
	int (*decode)(struct kd_decoder *d, struct kd_event *ev);
	/* the text of a valid event, after its tag; none can fail */
	void (*text)(FILE *out, const struct kd_event *ev, const struct kdump_opts *o);
	/* its -J members, each ',"key":value'; 0, -EINVAL (invalid) or -ENOMEM */
	int (*json)(struct kd_json_out *j, const struct kd_event *ev);
	/* -J adds its text as "text" after its members (docs/JSON.md); only another system's kinds */
	bool json_text;
	/*
	 * What -Y counts of it (kdump_summary.h): 0 or -ENOMEM;
	 * kd_summary__not_counted: nothing.
	 */
	int (*count)(struct kd_summary *s, const struct kd_event *ev);
	/*
	 * How -P draws a valid event of it on its thread at ns (kdump_timeline.h):
	 * 0 or -ENOMEM; kd_timeline__not_drawn: not on the timeline.
	 */
	int (*timeline)(struct kd_timeline *c, struct kd_tl_thread *t, const struct kd_event *ev,
			__s64 ns);
};

/* The kinds, by kind; NULL for NONE and UNKNOWN. */
extern const struct kd_kind_def *const kd_kinds[KD_NKINDS];

/* A type of ktraceb's own files: its kind, KD_UNKNOWN outside 1..KTR_TYPE_MAX, else KD_NONE. */
enum kd_kind kd_kind_of_type(int type);

/* The tag of a kind, NULL for NONE and UNKNOWN. */
static inline const char *kd_kind_tag(enum kd_kind k)
{
	return (unsigned int)k < KD_NKINDS && kd_kinds[k] ? kd_kinds[k]->tag : NULL;
}

#endif /* KTRACEB_KDUMP_KIND_H */
