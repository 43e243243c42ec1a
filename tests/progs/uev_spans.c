// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * uev_spans [ROUNDS [MS]]: every macro of include/ktraceb/utrace.h, for
 * tests/e2e/t_user.sh.  ROUNDS rounds (default 1), MS milliseconds apart
 * (default 0); "pid P" first.  Each round: spans nested four deep (with a
 * getppid inside), an error exit with key=values, a scoped span left by an
 * early return and one left at its end, two threads with spans of their
 * own, and utrace() of 0, 1, 2048 and 2049 bytes.
 *
 * Every event is also printed, one line each, in the order made (threads
 * print under a lock, each line whole):
 *	enter TID DEPTH SUBSYS NAME KV		(KV "-" if none)
 *	exit TID DEPTH SUBSYS NAME ok|err KV
 *	utrace TID LEN RC			(RC: what utrace() returned)
 * where DEPTH is the depth the probe carries (before an enter, after an
 * exit), read from utrace.h's own counter.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ktraceb/utrace.h"

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void say(const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&out_lock);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
	pthread_mutex_unlock(&out_lock);
}

#define ENTER(s, n, kv) say("enter %d %u %s %s %s\n", gettid(), ktraceb_span_depth, s, n, kv)
#define EXITED(s, n, how, kv) \
	say("exit %d %u %s %s %s %s\n", gettid(), ktraceb_span_depth, s, n, how, kv)

/* A scoped span; early: left by a return in the middle. */
static int scoped(int early)
{
	char kv[32];

	snprintf(kv, sizeof(kv), "early=%d", early);
	ENTER("app", "scoped", kv);
	{
		KTR_SPAN("app", "scoped", "early=%d", early);

		if (early) {
			/* the exit happens as the scope ends, right after this line */
			say("exit %d %u app scoped ok -\n", gettid(), ktraceb_span_depth - 1);
			return 1;
		}
		getppid();
		say("exit %d %u app scoped ok -\n", gettid(), ktraceb_span_depth - 1);
	}
	return 0;
}

static void *worker(void *arg)
{
	int n = (int)(long)arg;
	char kv[32];

	snprintf(kv, sizeof(kv), "t=%d", n);
	ENTER("worker", "job", kv);
	KTR_SPAN_ENTER("worker", "job", "t=%d", n);
	ENTER("worker", "step", "-");
	KTR_SPAN_ENTER("worker", "step");
	if (write(-1, "", 0) < 0) /* a system call inside, failing on purpose */
		usleep(1000);
	KTR_SPAN_EXIT("worker", "step");
	EXITED("worker", "step", "ok", "-");
	KTR_SPAN_EXIT("worker", "job");
	EXITED("worker", "job", "ok", "-");
	return NULL;
}

static void utraces(void)
{
	static char big[2049];
	static const size_t lens[] = { 0, 1, 2048, 2049 };

	memset(big, 'u', sizeof(big));
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		int rc = utrace(big, lens[i]);

		say("utrace %d %zu %d\n", gettid(), lens[i], rc);
	}
}

static void round_once(int r)
{
	pthread_t t[2];
	char kv[64];

	snprintf(kv, sizeof(kv), "n=%d", r);
	ENTER("app", "round", kv);
	KTR_SPAN_ENTER("app", "round", "n=%d", r);
	snprintf(kv, sizeof(kv), "sql=select id=%d", r);
	ENTER("db", "query", kv);
	KTR_SPAN_ENTER("db", "query", "sql=%s id=%d", "select", r);
	ENTER("db", "parse", "-");
	KTR_SPAN_ENTER("db", "parse");
	ENTER("db", "lex", "tokens=7");
	KTR_SPAN_ENTER("db", "lex", "tokens=%d", 7);
	getppid();
	KTR_SPAN_EXIT("db", "lex");
	EXITED("db", "lex", "ok", "-");
	KTR_SPAN_EXIT("db", "parse");
	EXITED("db", "parse", "ok", "-");
	KTR_SPAN_EXIT_ERR("db", "query", "err=%s code=%d", "timeout", 110);
	EXITED("db", "query", "err", "err=timeout code=110");
	scoped(1);
	scoped(0);
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	utraces();
	KTR_SPAN_EXIT("app", "round");
	EXITED("app", "round", "ok", "-");
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 1, ms = argc > 2 ? atoi(argv[2]) : 0;
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	say("pid %d\n", getpid());
	for (int r = 0; r < rounds; r++) {
		round_once(r);
		if (ms)
			nanosleep(&ts, NULL);
	}
	say("done %d\n", rounds);
	return 0;
}
