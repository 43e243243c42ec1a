// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * exitcode N       exit with status N (via exit_group)
 * exitcode -s SIG  kill itself with signal SIG (default action restored first)
 * Prints "pid P" first.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	printf("pid %d\n", getpid());
	fflush(stdout);
	if (argc == 3 && strcmp(argv[1], "-s") == 0) {
		int sig = atoi(argv[2]);

		signal(sig, SIG_DFL);
		kill(getpid(), sig);
		pause();
		return 99;
	}
	if (argc == 2)
		return atoi(argv[1]);
	fprintf(stderr, "usage: exitcode N | exitcode -s SIG\n");
	return 2;
}
