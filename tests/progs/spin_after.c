// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * spin_after N MS [TAG]: N getpriority(PRIO_PROCESS, TAG + i) calls, i
 * from 0 (TAG default 4747: which call a record is of is in its second
 * argument), then "spinning" on stdout, then MS milliseconds of work
 * in user space with no syscall at all (the clock is the vDSO's), so its
 * CPU makes no context switch of its own: what t_stage.sh needs to see
 * that the last calls reach the trace file while it spins.  Prints "pid
 * P" first and "done" at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

int main(int argc, char **argv)
{
	unsigned long n, i;
	long long ms, end;
	long tag = 4747;
	volatile unsigned long work = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: spin_after N MS [TAG]\n");
		return 2;
	}
	n = strtoul(argv[1], NULL, 0);
	ms = strtoll(argv[2], NULL, 0);
	if (argc > 3)
		tag = strtol(argv[3], NULL, 0);
	setvbuf(stdout, NULL, _IONBF, 0);
	printf("pid %d\n", getpid());
	for (i = 0; i < n; i++)
		syscall(SYS_getpriority, PRIO_PROCESS, tag + (long)i);
	printf("spinning\n");
	end = now_ms() + ms;
	while (now_ms() < end)
		for (int k = 0; k < 1000; k++)
			work++;
	printf("done\n");
	return 0;
}
