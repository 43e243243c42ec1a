// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* The samples taken out of the ring, waiting to be routed (ktr_queue.h says who does what). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ktraceb/bpf_sample.h"
#include "ktraceb/bpf_stage.h"
#include "ktraceb/ktr.h"
#include "ktr_queue.h"

#define QUEUE_FIRST_CAP (1u << 20) /* a buffer's first size; it grows as needed */
/*
 * A buffer a burst grew past this is kept while the bursts go on, its pages
 * touched once (a first touch costs a page fault, most of a copy's cost on
 * a virtual machine), and freed when the loop trims the idle queue.
 */
#define QUEUE_KEEP_CAP	(4 * QUEUE_FIRST_CAP)

struct ktr_queue {
	pthread_mutex_t lock; /* guards all below */
	pthread_cond_t room; /* signalled at each take */
	unsigned char *p; /* the samples put, as entries (ktr_queue_entry) */
	size_t len, cap;
	atomic_bool some; /* len > 0, read without the lock */
	size_t max;
	__u64 *dropped; /* by route; NULL until one is dropped */
};

struct ktr_queue *ktr_queue__new(size_t max)
{
	struct ktr_queue *q = calloc(1, sizeof(*q));

	if (!q)
		return NULL;
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->room, NULL);
	q->max = max;
	return q;
}

void ktr_queue__free(struct ktr_queue *q)
{
	if (!q)
		return;
	pthread_cond_destroy(&q->room);
	pthread_mutex_destroy(&q->lock);
	free(q->p);
	free(q->dropped);
	free(q);
}

bool ktr_queue__empty(struct ktr_queue *q)
{
	return !atomic_load(&q->some);
}

/* A sample that finds no room: its records counted lost for their files (the lock held). */
static void queue__drop(struct ktr_queue *q, const struct ktr_sample *s, size_t size)
{
	const unsigned char *p = (const unsigned char *)(s + 1);
	size_t n;

	if (!q->dropped && !(q->dropped = calloc(KTR_MAX_ROUTES, sizeof(*q->dropped))))
		return; /* out of memory: not counted */
	if (s->route != KTR_ROUTE_BATCH) {
		if (s->route < KTR_MAX_ROUTES)
			q->dropped[s->route]++;
		return;
	}
	/* a CPU's stage (bpf_stage.h): each sample's reserved field is its stride */
	n = s->reserved < size - sizeof(*s) ? s->reserved : size - sizeof(*s);
	while (n >= sizeof(*s) + sizeof(struct ktr_header)) {
		const struct ktr_sample *in = (const void *)p;
		const struct ktr_header *h = (const void *)(in + 1);

		if (in->reserved < sizeof(*in) || in->reserved > n)
			return;
		if (in->route < KTR_MAX_ROUTES)
			q->dropped[in->route] += h->ktr_type == KTR_STAGED_PAIR ? 2 : 1;
		p += in->reserved;
		n -= in->reserved;
	}
}

/* Room for need bytes more, up to limit; false if there is none. */
static bool queue__room(struct ktr_queue *q, size_t need, size_t limit)
{
	size_t cap = q->cap ? q->cap : QUEUE_FIRST_CAP;
	unsigned char *p;

	if (q->len + need > limit)
		return false;
	if (q->len + need <= q->cap)
		return true;
	while (cap < q->len + need)
		cap *= 2;
	p = realloc(q->p, cap);
	if (!p)
		return false;
	q->p = p;
	q->cap = cap;
	return true;
}

int ktr_queue__put(void *ctx, void *data, size_t size)
{
	struct ktr_queue *q = ctx;
	const struct ktr_sample *s = data;
	struct ktr_queue_entry e = { .size = (__u32)size };
	size_t need = sizeof(e) + ((size + 7) & ~(size_t)7);

	if (size < sizeof(*s))
		return 0;
	pthread_mutex_lock(&q->lock);
	/*
	 * Twice max at most (max is where the ring thread stops taking; one
	 * consume may take more).  A note to the daemon is never dropped:
	 * one may be all that continues a process stopped for its probes.
	 */
	if (!queue__room(q, need, s->route == KTR_ROUTE_DAEMON ? SIZE_MAX : 2 * q->max)) {
		queue__drop(q, s, size);
	} else {
		memcpy(q->p + q->len, &e, sizeof(e));
		memcpy(q->p + q->len + sizeof(e), data, size);
		q->len += need;
	}
	atomic_store(&q->some, q->len || q->dropped);
	pthread_mutex_unlock(&q->lock);
	return 0;
}

bool ktr_queue__full(struct ktr_queue *q)
{
	bool full;

	pthread_mutex_lock(&q->lock);
	full = q->len >= q->max;
	pthread_mutex_unlock(&q->lock);
	return full;
}

void ktr_queue__wait_room(struct ktr_queue *q, int timeout_ms)
{
	struct timespec until;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += timeout_ms / 1000;
	until.tv_nsec += (long)(timeout_ms % 1000) * 1000000;
	if (until.tv_nsec >= 1000000000) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&q->lock);
	if (q->len >= q->max)
		pthread_cond_timedwait(&q->room, &q->lock, &until);
	pthread_mutex_unlock(&q->lock);
}

void ktr_queue__take(struct ktr_queue *q, struct ktr_queue_batch *b)
{
	unsigned char *p = b->p;
	size_t cap = b->cap;

	free(b->dropped); /* the last take's, counted by now */
	pthread_mutex_lock(&q->lock);
	b->p = q->p;
	b->len = q->len;
	b->cap = q->cap;
	b->dropped = q->dropped;
	/* the emptied buffer back, whatever its size (ktr_queue__trim frees a big one) */
	q->p = p;
	q->cap = cap;
	q->len = 0;
	q->dropped = NULL;
	atomic_store(&q->some, false);
	pthread_cond_signal(&q->room);
	pthread_mutex_unlock(&q->lock);
}

void ktr_queue__trim(struct ktr_queue *q, struct ktr_queue_batch *b)
{
	if (b->cap > QUEUE_KEEP_CAP) {
		free(b->p);
		b->p = NULL;
		b->len = b->cap = 0;
	}
	pthread_mutex_lock(&q->lock);
	if (!q->len && q->cap > QUEUE_KEEP_CAP) {
		free(q->p);
		q->p = NULL;
		q->cap = 0;
	}
	pthread_mutex_unlock(&q->lock);
}

void ktr_queue__batch_free(struct ktr_queue_batch *b)
{
	free(b->p);
	free(b->dropped);
	memset(b, 0, sizeof(*b));
}
