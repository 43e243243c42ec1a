// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* The daemon's ring buffer, read and grown (ktr_ring.h says how a swap keeps every record). */
#include <errno.h>
#include <pthread.h>
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

struct ktr_ring {
	pthread_mutex_t lock; /* guards all below: the loop and the ring thread both read */
	struct ktr_bpf *b; /* b->rb_fd: the ring in the holder */
	ring_buffer_sample_fn fn;
	void *ctx;
	struct ring_buffer *cur; /* the reader of b->rb_fd; NULL while a swap is not over */
	struct ring_buffer *old; /* the reader of the ring swapped out, until its end */
	int old_fd;
	int new_fd; /* the ring being swapped in, as the holder's thread reads it */
	int ep; /* the daemon's fd to poll: holds cur's */
	unsigned long long *bytes; /* b->rb_fd's size */
};

struct ktr_ring *ktr_ring__new(struct ktr_bpf *b, unsigned long long *bytes)
{
	struct ktr_ring *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	pthread_mutex_init(&r->lock, NULL);
	r->b = b;
	r->bytes = bytes;
	r->old_fd = r->new_fd = -1;
	r->ep = epoll_create1(EPOLL_CLOEXEC);
	if (r->ep < 0) {
		ktr_ring__free(r);
		return NULL;
	}
	return r;
}

/* cur: a reader of b->rb_fd, polled through r->ep; 0 or -errno. */
static int ring__reader(struct ktr_ring *r)
{
	struct epoll_event ev = { .events = EPOLLIN };

	r->cur = ring_buffer__new(r->b->rb_fd, r->fn, r->ctx, NULL);
	if (!r->cur)
		return errno ? -errno : -ENOMEM;
	if (epoll_ctl(r->ep, EPOLL_CTL_ADD, ring_buffer__epoll_fd(r->cur), &ev) < 0)
		return -errno;
	return 0;
}

int ktr_ring__read_with(struct ktr_ring *r, ring_buffer_sample_fn fn, void *ctx)
{
	int err;

	pthread_mutex_lock(&r->lock);
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

/* The old ring read to its end, no program writing into it any more: the new one is read from now on. */
static int ring__swap_over(struct ktr_ring *r)
{
	int n = ring_buffer__consume(r->old), err;

	if (n < 0)
		return n;
	ring_buffer__free(r->old);
	r->old = NULL;
	close(r->old_fd);
	r->old_fd = -1;
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
		bool over = ktr_holders__swap_over(wait);

		if (!over)
			return ring_buffer__consume(r->old);
		n = ring__swap_over(r);
		if (n < 0)
			return n;
	}
	if (!r->cur)
		return -EIO; /* the new ring could not be read (ring__swap_over said why) */
	m = ring_buffer__consume(r->cur);
	return m < 0 ? m : n + m;
}

int ktr_ring__consume(struct ktr_ring *r, bool wait)
{
	int n;

	pthread_mutex_lock(&r->lock);
	n = ring__consume(r, wait);
	pthread_mutex_unlock(&r->lock);
	return n;
}

int ktr_ring__consume_if_free(struct ktr_ring *r)
{
	int n;

	if (pthread_mutex_trylock(&r->lock))
		return 0; /* being read or grown: by the loop */
	n = ring__consume(r, false);
	pthread_mutex_unlock(&r->lock);
	return n;
}

int ktr_ring__settle(struct ktr_ring *r)
{
	int n;

	pthread_mutex_lock(&r->lock);
	n = r->old ? ring__consume(r, true) : 0;
	pthread_mutex_unlock(&r->lock);
	return n;
}

/* A new ring of want bytes in the holder, its reader to come once the swap is over; 0 or -errno. */
static int ring__swap_in(struct ktr_ring *r, unsigned long long want)
{
	int err;

	r->new_fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "rb", 0, 0, want, NULL);
	if (r->new_fd < 0)
		return -errno;
	err = ktr_holders__swap_ring(r->b, &r->new_fd);
	if (err) {
		ktr_holders__swap_over(true);
		close(r->new_fd);
		r->new_fd = -1;
		return err;
	}
	/* the epoll item goes with the reader's epoll fd, when the old reader is freed */
	r->old = r->cur;
	r->old_fd = r->b->rb_fd;
	r->cur = NULL;
	r->b->rb_fd = r->new_fd;
	r->new_fd = -1;
	*r->bytes = want;
	return 0;
}

/* ktr_ring__grow, the lock held. */
static void ring__grow(struct ktr_ring *r, unsigned long long want, bool capped, char *msg)
{
	char a[24], b[24];
	int err;

	if (capped && want > KTR_RING_USER_MAX) {
		ktr_proto__msg_add(msg,
				   "-b %s: more than a user's share of root's daemon; its ring "
				   "grows to %s at most\n",
				   ring__size(want, a, sizeof(a)),
				   ring__size(KTR_RING_USER_MAX, b, sizeof(b)));
		want = KTR_RING_USER_MAX;
	}
	if (want > KTR_RING_MAX || want <= *r->bytes)
		return;
	/* the last swap over first: one ring swapped out at a time */
	if (r->old && (err = ring__consume(r, true)) < 0) {
		ktr_proto__msg_add(msg, "-b %s: the ring buffer: %s\n",
				   ring__size(want, a, sizeof(a)), strerror(-err));
		return;
	}
	err = ring__swap_in(r, want);
	if (err) {
		ktr_proto__msg_add(msg, "-b %s: cannot grow the ring buffer (%s): it stays %s\n",
				   ring__size(want, a, sizeof(a)), strerror(-err),
				   ring__size(*r->bytes, b, sizeof(b)));
		return;
	}
	syslog(LOG_INFO, "ring buffer grown to %llu bytes", want);
}

void ktr_ring__grow(struct ktr_ring *r, unsigned long long want, bool capped, char *msg)
{
	pthread_mutex_lock(&r->lock);
	ring__grow(r, want, capped, msg);
	pthread_mutex_unlock(&r->lock);
}

void ktr_ring__free(struct ktr_ring *r)
{
	if (!r)
		return;
	if (r->old) {
		ktr_holders__swap_over(true);
		ring_buffer__free(r->old);
		close(r->old_fd);
	}
	ring_buffer__free(r->cur);
	if (r->ep >= 0)
		close(r->ep);
	pthread_mutex_destroy(&r->lock);
	free(r);
}
