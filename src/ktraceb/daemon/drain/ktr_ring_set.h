/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The daemon's rings read as one stream (ktr_ring.h): each ring's samples
 * in the ring's order, which keeps each thread's records in the order it
 * made them (a thread writes into one ring, ring.bpf.h), and the rings'
 * samples merged by time, so that the threads' records in a file follow
 * one another as they happened, as they did when there was one ring.
 *
 * How: a round reads at most KTR_RING_ROUND bytes from each ring into
 * memory, then hands on the samples in the order of their times (a
 * stage's batch has its first record's), each ring's in its own order.  A
 * ring that had more than a round's bytes bounds the round: no sample
 * later than the latest one read from it is handed on before it is read
 * further (perf's "finished round" does the same for its per-CPU
 * buffers).  Records of threads on different CPUs at the same moment may
 * still come in another order than their timestamps: what a round reads of
 * one ring can be committed after a later record of another.
 */
#ifndef KTRACEB_KTR_RING_SET_H
#define KTRACEB_KTR_RING_SET_H

#include <bpf/libbpf.h>

struct ktr_ring_set;

/* Bytes read from one ring per round. */
#define KTR_RING_ROUND (256u << 10)

/*
 * A reader of the n rings fds (they stay the caller's), handing each
 * sample to fn(ctx, ...) as libbpf's ring_buffer__new() says; each ring's
 * epoll fd is added to ep, to poll readable when BPF wakes the reader.
 * NULL and errno if it cannot be made.
 */
struct ktr_ring_set *ktr_ring_set__new(const int *fds, int n, ring_buffer_sample_fn fn, void *ctx,
				       int ep);
void ktr_ring_set__free(struct ktr_ring_set *s);
/* Every sample the rings hold now, handed on; how many, or -errno of a ring. */
int ktr_ring_set__consume(struct ktr_ring_set *s);

#endif /* KTRACEB_KTR_RING_SET_H */
