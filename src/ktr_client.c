// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "build_id.h"
#include "ktr_client.h"
#include "ktr_daemon.h"
#include "ktr_loader.h"
#include "ktr_proto.h"

#define CONNECT_TRIES 50

/*
 * Connect to name; the peer must be root's, ours, or (root sending a clear
 * to a user's daemon) that user's: a squatter is none of them.
 */
static int client__try(const char *name, uid_t also, const char **why)
{
	struct sockaddr_un addr;
	socklen_t alen = ktr_proto__addr(&addr, name), len;
	struct ucred uc;
	int sock = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);

	if (sock < 0)
		return -errno;
	if (connect(sock, (struct sockaddr *)&addr, alen) < 0) {
		int err = -errno;

		close(sock);
		return err;
	}
	len = sizeof(uc);
	if (getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &uc, &len) < 0 ||
	    (uc.uid != 0 && uc.uid != getuid() && uc.uid != also)) {
		close(sock);
		*why = "the ktraceb daemon socket is held by another user: refusing to use it";
		return -EPERM;
	}
	return sock;
}

/* Fork the daemon on a socket we have bound; it outlives us. */
static int client__spawn(const struct ktr_loader_opts *opts, const char *name, bool shared)
{
	struct sockaddr_un addr;
	socklen_t alen = ktr_proto__addr(&addr, name);
	int lfd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0), devnull;
	pid_t pid;

	if (lfd < 0)
		return -errno;
	if (bind(lfd, (struct sockaddr *)&addr, alen) < 0 || listen(lfd, 64) < 0) {
		int err = -errno;

		close(lfd);
		return err; /* EADDRINUSE: another one just started */
	}
	pid = fork();
	if (pid < 0) {
		close(lfd);
		return -errno;
	}
	if (pid == 0) {
		/* the daemon starts clean: none of this command's handlers */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		setsid();
		if (fork() != 0)
			_exit(0);
		devnull = open("/dev/null", O_RDWR);
		dup2(devnull, 0);
		dup2(devnull, 1);
		if (!opts->verbose) /* -v: the daemon's libbpf messages reach us */
			dup2(devnull, 2);
		dup2(lfd, 3);
		close_range(4, ~0U, 0);
		if (chdir("/") < 0)
			_exit(1);
		prctl(PR_SET_NAME, "ktracebd");
		_exit(ktr_daemon__run(opts, 3, shared, getuid()));
	}
	close(lfd);
	waitpid(pid, NULL, 0);
	return 0;
}

int ktr_client__connect(const struct ktr_loader_opts *opts, bool spawn, const char **why)
{
	char own[64], shared[64];
	bool root = getuid() == 0;
	int sock = -ENOENT;

	snprintf(shared, sizeof(shared), KTR_SOCK_SHARED_FMT, KTRACEB_BUILD_ID);
	snprintf(own, sizeof(own), KTR_SOCK_USER_FMT, KTRACEB_BUILD_ID, (unsigned int)getuid());
	*why = "no ktraceb daemon is running";
	for (int i = 0; i < CONNECT_TRIES; i++) {
		sock = client__try(shared, 0, why);
		if (sock >= 0 || sock == -EPERM)
			return sock;
		if (!root) {
			sock = client__try(own, 0, why);
			if (sock >= 0 || sock == -EPERM)
				return sock;
		}
		if (!spawn)
			return -ENOENT;
		if (client__spawn(opts, root ? shared : own, root) < 0)
			usleep(20000); /* lost the race to start one: connect to it */
	}
	*why = "cannot start the ktraceb daemon";
	return sock;
}

/* Listening abstract sockets named "@<prefix>...", from /proc/net/unix. */
static int client__names(const char *prefix, char (*names)[64], int max)
{
	char line[512];
	int n = 0;
	FILE *f = fopen("/proc/net/unix", "re");

	if (!f)
		return 0;
	while (n < max && fgets(line, sizeof(line), f)) {
		char *at = strchr(line, '@');

		if (!at || strncmp(at + 1, prefix, strlen(prefix)) != 0)
			continue;
		at[strcspn(at, " \n")] = '\0';
		snprintf(names[n], sizeof(names[n]), "%s", at + 1);
		for (int i = 0; i < n; i++)
			if (strcmp(names[i], names[n]) == 0)
				n--; /* one line per connection: keep one name */
		n++;
	}
	fclose(f);
	return n;
}

int ktr_client__others(int primary, int *socks, int max)
{
	char names[32][64], prefix[64], own[64];
	struct ucred uc;
	socklen_t len = sizeof(uc);
	const char *why;
	int n = 0, count;

	snprintf(prefix, sizeof(prefix), KTR_SOCK_USER_FMT, KTRACEB_BUILD_ID, 0U);
	prefix[strlen(prefix) - 1] = '\0'; /* "ktraceb-<build>." */
	snprintf(own, sizeof(own), KTR_SOCK_USER_FMT, KTRACEB_BUILD_ID, (unsigned int)getuid());
	/* which daemon answers us: ours, or root's */
	if (primary >= 0 && getsockopt(primary, SOL_SOCKET, SO_PEERCRED, &uc, &len) == 0 &&
	    uc.uid != 0)
		return 0; /* our own daemon is the primary: nobody else has our traces */
	count = client__names(prefix, names, 32);
	for (int i = 0; i < count && n < max; i++) {
		unsigned int uid = strtoul(names[i] + strlen(prefix), NULL, 10);
		int sock;

		if (getuid() != 0 && strcmp(names[i], own) != 0)
			continue;
		sock = client__try(names[i], uid, &why);
		if (sock >= 0)
			socks[n++] = sock;
	}
	return n;
}

int ktr_client__request(int sock, const struct ktr_request *req, int fd, struct ktr_reply *rep)
{
	int err = ktr_proto__send(sock, req, sizeof(*req), fd);

	if (err)
		return err;
	err = ktr_proto__recv(sock, rep, sizeof(*rep), NULL);
	if (!err && rep->magic != KTR_PROTO_MAGIC)
		err = -EBADMSG;
	return err;
}
