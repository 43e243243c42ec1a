/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * kdump's outputs (kdump_event.h): a sink writes one output from the
 * events the options let through, with state of its own, and calls no
 * other sink.  The summary and the timeline count and draw each kind by
 * its hooks (kdump_kind.h: count, timeline).
 *
 *   kd_sink_text     kdump_text.c     BSD kdump's lines
 *   kd_sink_summary  kdump_summary.c  -Y: a table per syscall, user record, kernel event
 *   kd_sink_tree     kdump_tree.c     -G: each thread's spans with the calls inside
 *   kd_sink_json     kdump_json.c     -J: JSON lines
 *   kd_sink_chrome   kdump_chrome.c   -P: a Chrome trace-event timeline
 */
#ifndef KTRACEB_KDUMP_SINK_H
#define KTRACEB_KDUMP_SINK_H

#include <stdio.h>
#include "kdump_opts.h"
#include "kdump_event.h"

/* What a sink writes with, given when it is opened. */
struct kd_sink_env {
	const struct kdump_opts *o;
	FILE *out;
	unsigned long *ninvalid; /* the records the output shows as invalid, counted */
};

struct kd_sink {
	/* The sink's state, or NULL when out of memory. */
	void *(*open)(const struct kd_sink_env *env);
	/* The file's system, once known, before its first event (may be NULL). */
	void (*format)(void *state, const struct kd_bsd_fmt *fmt);
	/* One event the options let through: 0 or -ENOMEM. */
	int (*event)(void *state, const struct kd_event *ev);
	/* The end of the input: 0 or -ENOMEM. */
	int (*finish)(void *state);
	void (*close)(void *state);
};

extern const struct kd_sink kd_sink_text;
extern const struct kd_sink kd_sink_summary;
extern const struct kd_sink kd_sink_tree;
extern const struct kd_sink kd_sink_json;
extern const struct kd_sink kd_sink_chrome;

/* The sink the options ask for. */
const struct kd_sink *kd_sink_for(const struct kdump_opts *o);

#endif /* KTRACEB_KDUMP_SINK_H */
