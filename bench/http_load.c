// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * http_load PORT REQUESTS THREADS [PATH]: the load client of
 * bench/service.sh.  THREADS threads share REQUESTS HTTP/1.0 GETs of PATH
 * (default /) to 127.0.0.1:PORT, one connection each, each read to its end.
 * Prints "requests N errors E seconds S rps R": N answered with a 200, E
 * not (refused, cut, another status), S the wall time of them all.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>

static int port;
static const char *path = "/";
static long todo;
static long ok, errors;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static int one_request(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	char req[512], buf[16384];
	size_t got = 0;
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), len, good = 0;
	ssize_t n;

	a.sin_port = htons(port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (s < 0 || connect(s, (struct sockaddr *)&a, sizeof(a)) < 0)
		goto out;
	len = snprintf(req, sizeof(req), "GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n", path);
	if (send(s, req, len, MSG_NOSIGNAL) != len)
		goto out;
	while ((n = recv(s, buf + (got < 64 ? got : 64), sizeof(buf) - 64, 0)) > 0)
		got += n; /* the status line stays in the first bytes */
	good = n == 0 && got > 12 && strncmp(buf + 8, " 200", 4) == 0;
out:
	if (s >= 0)
		close(s);
	return good;
}

static void *worker(void *arg)
{
	for (;;) {
		int good;

		pthread_mutex_lock(&lock);
		if (todo <= 0) {
			pthread_mutex_unlock(&lock);
			return arg;
		}
		todo--;
		pthread_mutex_unlock(&lock);
		good = one_request();
		pthread_mutex_lock(&lock);
		if (good)
			ok++;
		else
			errors++;
		pthread_mutex_unlock(&lock);
	}
}

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	pthread_t *t;
	int nthreads;
	double secs;

	if (argc < 4) {
		fprintf(stderr, "usage: http_load PORT REQUESTS THREADS [PATH]\n");
		return 2;
	}
	port = atoi(argv[1]);
	todo = atol(argv[2]);
	nthreads = atoi(argv[3]);
	if (argc > 4)
		path = argv[4];
	if (nthreads < 1 || nthreads > 256 || todo < 1) {
		fprintf(stderr, "http_load: 1 to 256 threads, at least one request\n");
		return 2;
	}
	t = calloc(nthreads, sizeof(*t));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < nthreads; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < nthreads; i++)
		pthread_join(t[i], NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("requests %ld errors %ld seconds %.3f rps %.1f\n", ok, errors, secs,
	       secs > 0 ? ok / secs : 0.0);
	free(t);
	return errors ? 1 : 0;
}
