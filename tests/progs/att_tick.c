// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * att_tick MS COUNT [TAG [nodump]]: a slow, recognisable syscall loop for
 * the attach tests.  Prints "pid P" first, then makes COUNT calls (0 = until
 * killed) of getpriority(PRIO_PROCESS, TAG) (TAG default 4343), sleeping MS
 * milliseconds after each, and prints "ticks N" at the end.  A tight loop
 * would write tens of megabytes a second into a trace; this one writes a few
 * records per tick.  "nodump": make itself non-dumpable first (what a
 * process that guards its memory does), before printing its pid.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	unsigned long ms, count, i;
	long tag = 4343;
	struct timespec ts;

	if (argc < 3) {
		fprintf(stderr, "usage: att_tick ms count [tag]\n");
		return 2;
	}
	ms = strtoul(argv[1], NULL, 0);
	count = strtoul(argv[2], NULL, 0);
	if (argc > 3)
		tag = strtol(argv[3], NULL, 0);
	if (argc > 4 && strcmp(argv[4], "nodump") == 0 && prctl(PR_SET_DUMPABLE, 0) < 0) {
		perror("prctl");
		return 1;
	}
	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (long)(ms % 1000) * 1000000;
	setvbuf(stdout, NULL, _IONBF, 0);
	printf("pid %d\n", getpid());
	for (i = 0; count == 0 || i < count; i++) {
		syscall(SYS_getpriority, PRIO_PROCESS, tag);
		nanosleep(&ts, NULL);
	}
	printf("ticks %lu\n", i);
	return 0;
}
