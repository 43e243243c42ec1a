// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * forkexec PROG [ARGS...]: a process tree for the inheritance tests.
 *   parent      forks the child, waits for it, exits 0 if it exited 5
 *   child       forks the grandchild, waits for it, calls getpriority(PRIO_PROCESS, 4242),
 *               exits 5
 *   grandchild  execs PROG ARGS
 * Each process prints "parent|child|grandchild PID" (unbuffered, so nothing is
 * printed twice across fork).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int wait_for(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int grandchild(char **argv)
{
	printf("grandchild %d\n", getpid());
	execv(argv[0], argv);
	perror("forkexec: execv");
	return 127;
}

static int child(char **argv)
{
	pid_t pid;

	printf("child %d\n", getpid());
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0)
		_exit(grandchild(argv));
	printf("grandchild_status %d\n", wait_for(pid));
	syscall(SYS_getpriority, PRIO_PROCESS, 4242);
	return 5;
}

int main(int argc, char **argv)
{
	pid_t pid;
	int st;

	if (argc < 2) {
		fprintf(stderr, "usage: forkexec prog [args ...]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	printf("parent %d\n", getpid());
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0)
		_exit(child(argv + 1));
	st = wait_for(pid);
	printf("child_status %d\n", st);
	return st == 5 ? 0 : 1;
}
