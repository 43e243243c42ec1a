// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The queue between the ring thread and the loop (ktr_queue.c): samples
 * come out in the order they went in, also while a thread puts as the
 * loop takes; past its room a sample is counted lost for its file (each
 * record of a CPU's stage, a staged CALL and RET as two), a note to the
 * daemon never.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/test.h"
#include "daemon/drain/ktr_queue.h"
#include "ktraceb/bpf_sample.h"
#include "ktraceb/bpf_stage.h"
#include "ktraceb/ktr.h"

/* A sample of route r, n bytes long in all, its payload filled with seq. */
static void *sample(__u32 r, size_t n, unsigned char seq)
{
	struct ktr_sample *s = malloc(n);

	memset(s, seq, n);
	s->route = r;
	s->reserved = 0;
	return s;
}

static void put(struct ktr_queue *q, __u32 r, size_t n, unsigned char seq)
{
	void *s = sample(r, n, seq);

	ktr_queue__put(q, s, n);
	free(s);
}

/* The entry at *at of b, its size and first payload byte; *at moved on. */
static const struct ktr_sample *next(const struct ktr_queue_batch *b, size_t *at, __u32 *size)
{
	const struct ktr_queue_entry *e = (const void *)(b->p + *at);

	*size = e->size;
	*at += sizeof(*e) + ((e->size + 7) & ~7u);
	return (const void *)(e + 1);
}

TEST(in_order)
{
	struct ktr_queue *q = ktr_queue__new(1 << 20);
	struct ktr_queue_batch b = { 0 };
	size_t at = 0;
	__u32 size;

	ASSERT_TRUE(ktr_queue__empty(q), "nothing yet");
	put(q, 3, 16, 'a');
	ASSERT_TRUE(!ktr_queue__empty(q), "one");
	put(q, 4, 37, 'b');
	put(q, 3, 4096, 'c');
	ktr_queue__take(q, &b);
	ASSERT_TRUE(ktr_queue__empty(q), "taken");
	ASSERT_TRUE(b.dropped == NULL, "none dropped");
	ASSERT_EQ(next(&b, &at, &size)->route, 3, "first");
	ASSERT_EQ(size, 16, "first's size");
	ASSERT_EQ(((const unsigned char *)next(&b, &at, &size))[8], 'b', "second");
	ASSERT_EQ(size, 37, "second's size");
	ASSERT_EQ(((const unsigned char *)next(&b, &at, &size))[4095], 'c', "third");
	ASSERT_EQ(at, b.len, "no more");
	ktr_queue__take(q, &b);
	ASSERT_EQ(b.len, 0, "empty after a take");
	ktr_queue__batch_free(&b);
	ktr_queue__free(q);
}

/* A CPU's stage: route 7 with a record and a staged CALL and RET, route 9 with one record. */
static void put_batch(struct ktr_queue *q)
{
	unsigned char buf[8 + 3 * 128] = { 0 };
	struct ktr_sample *s = (void *)buf;

	s->route = KTR_ROUTE_BATCH;
	s->reserved = 3 * 128;
	for (int i = 0; i < 3; i++) {
		struct ktr_sample *in = (void *)(buf + 8 + 128 * i);
		struct ktr_header *h = (void *)(in + 1);

		in->route = i < 2 ? 7 : 9;
		in->reserved = 128;
		h->ktr_type = i == 1 ? KTR_STAGED_PAIR : KTR_SYSCALL;
	}
	ktr_queue__put(q, buf, sizeof(buf));
}

TEST(full_counts_lost)
{
	struct ktr_queue *q = ktr_queue__new(256);
	struct ktr_queue_batch b = { 0 };

	put(q, 5, 240, 'a');
	ASSERT_TRUE(!ktr_queue__full(q), "room left");
	put(q, 5, 240, 'b');
	ASSERT_TRUE(ktr_queue__full(q), "full");
	put(q, 5, 240, 'c'); /* over twice its room */
	put_batch(q);
	put(q, KTR_ROUTE_DAEMON, 48, 'n'); /* over twice its room too */
	ktr_queue__take(q, &b);
	ASSERT_TRUE(b.dropped != NULL, "some dropped");
	if (b.dropped) {
		ASSERT_EQ(b.dropped[5], 1, "a record");
		ASSERT_EQ(b.dropped[7], 3, "a record, a CALL and its RET");
		ASSERT_EQ(b.dropped[9], 1, "the stage's other route");
		ASSERT_EQ(b.dropped[KTR_ROUTE_DAEMON], 0, "no note");
	}
	ASSERT_EQ(b.len, 2 * (8 + 240) + 8 + 48, "two records and the note");
	ASSERT_TRUE(!ktr_queue__full(q), "room again");
	ktr_queue__take(q, &b);
	ASSERT_TRUE(b.dropped == NULL, "counted once");
	ktr_queue__batch_free(&b);
	ktr_queue__free(q);
}

#define MANY 200000

static void *putter(void *arg)
{
	struct ktr_queue *q = arg;

	for (__u32 i = 0; i < MANY; i++) {
		struct ktr_sample s = { .route = 1, .reserved = i };

		while (ktr_queue__full(q))
			ktr_queue__wait_room(q, 10);
		ktr_queue__put(q, &s, sizeof(s));
	}
	return NULL;
}

TEST(put_while_taken)
{
	struct ktr_queue *q = ktr_queue__new(4096);
	struct ktr_queue_batch b = { 0 };
	pthread_t t;
	__u32 want = 0;
	bool ordered = true;

	pthread_create(&t, NULL, putter, q);
	while (want < MANY) {
		ktr_queue__take(q, &b);
		ASSERT_TRUE(b.dropped == NULL, "none dropped");
		for (size_t at = 0; at < b.len;) {
			__u32 size;
			const struct ktr_sample *s = next(&b, &at, &size);

			ordered &= s->reserved == want++;
		}
		if (b.dropped)
			break;
	}
	pthread_join(t, NULL);
	ASSERT_TRUE(ordered, "in order");
	ASSERT_EQ(want, MANY, "all of them");
	ktr_queue__batch_free(&b);
	ktr_queue__free(q);
}

/*
 * A burst's big buffers are kept from take to take (their pages touched
 * once), and freed by a trim; a small one stays through a trim.
 */
TEST(big_kept_until_trim)
{
	struct ktr_queue *q = ktr_queue__new(64 << 20);
	struct ktr_queue_batch b = { 0 };
	unsigned char *first;

	for (int i = 0; i < 9; i++)
		put(q, 3, 1 << 20, 'a'); /* 9 MiB: the buffer grows to 16 */
	ktr_queue__take(q, &b);
	ASSERT_TRUE(b.cap >= (9u << 20), "the burst's buffer taken");
	first = b.p;
	put(q, 3, 64, 'b');
	ktr_queue__take(q, &b); /* the big one goes back to the queue */
	put(q, 3, 64, 'c');
	ktr_queue__take(q, &b);
	/* a buffer freed and made again could land at the same place: its size says which */
	ASSERT_TRUE(b.cap >= (9u << 20), "the big buffer used again, not freed");
	ASSERT_TRUE(b.p == first, "the same buffer");
	ASSERT_EQ(b.len, 8 + 64, "only the last sample in it");
	ktr_queue__trim(q, &b);
	ASSERT_TRUE(b.p == NULL && b.cap == 0, "the big buffer freed by the trim");
	put(q, 3, 64, 'd');
	ktr_queue__take(q, &b);
	ASSERT_TRUE(b.p != NULL && b.cap <= (4u << 20), "a small buffer again");
	ktr_queue__trim(q, &b);
	ASSERT_TRUE(b.p != NULL, "a small buffer kept by the trim");
	ktr_queue__batch_free(&b);
	ktr_queue__free(q);
}

TEST_MAIN()
