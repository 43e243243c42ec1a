/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * How a trace ends.  First its processes stop tracing into it (a clear,
 * its foreground client gone or interrupted, a write error, its file
 * deleted, the ring failed), and why is noted for its END record
 * (KTR_END_*, ktr.h); the next tick then finds nobody tracing into it and
 * finishes it: last losses, a frozen recorder's dump, and its END and the
 * last records handed to its writer.  When the writer has written them
 * and closed the file (on its own thread: a file that does not take them
 * holds up nobody else), the trace has ended: DONE (with the record and
 * loss counts, or why it stopped) to the foreground ktraceb waiting for
 * it, its line to a ktraceb -c waiting for it, to the log if nobody waits,
 * and kept for the next command that asks (ktr_ends.h).
 */
#ifndef KTRACEB_KTR_STOP_H
#define KTRACEB_KTR_STOP_H

#include <stdbool.h>
#include <linux/types.h>

struct ktr_caller;
struct ktr_conn;
struct ktr_parts;

/*
 * Every process tracing into route r stops; the next tick finishes the
 * file.  end_why: KTR_END_*, unless one was given before.  why (NULL: a
 * plain end): its processes named in the log, and in DONE with err.
 */
void ktr_stop__file(const struct ktr_parts *k, int r, __u32 end_why, int err, const char *why);
/* A file that cannot take more: its processes stopped, a system-wide trace into it ended. */
void ktr_stop__live(const struct ktr_parts *k, int r, __u32 end_why, int err, const char *why);
/* Every trace stops, saying why (the ring failed, the daemon stopped). */
void ktr_stop__all(const struct ktr_parts *k, __u32 end_why, int err, const char *why);
/*
 * The traces cn waits for stop (ktraceb interrupted: STOP).  gone: cn is
 * going away, so they wait for nobody any more.
 */
void ktr_stop__waited(const struct ktr_parts *k, struct ktr_conn *cn, bool gone);
/* Nobody traces into route r any more: its end handed to its writer. */
void ktr_stop__finish(const struct ktr_parts *k, int r);
/* Route r's writer is done: the trace has ended, said, and its slot is free. */
void ktr_stop__ended(const struct ktr_parts *k, int r);

/*
 * A clear by c is about to stop the processes pids[n] (n < 0: every
 * traced one; route: only those of that file, 0 any): the routes they
 * trace into, into routes (at most max).  How many.
 */
unsigned int ktr_stop__routes_of(const struct ktr_parts *k, const pid_t *pids, int n, __u32 route,
				 __u32 *routes, unsigned int max);
/*
 * After the clear: each of routes nobody traces into any more ends,
 * cleared by c, and cn's answer (error, done, msg) waits for their ends.
 * true if it waits (ktr_ends.h); false: answer now.
 */
bool ktr_stop__cleared(const struct ktr_parts *k, struct ktr_conn *cn, const __u32 *routes,
		       unsigned int n, int error, unsigned int done, char *msg);
/* pid is not traced: if a trace of it ended meanwhile, c hears how, in msg. */
void ktr_stop__said_before(const struct ktr_parts *k, const struct ktr_caller *c, pid_t pid,
			   char *msg);

#endif /* KTRACEB_KTR_STOP_H */
