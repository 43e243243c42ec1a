/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The daemon's connections.  Each is accepted non-blocking with its
 * caller's credentials pinned (ktr_creds__pin), answered without ever
 * blocking, and closed when it has had nothing under way for
 * KTR_CONN_IDLE_MS.  A uid other than root holds at most its share of
 * them (ktr_share.h), and the last KTR_FD_ROOT_RESERVE descriptors are
 * root's: no user can lock anyone else out by connecting.  A request
 * that arrives goes back to the loop, which serves it (ktr_request.h).
 */
#ifndef KTRACEB_KTR_CONN_H
#define KTRACEB_KTR_CONN_H

#include <stdbool.h>

#define KTR_REFUSED_KEPT	64	/* refused connections kept open a moment */
#define KTR_REFUSED_MS		100	/* that moment */
#define KTR_CONN_IDLE_MS	3000	/* a connection with nothing under way is closed */
#define KTR_FD_ROOT_RESERVE	128	/* descriptors only root's requests may use */

struct ktr_caller;
struct ktr_conn;
struct ktr_conns;
struct ktr_proto_fds;
struct ktr_request;

/*
 * The connections to come on listen_fd (non-blocking from now on), each
 * added to the loop's epoll ep with itself as its data; fd_limit: the
 * descriptors the daemon may have.
 */
struct ktr_conns *ktr_conns__new(int listen_fd, int ep, unsigned int fd_limit);
/* Close every one, the refused ones too; gone as for ktr_conns__sweep. */
void ktr_conns__free(struct ktr_conns *cs, void (*gone)(void *ctx, struct ktr_conn *cn),
		     void *ctx);

/*
 * Accept what waits, as far as the limits allow; other_fds: the
 * descriptors the rest of the daemon holds (a trace file each).
 */
void ktr_conns__accept(struct ktr_conns *cs, unsigned int other_fds);
/*
 * cn is readable: 1 with its request in req and what descriptors came
 * with it in fds (ktr_proto.h: the first kept in fds->fd, the caller's
 * now; every other closed already), 0 if there is none, the connection
 * dropped if what came is no request.
 */
int ktr_conn__receive(struct ktr_conns *cs, struct ktr_conn *cn, struct ktr_request *req,
		      struct ktr_proto_fds *fds);
/* Its request is served: not idle from now. */
void ktr_conn__served(struct ktr_conns *cs, struct ktr_conn *cn);
/*
 * Close the dead and idle ones (and the refused ones whose moment has
 * passed); gone(ctx, cn) is told first of one a trace file waits on, and
 * must let it go (ktr_tracefile__wait).  Is a live one left?
 */
bool ktr_conns__sweep(struct ktr_conns *cs, void (*gone)(void *ctx, struct ktr_conn *cn),
		      void *ctx);

/* Who is at the other end, as pinned at accept. */
const struct ktr_caller *ktr_conn__caller(const struct ktr_conn *cn);
/* Nothing more for it: closed at the next sweep. */
void ktr_conn__drop(struct ktr_conn *cn);
/* A trace file waits to send cn its DONE (one more, one fewer): it is not idle. */
void ktr_conn__hold(struct ktr_conn *cn);
void ktr_conn__release(struct ktr_conn *cn);
/* Send a reply without ever blocking; a client that does not read is dropped. */
void ktr_conn__reply(struct ktr_conn *cn, int type, int error, unsigned int count,
		     const char *msg, unsigned long long records, unsigned long long lost,
		     unsigned long long ring_bytes);
/* A line for a foreground client while its trace runs (KTR_REPLY_NOTE). */
void ktr_conn__note(struct ktr_conn *cn, const char *line);
/* Answer a connection with error and one line, then close it. */
void ktr_conn__refuse(int sock, int error, const char *msg);

#endif /* KTRACEB_KTR_CONN_H */
