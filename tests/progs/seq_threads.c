// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * seq_threads N COUNT [GO]: N threads (at most 64), started together, each
 * making COUNT calls lseek(-1, S, SEEK_SET) with S = 0, 1, ... COUNT - 1
 * (each fails with EBADF).  Prints "thread I tid T" for each.  A trace
 * must hold every thread's calls in the order it made them: t_rings.sh
 * reads S back from each CALL.  With GO (a FIFO), the threads are made,
 * "ready" is printed, and they start only once a line is read from GO.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_THREADS 64

static pthread_barrier_t start;
static long count;

struct worker {
	pthread_t thread;
	long tid;
};

static void *work(void *arg)
{
	struct worker *w = arg;

	w->tid = syscall(SYS_gettid);
	pthread_barrier_wait(&start);
	for (long s = 0; s < count; s++)
		syscall(SYS_lseek, -1, s, SEEK_SET);
	return NULL;
}

int main(int argc, char **argv)
{
	struct worker w[MAX_THREADS];
	int n = argc > 1 ? atoi(argv[1]) : 2;

	count = argc > 2 ? atol(argv[2]) : 1000;
	if (n < 1 || n > MAX_THREADS || count < 1) {
		fprintf(stderr, "usage: seq_threads N(1-%d) COUNT [GO]\n", MAX_THREADS);
		return 2;
	}
	/* with GO, this thread is the barrier's last: it lets the others go */
	pthread_barrier_init(&start, NULL, argc > 3 ? n + 1 : n);
	for (int i = 0; i < n; i++)
		if (pthread_create(&w[i].thread, NULL, work, &w[i])) {
			perror("seq_threads: pthread_create");
			return 1;
		}
	if (argc > 3) {
		char line[16];
		FILE *go;

		printf("ready\n");
		fflush(stdout);
		go = fopen(argv[3], "r");
		if (!go || !fgets(line, sizeof(line), go)) {
			perror(argv[3]);
			return 1;
		}
		fclose(go);
		pthread_barrier_wait(&start);
	}
	for (int i = 0; i < n; i++)
		pthread_join(w[i].thread, NULL);
	for (int i = 0; i < n; i++)
		printf("thread %d tid %ld\n", i, w[i].tid);
	return 0;
}
