// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktraceb/bpf_procs.h"
#include "daemon/programs/ktr_attach.h"
#include "ktr_clock.h"
#include "daemon/requests/ktr_conn.h"
#include "daemon/drain/ktr_drain.h"
#include "daemon/files/ktr_ends.h"
#include "daemon/files/ktr_files.h"
#include "daemon/targets/ktr_groups.h"
#include "ktr_log.h"
#include "daemon/requests/ktr_policy.h"
#include "daemon/targets/ktr_proc_usdt.h"
#include "daemon/targets/ktr_procmap.h"
#include "daemon/files/ktr_recorder.h"
#include "daemon/drain/ktr_ring.h"
#include "ktr_parts.h"
#include "daemon/files/ktr_stop.h"
#include "daemon/events/ktr_syswide.h"
#include "ktr_tick.h"
#include "daemon/usdt/ktr_usdt.h"

void ktr_tick__drain(const struct ktr_parts *k)
{
	int err = ktr_drain__poll(k->drain, 0);

	if (err < 0 && err != -EINTR) {
		/* the ring itself failed (not a file): no record can reach any file any more */
		char why[128];

		snprintf(why, sizeof(why), "ring buffer: %s", strerror(-err));
		ktr_log(LOG_ERR, "%s", why);
		ktr_stop__all(k, KTR_END_RING, -err, why);
	}
	ktr_syswide__drain(k->syswide);
}

void ktr_tick__conn_gone(void *parts, struct ktr_conn *cn)
{
	const struct ktr_parts *k = parts;

	ktr_stop__waited(k, cn, true);
	ktr_ends__gone(k->ends, cn);
}

/*
 * May the file of route r, whose processes are gone, end now?  Records of
 * it may still be in a CPU's stage that a program held when the tick's
 * drain asked for it (a virtual CPU stopped in the middle of a program):
 * it waits for them, at most KTR_STAGE_WAIT_MS, then ends with them
 * counted lost (ktr_stop__finish).
 */
#define KTR_STAGE_WAIT_MS 2000
static bool tick__may_end(const struct ktr_parts *k, __u32 r, struct ktr_tracefile *f)
{
	long long now;

	if (!ktr_drain__held(k->drain, r))
		return true;
	now = ktr_now_ms();
	if (!f->stage_wait_ms)
		f->stage_wait_ms = now;
	return now - f->stage_wait_ms >= KTR_STAGE_WAIT_MS;
}

static unsigned int tick__route_held(void *drain, __u32 r)
{
	return ktr_drain__held(drain, r);
}

/* A kept route free again: a loss counted for it since its file ended was counted there already. */
static void tick__route_freed(void *drain, __u32 r)
{
	ktr_drain__reset_lost(drain, r);
}

/*
 * Each trace file: a frozen recorder dumped, a file that cannot take more
 * stopped, an unused one finished, a finished one whose writer is done
 * ended.
 */
static void tick__files(const struct ktr_parts *k)
{
	for (__u32 r = ktr_files__next(k->files, 0); r; r = ktr_files__next(k->files, r)) {
		struct ktr_tracefile *f = ktr_files__get(k->files, r);
		/* a traced group keeps its file while it has no process */
		bool live = f->nprocs || ktr_syswide__alone(k->syswide, r) ||
			    ktr_groups__route(k->groups, r);
		int werr;

		ktr_tracefile__stuck(f); /* a stuck writer holds no more than its chunk */
		if (f->ending) {
			if (ktr_tracefile__done(f))
				ktr_stop__ended(k, r);
			continue;
		}
		if (live)
			f->stage_wait_ms = 0;
		if (ktr_recorder__due(f))
			ktr_recorder__dump_frozen(f);
		werr = ktr_tracefile__error(f);
		if (werr && live)
			ktr_stop__live(k, r, KTR_END_WRITE_ERROR, werr, strerror(werr));
		else if (live && ktr_tracefile__unlinked(f))
			ktr_stop__live(k, r, KTR_END_REMOVED, ENOENT, "trace file deleted");
		else if (!live && tick__may_end(k, r, f))
			ktr_stop__finish(k, r);
	}
	ktr_files__release_routes(k->files, tick__route_held, tick__route_freed, k->drain);
}

/*
 * The procs map, looked at: processes counted per file (nprocs), entries
 * whose process or file is gone dropped, pending ones the request that made
 * them did not settle (a child forked the moment its parent's tracing
 * started) settled (ktr_policy__settle).  The facility bits of the
 * processes traced, together.
 */
static __u32 tick__procs(const struct ktr_parts *k)
{
	__u32 facs = 0;
	__u32 *keys;
	int n = ktr_procmap__keys(k->procs, -1, &keys);

	for (__u32 r = ktr_files__next(k->files, 0); r; r = ktr_files__next(k->files, r))
		ktr_files__get(k->files, r)->nprocs = 0;
	for (int i = 0; i < n; i++) {
		struct ktr_tracefile *f;
		struct ktr_proc_state ps;

		if (!ktr_procmap__get(k->procs, keys[i], &ps))
			continue;
		f = ktr_files__get(k->files, ps.route);
		/* gone, or no file to write to: a missed exit leaves no stale tracing */
		if ((kill(keys[i], 0) < 0 && errno == ESRCH) || !f) {
			ktr_procmap__drop(k->procs, keys[i]);
			continue;
		}
		if (ps.flags & KTR_PS_PENDING)
			ktr_policy__settle(k, keys[i], &ps);
		f->nprocs++;
		facs |= ps.facs;
	}
	free(keys);
	return facs;
}

bool ktr_tick__run(const struct ktr_parts *k)
{
	__u32 facs = tick__procs(k);
	bool busy;

	/* a ring swapped out read to its end, and the new one, before a file may end */
	ktr_ring__settle(k->ring);
	ktr_tick__drain(k);
	ktr_groups__tick(k);
	busy = ktr_files__count(k->files) > 0;
	tick__files(k);
	ktr_attach__facs(k->attach, facs);
	ktr_proc_usdt__sweep(k->usdt, k->procs);
	ktr_usdt__poll(k->usdt); /* USDT scans past their time end */
	ktr_attach__pins(k->attach, ktr_files__recording(k->files));
	/*
	 * The last trace has ended: the tracepoint programs go at once, so
	 * every process on the machine stops paying for them; they stay
	 * loaded, and a trace that starts before the daemon exits attaches
	 * them again without loading them again.
	 */
	if (ktr_files__count(k->files)) {
		ktr_attach__enter(k->attach, ktr_files__need_enter(k->files));
		ktr_attach__stages(k->attach, ktr_files__need_stage(k->files));
	} else if (ktr_attach__idle(k->attach)) {
		/* nothing is traced: every bit may go (none is set again until a trace starts) */
		ktr_procmap__untrace_all(k->procs);
	}
	ktr_ends__sweep(k->ends, k->files);
	busy |= ktr_ends__busy(k->ends);
	busy |= ktr_conns__sweep(k->conns, ktr_tick__conn_gone, (void *)k);
	return busy;
}
