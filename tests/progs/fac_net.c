// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * fac_net: UDP and TCP exchanges over loopback, IPv4 (127.0.0.1) and IPv6
 * (::1), for t_net.sh (trace it with -i).  IPv4 runs in the main thread; the
 * IPv6 TCP server runs in a second thread, the IPv6 UDP server in a child
 * process.  Every call that takes or returns an address is reported as
 *	KEY pid P tid T fd F addr A port N ret R
 * (the address the call passed or got back) and every transfer as
 *	KEY pid P tid T fd F ret R hex HEX
 * Reports go through one line-buffered stdout; the child writes its own.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static long tid(void)
{
	return syscall(SYS_gettid);
}

static void put_addr(const char *key, int fd, const struct sockaddr_storage *ss, long ret)
{
	char a[INET6_ADDRSTRLEN] = "?";
	int port = 0;

	if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *in = (const void *)ss;

		inet_ntop(AF_INET, &in->sin_addr, a, sizeof(a));
		port = ntohs(in->sin_port);
	} else if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const void *)ss;

		inet_ntop(AF_INET6, &in6->sin6_addr, a, sizeof(a));
		port = ntohs(in6->sin6_port);
	}
	pthread_mutex_lock(&lock);
	printf("%s pid %d tid %ld fd %d addr %s port %d ret %ld\n", key, getpid(), tid(), fd, a,
	       port, ret);
	pthread_mutex_unlock(&lock);
}

static void put_data(const char *key, int fd, long ret, const void *buf)
{
	const unsigned char *p = buf;

	pthread_mutex_lock(&lock);
	printf("%s pid %d tid %ld fd %d ret %ld hex ", key, getpid(), tid(), fd, ret);
	for (long i = 0; i < ret; i++)
		printf("%02x", p[i]);
	printf("\n");
	pthread_mutex_unlock(&lock);
}

/* a loopback address of family af, port 0 */
static socklen_t loop(int af, struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	if (af == AF_INET) {
		struct sockaddr_in *in = (void *)ss;

		in->sin_family = AF_INET;
		in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		return sizeof(*in);
	}
	struct sockaddr_in6 *in6 = (void *)ss;

	in6->sin6_family = AF_INET6;
	in6->sin6_addr = in6addr_loopback;
	return sizeof(*in6);
}

/* a bound socket and its address */
static int bound(const char *key, int af, int type, struct sockaddr_storage *ss)
{
	socklen_t len = loop(af, ss);
	int fd = socket(af, type, 0);
	long r;

	if (fd < 0)
		exit(1);
	r = syscall(SYS_bind, fd, ss, len);
	put_addr(key, fd, ss, r);
	len = sizeof(*ss);
	r = syscall(SYS_getsockname, fd, ss, &len);
	put_addr("getsockname", fd, ss, r);
	return fd;
}

static void udp_server(const char *v, int s)
{
	struct sockaddr_storage peer;
	socklen_t len = sizeof(peer);
	char buf[256], key[32], reply[64];
	long r;

	r = syscall(SYS_recvfrom, s, buf, sizeof(buf), 0, &peer, &len);
	snprintf(key, sizeof(key), "%s_srv_recvfrom", v);
	put_addr(key, s, &peer, r);
	put_data(key, s, r, buf);
	snprintf(reply, sizeof(reply), "%s pong from %d", v, getpid());
	r = syscall(SYS_sendto, s, reply, strlen(reply), 0, &peer, len);
	snprintf(key, sizeof(key), "%s_srv_sendto", v);
	put_addr(key, s, &peer, r);
	put_data(key, s, r, reply);
}

/* the client's datagram to srv; returns the client socket */
static int udp_send(const char *v, int af, const struct sockaddr_storage *srv)
{
	struct sockaddr_storage me;
	socklen_t len;
	char key[32], msg[64];
	int c = socket(af, SOCK_DGRAM, 0);
	long r;

	snprintf(msg, sizeof(msg), "%s ping \x01\x02\xff from %d", v, getpid());
	r = syscall(SYS_sendto, c, msg, strlen(msg), 0, srv,
		    af == AF_INET ? sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6));
	snprintf(key, sizeof(key), "%s_cli_sendto", v);
	put_addr(key, c, srv, r);
	put_data(key, c, r, msg);
	len = sizeof(me);
	r = syscall(SYS_getsockname, c, &me, &len);
	put_addr("getsockname", c, &me, r);
	return c;
}

/* the client receives the reply */
static void udp_recv(const char *v, int c)
{
	struct sockaddr_storage from;
	socklen_t len = sizeof(from);
	char buf[256], key[32];
	long r;

	r = syscall(SYS_recvfrom, c, buf, sizeof(buf), 0, &from, &len);
	snprintf(key, sizeof(key), "%s_cli_recvfrom", v);
	put_addr(key, c, &from, r);
	put_data(key, c, r, buf);
	close(c);
}

struct tcp_srv {
	const char *v;
	int l;
};

static void *tcp_server(void *arg)
{
	struct tcp_srv *t = arg;
	struct sockaddr_storage peer;
	socklen_t len = sizeof(peer);
	char buf[256], key[32], reply[64];
	long a, r;

	a = syscall(SYS_accept, t->l, &peer, &len);
	snprintf(key, sizeof(key), "%s_accept", t->v);
	put_addr(key, t->l, &peer, a);
	r = syscall(SYS_read, a, buf, sizeof(buf));
	snprintf(key, sizeof(key), "%s_srv_read", t->v);
	put_data(key, (int)a, r, buf);
	snprintf(reply, sizeof(reply), "%s tcp reply \x7f\x80 %ld", t->v, tid());
	r = syscall(SYS_sendto, a, reply, strlen(reply), 0, NULL, 0);
	snprintf(key, sizeof(key), "%s_srv_send", t->v);
	put_data(key, (int)a, r, reply);
	close((int)a);
	return NULL;
}

static void tcp(const char *v, int af, int threaded)
{
	struct sockaddr_storage srv, peer;
	struct tcp_srv t = { v, 0 };
	socklen_t len;
	char buf[256], key[32], msg[64];
	pthread_t th;
	int c;
	long r;

	snprintf(key, sizeof(key), "%s_bind", v);
	t.l = bound(key, af, SOCK_STREAM, &srv);
	listen(t.l, 4);
	c = socket(af, SOCK_STREAM, 0);
	r = syscall(SYS_connect, c, &srv,
		    af == AF_INET ? sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6));
	snprintf(key, sizeof(key), "%s_connect", v);
	put_addr(key, c, &srv, r);
	if (threaded) {
		if (pthread_create(&th, NULL, tcp_server, &t) != 0)
			exit(1);
	}
	snprintf(msg, sizeof(msg), "%s tcp hello \x03 from %d", v, getpid());
	r = syscall(SYS_write, c, msg, strlen(msg));
	snprintf(key, sizeof(key), "%s_cli_write", v);
	put_data(key, c, r, msg);
	if (threaded)
		pthread_join(th, NULL);
	else
		tcp_server(&t);
	r = syscall(SYS_recvfrom, c, buf, sizeof(buf), 0, NULL, NULL);
	snprintf(key, sizeof(key), "%s_cli_recv", v);
	put_data(key, c, r, buf);
	len = sizeof(peer);
	r = syscall(SYS_getpeername, c, &peer, &len);
	snprintf(key, sizeof(key), "%s_getpeername", v);
	put_addr(key, c, &peer, r);
	close(c);
	close(t.l);
}

int main(void)
{
	struct sockaddr_storage srv;
	int s, c, st;
	pid_t pid;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("pid %d\n", getpid());

	s = bound("udp4_bind", AF_INET, SOCK_DGRAM, &srv);
	c = udp_send("udp4", AF_INET, &srv);
	udp_server("udp4", s);
	udp_recv("udp4", c);
	close(s);
	tcp("tcp4", AF_INET, 0);

	/* the IPv6 UDP server in a child process */
	s = bound("udp6_bind", AF_INET6, SOCK_DGRAM, &srv);
	pid = fork();
	if (pid == 0) {
		udp_server("udp6", s);
		_exit(0);
	}
	close(s);
	c = udp_send("udp6", AF_INET6, &srv);
	udp_recv("udp6", c);
	waitpid(pid, &st, 0);
	printf("child %d status %d\n", pid, st);
	tcp("tcp6", AF_INET6, 1);
	return 0;
}
