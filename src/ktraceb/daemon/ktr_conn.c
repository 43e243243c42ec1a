// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The daemon's connections.  Each is accepted non-blocking with its
 * caller's credentials pinned (ktr_creds__pin), answered without ever
 * blocking, and closed when it has had nothing under way for
 * KTR_CONN_IDLE_MS.  A uid other than root holds at most
 * KTR_CONNS_PER_UID of them, and the last KTR_FD_ROOT_RESERVE descriptors
 * are root's: no user can lock anyone else out by connecting.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/socket.h>

#include "common/ktr_creds.h"
#include "ktr_clock.h"
#include "ktr_daemon_priv.h"
#include "common/ktr_proto.h"

/* accepted per loop turn at most, so requests keep being served meanwhile */
#define ACCEPT_BATCH 64

unsigned int ktr_daemon__fds_in_use(const struct daemon *d)
{
	/* a socket and a pidfd per connection, a file per trace, a few of our own */
	return 2 * d->nconns + ktr_files__count(d->files) + 32;
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

static unsigned int conn__count_uid(const struct daemon *d, uid_t uid)
{
	unsigned int n = 0;

	for (const struct ktr_conn *cn = d->conns; cn; cn = cn->next)
		n += cn->cred.uid == uid && !cn->dead;
	return n;
}

/* The answer to a refused connection, its request (if there yet) taken off first. */
static void conn__refusal(int sock, int error, const char *msg)
{
	struct ktr_conn tmp = { .sock = sock };
	struct ktr_request req;
	int fd;

	/*
	 * Take the request off the socket first: closing a unix socket with
	 * unread data resets the peer, which would then never see the answer.
	 */
	if (ktr_proto__recv(sock, &req, sizeof(req), &fd) == 0 && fd >= 0)
		close(fd);
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
static void conn__refuse(struct daemon *d, int sock, const char *fmt, unsigned int uid)
{
	unsigned int i = d->refused_next++ % KTR_REFUSED_KEPT;
	char msg[128];

	snprintf(msg, sizeof(msg), fmt, uid);
	conn__refusal(sock, EAGAIN, msg);
	shutdown(sock, SHUT_WR);
	if (d->refused[i].sock > 0)
		close(d->refused[i].sock);
	d->refused[i].sock = sock;
	d->refused[i].ms = ktr_now_ms();
}

/* Close the refused connections whose moment has passed (all of them with all). */
static void conn__close_refused(struct daemon *d, bool all)
{
	long long now = ktr_now_ms();

	for (unsigned int i = 0; i < KTR_REFUSED_KEPT; i++)
		if (d->refused[i].sock > 0 && (all || now - d->refused[i].ms >= KTR_REFUSED_MS)) {
			close(d->refused[i].sock);
			d->refused[i].sock = 0;
		}
}

/* May this caller have one more connection?  Else why not (a printf format of the uid). */
static const char *conn__over_limit(const struct daemon *d, const struct ktr_caller *c)
{
	unsigned int reserve = c->uid == 0 ? 8 : KTR_FD_ROOT_RESERVE;

	if (ktr_daemon__fds_in_use(d) + reserve >= d->fd_limit)
		return "the ktraceb daemon is busy (too many connections); try again\n";
	if (c->uid != 0 && conn__count_uid(d, c->uid) >= KTR_CONNS_PER_UID)
		return "too many connections for uid %u\n";
	return NULL;
}

static void conn__accept_one(struct daemon *d, int sock)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct ktr_conn *cn = calloc(1, sizeof(*cn));
	const char *why;

	if (!cn || ktr_creds__pin(sock, &cn->cred) < 0) {
		free(cn);
		close(sock);
		return;
	}
	why = conn__over_limit(d, &cn->cred);
	if (why) {
		conn__refuse(d, sock, why, cn->cred.uid);
		ktr_creds__unpin(&cn->cred);
		free(cn);
		return;
	}
	cn->sock = sock;
	cn->last_ms = ktr_now_ms();
	ev.data.ptr = cn;
	if (epoll_ctl(d->ep, EPOLL_CTL_ADD, sock, &ev) < 0) {
		ktr_creds__unpin(&cn->cred);
		free(cn);
		close(sock);
		return;
	}
	cn->next = d->conns;
	d->conns = cn;
	d->nconns++;
}

void ktr_conn__accept_all(struct daemon *d)
{
	for (int i = 0; i < ACCEPT_BATCH; i++) {
		int sock = accept4(d->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);

		if (sock >= 0) {
			conn__accept_one(d, sock);
			continue;
		}
		if ((errno == EMFILE || errno == ENFILE) && d->spare_fd >= 0) {
			/* out of descriptors: take the connection off the queue and drop it */
			close(d->spare_fd);
			sock = accept4(d->listen_fd, NULL, NULL, SOCK_CLOEXEC);
			if (sock >= 0)
				ktr_conn__refuse(sock, EAGAIN,
						 "the ktraceb daemon is busy; try again\n");
			d->spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
			continue;
		}
		return; /* EAGAIN: the queue is empty */
	}
}

void ktr_conn__readable(struct daemon *d, struct ktr_conn *cn)
{
	struct ktr_request req;
	int fd, err;

	if (cn->dead)
		return;
	err = ktr_proto__recv(cn->sock, &req, sizeof(req), &fd);
	if (err == -EAGAIN)
		return;
	if (err || req.magic != KTR_PROTO_MAGIC) {
		/* a wrong size, a wrong magic, the peer gone: nothing to answer */
		if (fd >= 0)
			close(fd);
		cn->dead = true;
		epoll_ctl(d->ep, EPOLL_CTL_DEL, cn->sock, NULL);
		return;
	}
	ktr_request__handle(d, cn, &req, fd);
	cn->last_ms = ktr_now_ms();
	if (cn->dead) /* no more events for it; the tick's sweep closes it */
		epoll_ctl(d->ep, EPOLL_CTL_DEL, cn->sock, NULL);
}

void ktr_conn__hold(struct ktr_conn *cn)
{
	cn->waiting++;
}

void ktr_conn__release(struct ktr_conn *cn)
{
	cn->waiting--;
}

static void conn__close(struct daemon *d, struct ktr_conn *cn)
{
	/* a foreground client that goes away takes its trace with it */
	for (__u32 r = ktr_files__next(d->files, 0); r && cn->waiting;
	     r = ktr_files__next(d->files, r)) {
		struct ktr_tracefile *f = ktr_files__get(d->files, r);

		if (f->fg == cn) {
			ktr_tracefile__wait(f, NULL);
			ktr_daemon__stop_file(d, r, 0, NULL);
		}
	}
	epoll_ctl(d->ep, EPOLL_CTL_DEL, cn->sock, NULL);
	close(cn->sock);
	ktr_creds__unpin(&cn->cred);
	d->nconns--;
	free(cn);
}

bool ktr_conn__sweep(struct daemon *d, bool *any)
{
	long long now = ktr_now_ms();

	conn__close_refused(d, false);
	struct ktr_conn **pp = &d->conns;
	bool busy = false;

	*any = false;
	while (*pp) {
		struct ktr_conn *cn = *pp;
		bool fg = cn->waiting > 0;

		if (cn->dead || (!fg && now - cn->last_ms > KTR_CONN_IDLE_MS)) {
			*pp = cn->next;
			conn__close(d, cn);
			continue;
		}
		*any = true;
		busy |= fg;
		pp = &cn->next;
	}
	return busy;
}

void ktr_conn__close_all(struct daemon *d)
{
	conn__close_refused(d, true);
	while (d->conns) {
		struct ktr_conn *cn = d->conns;

		d->conns = cn->next;
		cn->dead = true;
		conn__close(d, cn);
	}
}
