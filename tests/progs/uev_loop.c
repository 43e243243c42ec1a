// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * uev_loop MS: fires one plain sys/sdt.h probe without a semaphore
 * (uevloop:tick) in a loop for MS milliseconds, then prints "hits N".
 * Prints "pid P" first.  Two of them, one traced with -t u and one not,
 * tell whether the untraced one pays for the other's probes
 * (t_usdt_hostile.sh): a probe attached for every process traps in both.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/sdt.h>

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int main(int argc, char **argv)
{
	long long end = now_ms() + (argc > 1 ? atoi(argv[1]) : 1000);
	unsigned long hits = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("pid %d\n", getpid());
	while (now_ms() < end)
		for (int i = 0; i < 1000; i++, hits++)
			STAP_PROBE1(uevloop, tick, i);
	printf("hits %lu\n", hits);
	return 0;
}
