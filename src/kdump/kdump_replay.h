/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * A recorder's dumps (ktraceb -R, KTR_FLIGHT in ktr.h): which of their
 * records were already shown.  A dump's second part (the last record of
 * each CPU) repeats records of its first by construction; a later dump of
 * the same recording (ktraceb -D again, then a crash) starts with what the
 * ring still held of the records an earlier dump showed.  A CPU writes its
 * part of the ring in order, so a record of CPU c in a dump's first part
 * is one an earlier dump showed when it is no newer than the newest record
 * of c that the earlier dumps held (the same one, at the same time).
 */
#ifndef KTRACEB_KDUMP_REPLAY_H
#define KTRACEB_KDUMP_REPLAY_H

#include <stdbool.h>

#include "kdump_event.h"

#define KD_REPLAY_CPUS 256
/* what the text shows before such a record's body */
#define KD_REPLAYED_MARK "[replayed]" /* KTRH_CPUID's 8 bits */

struct kd_replay {
	unsigned int part; /* in a dump: KTR_FLIGHT_RING or _LAST_PER_CPU; 0 outside */
	struct kd_replay_newest {
		__s64 ns;
		__s32 tid;
		__s16 type;
		bool set;
	} newest[KD_REPLAY_CPUS], /* of each CPU, in the dumps so far */
		before[KD_REPLAY_CPUS]; /* the same, as the current dump began */
};

/* Was the decoded ktraceb record ev shown before, by a recorder's dump? */
bool kd_replay__seen(struct kd_replay *r, const struct kd_event *ev);

#endif /* KTRACEB_KDUMP_REPLAY_H */
