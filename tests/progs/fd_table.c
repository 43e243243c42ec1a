// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * fd_table DIR PORT: every way a descriptor comes, goes and is passed on, for
 * t_strace_y.sh (kdump -y and -yy against strace -y and -yy): files opened
 * relative to a new working directory and to a directory descriptor,
 * dup'ed every way, made close-on-exec, closed one by one and by range; a
 * pipe, a UNIX socket pair, TCP and UDP over 127.0.0.1, an eventfd and a
 * memfd; a child that inherits them all and execs this program again
 * ("fd_table DIR PORT exec"), where only the descriptors without
 * close-on-exec are left.  Then three sleeps of known length for the
 * durations (50 ms, 5 ms, none: getppid).  Every socket but a second TCP
 * client is bound to a port of its own, PORT to PORT + 3, so that the trace
 * holds both ends' addresses (the kernel's choice of a port it holds only
 * when asked, or when it has the accept at the other end: the second
 * client).  It prints nothing; a port in use exits 3, any other failure 1.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* the descriptors fd_table leaves open for its exec'ed child: fixed numbers */
#define FD_KEPT 40 /* a dup2 of the first file, no close-on-exec */
#define FD_GONE 41 /* a dup3 with O_CLOEXEC: closed by the exec */

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static int check(int rc, const char *what)
{
	if (rc < 0)
		die(what);
	return rc;
}

static void put(int fd, const char *s)
{
	if (write(fd, s, strlen(s)) < 0)
		die("write");
}

static void sleep_ns(long ns)
{
	struct timespec ts = { ns / 1000000000, ns % 1000000000 };

	check(nanosleep(&ts, NULL), "nanosleep");
}

/* The files: relative to the new working directory, to a directory descriptor, dup'ed. */
static int files(void)
{
	int a, b, c, dir, d;

	check(mkdir("sub", 0755), "mkdir");
	a = check(open("a.txt", O_CREAT | O_WRONLY | O_TRUNC, 0644), "open");
	put(a, "a\n");
	b = check(openat(AT_FDCWD, "sub/../b.txt", O_CREAT | O_RDWR | O_CLOEXEC, 0644), "openat");
	put(b, "b\n");
	dir = check(open("sub", O_RDONLY | O_DIRECTORY), "open sub");
	c = check(openat(dir, "c.txt", O_CREAT | O_WRONLY, 0644), "openat dir");
	put(c, "c\n");
	check(fchdir(dir), "fchdir");
	d = check(creat("./d.txt", 0644), "creat");
	put(d, "d\n");
	check(chdir(".."), "chdir");
	d = check(dup(a), "dup");
	put(d, "dup\n");
	check(dup2(b, d), "dup2"); /* d now the second file */
	put(d, "dup2\n");
	check(dup2(a, FD_KEPT), "dup2 kept");
	check(dup3(a, FD_GONE, O_CLOEXEC), "dup3");
	put(FD_GONE, "dup3\n");
	d = check(fcntl(c, F_DUPFD, 20), "F_DUPFD");
	put(d, "dupfd\n");
	d = check(fcntl(c, F_DUPFD_CLOEXEC, 25), "F_DUPFD_CLOEXEC");
	put(d, "dupfd_cloexec\n");
	check(fcntl(a, F_SETFD, FD_CLOEXEC), "F_SETFD"); /* a goes at exec, FD_KEPT stays */
	check(fcntl(d, F_SETFD, 0), "F_SETFD 0"); /* and 25 stays */
	check(close(c), "close");
	if (syscall(SYS_close_range, 20, 22, 0) < 0)
		die("close_range");
	if (write(20, "closed\n", 7) >= 0) /* EBADF: no longer anyone's */
		exit(1);
	check(close(dir), "close dir");
	return a;
}

static void pipes(void)
{
	int p[2], s[2];
	char buf[16];

	check(pipe2(p, 0), "pipe2");
	put(p[1], "pipe");
	check((int)read(p[0], buf, sizeof(buf)), "read pipe");
	check(close(p[0]), "close");
	check(close(p[1]), "close");
	check(socketpair(AF_UNIX, SOCK_STREAM, 0, s), "socketpair");
	put(s[0], "pair");
	check((int)read(s[1], buf, sizeof(buf)), "read pair");
	check(close(s[0]), "close");
	check(close(s[1]), "close");
}

static void loopback(struct sockaddr_in *in, int port)
{
	memset(in, 0, sizeof(*in));
	in->sin_family = AF_INET;
	in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	in->sin_port = htons(port);
}

/* A socket of type bound to 127.0.0.1:port, its address then asked for (getsockname). */
static int bound(int type, int port, struct sockaddr_in *in)
{
	socklen_t len = sizeof(*in);
	int s = check(socket(AF_INET, type, 0), "socket");

	loopback(in, port);
	if (bind(s, (struct sockaddr *)in, sizeof(*in)) < 0)
		exit(errno == EADDRINUSE ? 3 : 1);
	check(getsockname(s, (struct sockaddr *)in, &len), "getsockname");
	return s;
}

/* TCP and UDP over 127.0.0.1. */
static void inet(int port)
{
	struct sockaddr_in srv, cli, udp;
	socklen_t len;
	int l, c, a, u1, u2;
	char buf[16];

	l = bound(SOCK_STREAM, port, &srv);
	check(listen(l, 4), "listen");
	c = bound(SOCK_STREAM, port + 1, &cli);
	check(connect(c, (struct sockaddr *)&srv, sizeof(srv)), "connect");
	len = sizeof(cli);
	a = check(accept(l, (struct sockaddr *)&cli, &len), "accept");
	put(c, "tcp");
	check((int)read(a, buf, sizeof(buf)), "read tcp");
	check(close(a), "close");
	check(close(c), "close");
	/* a client the kernel binds: its address is the one accept sees */
	c = check(socket(AF_INET, SOCK_STREAM, 0), "socket");
	check(connect(c, (struct sockaddr *)&srv, sizeof(srv)), "connect");
	len = sizeof(cli);
	a = check(accept(l, (struct sockaddr *)&cli, &len), "accept");
	put(c, "tcp");
	check((int)read(a, buf, sizeof(buf)), "read tcp");
	check(close(a), "close");
	check(close(c), "close");
	check(close(l), "close");

	u1 = bound(SOCK_DGRAM, port + 2, &udp);
	u2 = bound(SOCK_DGRAM, port + 3, &cli);
	check(connect(u2, (struct sockaddr *)&udp, sizeof(udp)), "connect");
	put(u2, "udp");
	check((int)recv(u1, buf, sizeof(buf), 0), "recv udp");
	check(close(u2), "close");
	check(close(u1), "close");
}

static void anon(void)
{
	__u64 v = 1;
	int e, m;

	e = check(eventfd(0, 0), "eventfd");
	check((int)write(e, &v, sizeof(v)), "write eventfd");
	check((int)read(e, &v, sizeof(v)), "read eventfd");
	m = check(memfd_create("fd_table", 0), "memfd_create");
	put(m, "memfd");
	check(close(e), "close");
	check(close(m), "close");
}

/* A child: inherits every descriptor, writes to some, then execs this program. */
static void child(char **argv, int a)
{
	int st;
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (pid == 0) {
		put(a, "child\n");
		put(FD_GONE, "child\n");
		check(close(FD_GONE), "close");
		check(dup2(a, FD_GONE), "dup2"); /* again, now without close-on-exec */
		check(fcntl(FD_GONE, F_SETFD, FD_CLOEXEC), "F_SETFD");
		execl(argv[0], argv[0], argv[1], argv[2], "exec", (char *)NULL);
		die("execl");
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		exit(1);
	put(FD_GONE, "parent\n"); /* the child's close was its own */
}

/* The exec'ed child: what close-on-exec left */
static void after_exec(void)
{
	put(FD_KEPT, "kept\n");
	put(25, "kept\n");
	if (write(3, "x", 1) >= 0 || write(FD_GONE, "x", 1) >= 0)
		exit(1); /* both were close-on-exec */
	exit(0);
}

int main(int argc, char **argv)
{
	int a;

	if (argc < 3)
		return 2;
	if (chdir(argv[1]) < 0)
		die("chdir");
	if (argc > 3)
		after_exec();
	a = files();
	pipes();
	inet((int)strtol(argv[2], NULL, 10));
	anon();
	child(argv, a);
	sleep_ns(50000000);
	sleep_ns(5000000);
	getppid();
	return 0;
}
