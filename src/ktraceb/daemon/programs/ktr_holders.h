/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The daemon's own ring buffers and scratch area, and the holders the
 * programs reach them through (map_shapes.bpf.h): made as the daemon
 * starts, put in, taken out as it ends.  Programs kept loaded between
 * daemons (ktr_progcache.h) hold none of them while nothing traces.
 */
#ifndef KTRACEB_KTR_HOLDERS_H
#define KTRACEB_KTR_HOLDERS_H

#include <stdbool.h>
#include <stddef.h>

struct ktr_bpf;

/* b's scratch area made (a slot per possible CPU), not yet in its holder; 0 or -errno. */
int ktr_holders__new_scratch(struct ktr_bpf *b, int ncpus);

/*
 * How many rings a daemon makes for ncpus possible CPUs: one a CPU, a
 * power of two, KTR_RINGS_MAX at most (ring.bpf.h says how a thread's is
 * chosen).
 */
int ktr_holders__rings_for(int ncpus);

/*
 * b->nrings ring buffers of ring_bytes each made (into b->rb_fds), they
 * and the scratch area into their holders: begun.
 */
void ktr_holders__fill(struct ktr_bpf *b, size_t ring_bytes);

/*
 * The last fill's or empty's entries as they asked (the programs use them),
 * and after a fill the programs told to choose among all the rings; 0 or
 * -errno.
 */
int ktr_holders__wait(struct ktr_bpf *b);

/*
 * The rings' holder set to the ring buffers ring_fds instead (the daemon
 * grows its rings, ktr_ring.h): begun, and waited for until the programs
 * find the new rings; 0 or -errno.
 */
int ktr_holders__swap_rings(struct ktr_bpf *b, int *ring_fds);
/*
 * Is that swap over: has an RCU grace period passed since each entry's
 * update, so that no program still writes into a ring swapped out?  wait:
 * until it is.
 */
bool ktr_holders__swap_over(const struct ktr_bpf *b, bool wait);
/* What the programs take from each ring's size (ktr_wakeup_bytes, ktr_stage_bytes) into .bss. */
void ktr_holders__tell_size(struct ktr_bpf *b, size_t ring_bytes);

/* Both holders emptied: the rings and the scratch area are the daemon's alone, and go with it. */
void ktr_holders__empty(struct ktr_bpf *b);

#endif /* KTRACEB_KTR_HOLDERS_H */
