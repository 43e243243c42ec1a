// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * workloads MODE N: the benchmark's small workloads (bench/run.sh).
 *   orc N        open, read and close /etc/hostname N times
 *   forkexec N   fork and exec /bin/true N times, one after another
 *   threads2 N   two threads, each writing 64 bytes to /dev/null N times
 *   threads N    N threads alive at once, each calling getppid() once
 *   writers T N  T threads, each writing 64 bytes to /dev/null N times, started
 *                together; prints the seconds they took (wall), and the
 *                process's CPU time (user and system, where BPF programs run)
 *                in ns per write
 *   forks N      N short children, forked one after another (each _exits)
 *   tree N SECS  a tree of N processes (each with up to 8 children) that
 *                lives SECS seconds; prints "root PID" when all are up
 */
#include <err.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

static long n_iter;
static pthread_barrier_t all_up;

static void *one_call(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&all_up);
	syscall(SYS_getppid);
	return NULL;
}

/*
 * Process number `me` of a tree of n (children of k: 8k+1 .. 8k+8), each
 * gone with its parent; the root's pipe end wfd learns when all are up.
 */
static void tree(long me, long n, int wfd, int secs)
{
	for (long c = 8 * me + 1; c <= 8 * me + 8 && c < n; c++) {
		pid_t pid = fork();

		if (pid < 0)
			err(1, "fork");
		if (pid == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			tree(c, n, wfd, secs);
			_exit(0);
		}
	}
	if (write(wfd, "x", 1) != 1)
		_exit(1);
	sleep(secs);
}

static void *writer(void *arg)
{
	char buf[64];
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		err(1, "/dev/null");
	memset(buf, 'k', sizeof(buf));
	if (arg)
		pthread_barrier_wait(arg);
	for (long i = 0; i < n_iter; i++)
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			err(1, "write");
	close(fd);
	return NULL;
}

static double secs(struct timeval tv)
{
	return tv.tv_sec + tv.tv_usec / 1e6;
}

/* writers T N: T writer threads started together, timed from the barrier. */
static void writers(long t, char *nstr)
{
	pthread_t *th = calloc(t, sizeof(*th));
	pthread_barrier_t go;
	struct timespec a, b;
	struct rusage r0, r1;

	n_iter = strtol(nstr, NULL, 10);
	if (!th || t <= 0 || n_iter <= 0 || pthread_barrier_init(&go, NULL, t + 1))
		errx(2, "usage: workloads writers T N");
	for (long i = 0; i < t; i++)
		if (pthread_create(&th[i], NULL, writer, &go))
			errx(1, "thread %ld: cannot create", i);
	getrusage(RUSAGE_SELF, &r0);
	clock_gettime(CLOCK_MONOTONIC, &a);
	pthread_barrier_wait(&go);
	for (long i = 0; i < t; i++)
		pthread_join(th[i], NULL);
	clock_gettime(CLOCK_MONOTONIC, &b);
	getrusage(RUSAGE_SELF, &r1);
	printf("%.4f %.0f\n", (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9,
	       (secs(r1.ru_utime) + secs(r1.ru_stime) - secs(r0.ru_utime) - secs(r0.ru_stime)) *
		       1e9 / ((double)t * n_iter));
	free(th);
}

int main(int argc, char **argv)
{
	char buf[256];

	if (argc < 3 || (n_iter = strtol(argv[2], NULL, 10)) <= 0)
		errx(2, "usage: workloads orc|forkexec|threads2|threads|forks N, tree N SECS, "
			"writers T N");
	if (strcmp(argv[1], "writers") == 0 && argc > 3) {
		writers(n_iter, argv[3]);
		return 0;
	}
	if (strcmp(argv[1], "orc") == 0) {
		for (long i = 0; i < n_iter; i++) {
			int fd = open("/etc/hostname", O_RDONLY | O_CLOEXEC);

			if (fd < 0)
				err(1, "/etc/hostname");
			if (read(fd, buf, sizeof(buf)) < 0)
				err(1, "read");
			close(fd);
		}
	} else if (strcmp(argv[1], "forkexec") == 0) {
		for (long i = 0; i < n_iter; i++) {
			pid_t pid = fork();
			int status;

			if (pid < 0)
				err(1, "fork");
			if (pid == 0) {
				execl("/bin/true", "true", (char *)NULL);
				_exit(127);
			}
			if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
			    WEXITSTATUS(status))
				errx(1, "/bin/true failed");
		}
	} else if (strcmp(argv[1], "threads2") == 0) {
		pthread_t a, b;

		pthread_create(&a, NULL, writer, NULL);
		pthread_create(&b, NULL, writer, NULL);
		pthread_join(a, NULL);
		pthread_join(b, NULL);
	} else if (strcmp(argv[1], "threads") == 0) {
		pthread_t *t = calloc(n_iter, sizeof(*t));

		if (!t || pthread_barrier_init(&all_up, NULL, n_iter))
			errx(1, "out of memory");
		for (long i = 0; i < n_iter; i++)
			if (pthread_create(&t[i], NULL, one_call, NULL))
				errx(1, "thread %ld: cannot create", i);
		for (long i = 0; i < n_iter; i++)
			pthread_join(t[i], NULL);
	} else if (strcmp(argv[1], "forks") == 0) {
		for (long i = 0; i < n_iter; i++) {
			pid_t pid = fork();

			if (pid < 0)
				err(1, "fork");
			if (pid == 0)
				_exit(0);
			waitpid(pid, NULL, 0);
		}
	} else if (strcmp(argv[1], "tree") == 0) {
		int p[2], secs = argc > 3 ? atoi(argv[3]) : 30;
		long up = 0;

		if (pipe(p) < 0)
			err(1, "pipe");
		if (fork() == 0) {
			close(p[0]);
			printf("root %d\n", getpid());
			fflush(stdout);
			tree(0, n_iter, p[1], secs);
			_exit(0);
		}
		close(p[1]);
		while (up < n_iter && read(p[0], buf, 1) == 1)
			up++;
		printf("up %ld\n", up);
		fflush(stdout);
		return up == n_iter ? 0 : 1;
	} else {
		errx(2, "unknown workload %s", argv[1]);
	}
	return 0;
}
