// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * fac_sleep N MS: N nanosleep(2) calls of MS milliseconds each, through
 * syscall(2).  Prints "pid P tid T" and "slept N".
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 5, ok = 0;
	long ms = argc > 2 ? atol(argv[2]) : 20;
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	setvbuf(stdout, NULL, _IOFBF, 4096);
	printf("pid %d tid %ld\n", getpid(), syscall(SYS_gettid));
	for (int i = 0; i < n; i++)
		if (syscall(SYS_nanosleep, &ts, NULL) == 0)
			ok++;
	printf("slept %d\n", ok);
	return 0;
}
