// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * spin_after N MS [TAG [PAUSE]]: after PAUSE ms asleep (default 0), N
 * getpriority(PRIO_PROCESS, TAG + i) calls, i from 0 (TAG default 4747:
 * which call a record is of is in its second argument), then "spinning" on stdout, then MS milliseconds of work
 * in user space with no syscall at all, so its CPU makes no context
 * switch of its own: what t_stage.sh needs to see that the last calls
 * reach the trace file while it spins.  The end comes by a timer set
 * once, not by reading the clock: where the vDSO cannot read it (an
 * emulated machine's clock source), every read is a syscall.  Prints
 * "pid P" first and "done" at the end.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

static volatile sig_atomic_t spin_over;

static void on_alarm(int sig)
{
	(void)sig;
	spin_over = 1;
}

int main(int argc, char **argv)
{
	unsigned long n, i;
	long long ms;
	struct itimerval it = { 0 };
	long tag = 4747;
	volatile unsigned long work = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: spin_after N MS [TAG [PAUSE]]\n");
		return 2;
	}
	n = strtoul(argv[1], NULL, 0);
	ms = strtoll(argv[2], NULL, 0);
	if (argc > 3)
		tag = strtol(argv[3], NULL, 0);
	if (argc > 4)
		usleep((useconds_t)strtoul(argv[4], NULL, 0) * 1000);
	setvbuf(stdout, NULL, _IONBF, 0);
	printf("pid %d\n", getpid());
	for (i = 0; i < n; i++)
		syscall(SYS_getpriority, PRIO_PROCESS, tag + (long)i);
	signal(SIGALRM, on_alarm);
	it.it_value.tv_sec = ms / 1000;
	it.it_value.tv_usec = ms % 1000 * 1000;
	printf("spinning\n");
	if (ms > 0 && setitimer(ITIMER_REAL, &it, NULL) == 0)
		while (!spin_over)
			work++;
	printf("done\n");
	return 0;
}
