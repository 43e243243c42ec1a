// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * nodump_exec FIFO CMD [ARGS...]: makes itself not dumpable, as a
 * container runtime's process is while it sets the container up, prints
 * "pid N", waits for a line on FIFO, then runs CMD (an exec makes it
 * dumpable again).  t_cgroup.sh moves it into a traced group meanwhile.
 */
#include <err.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/prctl.h>

int main(int argc, char **argv)
{
	char line[16];
	FILE *f;

	if (argc < 3)
		errx(2, "usage: nodump_exec FIFO CMD [ARGS...]");
	if (prctl(PR_SET_DUMPABLE, 0) < 0)
		err(1, "prctl");
	printf("pid %d\n", (int)getpid());
	fflush(stdout);
	f = fopen(argv[1], "r");
	if (!f || !fgets(line, sizeof(line), f))
		errx(1, "%s: nothing read", argv[1]);
	fclose(f);
	execvp(argv[2], argv + 2);
	err(127, "%s", argv[2]);
}
