// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * att_tree SECONDS: a process tree for the attach and inheritance tests.
 *   parent          makes itself a process group leader, forks child
 *   child           forks grandchild
 *   grandchild
 * On SIGUSR1 the parent forks latechild, which forks lategrandchild.
 * Every process prints "ROLE PID" (unbuffered) when it starts, then calls
 * getpriority(PRIO_PROCESS, 4343) every 20 ms.  The parent exits after
 * SECONDS; the others die with their parent (PR_SET_PDEATHSIG), so the test
 * can end the whole tree with one kill of the parent or of its group.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile sig_atomic_t want_late;

static void on_usr1(int sig)
{
	(void)sig;
	want_late = 1;
}

static void tick(void)
{
	struct timespec ts = { 0, 20 * 1000000 };

	syscall(SYS_getpriority, PRIO_PROCESS, 4343);
	nanosleep(&ts, NULL);
}

/* Fork a process that prints ROLE and runs fn; the child never returns. */
static pid_t spawn(const char *role, void (*fn)(void))
{
	pid_t parent = getpid(), pid = fork();

	if (pid != 0)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(0);
	signal(SIGUSR1, SIG_IGN);
	printf("%s %d\n", role, getpid());
	fn();
	_exit(0);
}

static void leaf(void)
{
	for (;;)
		tick();
}

static void child(void)
{
	spawn("grandchild", leaf);
	leaf();
}

static void latechild(void)
{
	spawn("lategrandchild", leaf);
	leaf();
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	time_t end;

	if (argc < 2) {
		fprintf(stderr, "usage: att_tree seconds\n");
		return 2;
	}
	end = time(NULL) + atoi(argv[1]);
	setvbuf(stdout, NULL, _IONBF, 0);
	setpgid(0, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	printf("parent %d\n", getpid());
	if (spawn("child", child) < 0)
		return 1;
	while (time(NULL) < end) {
		if (want_late) {
			want_late = 0;
			spawn("latechild", latechild);
		}
		tick();
	}
	return 0;
}
