/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * kdump -P's timeline (kdump_chrome.c) as a kind draws its events on it:
 * each kind's file has a timeline hook (kdump_kind.h), which the timeline
 * calls with the event's thread and its time.  A slice's start or end and
 * an instant are written up to their "args" object, left open after
 * {"record":RECORD for the hook's members; kd_timeline__done() closes it.
 */
#ifndef KTRACEB_KDUMP_TIMELINE_H
#define KTRACEB_KDUMP_TIMELINE_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>

#include "ktraceb/ktr.h"

/* a slice's or an instant's name: a syscall's, "provider:probe", a span's "subsys:name" */
#define KD_TL_NAME_MAX (2 * KTR_UREC_NAME_MAX)

struct kd_timeline;
struct kd_tl_thread;
struct kd_event;
struct kdump_opts;

/* Where the hook writes its members, and the options. */
FILE *kd_timeline__out(struct kd_timeline *c);
const struct kdump_opts *kd_timeline__opts(const struct kd_timeline *c);

/* A syscall's or a span's slice begins. */
void kd_timeline__start_slice(struct kd_timeline *c, struct kd_tl_thread *t, bool syscall,
			      const char *name, const char *record, __s64 ns);
/*
 * A syscall's or a span's slice ends (the innermost of that name, and what
 * was opened above it); one whose start the trace does not have gets a
 * slice from the thread's previous event.
 */
void kd_timeline__end_slice(struct kd_timeline *c, struct kd_tl_thread *t, bool syscall,
			    const char *name, const char *record, __s64 ns);
/* A syscall still open on the thread (its RET lost, exit_group) ends, unfinished. */
void kd_timeline__end_syscall(struct kd_timeline *c, struct kd_tl_thread *t, __s64 ns);
/* An instant event of category cat ("lost" and "end" are global, the others the thread's). */
void kd_timeline__instant(struct kd_timeline *c, struct kd_tl_thread *t, const char *cat,
			  const char *name, const char *record, __s64 ns);
/* Closes the "args" object and the event the calls above began. */
void kd_timeline__done(struct kd_timeline *c);
/* A path of the open syscall, for its end's "path" and "path2"; 0 or -ENOMEM. */
int kd_timeline__path(struct kd_tl_thread *t, const void *p, size_t len);
/* A process has ended: so have all its threads' slices. */
void kd_timeline__end_process(struct kd_timeline *c, __s32 pid, __s64 ns);

/* The timeline hook of a kind the timeline does not show (docs/JSON.md). */
int kd_timeline__not_drawn(struct kd_timeline *c, struct kd_tl_thread *t, const struct kd_event *ev,
			   __s64 ns);

#endif /* KTRACEB_KDUMP_TIMELINE_H */
