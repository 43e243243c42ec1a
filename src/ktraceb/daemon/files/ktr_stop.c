// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktraceb/bpf_procs.h"
#include "common/ktr_perm.h"
#include "common/ktr_proto.h"
#include "daemon/requests/ktr_conn.h"
#include "daemon/drain/ktr_drain.h"
#include "ktr_ends.h"
#include "ktr_files.h"
#include "daemon/targets/ktr_groups.h"
#include "daemon/ktr_log.h"
#include "daemon/targets/ktr_procmap.h"
#include "ktr_recorder.h"
#include "daemon/ktr_parts.h"
#include "ktr_selection.h"
#include "ktr_stop.h"
#include "daemon/events/ktr_syswide.h"
#include "daemon/events/ktr_tp.h"
#include "ktr_writer.h"
#include "daemon/usdt/ktr_usdt.h"

/* The pids a stop named (" 12 34"), kept for whoever asks about them later. */
static void stop__keep_pids(struct ktr_tracefile *f, const char *pids)
{
	char *end;

	for (const char *p = pids; *p && f->nstop_pids < KTR_TRACEFILE_STOP_PIDS; p = end) {
		long pid = strtol(p, &end, 10);

		if (end == p)
			break;
		f->stop_pids[f->nstop_pids++] = (pid_t)pid;
	}
}

/*
 * Every process tracing into route r stops; their pids, " 12 34" as far as
 * they fit, in pids.
 */
static void stop__procs(const struct ktr_parts *k, int r, char *pids, size_t size)
{
	size_t used = 0;
	__u32 *keys;
	int n = ktr_procmap__keys(k->procs, r, &keys);

	pids[0] = '\0';
	for (int i = 0; i < n; i++) {
		ktr_procmap__drop(k->procs, keys[i]);
		if (k->usdt)
			ktr_usdt__forget(k->usdt, keys[i]);
		if (used < size - 12)
			used += snprintf(pids + used, size - used, " %u", keys[i]);
	}
	free(keys);
}

void ktr_stop__file(const struct ktr_parts *k, int r, __u32 end_why, int err, const char *why)
{
	struct ktr_tracefile *f = ktr_files__get(k->files, r);
	char pids[200];

	if (!f || f->ending)
		return;
	ktr_groups__stop_route(k, r); /* first: none of their processes comes back */
	stop__procs(k, r, pids, sizeof(pids));
	stop__keep_pids(f, pids);
	ktr_tracefile__end_why(f, end_why, end_why == KTR_END_WRITE_ERROR ? err : 0, 0, 0);
	if (why && !f->stop_msg[0]) {
		f->stop_err = err;
		/* no process left to stop (they had ended): the error alone */
		snprintf(f->stop_msg, sizeof(f->stop_msg), "%s: %s%s%s", ktr_tracefile__path(f),
			 why, pids[0] ? "; tracing stopped for pid" : "", pids);
		ktr_log(LOG_NOTICE, "%s", f->stop_msg);
	}
}

void ktr_stop__live(const struct ktr_parts *k, int r, __u32 end_why, int err, const char *why)
{
	ktr_stop__file(k, r, end_why, err, why);
	if ((__u32)r == ktr_syswide__route(k->syswide))
		ktr_syswide__end(k->syswide); /* the next tick finishes the file */
}

void ktr_stop__all(const struct ktr_parts *k, __u32 end_why, int err, const char *why)
{
	for (__u32 r = ktr_files__next(k->files, 0); r; r = ktr_files__next(k->files, r))
		ktr_stop__file(k, r, end_why, err, why);
}

void ktr_stop__waited(const struct ktr_parts *k, struct ktr_conn *cn, bool gone)
{
	for (__u32 r = ktr_files__next(k->files, 0); r; r = ktr_files__next(k->files, r)) {
		struct ktr_tracefile *f = ktr_files__get(k->files, r);

		if (f->fg != cn)
			continue;
		if (gone)
			ktr_tracefile__wait(f, NULL);
		ktr_stop__file(k, r, KTR_END_STOPPED, 0, NULL);
	}
}

void ktr_stop__finish(const struct ktr_parts *k, int r)
{
	struct ktr_tracefile *f = ktr_files__get(k->files, r);
	unsigned int held;

	if (!f || f->ending)
		return;
	held = ktr_drain__held(k->drain, r);
	/* losses counted since the tick's drain still go into this file */
	ktr_drain__account_lost(k->drain, r);
	/* and what a CPU's stage still holds of it: it will not reach the file */
	ktr_drain__account_held(k->drain, r, held);
	if ((__u32)r == ktr_syswide__route(k->syswide))
		ktr_syswide__end(k->syswide);
	if (ktr_recorder__due(f))
		ktr_recorder__dump_frozen(f);
	ktr_tracefile__finish(f);
	ktr_tp__forget(k->tp, r);
	ktr_selection__leave(k->selection, r);
}

/*
 * DONE's line for a trace that ended on an error: why, the processes it
 * stopped, and the records its file did not take.  "" for a plain end.
 */
static void stop__done_msg(struct ktr_tracefile *f, char *buf, size_t size)
{
	int err = ktr_tracefile__error(f);
	unsigned long long notw = ktr_writer__lost(f->w);

	buf[0] = '\0';
	/* a write error found only after its processes ended: said here */
	if (err && !f->stop_msg[0]) {
		f->stop_err = err;
		snprintf(f->stop_msg, sizeof(f->stop_msg), "%s: %s", ktr_tracefile__path(f),
			 strerror(err));
		ktr_log(LOG_NOTICE, "%s", f->stop_msg);
	}
	if (!f->stop_msg[0])
		return;
	if (notw)
		snprintf(buf, size, "%s; %llu records not written\n", f->stop_msg, notw);
	else
		snprintf(buf, size, "%s\n", f->stop_msg);
}

void ktr_stop__ended(const struct ktr_parts *k, int r)
{
	struct ktr_tracefile *f = ktr_files__get(k->files, r);
	char line[400], msg[512];

	if (!f)
		return;
	ktr_tracefile__summary(f, line, sizeof(line));
	stop__done_msg(f, msg, sizeof(msg));
	if (f->fg)
		ktr_conn__reply(f->fg, KTR_REPLY_DONE,
				f->stop_err ? f->stop_err : ktr_tracefile__error(f), 0, msg,
				ktr_tracefile__records(f), ktr_tracefile__lost(f),
				k->config->ring_bytes);
	else
		ktr_log(LOG_NOTICE, "%s", line); /* a detached trace: nobody else hears it */
	ktr_ends__ended(k->ends, r, line);
	/* for the next command about it (a recording's -D: what it recovered) */
	if (f->flight)
		ktr_recorder__describe(f, line, sizeof(line));
	if (!f->fg || f->flight)
		ktr_ends__remember(k->ends, f->dev, f->ino, f->owner, f->stop_pids, f->nstop_pids,
				   line, f->flight ? f->dumped : ktr_tracefile__records(f),
				   f->flight && f->taken_over);
	ktr_drain__reset_lost(k->drain, r);
	ktr_files__close(k->files, r);
	/*
	 * what a stage holds, and what a program that found the process just
	 * before its trace ended makes, goes to no other file: the route is
	 * free again only when the checks after two drains find none of it
	 */
	ktr_files__keep_route(k->files, r);
}

unsigned int ktr_stop__routes_of(const struct ktr_parts *k, const pid_t *pids, int n, __u32 route,
				 __u32 *routes, unsigned int max)
{
	unsigned int m = 0;

	for (int i = 0; i < n; i++) {
		struct ktr_proc_state ps;
		unsigned int j;

		if (!ktr_procmap__get(k->procs, pids[i], &ps) || (route && ps.route != route))
			continue;
		for (j = 0; j < m && routes[j] != ps.route; j++)
			;
		if (j == m && m < max)
			routes[m++] = ps.route;
	}
	return m;
}

bool ktr_stop__cleared(const struct ktr_parts *k, struct ktr_conn *cn, const __u32 *routes,
		       unsigned int n, int error, unsigned int done, char *msg)
{
	const struct ktr_caller *c = ktr_conn__caller(cn);
	__u32 *ends = n ? calloc(n, sizeof(*ends)) : NULL;
	unsigned int m = 0;
	bool waits;

	for (unsigned int i = 0; ends && i < n; i++) {
		struct ktr_tracefile *f = ktr_files__get(k->files, routes[i]);
		__u32 *keys;
		int left;

		if (!f || f->ending || ktr_syswide__alone(k->syswide, routes[i]))
			continue;
		left = ktr_procmap__keys(k->procs, (int)routes[i], &keys);
		free(keys);
		if (left || ktr_groups__route(k->groups, routes[i]))
			continue; /* others (processes, a group) still trace into it: it goes on */
		ktr_tracefile__end_why(f, KTR_END_CLEARED, 0, c->pid, c->uid);
		ends[m++] = routes[i];
	}
	waits = ends &&
		ktr_ends__wait(k->ends, cn, ends, m, error, done, msg, k->config->ring_bytes);
	free(ends);
	return waits;
}

void ktr_stop__said_before(const struct ktr_parts *k, const struct ktr_caller *c, pid_t pid,
			   char *msg)
{
	const char *line = ktr_ends__recall_pid(k->ends, pid, c->uid);

	if (line)
		ktr_proto__msg_add(msg, "pid %d: not traced: its trace ended before: %s\n", pid,
				   line);
}
