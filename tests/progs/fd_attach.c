// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * fd_attach DIR PORT: descriptors opened before a trace begins, for
 * t_strace_y_attach.sh (ktraceb -p and kdump -y against strace -p -yy): a
 * file DIR/data (close-on-exec), a pipe, a TCP connection over 127.0.0.1 to
 * PORT (its listening socket, the client and the accepted end) and a UNIX
 * socket pair.  It prints "pid N", then each descriptor as /proc/self/fd
 * names it ("fd 3 /DIR/data"), then "ready", and waits for SIGUSR1; then it
 * reads or writes one byte on each descriptor and exits.  A port in use
 * exits 3, any other failure 1.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void die(const char *what)
{
	perror(what);
	exit(errno == EADDRINUSE ? 3 : 1);
}

static void say(int fd)
{
	char path[64], link[4096];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		die("readlink");
	link[n] = '\0';
	printf("fd %d %s\n", fd, link);
}

int main(int argc, char **argv)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int file, p[2], lis, cli, srv, sv[2], sig, fds[8], n = 0;
	char path[4096], c = 'x';
	sigset_t set;

	if (argc != 3)
		return 2;
	snprintf(path, sizeof(path), "%s/data", argv[1]);
	file = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (file < 0 || write(file, "data", 4) != 4 || lseek(file, 0, SEEK_SET) != 0)
		die("data");
	if (pipe(p) < 0)
		die("pipe");
	a.sin_port = htons((unsigned short)atoi(argv[2]));
	lis = socket(AF_INET, SOCK_STREAM, 0);
	if (lis < 0 || bind(lis, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(lis, 1) < 0)
		die("listen");
	cli = socket(AF_INET, SOCK_STREAM, 0);
	if (cli < 0 || connect(cli, (struct sockaddr *)&a, sizeof(a)) < 0)
		die("connect");
	srv = accept(lis, NULL, NULL);
	if (srv < 0 || socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		die("accept");
	fds[n++] = file, fds[n++] = p[0], fds[n++] = p[1], fds[n++] = lis;
	fds[n++] = cli, fds[n++] = srv, fds[n++] = sv[0], fds[n++] = sv[1];
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	printf("pid %d\n", getpid());
	for (int i = 0; i < n; i++)
		say(fds[i]);
	printf("ready\n");
	fflush(stdout);
	sigwait(&set, &sig);
	/* one call on each descriptor, the listening socket's a getsockname */
	if (read(file, &c, 1) != 1 || write(p[1], &c, 1) != 1 || read(p[0], &c, 1) != 1 ||
	    write(cli, &c, 1) != 1 || read(srv, &c, 1) != 1 || write(sv[0], &c, 1) != 1 ||
	    read(sv[1], &c, 1) != 1)
		die("io");
	socklen_t len = sizeof(a);
	if (getsockname(lis, (struct sockaddr *)&a, &len) < 0)
		die("getsockname");
	return 0;
}
