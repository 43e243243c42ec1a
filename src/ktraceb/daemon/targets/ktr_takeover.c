// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <string.h>
#include <signal.h>
#include <stdlib.h>
#include "daemon/ktr_log.h"
#include <unistd.h>
#include <bpf/bpf.h>

#include "ktraceb/bpf_procs.h"
#include "daemon/files/ktr_filestate.h"
#include "daemon/files/ktr_files.h"
#include "daemon/flight/ktr_flight.h"
#include "daemon/programs/ktr_pin.h"
#include "ktr_proc_usdt.h"
#include "ktr_procmap.h"
#include "daemon/ktr_parts.h"
#include "daemon/files/ktr_selection.h"
#include "ktr_takeover.h"
#include "trstr.h"

/* A ring a dead daemon pinned: its recording goes on here, or is removed, said in the log. */
static void takeover__ring(void *ctx, __u32 route, int fd, const char *pin)
{
	struct ktr_files *files = ctx;
	struct ktr_flight *fl = ktr_flight__open(fd, ktr_files__flight_maps(files), route, pin);
	const char *why = "not a ktraceb recording, or a damaged one";
	int r = -EINVAL;

	if (fl)
		r = ktr_files__adopt(files, route, fl, &why);
	if (r >= 0) {
		ktr_log(LOG_NOTICE, "%s: recording taken over from a daemon that died",
			ktr_tracefile__path(ktr_files__get(files, r)));
		return;
	}
	ktr_log(LOG_WARNING, "recording %s dropped: %s", pin, why);
	ktr_flight__free(fl);
	unlink(pin); /* its control map's pin goes with it (ktr_pin__old_rings) */
}

/*
 * A recording's process a group of the dead daemon traced: this daemon
 * has no such group, and a group it traces in the same slot must not
 * count it as its own (ktr_groups.c changes and ends the entries of its
 * slot).  It stays in the recording, as it was set, of no group: moved
 * into a user's group it stays with root's recording (cgroup.bpf.c).
 */
static void takeover__group_member(const struct ktr_parts *k, __u32 pid, struct ktr_proc_state *ps)
{
	if (!(ps->flags & KTR_PS_GROUP) || !ps->group)
		return;
	ps->group = 0;
	ktr_procmap__put(k->procs, pid, ps, BPF_EXIST);
}

__u32 ktr_takeover__recordings(const struct ktr_parts *k)
{
	__u32 facs = 0;
	__u32 *keys;
	int n;

	/* rings first: a ring whose procs map was not pinned yet still has its crash to write */
	ktr_pin__old_rings(takeover__ring, k->files);
	n = ktr_procmap__keys(k->procs, -1, &keys);

	for (int i = 0; i < n; i++) {
		struct ktr_proc_state ps;
		struct ktr_tracefile *f;

		if (!ktr_procmap__get(k->procs, keys[i], &ps))
			continue;
		f = ktr_files__get(k->files, ps.route);
		if (f && f->flight) {
			ktr_procmap__mark_traced(k->procs, keys[i]); /* a recording's: ours now */
			takeover__group_member(k, keys[i], &ps);
			ktr_selection__adopt(k->selection, ps.route, f->owner, ps.select);
			ktr_selection__adopt_usdt(k->selection, ps.route,
						  ktr_flight__meta(f->flight)->usdt,
						  sizeof(ktr_flight__meta(f->flight)->usdt));
			facs |= ps.facs;
			continue;
		}
		if (ps.flags & KTR_PS_HELD)
			kill(keys[i], SIGCONT); /* nothing may stay stopped for us */
		ktr_procmap__drop(k->procs, keys[i]);
	}
	free(keys);
	return facs;
}

/* A file the dead daemon was writing: its END says it was killed (not a recording's). */
static void takeover__killed_file(void *ctx, __u32 route, const struct ktr_filestate_slot *s)
{
	struct ktr_files *files = ctx;
	const char *why = NULL;
	int r;

	if (s->flags & KTR_FILESTATE_RECORDING)
		return; /* taken over, or dropped with its ring */
	r = ktr_files__end_killed(files, s, &why);
	if (r >= 0)
		ktr_log(LOG_NOTICE,
			"%s: the ktraceb daemon writing it was killed: "
			"its END record says so",
			s->path);
	else if (r != -EEXIST)
		ktr_log(LOG_WARNING,
			"%s: the ktraceb daemon writing it was killed; no END "
			"written: %s",
			s->path, why ? why : strerror(-r));
}

void ktr_takeover__killed(const struct ktr_parts *k)
{
	ktr_filestate__left(takeover__killed_file, k->files);
}

/*
 * The recordings' USDT probes went with the dead daemon's links (the
 * kernel lowered their semaphores then): attached again, for each process.
 */
void ktr_takeover__usdt(const struct ktr_parts *k)
{
	__u32 *keys;
	int n = ktr_procmap__keys(k->procs, -1, &keys);

	for (int i = 0; i < n; i++) {
		struct ktr_proc_state ps;

		if (ktr_procmap__get(k->procs, keys[i], &ps) &&
		    (ps.facs & ktr_facs_that(KTR_FAC_SCANNED)) && !(ps.flags & KTR_PS_QUIET))
			ktr_proc_usdt__scan(k, keys[i], ps.route, false, false);
	}
	free(keys);
}
