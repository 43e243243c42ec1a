// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * ktr_hostile SOCKET COMMAND [ARGS...]: a client that speaks the ktraceb
 * daemon's protocol itself, as a local user attacking the daemon would,
 * for tests/e2e/t_hostile.sh.  SOCKET is a path, or @name for an abstract
 * socket.  Each command prints one line of results, "key=value ...", that
 * the test checks against the safe outcome.
 *
 *   op OP FACS FLAGS PID FD [IOSIZE [RING_BYTES [FLIGHT_BYTES [FLIGHT_FLAGS]]]]
 *        one request, numbers in C notation; FD is a descriptor spec:
 *        none, path:F (O_PATH), ro:F, wo:F, rw:F, new:F (created 0600 for
 *        writing), dir:D, pipe, socket, memfd, eventfd, devnull, proc,
 *        two:F (F twice in one message), tmpfile:D (an O_TMPFILE in
 *        D), unlinked:F (F opened for writing, then its name removed: a
 *        link count of 0), inode:F (no descriptor: F's
 *        st_dev and st_ino in the request's file fields).  Prints
 *        "reply error=E count=N msg=LINE|LINE" or "closed".  The event
 *        names (-e) come from $KTR_HOSTILE_EVENTS: long (64 bytes, no
 *        NUL), unpadded (bytes after the NUL), gap (the first unused), or
 *        names separated by commas, copied as they are.  The USDT
 *        patterns (-e usdt:) come from $KTR_HOSTILE_USDT: long (384
 *        bytes, no NUL), unpadded (bytes after the NUL), or text copied
 *        as it is.  More descriptor specs: many:N:F (F N times in one
 *        SCM_RIGHTS, N <= 250), split:F (F twice, in two SCM_RIGHTS),
 *        creds:F (F after an SCM_CREDENTIALS).
 *   fdstorm LOOPS F  requests of every kind with descriptors they do not
 *                 take (see cmd_fdstorm), LOOPS times each:
 *                 "fdstorm sent=S refused=R taken=T closed=C hung=H"
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
 *                 DIR/h.N (with a syscall selection if $KTR_HOSTILE_SELECT
 *                 is 1, a recorder of $KTR_HOSTILE_FLIGHT bytes if set):
 *                 "files ok=K refused=R last=LINE"
 *   squat NAME SECONDS  bind and listen on @NAME, answer nothing:
 *                 "squat bound pid=PID"
 *   squatmany PREFIX FIRST COUNT SECONDS  bind @PREFIXn for n in FIRST ..
 *                 FIRST+COUNT-1, each with its backlog full, and answer
 *                 nothing: "squatmany bound=B full=F pid=PID"
 *   listen SECONDS  be a user's daemon on @SOCKET as far as a client can
 *                 tell ("listen bound pid=PID"): accept, answer every
 *                 request with success, and write into any descriptor
 *                 that comes along; on SIGTERM
 *                 (or after SECONDS) "listen conns=C requests=R fds=F
 *                 wrote=W ops=OP,... pids=PID,... inodes=DEV:INO,..."
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>

/* the wire format, as an attacker would copy it from the sources */
#include "../../src/ktraceb/common/ktr_proto.h"

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

/* How a message's descriptors go: one SCM_RIGHTS, two of them, or after SCM_CREDENTIALS. */
enum fd_way { FDS_ONE, FDS_SPLIT, FDS_CREDS };

#define FDS_MAX 250

/* One control message of type with len bytes of data at *used in buf. */
static void add_cmsg(char *buf, size_t *used, int type, const void *data, size_t len)
{
	struct cmsghdr *c = (struct cmsghdr *)(buf + *used);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = type;
	c->cmsg_len = CMSG_LEN(len);
	memcpy(CMSG_DATA(c), data, len);
	*used += CMSG_SPACE(len);
}

static int send_fds_way(int s, const void *msg, size_t len, const int *fds, int nfds,
			enum fd_way way)
{
	union {
		char buf[CMSG_SPACE(sizeof(struct ucred)) + 2 * CMSG_SPACE(FDS_MAX * sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { .iov_base = (void *)msg, .iov_len = len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	int first = way == FDS_SPLIT ? 1 : nfds;
	size_t used = 0;

	if (nfds > 0) {
		memset(&ctl, 0, sizeof(ctl));
		if (way == FDS_CREDS) {
			struct ucred uc = { .pid = getpid(), .uid = getuid(), .gid = getgid() };

			add_cmsg(ctl.buf, &used, SCM_CREDENTIALS, &uc, sizeof(uc));
		}
		add_cmsg(ctl.buf, &used, SCM_RIGHTS, fds, first * sizeof(int));
		if (nfds > first) /* the rest in a second SCM_RIGHTS */
			add_cmsg(ctl.buf, &used, SCM_RIGHTS, fds + first,
				 (nfds - first) * sizeof(int));
		mh.msg_control = ctl.buf;
		mh.msg_controllen = used;
	}
	return sendmsg(s, &mh, MSG_NOSIGNAL) < 0 ? -errno : 0;
}

static int send_fds(int s, const void *msg, size_t len, const int *fds, int nfds)
{
	return send_fds_way(s, msg, len, fds, nfds, FDS_ONE);
}

/* many:N:F, split:F (twice), creds:F (once): F opened for writing, then dup'ed. */
static int open_many(const char *spec, int *fds, enum fd_way *way)
{
	const char *arg = strchr(spec, ':') + 1;
	int n = 2;

	if (strncmp(spec, "many:", 5) == 0) {
		n = atoi(arg);
		arg = strchr(arg, ':') ? strchr(arg, ':') + 1 : "";
		if (n < 1 || n > FDS_MAX)
			return -1;
	} else if (strncmp(spec, "creds:", 6) == 0) {
		n = 1;
		*way = FDS_CREDS;
	} else {
		*way = FDS_SPLIT;
	}
	for (int i = 0; i < n; i++) {
		fds[i] = i ? dup(fds[0]) : open(arg, O_WRONLY | O_CLOEXEC);
		if (fds[i] < 0)
			return -1;
	}
	return n;
}

/* Open the descriptor(s) a spec names (FDS_MAX at most); returns how many (0 for none). */
static int open_spec_way(const char *spec, int *fds, enum fd_way *way)
{
	const char *arg = strchr(spec, ':') ? strchr(spec, ':') + 1 : "";
	int p[2];

	*way = FDS_ONE;
	if (strcmp(spec, "none") == 0)
		return 0;
	if (strncmp(spec, "many:", 5) == 0 || strncmp(spec, "split:", 6) == 0 ||
	    strncmp(spec, "creds:", 6) == 0)
		return open_many(spec, fds, way);
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
	else if (strncmp(spec, "tmpfile:", 8) == 0)
		fds[0] = open(arg, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	else if (strncmp(spec, "unlinked:", 9) == 0) {
		/* someone's file, open for writing, its name removed */
		fds[0] = open(arg, O_WRONLY | O_CLOEXEC);
		if (fds[0] >= 0 && unlink(arg) < 0)
			return -1;
	} else if (strcmp(spec, "eventfd") == 0)
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

static int open_spec(const char *spec, int *fds)
{
	enum fd_way way;

	return open_spec_way(spec, fds, &way);
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

/* The request's USDT patterns from $KTR_HOSTILE_USDT (see the top). */
static void fill_usdt(struct ktr_request *req)
{
	const char *spec = getenv("KTR_HOSTILE_USDT");
	char *u = req->select.usdt;

	if (!spec || !*spec)
		return;
	if (strcmp(spec, "long") == 0) {
		memset(u, 'a', KTR_USDT_SEL_TEXT);
		u[1] = ':';
	} else if (strcmp(spec, "unpadded") == 0) {
		strcpy(u, "python:line");
		u[KTR_USDT_SEL_TEXT - 1] = 'x';
	} else {
		memcpy(u, spec, strnlen(spec, KTR_USDT_SEL_TEXT));
	}
}

static int cmd_op(int argc, char **argv)
{
	struct ktr_request req = { .magic = KTR_PROTO_MAGIC };
	int fds[FDS_MAX] = { -1, -1 }, nfds, s;
	enum fd_way way;

	if (argc < 6)
		return 2;
	req.op = num(argv[1]);
	req.facs = num(argv[2]);
	req.flags = num(argv[3]);
	req.pid = (__s32)strtol(argv[4], NULL, 0);
	req.iosize = argc > 6 ? num(argv[6]) : 4096;
	req.ring_bytes = argc > 7 ? num(argv[7]) : 0;
	req.flight_bytes = argc > 8 ? strtoull(argv[8], NULL, 0) : 0;
	req.flight_flags = argc > 9 ? num(argv[9]) : 0;
	fill_events(&req);
	fill_usdt(&req);
	if (strncmp(argv[5], "inode:", 6) == 0) {
		struct stat st;

		if (stat(argv[5] + 6, &st) < 0) {
			printf("open-failed %s\n", strerror(errno));
			return 0;
		}
		req.file_dev = st.st_dev;
		req.file_ino = st.st_ino;
		argv[5] = "none";
	}
	nfds = open_spec_way(argv[5], fds, &way);
	if (nfds < 0) {
		printf("open-failed %s\n", strerror(errno));
		return 0;
	}
	s = dial();
	if (s < 0) {
		printf("connect-failed %s\n", strerror(errno));
		return 1;
	}
	send_fds_way(s, &req, sizeof(req), fds, nfds, way);
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
		int fds[FDS_MAX] = { -1, -1 }, nfds = open_spec(argv[1], fds);

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
	int fds[FDS_MAX] = { -1, -1 }, nfds = open_spec(argv[0], fds), s = dial();
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

/*
 * What each of files' SETs also asks, from the environment:
 * KTR_HOSTILE_SELECT=1 a syscall selection (trace=read, syscall 0),
 * KTR_HOSTILE_FLIGHT=BYTES a recorder of that size.
 */
static void files_extra(struct ktr_request *req)
{
	const char *sel = getenv("KTR_HOSTILE_SELECT"), *fl = getenv("KTR_HOSTILE_FLIGHT");

	if (sel && *sel == '1') {
		req->select.flags = KTR_SELECT_F_CALLS;
		req->select.native[0] = 1;
		req->select.compat[0] = 1 << 3; /* i386's read */
		snprintf(req->select.text, sizeof(req->select.text), "trace=read");
	}
	if (fl && *fl)
		req->flight_bytes = strtoull(fl, NULL, 0);
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
		files_extra(&req);
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

/* One request of op with nfds of fds (as way says) on *s (dialled again if closed). */
static int storm_one(int *s, __u32 op, int nfds, const int *fds, enum fd_way way, size_t len,
		     int counts[4])
{
	struct ktr_request req = { .magic = KTR_PROTO_MAGIC, .op = op, .iosize = 4096 };
	struct pollfd pfd = { .events = POLLIN };
	struct ktr_reply rep;

	if (op == KTR_OP_SET || op == KTR_OP_CLEAR) {
		req.facs = op == KTR_OP_SET ? KTR_DEF_POINTS : 0;
		req.pid = getpid();
	}
	if (*s < 0 && (*s = dial()) < 0)
		return -1;
	if (send_fds_way(*s, &req, len, fds, nfds, way) < 0) {
		counts[2]++;
		goto closed;
	}
	pfd.fd = *s;
	if (poll(&pfd, 1, 5000) <= 0) {
		counts[3]++;
		goto closed;
	}
	if (recv(*s, &rep, sizeof(rep), 0) != (ssize_t)sizeof(rep)) {
		counts[2]++;
		goto closed;
	}
	counts[rep.error == 0 ? 1 : 0]++;
	return 0;
closed:
	close(*s);
	*s = -1;
	return 0;
}

/*
 * fdstorm LOOPS FILE: each loop sends every kind of request with
 * descriptors it does not take (FILE, opened for writing, dup'ed): 2 with
 * a SET (in one SCM_RIGHTS and in two), a CLEARFILE and a DUMP, one with
 * a CLEAR, a STOP and an unknown op, 3 with a CLEARALL, 250 with a SET
 * (more than the daemon has room for), and (every 100th loop: its
 * connection is closed at the daemon's next tick) 2 with a message of the
 * wrong size; each is answered (refused) or its connection closed.
 */
static int cmd_fdstorm(int loops, const char *path)
{
	int fds[FDS_MAX], counts[4] = { 0 }, s = -1, sent = 0;
	static const struct {
		__u32 op;
		int nfds;
		enum fd_way way;
		size_t len;
	} kinds[] = {
		{ KTR_OP_SET, 2, FDS_ONE, 0 },
		{ KTR_OP_SET, 2, FDS_SPLIT, 0 },
		{ KTR_OP_CLEARFILE, 2, FDS_ONE, 0 },
		{ KTR_OP_DUMP, 2, FDS_ONE, 0 },
		{ KTR_OP_CLEAR, 1, FDS_ONE, 0 },
		{ KTR_OP_STOP, 1, FDS_ONE, 0 },
		{ 99, 1, FDS_ONE, 0 },
		{ KTR_OP_CLEARALL, 3, FDS_ONE, 0 },
		{ KTR_OP_SET, FDS_MAX, FDS_ONE, 0 },
		{ KTR_OP_SET, 2, FDS_ONE, 16 },
	};

	fds[0] = open(path, O_WRONLY | O_CLOEXEC);
	if (fds[0] < 0) {
		printf("open-failed %s\n", strerror(errno));
		return 1;
	}
	for (int i = 1; i < FDS_MAX; i++)
		if ((fds[i] = dup(fds[0])) < 0) {
			printf("dup-failed %s\n", strerror(errno));
			return 1;
		}
	for (int l = 0; l < loops; l++)
		for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
			size_t len = kinds[k].len ? kinds[k].len : sizeof(struct ktr_request);

			if (kinds[k].len && l % 100) /* its connection closed: a tick each */
				continue;
			if (storm_one(&s, kinds[k].op, kinds[k].nfds, fds, kinds[k].way, len,
				      counts) < 0) {
				printf("connect-failed %s\n", strerror(errno));
				return 1;
			}
			sent++;
		}
	printf("fdstorm sent=%d refused=%d taken=%d closed=%d hung=%d\n", sent, counts[0],
	       counts[1], counts[2], counts[3]);
	return 0;
}

static volatile sig_atomic_t terminated;

static void on_term(int sig)
{
	(void)sig;
	terminated = 1;
}

/* Sleep for seconds, or until SIGTERM (on_term): a squatter the test ends exits quietly. */
static void hold(int seconds)
{
	for (int i = 0; i < seconds * 10 && !terminated; i++)
		usleep(100000);
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
	signal(SIGTERM, on_term);
	printf("squat bound pid=%d\n", getpid());
	fflush(stdout);
	hold(seconds);
	return 0;
}

static int cmd_squatmany(const char *prefix, long first, int count, int seconds)
{
	int bound = 0, full = 0;

	for (long n = first; n < first + count; n++) {
		struct sockaddr_un a;
		char name[108];
		socklen_t len;
		int s = socket(AF_UNIX, SOCK_SEQPACKET, 0), c;

		snprintf(name, sizeof(name), "%s%ld", prefix, n);
		len = addr_of(&a, name);
		/* a backlog of 0 takes one connection: ours, then nobody's */
		if (s < 0 || bind(s, (struct sockaddr *)&a, len) < 0 || listen(s, 0) < 0)
			continue;
		bound++;
		for (int i = 0; i < 4; i++) {
			c = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK, 0);
			if (c < 0 || connect(c, (struct sockaddr *)&a, len) == 0)
				continue; /* kept open: it fills the backlog */
			full += errno == EAGAIN;
			close(c);
			break;
		}
	}
	signal(SIGTERM, on_term);
	printf("squatmany bound=%d full=%d pid=%d\n", bound, full, getpid());
	fflush(stdout);
	hold(seconds);
	return 0;
}

struct listen_log {
	int conns, requests, fds, wrote;
	char ops[256], pids[256], inodes[512];
};

static void log_add(char *list, size_t size, const char *fmt, unsigned long long a,
		    unsigned long long b)
{
	size_t used = strlen(list);

	if (used + 48 < size)
		snprintf(list + used, size - used, fmt, used ? "," : "", a, b);
}

/* One request on s: logged, its descriptor written into, answered with success. */
static int listen_one(int s, struct listen_log *lg)
{
	union {
		char buf[CMSG_SPACE(2 * sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct ktr_request req;
	struct ktr_reply rep = { .magic = KTR_PROTO_MAGIC, .type = KTR_REPLY_RESULT };
	struct iovec iov = { .iov_base = &req, .iov_len = sizeof(req) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	mh.msg_control = ctl.buf;
	mh.msg_controllen = sizeof(ctl.buf);
	n = recvmsg(s, &mh, MSG_DONTWAIT);
	if (n <= 0)
		return -1;
	lg->requests++;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
		int fd;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		memcpy(&fd, CMSG_DATA(c), sizeof(fd));
		lg->fds++;
		lg->wrote += write(fd, "HOSTILE-WRITE", 13) == 13;
		close(fd);
	}
	if (n == (ssize_t)sizeof(req)) {
		log_add(lg->ops, sizeof(lg->ops), "%s%llu", req.op, 0);
		log_add(lg->pids, sizeof(lg->pids), "%s%lld", (long long)req.pid, 0);
		if (req.file_dev || req.file_ino)
			log_add(lg->inodes, sizeof(lg->inodes), "%s%llu:%llu", req.file_dev,
				req.file_ino);
	}
	send(s, &rep, sizeof(rep), MSG_NOSIGNAL);
	return 0;
}

static int cmd_listen(int seconds)
{
	struct sockaddr_un a;
	socklen_t len = addr_of(&a, sock_name);
	struct pollfd pfd[64];
	struct listen_log lg = { 0 };
	int n = 1, lfd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	time_t end = time(NULL) + seconds;

	if (lfd < 0 || bind(lfd, (struct sockaddr *)&a, len) < 0 || listen(lfd, 16) < 0) {
		printf("listen failed %s\n", strerror(errno));
		return 1;
	}
	signal(SIGTERM, on_term);
	printf("listen bound pid=%d\n", getpid());
	pfd[0] = (struct pollfd){ .fd = lfd, .events = POLLIN };
	while (!terminated && time(NULL) < end) {
		if (poll(pfd, n, 100) <= 0)
			continue;
		for (int i = n - 1; i >= 1; i--) {
			if (!pfd[i].revents || listen_one(pfd[i].fd, &lg) == 0)
				continue;
			close(pfd[i].fd);
			pfd[i] = pfd[--n];
		}
		if ((pfd[0].revents & POLLIN) && n < 64) {
			int c = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);

			if (c >= 0) {
				lg.conns++;
				pfd[n++] = (struct pollfd){ .fd = c, .events = POLLIN };
			}
		}
	}
	printf("listen conns=%d requests=%d fds=%d wrote=%d ops=%s pids=%s inodes=%s\n", lg.conns,
	       lg.requests, lg.fds, lg.wrote, lg.ops, lg.pids, lg.inodes);
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
	if (strcmp(cmd, "fdstorm") == 0 && argc > 4)
		return cmd_fdstorm(atoi(argv[3]), argv[4]);
	if (strcmp(cmd, "files") == 0 && argc > 4)
		return cmd_files(argv[3], argv[4]);
	if (strcmp(cmd, "squat") == 0 && argc > 4)
		return cmd_squat(argv[3], atoi(argv[4]));
	if (strcmp(cmd, "squatmany") == 0 && argc > 6)
		return cmd_squatmany(argv[3], atol(argv[4]), atoi(argv[5]), atoi(argv[6]));
	if (strcmp(cmd, "listen") == 0 && argc > 3)
		return cmd_listen(atoi(argv[3]));
	fprintf(stderr, "ktr_hostile: bad command %s\n", cmd);
	return 2;
}
