// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * stack_calls N [main|thread [PAUSE_US]]: N getppid() calls, each made 8
 * functions deep (each with a 256-byte frame, so the stack above a call is
 * more than 2 KiB deep), from the main thread or, with "thread", from a
 * second thread (whose stack has no start a -k copy stops at: each copy is
 * as long as -K says), PAUSE_US microseconds apart (a nanosleep, which -e
 * trace=getppid does not record; default 0).  For bench/stack.sh.  Prints
 * "calls N ns_per_call T": the loop's own time per call, what tracing it
 * costs the program itself.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static unsigned long n;
static struct timespec pause_ts;
static double loop_ns;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

__attribute__((noinline)) static long level(int depth)
{
	volatile char frame[256];
	long r = 0;

	frame[0] = (char)depth;
	if (depth == 0) {
		double t0 = now_ns();

		for (unsigned long i = 0; i < n; i++) {
			r += syscall(SYS_getppid);
			if (pause_ts.tv_nsec)
				nanosleep(&pause_ts, NULL);
		}
		loop_ns = now_ns() - t0;
		return r + frame[0];
	}
	r = level(depth - 1);
	__asm__ volatile("" : "+r"(r));
	return r + frame[0];
}

static void *run(void *arg)
{
	long r = level(8);

	return (void *)r;
}

int main(int argc, char **argv)
{
	pthread_t t;
	void *r;

	if (argc < 2) {
		fprintf(stderr, "usage: stack_calls N [main|thread [PAUSE_US]]\n");
		return 2;
	}
	n = strtoul(argv[1], NULL, 0);
	if (argc > 3)
		pause_ts.tv_nsec = strtol(argv[3], NULL, 0) % 1000000 * 1000;
	if (argc > 2 && strcmp(argv[2], "thread") == 0) {
		if (pthread_create(&t, NULL, run, NULL) != 0)
			return 1;
		pthread_join(t, &r);
	} else {
		r = run(NULL);
	}
	printf("calls %lu ns_per_call %.0f\n", n, n ? loop_ns / n : 0);
	return r ? 0 : 0;
}
