// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sysexits.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <sys/xattr.h>

#include "build_id.h"
#include "common/ktr_creds.h"
#include "common/ktr_daemon_opts.h"
#include "common/ktr_proto.h"
#include "ktr_client.h"

#define CONNECT_TRIES 50

/* The daemon this binary runs (ktr_client__set_daemon) */
static ktr_daemon_run_fn *client_daemon;
/* -v: the log of the daemon we started, while it loads (client__spawn), or -1 */
static int client_log_fd = -1;
/* We started the daemon: its first answer waits for its programs to load */
static bool client_started;
#define NOT_INIT_PIDNS \
	"cannot start the ktraceb daemon here: it must run in the initial pid namespace"

static void sock__timeout(int sock, int ms)
{
	struct timeval tv = { .tv_sec = ms / 1000, .tv_usec = (ms % 1000) * 1000 };

	/* bounds connect() on a full backlog too (unix sockets use the send timeout) */
	setsockopt(sock, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	setsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
}

/* Connect to name; the peer must be root's or ours: a squatter is neither. */
static int client__try(const char *name, int timeout_ms, const char **why)
{
	struct sockaddr_un addr;
	socklen_t alen = ktr_proto__addr(&addr, name), len;
	struct ucred uc;
	int sock = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);

	if (sock < 0)
		return -errno;
	sock__timeout(sock, timeout_ms);
	if (connect(sock, (struct sockaddr *)&addr, alen) < 0) {
		int err = errno == EAGAIN || errno == EINPROGRESS ? -ETIMEDOUT : -errno;

		close(sock);
		if (err == -ETIMEDOUT)
			*why = "the ktraceb daemon does not answer (timed out)";
		return err;
	}
	len = sizeof(uc);
	if (getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &uc, &len) < 0 ||
	    (uc.uid != 0 && uc.uid != getuid())) {
		close(sock);
		*why = "the ktraceb daemon socket is held by another user: refusing to use it";
		return -EPERM;
	}
	return sock;
}

/*
 * KTR_RUN_DIR for root's socket: created by root, and refused unless it is
 * root's own directory that nobody else can write to.
 */
static int client__run_dir(const char **why)
{
	struct stat st;

	if (mkdir(KTR_RUN_DIR, 0755) < 0 && errno != EEXIST) {
		*why = "cannot create " KTR_RUN_DIR;
		return -errno;
	}
	if (lstat(KTR_RUN_DIR, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != 0 ||
	    (st.st_mode & 022)) {
		*why = KTR_RUN_DIR " is not a directory only root can write to: refusing to use it";
		return -EPERM;
	}
	return 0;
}

/* A listening socket at name: root's path (replacing a dead daemon's), or abstract. */
static int client__listen(const char *name)
{
	struct sockaddr_un addr;
	socklen_t alen = ktr_proto__addr(&addr, name);
	int lfd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0), err;

	if (lfd < 0)
		return -errno;
	if (name[0] == '/')
		unlink(name); /* under the lock, after a failed connect: a dead daemon's */
	if (bind(lfd, (struct sockaddr *)&addr, alen) < 0 ||
	    (name[0] == '/' && chmod(name, 0666) < 0) || listen(lfd, 128) < 0) {
		err = -errno;
		close(lfd);
		return err; /* EADDRINUSE: another one just started */
	}
	return lfd;
}

/* A capability set of /proc/self/status ("CapEff"), or 0. */
static unsigned long long client__caps(const char *which)
{
	FILE *f = fopen("/proc/self/status", "re");
	unsigned long long v = 0, x;
	char line[128], name[16];

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%15[^:]:%llx", name, &x) == 2 && strcmp(name, which) == 0)
			v = x;
	if (f)
		fclose(f);
	return v;
}

/*
 * Would this binary, run again, have what we have?  Root stays root; a
 * user's capabilities come back from the file's own (setcap), or are
 * ambient, which an exec keeps; any other way of holding them ends there.
 */
static bool client__exec_keeps_caps(void)
{
	unsigned long long eff = client__caps("CapEff");

	return geteuid() == 0 || (eff & ~client__caps("CapAmb")) == 0 ||
	       getxattr("/proc/self/exe", "security.capability", NULL, 0) > 0;
}

/*
 * The daemon's own command line, as ps shows it ("ktracebd -b 16m"): this
 * binary again (/proc/self/exe: the same file even if it was replaced
 * since), with argv[0] "ktracebd" and the daemon's options; the socket
 * bound is fd 3.  Returns only if that cannot be run, or would not have
 * our capabilities.
 */
static void client__exec_daemon(const struct ktr_loader_opts *opts)
{
	char size[32];
	char *argv[] = { KTR_DAEMON_ARGV0, "-b", size, opts->verbose ? "-v" : NULL, NULL };
	size_t b = opts->ring_bytes;

	if (!client__exec_keeps_caps())
		return;
	if (b % (1u << 30) == 0)
		snprintf(size, sizeof(size), "%zug", b >> 30);
	else if (b % (1u << 20) == 0)
		snprintf(size, sizeof(size), "%zum", b >> 20);
	else
		snprintf(size, sizeof(size), "%zuk", b >> 10);
	execv("/proc/self/exe", argv);
}

/*
 * The daemon's descriptors: none of ours but the listening socket (3) and,
 * with -v, its stderr as the pipe we read the load's log from and our
 * stderr (4) for after.  Returns the options it runs with.
 */
static struct ktr_loader_opts client__daemon_fds(const struct ktr_loader_opts *opts, int lfd,
						 int log_fd)
{
	struct ktr_loader_opts o = *opts;
	int devnull = open("/dev/null", O_RDWR);

	o.log_done_fd = 0;
	dup2(devnull, 0);
	dup2(devnull, 1);
	if (log_fd >= 0) {
		dup2(2, 4);
		dup2(log_fd, 2);
		o.log_done_fd = 4;
		/* a client gone before the log ends must not kill the daemon */
		signal(SIGPIPE, SIG_IGN);
	} else if (!opts->verbose) {
		dup2(devnull, 2);
	}
	dup2(lfd, 3);
	close_range(o.log_done_fd ? 5 : 4, ~0U, 0);
	return o;
}

/*
 * Fork the daemon on a socket we have bound; it outlives us.  It runs as
 * this binary run again (client__exec_daemon), or, where that cannot be,
 * here in the fork, under our command line.
 */
static int client__spawn(const struct ktr_loader_opts *opts, const char *name, bool shared)
{
	int lfd = client__listen(name), logp[2] = { -1, -1 };
	struct ktr_loader_opts o;
	pid_t pid;

	if (lfd < 0)
		return lfd;
	/* -v: libbpf's log of a cold start is thousands of lines, for us to pass on */
	if (opts->verbose && client_log_fd < 0 && pipe2(logp, O_CLOEXEC) < 0)
		logp[0] = logp[1] = -1;
	pid = fork();
	if (pid < 0) {
		close(lfd);
		if (logp[0] >= 0) {
			close(logp[0]);
			close(logp[1]);
		}
		return -errno;
	}
	if (pid == 0) {
		/* the daemon starts clean: none of this command's handlers */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		setsid();
		if (fork() != 0)
			_exit(0);
		o = client__daemon_fds(opts, lfd, logp[1]);
		if (chdir("/") < 0)
			_exit(1);
		umask(077);
		client__exec_daemon(&o);
		prctl(PR_SET_NAME, KTR_DAEMON_ARGV0);
		_exit(client_daemon(&o, 3, shared, getuid()));
	}
	close(lfd);
	if (logp[1] >= 0)
		close(logp[1]);
	client_log_fd = logp[0];
	client_started = true;
	waitpid(pid, NULL, 0);
	return 0;
}

/* Is fd 3 bound to name?  A path as systemd bound it too (with or without its NUL). */
static bool client__bound_to(const char *name)
{
	struct sockaddr_un addr = { 0 }, want;
	socklen_t alen = sizeof(addr), wlen = ktr_proto__addr(&want, name);

	if (getsockname(3, (struct sockaddr *)&addr, &alen) < 0 || addr.sun_family != AF_UNIX)
		return false;
	if (name[0] == '/')
		return strncmp(addr.sun_path, name, sizeof(addr.sun_path)) == 0;
	return alen == wlen && memcmp(&addr, &want, wlen) == 0;
}

/* Is fd 3 a listening SOCK_SEQPACKET unix socket bound to name?  Else says why. */
static bool client__listens_on(const char *name)
{
	socklen_t len = sizeof(int);
	int type = 0, acc = 0;

	if (!client__bound_to(name) || getsockopt(3, SOL_SOCKET, SO_TYPE, &type, &len) < 0 ||
	    type != SOCK_SEQPACKET || getsockopt(3, SOL_SOCKET, SO_ACCEPTCONN, &acc, &len) < 0 ||
	    !acc) {
		fprintf(stderr, "ktracebd: fd 3 is not a listening %s%s: not this build's socket\n",
			name[0] == '/' ? "" : "@", name);
		return false;
	}
	return true;
}

void ktr_client__set_daemon(ktr_daemon_run_fn *run)
{
	client_daemon = run;
}

bool ktr_client__spawned(const char *argv0)
{
	return strcmp(argv0, KTR_DAEMON_ARGV0) == 0;
}

int ktr_client__serve_spawned(const struct ktr_loader_opts *opts)
{
	struct ktr_loader_opts o = *opts;
	char name[128];

	prctl(PR_SET_NAME, KTR_DAEMON_ARGV0); /* exec named it after /proc/self/exe */
	if (getuid() == 0)
		snprintf(name, sizeof(name), KTR_SOCK_SHARED_FMT, KTRACEB_BUILD_ID);
	else
		snprintf(name, sizeof(name), KTR_SOCK_USER_FMT, KTRACEB_BUILD_ID,
			 (unsigned int)getuid());
	if (!client__listens_on(name))
		return EX_USAGE;
	/* -v: the client reads the load's log from our stderr, its own is fd 4 */
	o.log_done_fd = opts->verbose && fcntl(4, F_GETFD) >= 0 ? 4 : 0;
	/* root's daemon serves every user, a user's their own alone (client__connect) */
	return client_daemon(&o, 3, getuid() == 0, getuid());
}

/*
 * -v: the log of the daemon we started, passed on to our stderr until it
 * ends (the daemon loaded its programs, or failed to): a slow terminal
 * slows the daemon, and the wait for its answer starts again with each
 * piece, so that the answer, a refusal too, comes after the log.
 */
static void client__pass_log(void)
{
	struct pollfd p = { .fd = client_log_fd, .events = POLLIN };
	char buf[8192];
	ssize_t n;

	while (client_log_fd >= 0 && poll(&p, 1, KTR_CLIENT_START_TIMEOUT_MS) > 0 &&
	       (n = read(client_log_fd, buf, sizeof(buf))) > 0)
		for (ssize_t off = 0, w; off<n; off += w> 0 ? w : n - off)
			w = write(STDERR_FILENO, buf + off, n - off);
	if (client_log_fd >= 0)
		close(client_log_fd);
	client_log_fd = -1;
}

/*
 * Started by systemd on root's socket (ktracebd.socket), by sd_listen_fds(3)'s
 * protocol, read without libsystemd: LISTEN_PID is us and LISTEN_FDS 1, so
 * fd 3 listens.  Only root's daemon is started so.
 */
bool ktr_client__activated(void)
{
	const char *pid = getenv("LISTEN_PID"), *fds = getenv("LISTEN_FDS");
	bool ours = pid && fds && strtol(pid, NULL, 10) == getpid() && strcmp(fds, "1") == 0;

	/* nothing forked or run later takes them for its own */
	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDS");
	unsetenv("LISTEN_FDNAMES");
	return ours && getuid() == 0 && geteuid() == 0;
}

int ktr_client__serve_activated(const struct ktr_loader_opts *opts)
{
	char want[128];

	/* a unit of another build names another socket: its clients are not ours */
	snprintf(want, sizeof(want), KTR_SOCK_SHARED_FMT, KTRACEB_BUILD_ID);
	if (!client__listens_on(want))
		return EX_CONFIG;
	if (chdir("/") < 0)
		return 1;
	umask(077);
	prctl(PR_SET_NAME, KTR_DAEMON_ARGV0);
	return client_daemon(opts, 3, true, 0);
}

/* Root: connect to root's daemon, starting it under the lock if none answers. */
static int client__connect_root(const struct ktr_loader_opts *opts, const char *sock_path,
				bool spawn, const char **why)
{
	char lock_path[128];
	int sock, lock, err;

	sock = client__try(sock_path, KTR_CLIENT_TIMEOUT_MS, why);
	if (sock >= 0 || sock == -EPERM || sock == -ETIMEDOUT)
		return sock;
	if (!spawn)
		return -ENOENT; /* no socket, or a dead daemon's */
	if (!ktr_creds__init_pidns()) {
		*why = NOT_INIT_PIDNS;
		return -EPERM;
	}
	err = client__run_dir(why);
	if (err)
		return err;
	snprintf(lock_path, sizeof(lock_path), KTR_LOCK_SHARED_FMT, KTRACEB_BUILD_ID);
	lock = open(lock_path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (lock < 0 || flock(lock, LOCK_EX) < 0) {
		*why = "cannot lock " KTR_RUN_DIR;
		if (lock >= 0)
			close(lock);
		return -errno;
	}
	/* another root ktraceb may have started it while we waited for the lock */
	sock = client__try(sock_path, KTR_CLIENT_TIMEOUT_MS, why);
	if (sock < 0 && sock != -EPERM && sock != -ETIMEDOUT) {
		err = client__spawn(opts, sock_path, true);
		sock = err < 0 ? err : client__try(sock_path, KTR_CLIENT_TIMEOUT_MS, why);
		if (err < 0)
			*why = "cannot start the ktraceb daemon";
	}
	close(lock); /* releases the lock */
	return sock;
}

int ktr_client__connect(const struct ktr_loader_opts *opts, bool spawn, const char **why)
{
	char own[64], shared[128];
	int sock = -ENOENT;

	snprintf(shared, sizeof(shared), KTR_SOCK_SHARED_FMT, KTRACEB_BUILD_ID);
	snprintf(own, sizeof(own), KTR_SOCK_USER_FMT, KTRACEB_BUILD_ID, (unsigned int)getuid());
	*why = "no ktraceb daemon is running";
	if (getuid() == 0)
		return client__connect_root(opts, shared, spawn, why);
	for (int i = 0; i < CONNECT_TRIES; i++) {
		sock = client__try(shared, KTR_CLIENT_TIMEOUT_MS, why);
		if (sock >= 0 || sock == -EPERM || sock == -ETIMEDOUT)
			return sock;
		sock = client__try(own, KTR_CLIENT_TIMEOUT_MS, why);
		if (sock >= 0 || sock == -EPERM || sock == -ETIMEDOUT)
			return sock;
		if (!spawn)
			return -ENOENT;
		if (!ktr_creds__init_pidns()) {
			*why = NOT_INIT_PIDNS;
			return -EPERM;
		}
		if (client__spawn(opts, own, false) < 0)
			usleep(20000); /* lost the race to start one: connect to it */
	}
	*why = "cannot start the ktraceb daemon";
	return sock;
}

int ktr_client__request(int sock, const struct ktr_request *req, int fd, struct ktr_reply *rep)
{
	int err = ktr_proto__send(sock, req, sizeof(*req), fd);

	/* a daemon that refused the connection has said why before closing it */
	if (err && err != -EPIPE && err != -ECONNRESET)
		return err;
	client__pass_log();
	if (client_started)
		sock__timeout(sock, KTR_CLIENT_START_TIMEOUT_MS);
	err = ktr_proto__recv(sock, rep, sizeof(*rep), NULL);
	if (client_started)
		sock__timeout(sock, KTR_CLIENT_TIMEOUT_MS);
	client_started = false;
	if (err == -EAGAIN || err == -EWOULDBLOCK)
		err = -ETIMEDOUT;
	if (!err && rep->magic != KTR_PROTO_MAGIC)
		err = -EBADMSG;
	return err;
}

void ktr_client__log_path(char *buf, size_t size)
{
	snprintf(buf, size, KTR_LOG_SHARED_FMT, KTRACEB_BUILD_ID);
}
