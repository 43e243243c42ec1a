/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The daemon's connections (ktr_conn.c): each is accepted non-blocking with
 * its caller's credentials pinned (ktr_creds__pin), answered without ever
 * blocking, and closed when it has had nothing under way for
 * KTR_CONN_IDLE_MS.
 */
#ifndef KTRACEB_KTR_CONN_H
#define KTRACEB_KTR_CONN_H

struct ktr_conn;

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
