/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The ring thread: the daemon's thread that empties the BPF ring buffer
 * into a queue in memory (ktr_queue.h) while the loop is busy (serving a
 * request, its tick), so that a request served slowly (an attach, a scan
 * for probes) does not let the ring fill and lose records.  While the
 * loop waits for work it drains the ring itself, as BPF wakes it, and the
 * thread leaves the ring alone: a sample copied into the queue costs a
 * copy more than one routed at once.
 *
 * The thread looks when BPF wakes the reader, and at least every
 * KTR_RING_THREAD_MS, and reads only once the loop has been busy
 * KTR_RING_THREAD_BUSY_US, or a ring is half full: BPF's wake-up (a ring
 * a quarter full) wakes the loop too, which takes the ring's lock well
 * within that (it sends the CPUs' stages on first); read at once, the
 * thread would race it for the ring and copy what the loop was about to
 * route.  It only moves samples: the loop routes them to their files
 * (ktr_drain.c) and sends the stages on (ktr_stages.h).  It reads the
 * ring only when the ring's lock (ktr_ring.h) is free: a loop that holds
 * it is reading the ring already.  It lets go as soon as the loop waits
 * for the lock: the loop routes what it reads at once, and while it
 * waits it routes nothing.
 */
#ifndef KTRACEB_KTR_RING_THREAD_H
#define KTRACEB_KTR_RING_THREAD_H

struct ktr_ring;
struct ktr_queue;
struct ktr_ring_thread;

#include <stdatomic.h>
#include <linux/types.h>

#define KTR_RING_THREAD_MS 10
#define KTR_RING_THREAD_BUSY_US 1000

/*
 * The thread started, reading ring once the loop has been busy a while
 * (*loop_busy_since, the time it stopped waiting, ktr_mono_ns(); 0 while
 * it waits) into q (the ring's read function puts what the thread reads
 * there); NULL if it cannot start.
 */
struct ktr_ring_thread *ktr_ring_thread__start(struct ktr_ring *ring, struct ktr_queue *q,
					       const _Atomic __u64 *loop_busy_since);
/* It stopped (before its ring and queue go), and freed. */
void ktr_ring_thread__stop(struct ktr_ring_thread *t);

#endif /* KTRACEB_KTR_RING_THREAD_H */
