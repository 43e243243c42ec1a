// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * ktr_hostile SOCKET COMMAND [ARGS...]: a client that speaks the ktraceb
 * daemon's protocol itself, as a local user attacking the daemon would,
 * for tests/e2e/t_hostile.sh.  SOCKET is a path, or @name for an abstract
 * socket.  Each command prints one line of results, "key=value ...", that
 * the test checks against the safe outcome.
 *
 *   op OP FACS FLAGS PID FD [IOSIZE [RESERVED [FLIGHT_BYTES [FLIGHT_FLAGS]]]]
 *        one request, numbers in C notation; FD is a descriptor spec:
 *        none, path:F (O_PATH), ro:F, wo:F, rw:F, new:F (created 0600 for
 *        writing), dir:D, pipe, socket, memfd, eventfd, devnull, proc,
 *        two:F (F twice in one message).  Prints
 *        "reply error=E count=N msg=LINE|LINE" or "closed".  The event
 *        names (-e) come from $KTR_HOSTILE_EVENTS: long (64 bytes, no
 *        NUL), unpadded (bytes after the NUL), gap (the first unused), or
 *        names separated by commas, copied as they are.
 *   garbage       short, long, wrong-magic and 200 random messages, each on
 *                 its own connection: "garbage answered=A closed=C hung=H"
 *   conns N HOLD  N idle connections, held HOLD seconds:
 *                 "conns opened=O refused=R closed_by_daemon=C"
 *   noread N      N requests on one connection, no reply read:
 *                 "noread sent=S closed_by_daemon=0|1"
 *   forkcaps PID FD PROG ARGS...  connect, fork a child that keeps the
 *                 socket; the parent execs PROG; the child asks to trace
 *                 PID: prints the reply
 *   awaitexec FD NARGS PROG  fork a child that execs PROG with NARGS long
 *                 arguments (a slow exec); ask AWAIT_EXEC on it meanwhile:
 *                 prints the reply, then "child=PID"
 *   files DIR PIDFILE  one SET per pid listed, each into its own new file
 *                 DIR/h.N: "files ok=K refused=R last=LINE"
 *   squat NAME SECONDS  bind and listen on @NAME, answer nothing
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>

/* the wire format, as an attacker would copy it from the sources */
#include "../../src/ktraceb/ktr_proto.h"

static const char *sock_name;

static socklen_t addr_of(struct sockaddr_un *a, const char *name)
{
	size_t n = strlen(name);

	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	if (n >= sizeof(a->sun_path))
		n = sizeof(a->sun_path) - 1;
	memcpy(a->sun_path, name, n);
	if (name[0] == '@')
		a->sun_path[0] = '\0'; /* abstract */
	return offsetof(struct sockaddr_un, sun_path) + n + (name[0] == '@' ? 0 : 1);
}

static int dial(void)
{
	struct sockaddr_un a;
	socklen_t len = addr_of(&a, sock_name);
	int s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);

	if (s < 0 || connect(s, (struct sockaddr *)&a, len) < 0) {
		if (s >= 0)
			close(s);
		return -1;
	}
	return s;
}

static int send_fds(int s, const void *msg, size_t len, const int *fds, int nfds)
{
	union {
		char buf[CMSG_SPACE(2 * sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { .iov_base = (void *)msg, .iov_len = len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (nfds > 0) {
		struct cmsghdr *c;

		memset(&ctl, 0, sizeof(ctl));
		mh.msg_control = ctl.buf;
		mh.msg_controllen = CMSG_SPACE(nfds * sizeof(int));
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(nfds * sizeof(int));
		memcpy(CMSG_DATA(c), fds, nfds * sizeof(int));
	}
	return sendmsg(s, &mh, MSG_NOSIGNAL) < 0 ? -errno : 0;
}

/* Open the descriptor(s) a spec names; returns how many (0 for none). */
static int open_spec(const char *spec, int fds[2])
{
	const char *arg = strchr(spec, ':') ? strchr(spec, ':') + 1 : "";
	int p[2];

	if (strcmp(spec, "none") == 0)
		return 0;
	if (strncmp(spec, "path:", 5) == 0)
		fds[0] = open(arg, O_PATH | O_CLOEXEC);
	else if (strncmp(spec, "ro:", 3) == 0)
		fds[0] = open(arg, O_RDONLY | O_CLOEXEC);
	else if (strncmp(spec, "wo:", 3) == 0)
		fds[0] = open(arg, O_WRONLY | O_CLOEXEC);
	else if (strncmp(spec, "rw:", 3) == 0)
		fds[0] = open(arg, O_RDWR | O_CLOEXEC);
	else if (strncmp(spec, "new:", 4) == 0)
		fds[0] = open(arg, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	else if (strncmp(spec, "dir:", 4) == 0)
		fds[0] = open(arg, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	else if (strcmp(spec, "pipe") == 0 && pipe(p) == 0)
		fds[0] = p[1];
	else if (strcmp(spec, "socket") == 0)
		fds[0] = socket(AF_UNIX, SOCK_STREAM, 0);
	else if (strcmp(spec, "memfd") == 0)
		fds[0] = memfd_create("ktr-hostile", 0);
	else if (strcmp(spec, "eventfd") == 0)
		fds[0] = eventfd(0, 0);
	else if (strcmp(spec, "devnull") == 0)
		fds[0] = open("/dev/null", O_WRONLY);
	else if (strcmp(spec, "proc") == 0)
		fds[0] = open("/proc/self/attr/current", O_WRONLY);
	else if (strncmp(spec, "two:", 4) == 0) {
		fds[0] = open(arg, O_WRONLY | O_CLOEXEC);
		fds[1] = open(arg, O_WRONLY | O_CLOEXEC);
		return fds[0] < 0 || fds[1] < 0 ? -1 : 2;
	} else {
		fprintf(stderr, "ktr_hostile: bad descriptor spec %s\n", spec);
		exit(2);
	}
	return fds[0] < 0 ? -1 : 1;
}

/* Print a reply, or that the daemon closed the connection without one. */
static void print_reply(int s)
{
	struct ktr_reply rep;
	struct pollfd pfd = { .fd = s, .events = POLLIN };
	ssize_t n;

	if (poll(&pfd, 1, 10000) <= 0) {
		printf("hung\n");
		return;
	}
	n = recv(s, &rep, sizeof(rep), 0);
	if (n != (ssize_t)sizeof(rep)) {
		printf("closed\n");
		return;
	}
	rep.msg[sizeof(rep.msg) - 1] = '\0';
	for (char *p = rep.msg; *p; p++)
		if (*p == '\n')
			*p = p[1] ? '|' : '\0';
	printf("reply error=%d count=%u msg=%s\n", rep.error, rep.count, rep.msg);
}

static unsigned long num(const char *s)
{
	return strtoul(s, NULL, 0);
}

/* The request's event names from $KTR_HOSTILE_EVENTS (see the top). */
static void fill_events(struct ktr_request *req)
{
	const char *spec = getenv("KTR_HOSTILE_EVENTS");
	char *copy, *save = NULL, *tok;
	int i = 0;

	if (!spec || !*spec)
		return;
	if (strcmp(spec, "long") == 0) {
		memset(req->events[0], 'a', KTR_TP_NAME_MAX);
		req->events[0][5] = ':';
		return;
	}
	if (strcmp(spec, "unpadded") == 0) {
		strcpy(req->events[0], "sched:sched_switch");
		req->events[0][KTR_TP_NAME_MAX - 1] = 'x';
		return;
	}
	if (strcmp(spec, "gap") == 0) {
		strcpy(req->events[1], "sched:sched_switch");
		return;
	}
	copy = strdup(spec);
	for (tok = strtok_r(copy, ",", &save); tok && i < KTR_TP_REQ_MAX;
	     tok = strtok_r(NULL, ",", &save))
		strncpy(req->events[i++], tok, KTR_TP_NAME_MAX);
	free(copy);
}

static int cmd_op(int argc, char **argv)
{
	struct ktr_request req = { .magic = KTR_PROTO_MAGIC };
	int fds[2] = { -1, -1 }, nfds, s;

	if (argc < 6)
		return 2;
	req.op = num(argv[1]);
	req.facs = num(argv[2]);
	req.flags = num(argv[3]);
	req.pid = (__s32)strtol(argv[4], NULL, 0);
	req.iosize = argc > 6 ? num(argv[6]) : 4096;
	req.reserved = argc > 7 ? num(argv[7]) : 0;
	req.flight_bytes = argc > 8 ? strtoull(argv[8], NULL, 0) : 0;
	req.flight_flags = argc > 9 ? num(argv[9]) : 0;
	fill_events(&req);
	nfds = open_spec(argv[5], fds);
	if (nfds < 0) {
		printf("open-failed %s\n", strerror(errno));
		return 0;
	}
	s = dial();
	if (s < 0) {
		printf("connect-failed %s\n", strerror(errno));
		return 1;
	}
	send_fds(s, &req, sizeof(req), fds, nfds);
	print_reply(s);
	close(s);
	return 0;
}

/* One message on a fresh connection: answered, closed, or left hanging. */
static int garbage_one(const void *msg, size_t len)
{
	char buf[sizeof(struct ktr_reply)];
	struct pollfd pfd;
	int s = dial(), r;
	ssize_t n;

	if (s < 0)
		return 2;
	send(s, msg, len, MSG_NOSIGNAL);
	pfd.fd = s;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 5000) <= 0)
		r = 2;
	else if ((n = recv(s, buf, sizeof(buf), 0)) > 0)
		r = 0;
	else
		r = 1;
	close(s);
	return r;
}

static int cmd_garbage(void)
{
	struct ktr_request req = { .magic = KTR_PROTO_MAGIC, .op = KTR_OP_CLEARALL };
	static char big[8192];
	int counts[3] = { 0 };
	unsigned int seed = (unsigned int)time(NULL);

	counts[garbage_one(&req, 10)]++;
	memset(big, 'A', sizeof(big));
	memcpy(big, &req, sizeof(req));
	counts[garbage_one(big, sizeof(big))]++;
	req.magic = 0x6b747232; /* the previous version's */
	counts[garbage_one(&req, sizeof(req))]++;
	counts[garbage_one("", 0)]++;
	for (int i = 0; i < 200; i++) {
		size_t len = rand_r(&seed) % 96;

		for (size_t j = 0; j < len; j++)
			big[j] = rand_r(&seed);
		if (i % 2) /* half of them with the right magic */
			memcpy(big, &(__u32){ KTR_PROTO_MAGIC }, len >= 4 ? 4 : len);
		counts[garbage_one(big, len)]++;
	}
	printf("garbage answered=%d closed=%d hung=%d\n", counts[0], counts[1], counts[2]);
	return 0;
}

/* Has the daemon closed s (EOF or reset), within ms? */
static int closed_within(int s, int ms)
{
	struct pollfd pfd = { .fd = s, .events = POLLIN };
	char buf[sizeof(struct ktr_reply)];

	while (poll(&pfd, 1, ms) > 0) {
		if (recv(s, buf, sizeof(buf), MSG_DONTWAIT) <= 0)
			return 1;
		/* a refusal answered first; its EOF follows */
	}
	return 0;
}

static int cmd_conns(int n, int hold)
{
	int *socks = calloc(n, sizeof(int)), opened = 0, refused = 0, closed = 0;

	if (!socks)
		return 1;
	for (int i = 0; i < n; i++) {
		socks[i] = dial();
		opened += socks[i] >= 0;
	}
	usleep(500000);
	for (int i = 0; i < n; i++) {
		struct ktr_reply rep;

		if (socks[i] >= 0 &&
		    recv(socks[i], &rep, sizeof(rep), MSG_DONTWAIT) == (ssize_t)sizeof(rep)) {
			refused++;
			close(socks[i]);
			socks[i] = -1;
		}
	}
	sleep(hold);
	for (int i = 0; i < n; i++)
		if (socks[i] >= 0) {
			closed += closed_within(socks[i], 0);
			close(socks[i]);
		}
	printf("conns opened=%d refused=%d closed_by_daemon=%d\n", opened, refused, closed);
	free(socks);
	return 0;
}

static int cmd_noread(int n)
{
	struct ktr_request req = { .magic = KTR_PROTO_MAGIC, .op = KTR_OP_CLEARALL };
	int s = dial(), sent = 0;

	if (s < 0)
		return 1;
	for (int i = 0; i < n; i++) {
		if (send(s, &req, sizeof(req), MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
			break;
		sent++;
	}
	/* never read: the daemon must not wait for us, and drops us at last */
	sleep(5);
	printf("noread sent=%d closed_by_daemon=%d\n", sent, closed_within(s, 0));
	return 0;
}

static int cmd_forkcaps(char **argv)
{
	int s = dial();
	pid_t child;

	if (s < 0)
		return 1;
	fflush(stdout);
	child = fork();
	if (child == 0) {
		struct ktr_request req = { .magic = KTR_PROTO_MAGIC, .op = KTR_OP_SET };
		int fds[2] = { -1, -1 }, nfds = open_spec(argv[1], fds);

		usleep(300000); /* the parent has exec'd by now */
		req.facs = KTR_DEF_POINTS;
		req.pid = (__s32)strtol(argv[0], NULL, 0);
		req.iosize = 4096;
		send_fds(s, &req, sizeof(req), fds, nfds);
		print_reply(s);
		_exit(0);
	}
	execv(argv[2], argv + 2);
	perror("execv");
	return 1;
}

static int cmd_awaitexec(char **argv)
{
	struct ktr_request req = { .magic = KTR_PROTO_MAGIC, .op = KTR_OP_SET };
	int fds[2] = { -1, -1 }, nfds = open_spec(argv[0], fds), s = dial();
	long nargs = strtol(argv[1], NULL, 0);
	pid_t child;

	if (s < 0 || nfds < 0 || nargs < 1)
		return 1;
	fflush(stdout);
	child = fork();
	if (child == 0) {
		char **av = calloc(nargs + 2, sizeof(char *));

		av[0] = argv[2];
		for (long i = 1; i <= nargs; i++)
			av[i] = "aaaaaaaaaa"; /* copying these keeps execve busy */
		execv(argv[2], av);
		_exit(127);
	}
	usleep(200);
	req.facs = KTR_DEF_POINTS | KTRFAC_INHERIT;
	req.flags = KTR_REQ_AWAIT_EXEC;
	req.pid = child;
	req.iosize = 4096;
	send_fds(s, &req, sizeof(req), fds, nfds);
	print_reply(s);
	printf("child=%d\n", child);
	waitpid(child, NULL, 0);
	return 0;
}

static int cmd_files(const char *dir, const char *pidfile)
{
	FILE *f = fopen(pidfile, "r");
	int ok = 0, refused = 0, pid, s = dial(), i = 0;
	char last[KTR_REPLY_MSG_MAX] = "";

	if (!f || s < 0)
		return 1;
	while (fscanf(f, "%d", &pid) == 1) {
		struct ktr_request req = { .magic = KTR_PROTO_MAGIC, .op = KTR_OP_SET };
		struct ktr_reply rep;
		char path[PATH_MAX];
		int fd;

		snprintf(path, sizeof(path), "%s/h.%d", dir, i++);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		req.facs = KTRFAC_SYSCALL | KTRFAC_SYSRET;
		req.pid = pid;
		req.iosize = 0;
		if (fd < 0 || send_fds(s, &req, sizeof(req), &fd, 1) < 0 ||
		    recv(s, &rep, sizeof(rep), 0) != (ssize_t)sizeof(rep))
			return 1;
		close(fd);
		if (rep.error == 0 && rep.count == 1) {
			ok++;
		} else {
			refused++;
			rep.msg[sizeof(rep.msg) - 1] = '\0';
			snprintf(last, sizeof(last), "%s", rep.msg);
			last[strcspn(last, "\n")] = '\0';
		}
	}
	fclose(f);
	printf("files ok=%d refused=%d last=%s\n", ok, refused, last);
	return 0;
}

static int cmd_squat(const char *name, int seconds)
{
	struct sockaddr_un a;
	socklen_t len = addr_of(&a, name);
	int s = socket(AF_UNIX, SOCK_SEQPACKET, 0);

	if (s < 0 || bind(s, (struct sockaddr *)&a, len) < 0 || listen(s, 16) < 0) {
		printf("squat failed %s\n", strerror(errno));
		return 1;
	}
	printf("squat bound\n");
	fflush(stdout);
	sleep(seconds);
	return 0;
}

int main(int argc, char **argv)
{
	const char *cmd;

	if (argc < 3) {
		fprintf(stderr, "usage: ktr_hostile SOCKET COMMAND [ARGS...]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	sock_name = argv[1];
	cmd = argv[2];
	if (strcmp(cmd, "op") == 0)
		return cmd_op(argc - 2, argv + 2);
	if (strcmp(cmd, "garbage") == 0)
		return cmd_garbage();
	if (strcmp(cmd, "conns") == 0 && argc > 4)
		return cmd_conns(atoi(argv[3]), atoi(argv[4]));
	if (strcmp(cmd, "noread") == 0 && argc > 3)
		return cmd_noread(atoi(argv[3]));
	if (strcmp(cmd, "forkcaps") == 0 && argc > 5)
		return cmd_forkcaps(argv + 3);
	if (strcmp(cmd, "awaitexec") == 0 && argc > 5)
		return cmd_awaitexec(argv + 3);
	if (strcmp(cmd, "files") == 0 && argc > 4)
		return cmd_files(argv[3], argv[4]);
	if (strcmp(cmd, "squat") == 0 && argc > 4)
		return cmd_squat(argv[3], atoi(argv[4]));
	fprintf(stderr, "ktr_hostile: bad command %s\n", cmd);
	return 2;
}
