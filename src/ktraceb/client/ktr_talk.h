/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The command's talk with the daemon about one trace (ktr_proto.h): every
 * failure to talk is said in one line and exits (EX_UNAVAILABLE), but for
 * the daemon's end while a trace runs, which its waiter outlives.
 */
#ifndef KTRACEB_KTR_TALK_H
#define KTRACEB_KTR_TALK_H

#include <signal.h>
#include <stdbool.h>

struct ktr_options;
struct ktr_reply;
struct ktr_request;

/* The signal (SIGINT, SIGTERM) that interrupted the command, or 0. */
extern volatile sig_atomic_t ktr_interrupted;
void ktr_talk__on_signal(int sig);

/* The daemon's lines, one "ktraceb: ..." line each on stderr. */
void ktr_talk__print(const char *msg);
/*
 * The daemon's socket, the daemon started first if spawn and none runs:
 * -ENOENT if none runs and !spawn.  tracefd (if >= 0) is discarded when
 * there is no daemon.
 */
int ktr_talk__connect(const struct ktr_options *o, bool spawn, int tracefd);
/*
 * req (with fd if >= 0) and its answer in rep, its lines said: rep's
 * error.  A daemon that went before reading it (it was leaving, idle) is
 * replaced: *sock is then the next daemon's socket.
 */
int ktr_talk__request(const struct ktr_options *o, int *sock, struct ktr_request *req, int fd,
		      struct ktr_reply *rep);
/* ktr_talk__wait_done(): the daemon ended before the trace's DONE */
#define KTR_TALK_GONE (-1)
/*
 * Wait for the daemon's DONE, passing on an interruption as STOP, and say
 * what was written; a recording that nothing triggered wrote nothing, and
 * its file (fd, if >= 0) goes.  each (if not NULL) is called at least
 * every 100 ms while it waits.  DONE's error (an errno value, 0 for a
 * whole trace), or KTR_TALK_GONE when the daemon ended first: that is
 * said once, in one line ending with waiting (if not NULL).
 */
int ktr_talk__wait_done(const struct ktr_options *o, int sock, int fd, const char *waiting,
			void (*each)(void));

#endif /* KTRACEB_KTR_TALK_H */
