/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * A recorder's ring as the daemon maps it (ktr_flight.h), shared by its
 * setting up (ktr_flight.c) and its reading (ktr_flight_walk.c).
 */
#ifndef KTRACEB_KTR_FLIGHT_PRIV_H
#define KTRACEB_KTR_FLIGHT_PRIV_H

#include <limits.h>
#include <stddef.h>
#include <linux/types.h>

#include "ktraceb/bpf_flight.h"
#include "ktr_flight.h"

struct ktr_flight {
	int fd, ctl_fd; /* the ring's map and its control map */
	__u32 route; /* their index in the flights and flight_ctls maps */
	unsigned char *mem; /* the ring, mapped */
	unsigned char *ctl_mem; /* the control map, mapped (mem itself outside BPF) */
	size_t mem_bytes;
	__u64 bytes;
	struct ktr_flight_ctl *ctl;
	struct ktr_flight_head *heads; /* [ncpu] */
	struct ktr_flight_meta *meta;
	struct ktr_flight_slot *slots; /* the regions */
	struct ktr_flight_maps maps; /* where it is put, -1 while it is not */
	char pin[PATH_MAX]; /* the ring's; "" when not pinned */
	char ctl_pin[PATH_MAX]; /* the control map's */
};

#endif /* KTRACEB_KTR_FLIGHT_PRIV_H */
