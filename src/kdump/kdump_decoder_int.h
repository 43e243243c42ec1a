/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The decoder's state (kdump_decode.h), for the decoder itself and the
 * kinds' decode functions (kdump_kind.h, kinds/): no sink includes it.
 */
#ifndef KTRACEB_KDUMP_DECODER_INT_H
#define KTRACEB_KDUMP_DECODER_INT_H

#include "kdump_decode.h"
#include "kdump_map.h"
#include "kdump_replay.h"

struct kd_decoder {
	struct kd_bsd_fmt fmt; /* the file's system; ktraceb's until said */
	unsigned int sv_default; /* the ABI of a pid without PROCCTOR: 0, or the BSD's */
	struct kd_map abi; /* pid -> PROCCTOR sv_flags */
	struct kd_threads threads; /* last calls and open spans */
	struct kd_tp *tp; /* kernel events' formats */
	struct kd_cgroups *cgroups; /* -G's records: namespace ids, cgroup paths */
	bool have_fileinfo;
	__s64 wall_offset_ns; /* KTR_FILEINFO: CLOCK_REALTIME - CLOCK_MONOTONIC */
	int time_base; /* 0 = unset, 1 = ktr_mono_ns, 2 = ktr_time (no mono) */
	unsigned long nrec;
	unsigned long ninvalid;
	struct kd_stacks *stacks; /* -k's objects, mappings and stacks; NULL until one */
	void (*read_objects)(void *ctx, struct kd_decoder *d);
	void *read_objects_ctx;
	struct kd_replay replay; /* a recorder's dumps: what they show again */
	struct kd_fdtabs *fdtabs; /* -y: the processes' descriptors; NULL without */
};

/* The payload does not fit the record's kind: "invalid record". */
static inline int kd_dec_invalid(struct kd_event *ev)
{
	ev->valid = false;
	return 0;
}

/* -k's part (kdump_decode_stack.h), made at its first record; NULL when out of memory */
struct kd_stacks *kd_decoder__stacks(struct kd_decoder *d);

#endif /* KTRACEB_KDUMP_DECODER_INT_H */
