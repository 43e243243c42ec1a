/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The samples the ring thread (ktr_ring_thread.h) has taken out of the
 * ring buffer while the daemon's loop was busy (serving a request, its
 * tick) and the loop has not yet routed to their files (ktr_drain.c): a
 * first-in, first-out queue in the daemon's memory, so that the ring keeps
 * emptying while the loop serves a slow request.
 *
 * Who does what: the ring thread puts (ktr_queue__put, called while it
 * holds the ring's lock, ktr_ring.h); the loop takes everything at once
 * (ktr_queue__take) and routes it with no lock of the queue held.  The
 * loop takes before it routes a sample it reads from the ring itself
 * (the ring's lock held): what is queued came out of the ring earlier, so
 * each thread's records stay in time order.  The queue's own lock guards
 * its buffer and its counts of samples it had no room for.
 *
 * It holds at most max bytes: past that the ring thread stops taking
 * (ktr_queue__wait_room), the ring fills, and BPF counts what it cannot
 * write as lost, file by file, as when nothing drains.  A sample that
 * comes while the queue is fuller still (one consume of the ring reads
 * everything there) is counted lost for its file here.
 */
#ifndef KTRACEB_KTR_QUEUE_H
#define KTRACEB_KTR_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

struct ktr_queue;

/* Samples as the queue gives them back: each a header, then size bytes, padded to 8. */
struct ktr_queue_entry {
	__u32 size;
	__u32 pad;
};

/* What one take gave: its bytes (entries), and the samples dropped since the last take. */
struct ktr_queue_batch {
	unsigned char *p;
	size_t len;
	size_t cap;
	__u64 *dropped; /* by route, KTR_MAX_ROUTES of them; NULL when none was dropped */
};

/* A queue of at most max bytes; NULL if out of memory. */
struct ktr_queue *ktr_queue__new(size_t max);
void ktr_queue__free(struct ktr_queue *q);
/* Does it hold nothing (no sample, no count of dropped ones) to take?  A hint, without the lock. */
bool ktr_queue__empty(struct ktr_queue *q);

/* A sample from the ring (a libbpf ring_buffer_sample_fn, ctx the queue); always 0. */
int ktr_queue__put(void *ctx, void *data, size_t size);
/* Is it full: should the ring thread stop taking? */
bool ktr_queue__full(struct ktr_queue *q);
/* Wait until it is not full, at most timeout_ms. */
void ktr_queue__wait_room(struct ktr_queue *q, int timeout_ms);

/*
 * Everything it holds, in the order put, into b, whose last batch, routed
 * by now, it takes in exchange (b starts zeroed; ktr_queue__batch_free).
 */
void ktr_queue__take(struct ktr_queue *q, struct ktr_queue_batch *b);
/*
 * The memory of a big buffer freed, q's if it is empty and b's (routed by
 * now): for the loop to call once the queue has been idle a while.  The
 * buffers are kept from take to take, so that a storm's samples are not
 * copied into fresh pages each time.
 */
void ktr_queue__trim(struct ktr_queue *q, struct ktr_queue_batch *b);
void ktr_queue__batch_free(struct ktr_queue_batch *b);

#endif /* KTRACEB_KTR_QUEUE_H */
