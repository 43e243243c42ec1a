// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* Records a recorder's dump shows again (kdump_replay.h). */
#include <string.h>

#include "kdump_replay.h"

/* Is ev the record n, or one before it? */
static bool replay__not_newer(const struct kd_replay_newest *n, const struct kd_event *ev)
{
	return n->set && (ev->ns < n->ns || (ev->ns == n->ns && ev->h->ktr_tid == n->tid &&
					     ev->h->ktr_type == n->type));
}

bool kd_replay__seen(struct kd_replay *r, const struct kd_event *ev)
{
	unsigned int cpu = KTRH_CPUID_DECODE(ev->h->ktr_flags);
	struct kd_replay_newest *n = &r->newest[cpu];
	bool seen;

	switch (ev->kind) {
	case KD_FLIGHT:
		if (ev->valid && ev->flight.kf_part == KTR_FLIGHT_RING)
			memcpy(r->before, r->newest, sizeof(r->before));
		r->part = ev->valid ? ev->flight.kf_part : 0;
		return false;
	case KD_FILEINFO:
		r->part = 0; /* a session of its own begins */
		return false;
	case KD_LOST:
	case KD_END: /* the daemon's, after the dump: never one of the ring's */
		return false;
	default:
		break;
	}
	if (r->part == KTR_FLIGHT_LAST_PER_CPU)
		return true; /* each is among the ring's records just shown (ktr_flight_walk.c) */
	if (r->part != KTR_FLIGHT_RING)
		return false;
	seen = replay__not_newer(&r->before[cpu], ev);
	if (!n->set || ev->ns >= n->ns)
		*n = (struct kd_replay_newest){
			.ns = ev->ns, .tid = ev->h->ktr_tid, .type = ev->h->ktr_type, .set = true
		};
	return seen;
}
