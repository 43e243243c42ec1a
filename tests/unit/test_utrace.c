// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * include/ktraceb/utrace.h without a tracer: utrace()'s answers as BSD's,
 * the span depth kept per thread (nesting, a scoped span left by a return,
 * an exit without an enter, threads), and its limits equal ktr.h's.
 * (utrace_strict.c keeps the header strict C99.)
 */
#include <pthread.h>

#include "../lib/test.h"
#include "ktraceb/utrace.h"
#include "ktraceb/ktr.h"

TEST(utrace_answers_as_bsd)
{
	static char buf[KTRACEB_UTRACE_MAXLEN + 1];

	ASSERT_EQ(utrace(buf, 0), 0, "0 bytes");
	ASSERT_EQ(utrace(buf, 1), 0, "1 byte");
	ASSERT_EQ(utrace(buf, 2048), 0, "2048 bytes");
	errno = 0;
	ASSERT_EQ(utrace(buf, 2049), -1, "2049 bytes");
	ASSERT_EQ(errno, EINVAL, "EINVAL");
	ASSERT_EQ(ktraceb_utrace(buf, 1), 0, "the other name");
}

TEST(limits_are_the_formats)
{
	ASSERT_EQ(KTRACEB_UTRACE_MAXLEN, KTR_USER_MAXLEN, "utrace bytes");
	ASSERT_EQ(KTRACEB_SPAN_KV_MAX, KTR_UREC_KV_MAX, "key=value text");
}

static int scoped(int early)
{
	KTR_SPAN("t", "scoped", "early=%d", early);

	if (early)
		return (int)ktraceb_span_depth;
	KTR_SPAN("t", "inner");
	return (int)ktraceb_span_depth;
}

TEST(depth_nests_and_unwinds)
{
	unsigned int d0 = ktraceb_span_depth;

	KTR_SPAN_ENTER("t", "a");
	KTR_SPAN_ENTER("t", "b", "k=%d", 1);
	ASSERT_EQ(ktraceb_span_depth, d0 + 2, "two in");
	KTR_SPAN_EXIT_ERR("t", "b", "err=%s", "x");
	KTR_SPAN_EXIT("t", "a");
	ASSERT_EQ(ktraceb_span_depth, d0, "both out");
	ASSERT_EQ(scoped(1), (int)d0 + 1, "inside a scoped span");
	ASSERT_EQ(ktraceb_span_depth, d0, "left by a return");
	ASSERT_EQ(scoped(0), (int)d0 + 2, "two scoped spans in one scope");
	ASSERT_EQ(ktraceb_span_depth, d0, "both left at the end");
	KTR_SPAN_EXIT("t", "never entered");
	KTR_SPAN_EXIT_ERR("t", "never entered");
	ASSERT_EQ(ktraceb_span_depth, 0u, "an exit without enter stays at 0");
}

static void *thread_depth(void *arg)
{
	unsigned int *seen = arg;

	seen[0] = ktraceb_span_depth;
	KTR_SPAN_ENTER("t", "thread");
	seen[1] = ktraceb_span_depth;
	KTR_SPAN_EXIT("t", "thread");
	return NULL;
}

TEST(depth_is_per_thread)
{
	unsigned int seen[2] = { 99, 99 };
	pthread_t t;

	KTR_SPAN_ENTER("t", "main");
	KTR_SPAN_ENTER("t", "main2");
	pthread_create(&t, NULL, thread_depth, seen);
	pthread_join(t, NULL);
	ASSERT_EQ(seen[0], 0u, "a new thread starts at 0");
	ASSERT_EQ(seen[1], 1u, "and counts its own");
	ASSERT_EQ(ktraceb_span_depth, 2u, "main's untouched");
	KTR_SPAN_EXIT("t", "main2");
	KTR_SPAN_EXIT("t", "main");
}

TEST_MAIN()
