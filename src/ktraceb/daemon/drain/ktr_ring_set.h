/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The daemon's rings read as one stream (ktr_ring.h): each ring's samples
 * in the ring's order, which keeps each thread's records in the order it
 * made them (a thread writes into one ring, ring.bpf.h), and the rings'
 * samples merged by time, so that the threads' records in a file follow
 * one another as they happened, as they did when there was one ring.
 *
 * How, as Falco's modern probe reads its per-CPU rings: each ring is
 * mapped as libbpf maps it, and its next sample is looked at where it
 * lies; the earliest of the rings' next samples (a stage's batch has its
 * first record's time) is handed on, then that ring's next is looked at.
 * Nothing is copied: a sample is handed on from the ring itself, and its
 * bytes are given back to BPF after (every 64 KiB, and whenever a ring
 * has nothing more).  Records of threads on different CPUs at the same
 * moment may still come in another order than their timestamps: a ring
 * that has nothing now may be given an earlier record (a stage sent late)
 * after a later one of another ring was handed on.
 */
#ifndef KTRACEB_KTR_RING_SET_H
#define KTRACEB_KTR_RING_SET_H

#include <stdbool.h>
#include <bpf/libbpf.h>

struct ktr_ring_set;

/*
 * A reader of the n rings fds (they stay the caller's), handing each
 * sample to fn(ctx, ...) as libbpf's ring_buffer__new() says (the data
 * is the ring's own, read-only, valid until fn returns); each ring's fd is
 * added to ep, readable while the ring holds a sample, until the reader
 * is freed.
 * NULL and errno if it cannot be made.
 */
struct ktr_ring_set *ktr_ring_set__new(const int *fds, int n, ring_buffer_sample_fn fn, void *ctx,
				       int ep);
void ktr_ring_set__free(struct ktr_ring_set *s);
/*
 * The samples the rings hold, handed on, at most as many bytes as the
 * rings' sizes together (a storm that does not let up still lets the
 * caller go); how many, or fn's error (the sample it failed on is gone).
 */
int ktr_ring_set__consume(struct ktr_ring_set *s);
/* Does a ring hold half its size or more that is not read yet? */
bool ktr_ring_set__half_full(const struct ktr_ring_set *s);

#endif /* KTRACEB_KTR_RING_SET_H */
