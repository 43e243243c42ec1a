/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The other daemons of this build that a clear must reach, so that one
 * process is never traced by two daemons and -c -f stops every trace into
 * the file: the caller's own daemon when root's served the request, and
 * for root every user's daemon (@ktraceb-<build>.<uid>, ktr_proto.h).
 *
 * Anyone can bind an abstract name, so a name proves nothing:
 *  - a daemon is asked only if its peer credentials are the uid its name
 *    says (or root's), and only about what that uid owns: the owners of
 *    the processes a CLEAR names, of the file a CLEARINODE names; a
 *    CLEARALL names nothing and goes to every user's daemon;
 *  - nothing goes with a request: no descriptor (a file is named by its
 *    identity, CLEARINODE, and a daemon clears only a file it already
 *    writes), so a listener learns at most what its own processes and
 *    files are;
 *  - the names are tried all at once, without blocking (a full backlog is
 *    tried again), and the answers waited for together: squatted names
 *    and silent listeners cost one deadline in all, however many there
 *    are, and none of them keeps a real daemon from being asked.
 */
#ifndef KTRACEB_KTR_OTHERS_H
#define KTRACEB_KTR_OTHERS_H

#include <sys/types.h>

struct ktr_request;

/* The one wait for all the other daemons' answers. */
#define KTR_OTHERS_DEADLINE_MS 2000

/*
 * Send req (no descriptor) to the other daemons of the users in owners
 * (nowners of them; owners NULL: every user), the caller's own alone for
 * a user other than root.  primary is the daemon that served the request
 * (-1 if none runs): if it is the caller's own, nobody else has the
 * caller's traces.  The answers are not reported.
 */
void ktr_others__ask(int primary, const struct ktr_request *req, const uid_t *owners, int nowners);

/*
 * The clear (or a move's clear) just sent to primary, to the other daemons
 * that may trace what it names, each told only about its own user's: the
 * owners of the processes of CLEAR, the owner of CLEARFILE's file fd,
 * named by its identity (CLEARINODE: the descriptor stays with primary);
 * CLEARALL names nothing and goes to every one.
 */
void ktr_others__clear(int primary, const struct ktr_request *clear, int fd);

#endif /* KTRACEB_KTR_OTHERS_H */
