/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The ring drain: takes samples out of the BPF ring buffer, routes each to
 * its trace file's writer, and turns the BPF loss counters into
 * KTR_LOST records.  Sample callbacks never return < 0: libbpf would abort
 * the whole poll.
 *
 * Two threads read the ring: the loop, between requests and at each
 * tick, routing each sample at once, and, while the loop is busy (a
 * request, the tick), the ring thread (ktr_ring_thread.h), into a queue
 * (ktr_queue.h) the loop routes from first.  The functions below are the
 * loop's.
 */
#ifndef KTRACEB_KTR_DRAIN_H
#define KTRACEB_KTR_DRAIN_H

#include <stdbool.h>
#include <linux/types.h>
#include "ktraceb/bpf_sample.h"

struct ktr_bpf;
struct ktr_writer;
struct ktr_drain;
struct ktr_ring;

struct ktr_files;
struct ktr_note;

/* Called for each note (KTR_ROUTE_DAEMON sample) as the ring is drained. */
typedef void (*ktr_drain_note_fn)(void *ctx, const struct ktr_note *note);

/* The drain of b's ring (ring, ktr_ring.h: read by the drain alone) into the trace files of table files. */
struct ktr_drain *ktr_drain__new(struct ktr_bpf *b, struct ktr_ring *ring, struct ktr_files *files,
				 ktr_drain_note_fn note_fn, void *note_ctx);
void ktr_drain__free(struct ktr_drain *d);

/*
 * Wait up to timeout_ms for records, write what is there (the queue's,
 * then the ring's), account losses and flush.  Returns 0, or the
 * -errno of the ring buffer itself; a file's write error stays with that
 * file (ktr_tracefile__error).
 */
int ktr_drain__poll(struct ktr_drain *d, int timeout_ms);

/* Take everything still in the ring, account losses, flush; as _poll. */
int ktr_drain__finish(struct ktr_drain *d);

/* Route's BPF loss counter read again (its LOST record comes with the file's next flush); 0. */
int ktr_drain__account_lost(struct ktr_drain *d, __u32 route);
/* Records of route the CPUs' stages still hold (ktr_stages__held). */
unsigned int ktr_drain__held(const struct ktr_drain *d, __u32 route);
/* n records of route that will not reach its file, counted lost; 0. */
int ktr_drain__account_held(struct ktr_drain *d, __u32 route, unsigned int n);
/* A route slot is reused: its loss count starts again from zero. */
void ktr_drain__reset_lost(struct ktr_drain *d, __u32 route);
/* An fd that polls readable when BPF wakes the drainer. */
int ktr_drain__epoll_fd(const struct ktr_drain *d);
/*
 * Is the loop busy (it serves a request, ticks), or waiting for work,
 * when it drains the ring itself as BPF wakes it?  While it is busy the
 * ring thread drains.
 */
void ktr_drain__busy(struct ktr_drain *d, bool busy);

#endif /* KTRACEB_KTR_DRAIN_H */
