/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The daemon's own ring buffer and scratch area, and the holders of one
 * entry the programs reach them through (map_shapes.bpf.h): made as the
 * daemon starts, put in, taken out as it ends.  Programs kept loaded
 * between daemons (ktr_progcache.h) hold neither while nothing traces.
 */
#ifndef KTRACEB_KTR_HOLDERS_H
#define KTRACEB_KTR_HOLDERS_H

#include <stdbool.h>
#include <stddef.h>

struct ktr_bpf;

/* b's scratch area made (a slot per possible CPU), not yet in its holder; 0 or -errno. */
int ktr_holders__new_scratch(struct ktr_bpf *b, int ncpus);

/* A ring buffer of ring_bytes made, it and the scratch area into their holders: begun. */
void ktr_holders__fill(struct ktr_bpf *b, size_t ring_bytes);

/* The last fill's or empty's entries as they asked (the programs use them); 0 or -errno. */
int ktr_holders__wait(void);

/*
 * The ring's holder set to the ring buffer *ring_fd instead (the daemon
 * grows its ring, ktr_ring.h): begun, and waited for until the programs
 * find the new ring; 0 or -errno (then the old one stays).
 */
int ktr_holders__swap_ring(struct ktr_bpf *b, int *ring_fd);
/*
 * Is that swap over: has an RCU grace period passed since, so that no
 * program still writes into the ring swapped out?  wait: until it is.
 */
bool ktr_holders__swap_over(bool wait);
/* What the programs take from the ring's size (ktr_wakeup_bytes, ktr_stage_bytes) into .bss. */
void ktr_holders__tell_size(struct ktr_bpf *b, size_t ring_bytes);

/* Both holders emptied: the ring and the scratch area are the daemon's alone, and go with it. */
void ktr_holders__empty(struct ktr_bpf *b);

#endif /* KTRACEB_KTR_HOLDERS_H */
