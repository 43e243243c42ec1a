// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * http_srv PORT THREADS FILE: a small threaded HTTP/1.0 server on
 * 127.0.0.1 for bench/service.sh, the C service of issue 35.  THREADS
 * threads accept on one listening socket (PORT 0: any free port); each
 * request is read up to its blank line, FILE is opened, stat'ed, read and
 * sent back with a 200 header, and the connection closed, so every request
 * makes accept, recv, open, fstat, read, close, send and close calls.
 * Prints "port P pid PID" once listening; runs until killed.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>

static int lfd;
static const char *file;

/* Read the request up to its blank line (or 4 KiB): whether it came. */
static int read_request(int c)
{
	char buf[4096];
	size_t got = 0;

	while (got < sizeof(buf) - 1) {
		ssize_t n = recv(c, buf + got, sizeof(buf) - 1 - got, 0);

		if (n <= 0)
			return -1;
		got += n;
		buf[got] = '\0';
		if (strstr(buf, "\r\n\r\n"))
			return 0;
	}
	return 0;
}

static void serve(int c)
{
	static const char bad[] = "HTTP/1.0 404 Not Found\r\nContent-Length: 0\r\n\r\n";
	char head[256], body[65536];
	struct stat st;
	ssize_t n = -1;
	int fd, len;

	if (read_request(c) < 0)
		return;
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && fstat(fd, &st) == 0)
		n = read(fd, body, sizeof(body));
	if (fd >= 0)
		close(fd);
	if (n < 0) {
		send(c, bad, sizeof(bad) - 1, MSG_NOSIGNAL);
		return;
	}
	len = snprintf(head, sizeof(head),
		       "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %zd\r\n\r\n",
		       n);
	send(c, head, len, MSG_NOSIGNAL | MSG_MORE);
	send(c, body, n, MSG_NOSIGNAL);
}

static void *worker(void *arg)
{
	for (;;) {
		struct sockaddr_in peer;
		socklen_t plen = sizeof(peer);
		int c = accept4(lfd, (struct sockaddr *)&peer, &plen, SOCK_CLOEXEC);

		if (c < 0)
			continue;
		serve(c);
		close(c);
	}
	return arg;
}

int main(int argc, char **argv)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t alen = sizeof(a);
	int nthreads, one = 1;
	pthread_t t;

	if (argc != 4) {
		fprintf(stderr, "usage: http_srv PORT THREADS FILE\n");
		return 2;
	}
	nthreads = atoi(argv[2]);
	file = argv[3];
	a.sin_port = htons(atoi(argv[1]));
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(lfd, 1024) < 0 ||
	    getsockname(lfd, (struct sockaddr *)&a, &alen) < 0) {
		perror("http_srv");
		return 1;
	}
	for (int i = 1; i < nthreads; i++)
		pthread_create(&t, NULL, worker, NULL);
	printf("port %d pid %d\n", ntohs(a.sin_port), getpid());
	fflush(stdout);
	worker(NULL);
	return 0;
}
