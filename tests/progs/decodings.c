// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * decodings DIR: the calls issue 36 found decoded wrongly or not at all,
 * each made once (as strace's own tests make them), for t_decodings.sh to
 * hold kdump's lines against.  It reports "KEY value..." on stdout.
 *
 * Stages, each the program again: "decodings DIR" makes the single calls,
 * then execveat()s itself ("exec-at"); that one starts a thread that
 * execve()s the program ("from-thread") while the leader waits in pause();
 * the last stage reports and exits.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/ipc.h>
#include <sys/sem.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#define PATH_LONG 5000

static char self[4096];
static const char *dir;

/* getgid32 (i386 200) through int 0x80, from this 64-bit program */
static long int80_getgid32(void)
{
	long r;

	__asm__ volatile("int $0x80" : "=a"(r) : "0"(200L) : "memory");
	return r;
}

static void single_calls(void)
{
	static char longpath[PATH_LONG + 1];
	unsigned char buf[8];
	struct semid_ds ds;
	struct stat st;
	long r;
	int fd, id;

	/* where int 0x80 kills a 64-bit program (t_decodings.sh probes it first) */
	if (getenv("KTR_NO_INT80") == NULL)
		printf("getgid32 %ld\n", int80_getgid32());
	/* prctl 71 (riscv's), 74 (shadow stack), PR_GET_AUXV; arch_prctl 0x1026 is no code */
	syscall(SYS_prctl, 0x47, 0, 0, 0, 0);
	syscall(SYS_prctl, 74, 0, 0, 0, 0);
	syscall(SYS_prctl, 0x41555856, buf, sizeof(buf), 0, 0);
	syscall(SYS_arch_prctl, 0x1026, 0);
	/* the kernel sees 16 bits of a mode, 32 of a uid */
	syscall(SYS_mkdir, dir, 0xffffffffffff01edUL);
	r = syscall(SYS_umask, 0xffffffffffff0000UL);
	umask((mode_t)r);
	syscall(SYS_chown, "/nonexistent/ktraceb", 4294901760UL, 4294901760UL);
	syscall(SYS_getrandom, buf, 4, 1 /* GRND_NONBLOCK */);
	/* an openat without O_CREAT takes three arguments */
	syscall(SYS_openat, AT_FDCWD, "/nonexistent/ktraceb", O_RDONLY, 0777);
	/* empty paths, a path too long */
	syscall(SYS_chdir, "");
	fd = open(self, O_RDONLY | O_CLOEXEC);
	syscall(SYS_newfstatat, fd, "", &st, AT_EMPTY_PATH);
	memset(longpath, 'a', PATH_LONG);
	longpath[0] = '/';
	r = syscall(SYS_openat, AT_FDCWD, longpath, O_RDONLY);
	printf("longpath ret %ld errno %d\n", r, errno);
	/* ioctl: BTRFS_IOC_FS_INFO, a number no header has, a tty's */
	syscall(SYS_ioctl, fd, 0x8400941fUL, buf);
	syscall(SYS_ioctl, fd, 0x8400941eUL, buf);
	syscall(SYS_ioctl, fd, 0x5401UL, buf);
	close(fd);
	/* SysV IPC */
	id = semget(IPC_PRIVATE, 1, IPC_CREAT | 0600);
	printf("semget %d\n", id);
	syscall(SYS_semctl, id, 0, IPC_STAT, &ds);
	syscall(SYS_semctl, id, 0, IPC_RMID, 0);
	/* a socket option outside SOL_SOCKET */
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	r = 64;
	setsockopt(fd, SOL_IP, IP_TTL, &r, sizeof(int));
	close(fd);
}

static void *thread_exec(void *arg)
{
	char *argv[] = { self, (char *)"from-thread", (char *)dir, NULL };

	printf("thread %ld\n", syscall(SYS_gettid));
	fflush(stdout);
	execve(self, argv, NULL);
	return arg;
}

int main(int argc, char **argv)
{
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	const char *stage = argc > 2 ? argv[1] : "first";

	if (n <= 0)
		return 2;
	if (argc == 2 && strcmp(argv[1], "int80") == 0) {
		printf("getgid32 %ld\n", int80_getgid32());
		return 0;
	}
	self[n] = '\0';
	dir = argc > 2 ? argv[2] : argc > 1 ? argv[1] : "/tmp";
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (strcmp(stage, "first") == 0) {
		char *av[] = { self, (char *)"exec-at", (char *)dir, NULL };

		printf("pid %d\n", getpid());
		single_calls();
		syscall(SYS_execveat, AT_FDCWD, self, av, NULL, 0);
		return 3;
	}
	if (strcmp(stage, "exec-at") == 0) {
		pthread_t t;

		printf("leader %d\n", getpid());
		pthread_create(&t, NULL, thread_exec, NULL);
		pause();
		return 4;
	}
	printf("done %d\n", getpid());
	return 0;
}
