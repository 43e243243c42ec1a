// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/socket.h>

#include "common/ktr_creds.h"
#include "common/ktr_perm.h"
#include "common/ktr_proto.h"
#include "daemon/ktr_clock.h"
#include "ktr_conn.h"
#include "ktr_share.h"

/* accepted per loop turn at most, so requests keep being served meanwhile */
#define ACCEPT_BATCH 64

struct ktr_conn {
	int sock;
	struct ktr_caller cred; /* pinned at accept */
	long long last_ms; /* accepted, or last request answered */
	bool dead; /* closed at the end of this loop turn */
	unsigned int waiting; /* trace files waiting to send it DONE */
	struct ktr_conn *next;
};

struct ktr_conns {
	int listen_fd;
	int spare_fd; /* given up to accept (and refuse) at EMFILE */
	int ep;
	unsigned int fd_limit; /* RLIMIT_NOFILE */
	struct ktr_conn *list;
	unsigned int n;
	/*
	 * Connections refused with an answer, kept open a moment: a client
	 * whose request arrives after the answer must still read it (closing
	 * a unix socket with unread data resets the peer).  Bounded: the
	 * oldest is closed to make room.
	 */
	struct {
		int sock; /* 0: none (the daemon's 0 is /dev/null) */
		long long ms;
	} refused[KTR_REFUSED_KEPT];
	unsigned int refused_next;
};

struct ktr_conns *ktr_conns__new(int listen_fd, int ep, unsigned int fd_limit)
{
	struct ktr_conns *cs = calloc(1, sizeof(*cs));

	if (!cs)
		return NULL;
	cs->listen_fd = listen_fd;
	cs->ep = ep;
	cs->fd_limit = fd_limit;
	cs->spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	fcntl(listen_fd, F_SETFL, fcntl(listen_fd, F_GETFL) | O_NONBLOCK);
	return cs;
}

const struct ktr_caller *ktr_conn__caller(const struct ktr_conn *cn)
{
	return &cn->cred;
}

void ktr_conn__drop(struct ktr_conn *cn)
{
	cn->dead = true;
}

void ktr_conn__hold(struct ktr_conn *cn)
{
	cn->waiting++;
}

void ktr_conn__release(struct ktr_conn *cn)
{
	cn->waiting--;
}

/* A socket and a pidfd per connection, the rest's, and a few of our own. */
static unsigned int conns__fds_in_use(const struct ktr_conns *cs, unsigned int other_fds)
{
	return 2 * cs->n + other_fds + 32;
}

void ktr_conn__reply(struct ktr_conn *cn, int type, int error, unsigned int count, const char *msg,
		     unsigned long long records, unsigned long long lost,
		     unsigned long long ring_bytes)
{
	struct ktr_reply *rep;

	if (cn->dead)
		return;
	rep = calloc(1, sizeof(*rep));
	if (!rep) {
		cn->dead = true;
		return;
	}
	rep->magic = KTR_PROTO_MAGIC;
	rep->type = type;
	rep->error = error;
	rep->count = count;
	rep->records = records;
	rep->lost = lost;
	rep->ring_bytes = ring_bytes;
	snprintf(rep->msg, sizeof(rep->msg), "%s", msg ? msg : "");
	/* the socket is non-blocking: a full queue means a client that does not read */
	if (ktr_proto__send(cn->sock, rep, sizeof(*rep), -1) < 0)
		cn->dead = true;
	free(rep);
}

void ktr_conn__note(struct ktr_conn *cn, const char *line)
{
	char msg[KTR_REPLY_MSG_MAX];

	snprintf(msg, sizeof(msg), "%s\n", line);
	ktr_conn__reply(cn, KTR_REPLY_NOTE, 0, 0, msg, 0, 0, 0);
}

/* Live connections of uid, and of everyone in *all. */
static unsigned int conn__count_uid(const struct ktr_conns *cs, uid_t uid, unsigned int *all)
{
	unsigned int n = 0;

	*all = 0;
	for (const struct ktr_conn *cn = cs->list; cn; cn = cn->next) {
		n += cn->cred.uid == uid && !cn->dead;
		*all += !cn->dead;
	}
	return n;
}

/* The answer to a refused connection, its request (if there yet) taken off first. */
static void conn__refusal(int sock, int error, const char *msg)
{
	struct ktr_conn tmp = { .sock = sock };
	struct ktr_request req;

	/*
	 * Take the request off the socket first: closing a unix socket with
	 * unread data resets the peer, which would then never see the answer.
	 * Whatever descriptors came with it are closed.
	 */
	ktr_proto__recv(sock, &req, sizeof(req), NULL);
	ktr_conn__reply(&tmp, KTR_REPLY_RESULT, error, 0, msg, 0, 0, 0);
}

void ktr_conn__refuse(int sock, int error, const char *msg)
{
	conn__refusal(sock, error, msg);
	close(sock);
}

/*
 * Refuse a connection over the limits: answered now, closed a moment
 * later (KTR_REFUSED_MS), so that a request still on its way does not
 * reset the client before it reads the answer.
 */
static void conn__refuse(struct ktr_conns *cs, int sock, const char *msg)
{
	unsigned int i = cs->refused_next++ % KTR_REFUSED_KEPT;

	conn__refusal(sock, EAGAIN, msg);
	shutdown(sock, SHUT_WR);
	if (cs->refused[i].sock > 0)
		close(cs->refused[i].sock);
	cs->refused[i].sock = sock;
	cs->refused[i].ms = ktr_now_ms();
}

/* Close the refused connections whose moment has passed (all of them with all). */
static void conn__close_refused(struct ktr_conns *cs, bool all)
{
	long long now = ktr_now_ms();

	for (unsigned int i = 0; i < KTR_REFUSED_KEPT; i++)
		if (cs->refused[i].sock > 0 && (all || now - cs->refused[i].ms >= KTR_REFUSED_MS)) {
			close(cs->refused[i].sock);
			cs->refused[i].sock = 0;
		}
}

/* May this caller have one more connection?  Else false, and why not in why. */
static bool conn__may(const struct ktr_conns *cs, unsigned int other_fds,
		      const struct ktr_caller *c, char *why, size_t size)
{
	unsigned int reserve = c->uid == 0 ? 8 : KTR_FD_ROOT_RESERVE, all;
	unsigned int mine = conn__count_uid(cs, c->uid, &all);

	if (conns__fds_in_use(cs, other_fds) + reserve >= cs->fd_limit) {
		snprintf(why, size,
			 "the ktraceb daemon is busy (too many connections); try again\n");
		return false;
	}
	if (ktr_share__may(KTR_POOL_CONNS, c->uid, mine, all, 1, why, size - 1) < 0) {
		snprintf(why + strlen(why), size - strlen(why), "\n");
		return false;
	}
	return true;
}

static void conn__accept_one(struct ktr_conns *cs, unsigned int other_fds, int sock)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct ktr_conn *cn = calloc(1, sizeof(*cn));
	char why[256];

	if (!cn || ktr_creds__pin(sock, &cn->cred) < 0) {
		free(cn);
		close(sock);
		return;
	}
	if (!conn__may(cs, other_fds, &cn->cred, why, sizeof(why))) {
		conn__refuse(cs, sock, why);
		ktr_creds__unpin(&cn->cred);
		free(cn);
		return;
	}
	cn->sock = sock;
	cn->last_ms = ktr_now_ms();
	ev.data.ptr = cn;
	if (epoll_ctl(cs->ep, EPOLL_CTL_ADD, sock, &ev) < 0) {
		ktr_creds__unpin(&cn->cred);
		free(cn);
		close(sock);
		return;
	}
	cn->next = cs->list;
	cs->list = cn;
	cs->n++;
}

void ktr_conns__accept(struct ktr_conns *cs, unsigned int other_fds)
{
	for (int i = 0; i < ACCEPT_BATCH; i++) {
		int sock = accept4(cs->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);

		if (sock >= 0) {
			conn__accept_one(cs, other_fds, sock);
			continue;
		}
		if ((errno == EMFILE || errno == ENFILE) && cs->spare_fd >= 0) {
			/* out of descriptors: take the connection off the queue and drop it */
			close(cs->spare_fd);
			sock = accept4(cs->listen_fd, NULL, NULL, SOCK_CLOEXEC);
			if (sock >= 0)
				ktr_conn__refuse(sock, EAGAIN,
						 "the ktraceb daemon is busy; try again\n");
			cs->spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
			continue;
		}
		return; /* EAGAIN: the queue is empty */
	}
}

int ktr_conn__receive(struct ktr_conns *cs, struct ktr_conn *cn, struct ktr_request *req,
		      struct ktr_proto_fds *fds)
{
	int err;

	*fds = (struct ktr_proto_fds){ .fd = -1 };
	if (cn->dead)
		return 0;
	err = ktr_proto__recv(cn->sock, req, sizeof(*req), fds);
	if (err == -EAGAIN)
		return 0;
	if (err || req->magic != KTR_PROTO_MAGIC) {
		/* a wrong size, a wrong magic, the peer gone: nothing to answer */
		if (fds->fd >= 0)
			close(fds->fd);
		fds->fd = -1;
		cn->dead = true;
		epoll_ctl(cs->ep, EPOLL_CTL_DEL, cn->sock, NULL);
		return 0;
	}
	return 1;
}

void ktr_conn__served(struct ktr_conns *cs, struct ktr_conn *cn)
{
	cn->last_ms = ktr_now_ms();
	if (cn->dead) /* no more events for it; the tick's sweep closes it */
		epoll_ctl(cs->ep, EPOLL_CTL_DEL, cn->sock, NULL);
}

static void conn__close(struct ktr_conns *cs, struct ktr_conn *cn,
			void (*gone)(void *ctx, struct ktr_conn *cn), void *ctx)
{
	/* a foreground client that goes away takes its traces with it */
	if (cn->waiting)
		gone(ctx, cn);
	epoll_ctl(cs->ep, EPOLL_CTL_DEL, cn->sock, NULL);
	close(cn->sock);
	ktr_creds__unpin(&cn->cred);
	cs->n--;
	free(cn);
}

bool ktr_conns__sweep(struct ktr_conns *cs, void (*gone)(void *ctx, struct ktr_conn *cn), void *ctx)
{
	long long now = ktr_now_ms();
	struct ktr_conn **pp = &cs->list;
	bool any = false;

	conn__close_refused(cs, false);
	while (*pp) {
		struct ktr_conn *cn = *pp;

		if (cn->dead || (!cn->waiting && now - cn->last_ms > KTR_CONN_IDLE_MS)) {
			*pp = cn->next;
			conn__close(cs, cn, gone, ctx);
			continue;
		}
		any = true;
		pp = &cn->next;
	}
	return any;
}

void ktr_conns__free(struct ktr_conns *cs, void (*gone)(void *ctx, struct ktr_conn *cn), void *ctx)
{
	if (!cs)
		return;
	conn__close_refused(cs, true);
	while (cs->list) {
		struct ktr_conn *cn = cs->list;

		cs->list = cn->next;
		cn->dead = true;
		conn__close(cs, cn, gone, ctx);
	}
	if (cs->spare_fd >= 0)
		close(cs->spare_fd);
	free(cs);
}
