// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "build_id.h"
#include "common/ktr_perm.h"
#include "common/ktr_proto.h"
#include "ktr_others.h"

#define OTHERS_RETRY_MS 10 /* a full backlog is tried again after this, then twice as long */
#define UNIX_LISTENING	0x10000 /* /proc/net/unix Flags: __SO_ACCEPTCON, a listening socket */

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* May this caller's clear concern uid's daemon?  A user has only their own; root's are root's. */
static bool others__mine(uid_t uid)
{
	return getuid() == 0 ? uid != 0 : uid == getuid();
}

static int uids__cmp(const void *a, const void *b)
{
	uid_t x = *(const uid_t *)a, y = *(const uid_t *)b;

	return x < y ? -1 : x > y;
}

/* Sort v and keep each uid once; the new count. */
static int uids__unique(uid_t *v, int n)
{
	int m = 0;

	qsort(v, n, sizeof(*v), uids__cmp);
	for (int i = 0; i < n; i++)
		if (m == 0 || v[m - 1] != v[i])
			v[m++] = v[i];
	return m;
}

/* The uid a name ends in, written as a daemon writes it ("%u"); false if it is not one. */
static bool others__uid_of(const char *s, uid_t *uid)
{
	unsigned long long v;
	char *end;

	if (!isdigit((unsigned char)s[0]) || (s[0] == '0' && s[1]))
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v >= (uid_t)-1)
		return false;
	*uid = (uid_t)v;
	return true;
}

/*
 * Root's -C: every user with a listening @ktraceb-<build>.<uid>, each once.
 * Squatters can bind as many names as they like, so there is no cap here
 * that theirs could fill.
 */
static int others__listening(uid_t **out)
{
	char line[512], prefix[64];
	size_t plen, cap = 0;
	uid_t *v = NULL, *tmp, uid;
	int n = 0;
	FILE *f = fopen("/proc/net/unix", "re");

	if (!f)
		return -errno;
	/* "@ktraceb-<build>." */
	plen = snprintf(prefix, sizeof(prefix), "@" KTR_SOCK_USER_FMT, KTRACEB_BUILD_ID, 0U) - 1;
	while (fgets(line, sizeof(line), f)) {
		unsigned int flags, type;
		int off = 0;
		char *name;

		/* Num RefCount Protocol Flags Type St Inode Path */
		if (sscanf(line, "%*s %*s %*s %x %x %*s %*s %n", &flags, &type, &off) != 2 ||
		    !off || !(flags & UNIX_LISTENING) || type != SOCK_SEQPACKET)
			continue;
		name = line + off;
		name[strcspn(name, "\n")] = '\0';
		if (strncmp(name, prefix, plen) != 0 || !others__uid_of(name + plen, &uid) ||
		    !others__mine(uid))
			continue;
		if ((size_t)n == cap) {
			cap = cap ? 2 * cap : 16;
			tmp = reallocarray(v, cap, sizeof(*v));
			if (!tmp)
				break; /* ask those we have */
			v = tmp;
		}
		v[n++] = uid;
	}
	fclose(f);
	*out = v;
	return v ? uids__unique(v, n) : 0;
}

/*
 * The users whose daemons to ask: the owners the request concerns, or
 * with none named (-C) root's every user with a daemon, a user themself.
 */
static int others__candidates(const uid_t *owners, int nowners, uid_t **out)
{
	uid_t *v;
	int n = 0;

	*out = NULL;
	if (!owners && getuid() == 0)
		return others__listening(out);
	v = calloc(owners ? nowners + 1 : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	if (!owners)
		v[n++] = getuid();
	for (int i = 0; owners && i < nowners; i++)
		if (others__mine(owners[i]))
			v[n++] = owners[i];
	*out = v;
	return uids__unique(v, n);
}

/*
 * Connect to uid's daemon without blocking and send req: the socket, its
 * answer to come, or -errno (-EAGAIN: its backlog is full, try again).
 */
static int others__dial(uid_t uid, const struct ktr_request *req)
{
	struct sockaddr_un addr;
	struct ucred uc;
	socklen_t alen, len = sizeof(uc);
	char name[64];
	int sock, err;

	snprintf(name, sizeof(name), KTR_SOCK_USER_FMT, KTRACEB_BUILD_ID, (unsigned int)uid);
	alen = ktr_proto__addr(&addr, name);
	sock = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (sock < 0)
		return -errno;
	if (connect(sock, (struct sockaddr *)&addr, alen) < 0)
		err = -errno;
	else if (getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &uc, &len) < 0)
		err = -errno;
	else if (uc.uid != 0 && uc.uid != uid)
		err = -EPERM; /* someone else bound uid's name: not asked, told nothing */
	else
		err = ktr_proto__send(sock, req, sizeof(*req), -1);
	if (err) {
		close(sock);
		return err;
	}
	return sock;
}

/* Worth another try before the deadline: a full backlog, or no descriptor free yet. */
static bool others__again(int sock)
{
	return sock == -EAGAIN || sock == -EMFILE || sock == -ENFILE;
}

/*
 * Every candidate is tried once whatever the time, then answers are
 * awaited and full backlogs retried (less and less often), together, until
 * the one deadline.
 */
static void others__exchange(const uid_t *uids, int n, const struct ktr_request *req)
{
	long long start = now_ms(), retry_at = start + OTHERS_RETRY_MS, now;
	struct pollfd *pfd = calloc(n, sizeof(*pfd));
	int *socks = calloc(n, sizeof(*socks)), *idx = calloc(n, sizeof(*idx));
	int interval = OTHERS_RETRY_MS;

	if (!pfd || !socks || !idx)
		goto cleanup;
	for (int i = 0; i < n; i++)
		socks[i] = others__dial(uids[i], req);
	while ((now = now_ms()) < start + KTR_OTHERS_DEADLINE_MS) {
		long long until = start + KTR_OTHERS_DEADLINE_MS;
		int npfd = 0, nretry = 0;

		for (int i = 0; i < n; i++) {
			if (socks[i] >= 0) {
				pfd[npfd] = (struct pollfd){ .fd = socks[i], .events = POLLIN };
				idx[npfd++] = i;
			}
			nretry += others__again(socks[i]);
		}
		if (!npfd && !nretry)
			break;
		if (nretry && retry_at < until)
			until = retry_at;
		if (poll(pfd, npfd, until > now ? (int)(until - now) : 0) < 0 && errno != EINTR)
			break;
		/* an answer, or the daemon's end of it: either way it has the request */
		for (int j = 0; j < npfd; j++) {
			if (!pfd[j].revents)
				continue;
			close(socks[idx[j]]);
			socks[idx[j]] = -ECONNRESET;
		}
		if (!nretry || now_ms() < retry_at)
			continue;
		for (int i = 0; i < n; i++)
			if (others__again(socks[i]))
				socks[i] = others__dial(uids[i], req);
		interval *= 2;
		retry_at = now_ms() + interval;
	}
	for (int i = 0; i < n; i++)
		if (socks[i] >= 0)
			close(socks[i]);
cleanup:
	free(idx);
	free(socks);
	free(pfd);
}

void ktr_others__ask(int primary, const struct ktr_request *req, const uid_t *owners, int nowners)
{
	struct ucred uc;
	socklen_t len = sizeof(uc);
	uid_t *uids;
	int n;

	if (primary >= 0 && getsockopt(primary, SOL_SOCKET, SO_PEERCRED, &uc, &len) == 0 &&
	    uc.uid != 0)
		return; /* our own daemon served it: nobody else has our traces */
	n = others__candidates(owners, nowners, &uids);
	if (n > 0)
		others__exchange(uids, n, req);
	free(uids);
}

void ktr_others__clear(int primary, const struct ktr_request *clear, int fd)
{
	struct ktr_request req = *clear;
	uid_t *owners = NULL, file_owner;
	struct stat st;
	int n = 0;

	req.magic = KTR_PROTO_MAGIC;
	if (req.op == KTR_OP_CLEARFILE) {
		if (fstat(fd, &st) < 0)
			return;
		req.op = KTR_OP_CLEARINODE;
		req.file_dev = st.st_dev;
		req.file_ino = st.st_ino;
		file_owner = st.st_uid;
		ktr_others__ask(primary, &req, &file_owner, 1);
		return;
	}
	if (req.op == KTR_OP_CLEAR &&
	    (n = ktr_procs__owners(req.pid, req.flags & KTR_REQ_DESCEND, &owners)) <= 0)
		return; /* no such process: no daemon traces it */
	ktr_others__ask(primary, &req, owners, n);
	free(owners);
}
