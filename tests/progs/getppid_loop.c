// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * getppid_loop N [PIDFILE [GO]]: N getppid(2) calls in a tight loop, nothing
 * else.  Prints "pid P" first (also into PIDFILE, for tests that signal it)
 * and "calls N ppid Q" at the end.  N = 0 loops until killed.  With GO (a
 * FIFO), the calls start once a line is read from it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	unsigned long n, i;
	long ppid = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: getppid_loop N [pidfile [go]]\n");
		return 2;
	}
	n = strtoul(argv[1], NULL, 0);
	printf("pid %d\n", getpid());
	fflush(stdout);
	if (argc > 2) {
		FILE *f = fopen(argv[2], "w");

		if (f == NULL || fprintf(f, "%d\n", getpid()) < 0 || fclose(f) != 0) {
			perror(argv[2]);
			return 1;
		}
	}
	if (argc > 3) {
		char line[16];
		FILE *go = fopen(argv[3], "r");

		if (go == NULL || fgets(line, sizeof(line), go) == NULL) {
			perror(argv[3]);
			return 1;
		}
		fclose(go);
	}
	for (i = 0; n == 0 || i < n; i++)
		ppid = syscall(SYS_getppid);
	printf("calls %lu ppid %ld\n", n, ppid);
	return 0;
}
