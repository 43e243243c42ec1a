// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * spans N: the cost of include/ktraceb/utrace.h for bench/run.sh.  Makes N
 * spans (KTR_SPAN_ENTER with a key=value format, then KTR_SPAN_EXIT) and
 * N utrace() calls of 16 bytes, and prints
 *	spans N ns_per_span X ns_per_utrace Y
 * Untraced, the probes' semaphores are 0 and the text is never formatted;
 * under ktraceb -t u every one becomes a USER record.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ktraceb/utrace.h"

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000000;
	char data[16] = "utrace payload";
	double t0, t1, t2;

	t0 = now_ns();
	for (long i = 0; i < n; i++) {
		KTR_SPAN_ENTER("bench", "span", "i=%ld", i);
		KTR_SPAN_EXIT("bench", "span");
	}
	t1 = now_ns();
	for (long i = 0; i < n; i++)
		utrace(data, sizeof(data));
	t2 = now_ns();
	printf("spans %ld ns_per_span %.2f ns_per_utrace %.2f\n", n, (t1 - t0) / n, (t2 - t1) / n);
	return 0;
}
