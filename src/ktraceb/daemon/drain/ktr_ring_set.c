// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* The daemon's rings read as one stream, merged by time (ktr_ring_set.h says how). */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>

#include "ktraceb/bpf_sample.h"
#include "ktraceb/bpf_stage.h"
#include "ktr_ring_set.h"

/* What a ring's sample callback returns to stop the read: the round has this ring's bytes. */
#define ROUND_FULL (-EXFULL)

/* A sample read from a ring, as it waits for its turn: this, then size bytes, padded to 8. */
struct held {
	__u64 time; /* its first record's ktr_mono_ns; a note's, the sample's before it */
	__u32 size;
	__u32 pad;
};

/* One ring: its reader, and the samples read from it not yet handed on. */
struct part {
	struct ktr_ring_set *set;
	struct ring_buffer *rb;
	unsigned char *buf;
	size_t cap;
	size_t len; /* bytes held */
	size_t at; /* where the next sample to hand on starts */
	__u64 last_time; /* the last sample read's */
	__u64 max_time; /* the latest of the samples read so far */
	bool more; /* this round stopped reading it: it may hold more */
};

struct ktr_ring_set {
	ring_buffer_sample_fn fn;
	void *ctx;
	int n;
	struct part parts[KTR_RINGS_MAX];
};

/* A sample's time: its first record's; before, when it has none (a note to the daemon). */
static __u64 sample__time(const unsigned char *p, size_t size, __u64 before)
{
	struct ktr_sample s;
	struct ktr_header h;

	if (size < sizeof(s))
		return before;
	memcpy(&s, p, sizeof(s));
	if (s.route == KTR_ROUTE_BATCH) { /* a stage's records: the first one's */
		p += sizeof(s);
		size -= sizeof(s);
		if (size < sizeof(s))
			return before;
		memcpy(&s, p, sizeof(s));
	}
	if (s.route == KTR_ROUTE_DAEMON || size < sizeof(s) + sizeof(h))
		return before;
	memcpy(&h, p + sizeof(s), sizeof(h));
	return h.ktr_mono_ns;
}

static size_t held__bytes(__u32 size)
{
	return sizeof(struct held) + (((size_t)size + 7) & ~(size_t)7);
}

/*
 * A ring's sample callback: the sample kept for the merge; ROUND_FULL once
 * the ring has a round's bytes waiting.  Out of memory, the sample is
 * handed on at once, before those held (out of order rather than lost).
 */
static int part__take(void *ctx, void *data, size_t size)
{
	struct part *p = ctx;
	size_t need = held__bytes(size);
	struct held *e;

	if (p->len + need > p->cap) {
		size_t cap = p->cap ? p->cap : KTR_RING_ROUND;
		unsigned char *buf;

		while (cap < p->len + need)
			cap *= 2;
		buf = realloc(p->buf, cap);
		if (!buf)
			return p->set->fn(p->set->ctx, data, size);
		p->buf = buf;
		p->cap = cap;
	}
	e = (struct held *)(p->buf + p->len);
	e->time = p->last_time = sample__time(data, size, p->last_time);
	if (e->time > p->max_time)
		p->max_time = e->time;
	e->size = size;
	e->pad = 0;
	memcpy(e + 1, data, size);
	p->len += need;
	return p->len - p->at >= KTR_RING_ROUND ? ROUND_FULL : 0;
}

struct ktr_ring_set *ktr_ring_set__new(const int *fds, int n, ring_buffer_sample_fn fn, void *ctx,
				       int ep)
{
	struct ktr_ring_set *s = calloc(1, sizeof(*s));
	struct epoll_event ev = { .events = EPOLLIN };

	if (!s)
		return NULL;
	s->fn = fn;
	s->ctx = ctx;
	for (int i = 0; i < n && i < KTR_RINGS_MAX; i++) {
		struct part *p = &s->parts[i];

		p->set = s;
		/* one ring: its samples are already in order, handed on as read */
		p->rb = n == 1 ? ring_buffer__new(fds[i], fn, ctx, NULL) :
				 ring_buffer__new(fds[i], part__take, p, NULL);
		if (!p->rb || epoll_ctl(ep, EPOLL_CTL_ADD, ring_buffer__epoll_fd(p->rb), &ev) < 0) {
			int err = errno ? errno : ENOMEM;

			s->n = p->rb ? i + 1 : i;
			ktr_ring_set__free(s);
			errno = err;
			return NULL;
		}
		s->n = i + 1;
	}
	return s;
}

void ktr_ring_set__free(struct ktr_ring_set *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->n; i++) {
		ring_buffer__free(
			s->parts[i].rb); /* its epoll fd, and so its item in ep, with it */
		free(s->parts[i].buf);
	}
	free(s);
}

/*
 * The samples held, in time order, each ring's in its own, none later
 * than bound but the first; how many.
 */
static int set__hand_on(struct ktr_ring_set *s, __u64 bound)
{
	int n = 0;

	for (;;) {
		struct part *best = NULL;
		struct held *first = NULL;

		for (int i = 0; i < s->n; i++) {
			struct part *p = &s->parts[i];
			struct held *e;

			if (p->at >= p->len)
				continue;
			e = (struct held *)(p->buf + p->at);
			if (!best || e->time < first->time) {
				best = p;
				first = e;
			}
		}
		/* at least one a round: a ring whose times run backwards still empties */
		if (!best || (n > 0 && first->time > bound))
			return n;
		best->at += held__bytes(first->size);
		s->fn(s->ctx, first + 1, first->size);
		n++;
	}
}

/*
 * One round's reading of ring p: what it holds made room for (moved to the
 * front once half of it has been handed on), then read; 0 or -errno.
 */
static int part__read(struct part *p)
{
	int err;

	if (p->at == p->len) {
		p->at = p->len = 0;
	} else if (p->at > p->len / 2) {
		memmove(p->buf, p->buf + p->at, p->len - p->at);
		p->len -= p->at;
		p->at = 0;
	}
	p->more = p->len - p->at >= KTR_RING_ROUND;
	if (p->more)
		return 0;
	err = ring_buffer__consume(p->rb);
	if (err == ROUND_FULL)
		p->more = true;
	return err < 0 && err != ROUND_FULL ? err : 0;
}

int ktr_ring_set__consume(struct ktr_ring_set *s)
{
	int total = 0, err;

	if (s->n == 1)
		return ring_buffer__consume(s->parts[0].rb);
	for (;;) {
		__u64 bound = UINT64_MAX;
		bool more = false;

		for (int i = 0; i < s->n; i++) {
			struct part *p = &s->parts[i];

			/* a ring that fails: what is held still goes on, none of it lost */
			if ((err = part__read(p)) < 0) {
				set__hand_on(s, UINT64_MAX);
				return err;
			}
			/*
			 * Not the last time read but the latest: a ring's times
			 * may step back (records of its threads on other CPUs),
			 * and a bound below its own samples would hold them
			 * there round after round.
			 */
			if (p->more && p->max_time < bound)
				bound = p->max_time;
			more |= p->more;
		}
		total += set__hand_on(s, bound);
		if (!more)
			return total;
	}
}
