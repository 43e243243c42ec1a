// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * threads [N]: N threads (default 4), all alive at once, each opening its own
 * missing path "/nonexistent/ktraceb-thread-I" (ENOENT) and calling
 * getpriority(PRIO_PROCESS, 1000 + I).  Prints "pid P tid P" for the main
 * thread and "thread I tid T" for each thread, so t_threads.sh can find every
 * tid with its own calls in the kdump output.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_THREADS 64

static pthread_barrier_t start, done;

struct worker {
	pthread_t thread;
	int index;
	long tid;
	long open_ret;
	int open_errno;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	char path[64];

	w->tid = syscall(SYS_gettid);
	pthread_barrier_wait(&start);
	snprintf(path, sizeof(path), "/nonexistent/ktraceb-thread-%d", w->index);
	errno = 0;
	w->open_ret = syscall(SYS_openat, AT_FDCWD, path, O_RDONLY);
	w->open_errno = errno;
	syscall(SYS_getpriority, PRIO_PROCESS, 1000 + w->index);
	/* nobody exits before everybody has made its calls */
	pthread_barrier_wait(&done);
	return NULL;
}

int main(int argc, char **argv)
{
	static struct worker w[MAX_THREADS];
	int n = argc > 1 ? atoi(argv[1]) : 4;

	if (n < 1 || n > MAX_THREADS) {
		fprintf(stderr, "usage: threads [1..%d]\n", MAX_THREADS);
		return 2;
	}
	pthread_barrier_init(&start, NULL, n);
	pthread_barrier_init(&done, NULL, n);
	for (int i = 0; i < n; i++) {
		w[i].index = i;
		if (pthread_create(&w[i].thread, NULL, work, &w[i]) != 0) {
			fprintf(stderr, "threads: pthread_create failed\n");
			return 1;
		}
	}
	for (int i = 0; i < n; i++)
		pthread_join(w[i].thread, NULL);
	printf("pid %d tid %ld\n", getpid(), syscall(SYS_gettid));
	for (int i = 0; i < n; i++)
		printf("thread %d tid %ld open %ld errno %d\n", i, w[i].tid, w[i].open_ret,
		       w[i].open_errno);
	return 0;
}
