/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * tracefs, read by the daemon (and by ktraceb -e list): where it is, the
 * events it offers (available_events), and one event's format.  Paths are
 * only ever built from names available_events gives, after the same check
 * as a client's: nothing a client sends becomes part of a path.
 */
#ifndef KTRACEB_KTR_TRACEFS_H
#define KTRACEB_KTR_TRACEFS_H

#include <stdbool.h>
#include <stdio.h>
#include "ktraceb/ktr.h"

/*
 * Is name a well-formed event name or glob: "subsys:event", each side one
 * or more of [A-Za-z0-9_-] or (with glob) '*' and '?', shorter than
 * KTR_TP_NAME_MAX?  why: a short reason if not.
 */
bool ktr_tracefs__name_ok(const char *name, bool glob, const char **why);

/*
 * The tracefs directory (mounted there if it is not and we may), or NULL
 * with *why one line ("tracefs is not mounted at /sys/kernel/tracing and
 * cannot be mounted: ...").
 */
const char *ktr_tracefs__dir(const char **why);

/*
 * available_events, open for reading, or NULL with *why.  Its lines are
 * "subsys:event".
 */
FILE *ktr_tracefs__events(const char *dir, const char **why);

/* An event and its fields, as KTR_TPFORMAT carries them. */
struct ktr_tp_fmt {
	struct ktr_tpformat f;
	struct ktr_tpfield fields[KTR_TP_MAXFIELDS];
	unsigned int fixed;			/* entry bytes, common fields included */
	unsigned int nloc;
	unsigned int loc[6];			/* offsets of __data_loc fields */
};

/* name ("subsys:event", checked) its format; 0 or -errno with *why. */
int ktr_tracefs__format(const char *dir, const char *name, struct ktr_tp_fmt *out,
			const char **why);

#endif /* KTRACEB_KTR_TRACEFS_H */
