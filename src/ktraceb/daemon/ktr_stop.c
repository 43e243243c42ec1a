// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <stdio.h>
#include <syslog.h>

#include "common/ktr_proto.h"
#include "ktr_conn.h"
#include "ktr_drain.h"
#include "ktr_files.h"
#include "ktr_groups.h"
#include "ktr_procmap.h"
#include "ktr_recorder.h"
#include "ktr_rooms.h"
#include "ktr_selection.h"
#include "ktr_stop.h"
#include "ktr_syswide.h"
#include "ktr_tp.h"

void ktr_stop__file(const struct ktr_rooms *k, int r, int err, const char *why)
{
	struct ktr_tracefile *f = ktr_files__get(k->files, r);
	char pids[200];

	if (!f)
		return;
	ktr_groups__stop_route(k, r); /* first: none of their processes comes back */
	ktr_procmap__stop_route(k, r, pids, sizeof(pids));
	if (why) {
		f->stop_err = err;
		snprintf(f->stop_msg, sizeof(f->stop_msg), "%s: %s; tracing stopped for pid%s\n",
			 ktr_tracefile__path(f), why, pids[0] ? pids : "s: none");
		syslog(LOG_NOTICE, "%s", f->stop_msg);
	}
}

void ktr_stop__live(const struct ktr_rooms *k, int r, int err, const char *why)
{
	ktr_stop__file(k, r, err, why);
	if ((__u32)r == ktr_syswide__route(k->syswide))
		ktr_syswide__end(k->syswide); /* the next tick finishes the file */
}

void ktr_stop__all(const struct ktr_rooms *k, int err, const char *why)
{
	for (__u32 r = ktr_files__next(k->files, 0); r; r = ktr_files__next(k->files, r))
		ktr_stop__file(k, r, err, why);
}

void ktr_stop__waited(const struct ktr_rooms *k, struct ktr_conn *cn, bool gone)
{
	for (__u32 r = ktr_files__next(k->files, 0); r; r = ktr_files__next(k->files, r)) {
		struct ktr_tracefile *f = ktr_files__get(k->files, r);

		if (f->fg != cn)
			continue;
		if (gone)
			ktr_tracefile__wait(f, NULL);
		ktr_stop__file(k, r, 0, NULL);
	}
}

void ktr_stop__finish(const struct ktr_rooms *k, int r)
{
	struct ktr_tracefile *f = ktr_files__get(k->files, r);
	unsigned int held = ktr_drain__held(k->drain, r);
	int err;

	/* losses counted since the tick's drain still go into this file */
	ktr_drain__account_lost(k->drain, r);
	/* and what a CPU's stage still holds of it: it will not reach the file */
	ktr_drain__account_held(k->drain, r, held);
	if ((__u32)r == ktr_syswide__route(k->syswide))
		ktr_syswide__end(k->syswide);
	if (ktr_recorder__due(f))
		ktr_recorder__dump_frozen(f);
	err = ktr_tracefile__finish(f);
	if (f->fg)
		ktr_conn__reply(f->fg, KTR_REPLY_DONE, f->stop_err ? f->stop_err : -err, 0,
				f->stop_msg, ktr_tracefile__records(f), f->lost_seen,
				k->config->ring_bytes);
	ktr_drain__reset_lost(k->drain, r);
	ktr_tp__forget(k->tp, r);
	ktr_selection__leave(k->selection, r);
	ktr_files__close(k->files, r);
	/*
	 * what a stage holds, and what a program that found the process just
	 * before its trace ended makes, goes to no other file: the route is
	 * free again only when the looks after two drains find none of it
	 */
	ktr_files__keep_route(k->files, r);
}
