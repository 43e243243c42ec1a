// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* The daemon's ring buffers, read and grown (ktr_ring.h says how a swap keeps every record). */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <bpf/bpf.h>

#include "common/ktr_proto.h"
#include "daemon/programs/ktr_bpf.h"
#include "daemon/programs/ktr_holders.h"
#include "ktr_ring.h"
#include "ktr_ring_set.h"

struct ktr_ring {
	pthread_mutex_t lock; /* guards all below: the loop and the ring thread both read */
	_Atomic int loop_waits; /* the loop waits for the lock (ring__lock) */
	bool by_thread; /* the ring thread holds the lock (ktr_ring__consume_if_free) */
	struct ktr_bpf *b; /* b->rb_fds: the rings in the holder */
	ring_buffer_sample_fn fn;
	void *ctx;
	struct ktr_ring_set *cur; /* the reader of b->rb_fds; NULL while a swap is not over */
	struct ktr_ring_set *old; /* the reader of the rings swapped out, until their end */
	int old_fds[KTR_RINGS_MAX];
	int ep; /* the daemon's fd to poll: holds cur's */
	unsigned long long *bytes; /* each of b->rb_fds' size */
};

struct ktr_ring *ktr_ring__new(struct ktr_bpf *b, unsigned long long *bytes)
{
	struct ktr_ring *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	pthread_mutex_init(&r->lock, NULL);
	r->b = b;
	r->bytes = bytes;
	for (int i = 0; i < KTR_RINGS_MAX; i++)
		r->old_fds[i] = -1;
	r->ep = epoll_create1(EPOLL_CLOEXEC);
	if (r->ep < 0) {
		ktr_ring__free(r);
		return NULL;
	}
	return r;
}

/*
 * The lock, for the loop.  The ring thread does not take it while the
 * loop waits for it, and one that holds it stops at its next sample
 * (ring__sample): a storm that never lets the rings empty would otherwise
 * keep the loop waiting while the ring thread fills the queue, the loop
 * routing nothing, until the rings overflowed (a faster dd bs=1k -t ci
 * lost up to a third of its records so: docs/PERFORMANCE.md).
 */
static void ring__lock(struct ktr_ring *r)
{
	atomic_fetch_add(&r->loop_waits, 1);
	pthread_mutex_lock(&r->lock);
	atomic_fetch_sub(&r->loop_waits, 1);
}

/* Each sample to r->fn; the ring thread's reading stops after one when the loop waits. */
static int ring__sample(void *ctx, void *data, size_t size)
{
	struct ktr_ring *r = ctx;
	int err = r->fn(r->ctx, data, size);

	if (!err && r->by_thread && atomic_load(&r->loop_waits))
		return -EAGAIN;
	return err;
}

/* cur: the reader of b->rb_fds (ktr_ring_set.h), polled through r->ep; 0 or -errno. */
static int ring__reader(struct ktr_ring *r)
{
	r->cur = ktr_ring_set__new(r->b->rb_fds, r->b->nrings, ring__sample, r, r->ep);
	return r->cur ? 0 : -errno;
}

int ktr_ring__read_with(struct ktr_ring *r, ring_buffer_sample_fn fn, void *ctx)
{
	int err;

	ring__lock(r);
	r->fn = fn;
	r->ctx = ctx;
	err = ring__reader(r);
	pthread_mutex_unlock(&r->lock);
	return err;
}

int ktr_ring__epoll_fd(const struct ktr_ring *r)
{
	return r->ep;
}

/* A size as -b takes it: "64m". */
static const char *ring__size(unsigned long long v, char *buf, size_t len)
{
	if (v >= 1u << 30 && v % (1u << 30) == 0)
		snprintf(buf, len, "%llug", v >> 30);
	else if (v >= 1u << 20 && v % (1u << 20) == 0)
		snprintf(buf, len, "%llum", v >> 20);
	else
		snprintf(buf, len, "%lluk", v >> 10);
	return buf;
}

/* The reader of the rings swapped out, and they, gone. */
static void ring__free_old(struct ktr_ring *r)
{
	ktr_ring_set__free(r->old);
	r->old = NULL;
	for (int i = 0; i < KTR_RINGS_MAX; i++) {
		if (r->old_fds[i] >= 0)
			close(r->old_fds[i]);
		r->old_fds[i] = -1;
	}
}

/* The old rings read to their end, no program writing into them any more: the new ones are read from now on. */
static int ring__swap_over(struct ktr_ring *r)
{
	int n = ktr_ring_set__consume(r->old), err;

	if (n < 0)
		return n;
	ring__free_old(r);
	ktr_holders__tell_size(r->b, *r->bytes);
	err = ring__reader(r);
	return err ? err : n;
}

/* ktr_ring__consume, the lock held. */
static int ring__consume(struct ktr_ring *r, bool wait)
{
	int n = 0, m;

	if (r->old) {
		/* asked first: what was written before the grace period's end is there to read */
		bool over = ktr_holders__swap_over(r->b, wait);

		if (!over)
			return ktr_ring_set__consume(r->old);
		n = ring__swap_over(r);
		if (n < 0)
			return n;
	}
	if (!r->cur)
		return -EIO; /* the new ring could not be read (ring__swap_over said why) */
	m = ktr_ring_set__consume(r->cur);
	return m < 0 ? m : n + m;
}

int ktr_ring__consume(struct ktr_ring *r, bool wait)
{
	int n;

	ring__lock(r);
	n = ring__consume(r, wait);
	pthread_mutex_unlock(&r->lock);
	return n;
}

int ktr_ring__consume_if_free(struct ktr_ring *r, bool half_full)
{
	int n = 0;

	/* being read or grown by the loop, or about to be */
	if (atomic_load(&r->loop_waits) || pthread_mutex_trylock(&r->lock))
		return 0;
	r->by_thread = true;
	/* a swap under way: the old rings are read whatever they hold */
	if (!half_full || r->old || !r->cur || ktr_ring_set__half_full(r->cur))
		n = ring__consume(r, false);
	r->by_thread = false;
	pthread_mutex_unlock(&r->lock);
	return n;
}

int ktr_ring__settle(struct ktr_ring *r)
{
	int n;

	ring__lock(r);
	n = r->old ? ring__consume(r, true) : 0;
	pthread_mutex_unlock(&r->lock);
	return n;
}

/* New rings of want bytes in the holder, their reader to come once the swap is over; 0 or -errno. */
static int ring__swap_in(struct ktr_ring *r, unsigned long long want)
{
	int fds[KTR_RINGS_MAX], n = r->b->nrings, err = 0;

	for (int i = 0; i < n; i++) {
		fds[i] = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "rb", 0, 0, want, NULL);
		if (fds[i] < 0 && !err)
			err = -errno;
	}
	if (!err && (err = ktr_holders__swap_rings(r->b, fds))) {
		/* the entries that took a new ring get their old one back */
		ktr_holders__swap_over(r->b, true);
		ktr_holders__swap_rings(r->b, r->b->rb_fds);
		ktr_holders__swap_over(r->b, true);
	}
	if (err) {
		for (int i = 0; i < n; i++)
			if (fds[i] >= 0)
				close(fds[i]);
		return err;
	}
	/* the epoll item goes with the reader's epoll fd, when the old reader is freed */
	r->old = r->cur;
	memcpy(r->old_fds, r->b->rb_fds, sizeof(r->old_fds));
	r->cur = NULL;
	for (int i = 0; i < n; i++)
		r->b->rb_fds[i] = fds[i];
	*r->bytes = want;
	return 0;
}

/* ktr_ring__grow, the lock held. */
static void ring__grow(struct ktr_ring *r, unsigned long long want, bool capped, char *msg)
{
	/* a user's share is of all the rings together */
	unsigned long long user_max = KTR_RING_USER_MAX / (unsigned)r->b->nrings;
	char a[24], b[24];
	int err;

	if (user_max < *r->bytes)
		user_max = *r->bytes;
	if (capped && want > user_max) {
		ktr_proto__msg_add(msg,
				   r->b->nrings == 1 ?
					   "-b %s: more than a user's share of root's "
					   "daemon; its ring grows to %s at most\n" :
					   "-b %s: more than a user's share of root's "
					   "daemon; its rings grow to %s each at most\n",
				   ring__size(want, a, sizeof(a)),
				   ring__size(user_max, b, sizeof(b)));
		want = user_max;
	}
	if (want > KTR_RING_MAX || want <= *r->bytes)
		return;
	/* the last swap over first: one ring swapped out at a time */
	if (r->old && (err = ring__consume(r, true)) < 0) {
		ktr_proto__msg_add(msg, "-b %s: the ring buffers: %s\n",
				   ring__size(want, a, sizeof(a)), strerror(-err));
		return;
	}
	err = ring__swap_in(r, want);
	if (err) {
		ktr_proto__msg_add(msg, "-b %s: cannot grow the ring buffers (%s): they stay %s\n",
				   ring__size(want, a, sizeof(a)), strerror(-err),
				   ring__size(*r->bytes, b, sizeof(b)));
		return;
	}
	syslog(LOG_INFO, "%d ring buffers grown to %llu bytes each", r->b->nrings, want);
}

void ktr_ring__grow(struct ktr_ring *r, unsigned long long want, bool capped, char *msg)
{
	ring__lock(r);
	ring__grow(r, want, capped, msg);
	pthread_mutex_unlock(&r->lock);
}

void ktr_ring__free(struct ktr_ring *r)
{
	if (!r)
		return;
	if (r->old) {
		ktr_holders__swap_over(r->b, true);
		ring__free_old(r);
	}
	ktr_ring_set__free(r->cur);
	if (r->ep >= 0)
		close(r->ep);
	pthread_mutex_destroy(&r->lock);
	free(r);
}
