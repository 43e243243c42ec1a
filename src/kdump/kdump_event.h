/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * kdump as a pipeline: the reader yields records; kd_event__decode() turns
 * each, once, into a typed event, keeping all per-process and per-thread
 * state (the ABI of each process, each thread's last CALL, its open spans,
 * the trace's machine and clock) in one place; the event goes to one sink,
 * the output: the text (kdump_print.c), the summary (-Y, kdump_summary.c),
 * the span tree (-G, kdump_tree.c), JSON lines (-J, kdump_json.c) or the
 * Chrome trace-event timeline (-P, kdump_chrome.c).  A sink reads events
 * and writes its output; it never calls another sink.
 */
#ifndef KTRACEB_KDUMP_EVENT_H
#define KTRACEB_KDUMP_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "ktraceb/ktr.h"
#include "kdump_user.h"

/* DragonFly declares ktr_args[8]; Linux passes at most 6 but allow the slack. */
#define KD_SYSCALL_MAXARGS 8

/* What a USER record did to its thread's open spans (kd_span__step). */
struct kd_span_step {
	bool spanlike; /* a span, or one end of an entry/exit probe pair */
	bool is_exit;
	bool found; /* an exit whose enter is in the trace */
	int depth; /* where the text view draws it */
	int open_before; /* the thread's open spans before this record */
	__u64 dur; /* an exit's time since its enter */
	struct kd_span closed; /* an exit's enter, as it was when popped */
	struct kd_thread *thread;
};

struct kd_event {
	const struct ktr_header *h;
	const unsigned char *data; /* the payload, h->ktr_len bytes */
	size_t len;
	/* CALL, RET, LOST: the fixed layout checked; USER: a whole KTRU record */
	bool valid;
	unsigned int sv_flags; /* the process's ABI (PROCCTOR), for syscall names */
	union {
		struct {
			int code, narg;
			__u64 args[KD_SYSCALL_MAXARGS];
		} call;
		struct {
			int code; /* a sigreturn's (-1) is its thread's last CALL's */
			int raw_code;
			int error;
			__s64 retval;
		} ret;
		struct {
			__u64 lost, total;
		} lost;
	};
	struct kd_urec user; /* USER with valid */
	struct kd_span_step span; /* USER with valid and span.spanlike */
};

struct kdump;

/* Decode one record into ev (pointing into h and data); 0 or -ENOMEM. */
int kd_event__decode(struct kdump *kd, const struct ktr_header *h, const void *data,
		     struct kd_event *ev);

/*
 * A record's time on the trace's clock.  The clock (ktr_mono_ns, or BSD's
 * ktr_time) is settled by the first record a sink asks about.
 */
__s64 kd_event__ns(struct kdump *kd, const struct ktr_header *h);

/* A record's wall clock time in ns since the epoch (kdump -T). */
__s64 kd_event__wall_ns(const struct kdump *kd, const struct ktr_header *h);

/*
 * The text view's body of a record (what follows its tag) on out, for the
 * sinks that show it as a value: 0, -EINVAL for an invalid record (not
 * counted), -ENOENT for a record the text view does not show.
 */
int kd_print_body(struct kdump *kd, const struct kd_event *ev, FILE *out);
/* The text view's tag of a record type ("CALL", "RET "), NULL if it shows none. */
const char *kd_print_tag(const struct kdump *kd, int type);

/* A syscall's name for output: "openat", "openat[257]" with -S, "[999]". */
void kd_fmt_scname(const struct kdump *kd, char *buf, size_t size, unsigned int sv_flags,
		   int code);

struct kd_sink {
	int (*event)(struct kdump *kd, const struct kd_event *ev);
	int (*finish)(struct kdump *kd);
};

extern const struct kd_sink kd_sink_text;
extern const struct kd_sink kd_sink_summary;
extern const struct kd_sink kd_sink_tree;
extern const struct kd_sink kd_sink_json; /* -J, kdump_json.c */
extern const struct kd_sink kd_sink_chrome; /* -P, kdump_chrome.c */

#endif /* KTRACEB_KDUMP_EVENT_H */
