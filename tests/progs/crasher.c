// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * crasher MODE [N]: N getppid calls (default 100), then the last steps the
 * flight recorder tests look for, then an end chosen by MODE:
 *   segv   a write through NULL        abort  abort()
 *   wait   pause() until killed        exit3  exit(3)
 *   ok     exit(0)                     loop   getppid every ms until killed
 *   stuck  two threads: one stops in a read on CPU 0, the other floods the
 *          ring with N getppid calls on CPU 1, then writes through NULL
 * Prints "pid P" first, and "last fd F" for the close(F) of a fresh /dev/null
 * descriptor it makes just before the end (F is the last syscall's argument),
 * after "flood_ns T", the nanoseconds its N getppid calls took.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

static long n_calls = 100;
static int stuck_pipe[2];

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static long long flood_ns; /* how long the last flood took (for bench/run.sh) */

static void flood(long n)
{
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0); /* vDSO: no syscall in the trace */
	for (long i = 0; i < n; i++)
		getppid();
	clock_gettime(CLOCK_MONOTONIC, &t1);
	flood_ns = (t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);
}

/* The last step everyone can check: close() of a descriptor it names. */
static void last_step(void)
{
	int fd = open("/dev/null", O_RDONLY);

	printf("flood_ns %lld\nlast fd %d\n", flood_ns, fd); /* one write */
	fflush(stdout);
	close(fd);
}

static void *stuck_reader(void *arg)
{
	char c;

	pin(0);
	getgid(); /* the stopped thread's step before it stops */
	if (read(stuck_pipe[0], &c, 1) < 0)
		perror("read");
	return arg;
}

static void *flooder(void *arg)
{
	struct timespec ts = { 0, 100 * 1000 * 1000 };

	pin(1);
	nanosleep(&ts, NULL); /* the reader is in its read by now */
	flood(n_calls);
	*(volatile int *)arg = 1; /* arg is NULL */
	return NULL;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "ok";
	struct timespec ms = { 0, 1000 * 1000 };
	pthread_t a, b;

	if (argc > 2)
		n_calls = strtol(argv[2], NULL, 0);
	printf("pid %d\n", getpid());
	fflush(stdout);
	if (strcmp(mode, "stuck") == 0) {
		pin(1);
		if (pipe(stuck_pipe) < 0)
			return 1;
		pthread_create(&a, NULL, stuck_reader, NULL);
		pthread_create(&b, NULL, flooder, NULL);
		pthread_join(b, NULL);
		return 1;
	}
	flood(n_calls);
	if (strcmp(mode, "loop") == 0)
		for (;;) {
			getppid();
			nanosleep(&ms, NULL);
		}
	last_step();
	if (strcmp(mode, "segv") == 0)
		*(volatile int *)(argc > 99 ? argv[0] : NULL) = 1;
	else if (strcmp(mode, "abort") == 0)
		abort();
	else if (strcmp(mode, "wait") == 0)
		pause();
	else if (strcmp(mode, "exit3") == 0)
		return 3;
	return 0;
}
