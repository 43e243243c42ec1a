// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * tp_events PROG: a process whose kernel events are known, for -e.
 *   prints "pid P"; sends itself SIGUSR1 (handled) and prints "signal 10";
 *   sleeps 20 ms (a sched_switch out and in); forks a child, prints
 *   "child C", and the child execs PROG (sched_process_fork with parent P
 *   and child C, sched_process_exec of PROG by C); waits for it and exits 0
 *   if it exited 0.
 * Output unbuffered, so nothing is printed twice across fork.
 */
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

static void on_usr1(int sig)
{
	(void)sig;
}

int main(int argc, char **argv)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	int status;
	pid_t child;

	if (argc != 2) {
		fprintf(stderr, "usage: tp_events PROG\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	printf("pid %d\n", getpid());
	signal(SIGUSR1, on_usr1);
	kill(getpid(), SIGUSR1);
	printf("signal %d\n", SIGUSR1);
	nanosleep(&ts, NULL);
	child = fork();
	if (child < 0)
		return 1;
	if (child == 0) {
		execl(argv[1], argv[1], (char *)NULL);
		_exit(127);
	}
	printf("child %d\n", child);
	if (waitpid(child, &status, 0) != child)
		return 1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
