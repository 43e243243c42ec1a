// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* The thread that empties the ring into the queue (ktr_ring_thread.h). */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>

#include "daemon/ktr_clock.h"
#include "ktr_queue.h"
#include "ktr_ring.h"
#include "ktr_ring_thread.h"

struct ktr_ring_thread {
	struct ktr_ring *ring;
	struct ktr_queue *q;
	const _Atomic __u64 *loop_busy_since;
	int ep; /* the ring's wake-ups and stop_fd */
	int stop_fd; /* an eventfd: readable when the thread is to end */
	atomic_bool stopping;
	pthread_t tid;
};

/*
 * The ring read into the queue while the loop is busy: all of it once the
 * loop has been busy KTR_RING_THREAD_BUSY_US, before that only if a ring
 * is half full (the loop, woken at a quarter, is not keeping up).
 */
static void ring_thread__read(struct ktr_ring_thread *t)
{
	__u64 since = atomic_load(t->loop_busy_since);

	if (since)
		ktr_ring__consume_if_free(t->ring, ktr_mono_ns() - since <
							   KTR_RING_THREAD_BUSY_US * 1000ull);
}

static void *ring_thread__run(void *arg)
{
	struct ktr_ring_thread *t = arg;

	while (!atomic_load(&t->stopping)) {
		struct epoll_event ev;

		/* the queue full: the loop routes no more for now, and the ring fills meanwhile */
		if (ktr_queue__full(t->q)) {
			ktr_queue__wait_room(t->q, KTR_RING_THREAD_MS);
			continue;
		}
		epoll_wait(t->ep, &ev, 1, KTR_RING_THREAD_MS);
		/*
		 * A failure of the ring itself is the loop's to see: its own
		 * reads (ktr_drain__poll) meet it at the next tick.
		 */
		if (!atomic_load(&t->stopping))
			ring_thread__read(t);
	}
	return NULL;
}

struct ktr_ring_thread *ktr_ring_thread__start(struct ktr_ring *ring, struct ktr_queue *q,
					       const _Atomic __u64 *loop_busy_since)
{
	struct ktr_ring_thread *t = calloc(1, sizeof(*t));
	struct epoll_event ev = { .events = EPOLLIN };
	sigset_t all, old;
	int err;

	if (!t)
		return NULL;
	t->ring = ring;
	t->q = q;
	t->loop_busy_since = loop_busy_since;
	t->stop_fd = eventfd(0, EFD_CLOEXEC);
	t->ep = epoll_create1(EPOLL_CLOEXEC);
	if (t->stop_fd < 0 || t->ep < 0)
		goto fail;
	ev.data.fd = t->stop_fd;
	if (epoll_ctl(t->ep, EPOLL_CTL_ADD, t->stop_fd, &ev) < 0)
		goto fail;
	/*
	 * The ring's own epoll fd, which stays the same however it grows;
	 * edge-triggered: woken when BPF wakes the reader, not each time the
	 * ring holds a record (it nearly always does in a storm, and the
	 * thread would then spin while the loop drains).
	 */
	ev.events = EPOLLIN | EPOLLET;
	ev.data.fd = ktr_ring__epoll_fd(ring);
	if (epoll_ctl(t->ep, EPOLL_CTL_ADD, ev.data.fd, &ev) < 0)
		goto fail;
	/* every signal blocked: they are the loop's */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&t->tid, NULL, ring_thread__run, t);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err)
		goto fail;
	pthread_setname_np(t->tid, "ktraceb-ring");
	return t;
fail:
	if (t->stop_fd >= 0)
		close(t->stop_fd);
	if (t->ep >= 0)
		close(t->ep);
	free(t);
	return NULL;
}

void ktr_ring_thread__stop(struct ktr_ring_thread *t)
{
	__u64 one = 1;

	if (!t)
		return;
	atomic_store(&t->stopping, true);
	if (write(t->stop_fd, &one, sizeof(one)) < 0) {
		/* it sees stopping at its next timeout */
	}
	pthread_join(t->tid, NULL);
	close(t->stop_fd);
	close(t->ep);
	free(t);
}
