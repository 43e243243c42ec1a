// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * suid_forker [ARGS...]: installed set-uid root by tests/e2e/t_hostile.sh.
 * Forks three children, each making 100 calls of getpriority(PRIO_PROCESS,
 * 7777) (a tag a trace can be searched for), waits for them and prints
 * "forker done".  Its arguments are ignored: the test passes many of them
 * only to make the execve slow.
 */
#include <stdio.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

int main(void)
{
	for (int i = 0; i < 3; i++) {
		if (fork() == 0) {
			for (int j = 0; j < 100; j++)
				syscall(SYS_getpriority, PRIO_PROCESS, 7777);
			_exit(0);
		}
	}
	while (wait(NULL) > 0)
		;
	printf("forker done\n");
	return 0;
}
