/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Answers that wait for traces to end: ktraceb -c and -C say, per file
 * they stop, what was written and lost and why.  A clear stops the
 * processes at once; their files end at the next tick, once their writers
 * have written the last records (ktr_stop.h).  The answer waits for them,
 * at most KTR_ENDS_WAIT_MS (a file that does not take its records does
 * not hold a clear up longer: it is said to be still writing), then goes.
 * Traces that ended before anyone asked are remembered too (the last
 * KTR_ENDS_KEPT), so that the next command about one of their processes
 * or files hears how it ended (ktr_ends__recall_*).
 */
#ifndef KTRACEB_KTR_ENDS_H
#define KTRACEB_KTR_ENDS_H

#include <stdbool.h>
#include <sys/types.h>
#include <linux/types.h>

#define KTR_ENDS_WAIT_MS 5000 /* under the client's KTR_CLIENT_TIMEOUT_MS */
#define KTR_ENDS_KEPT	 32

struct ktr_conn;
struct ktr_ends;
struct ktr_files;

struct ktr_ends *ktr_ends__new(void);
/* Every answer still waiting sent as it stands. */
void ktr_ends__free(struct ktr_ends *e);

/*
 * cn's answer (error, count done, msg so far) waits for the ends of the n
 * routes.  true if it does (the caller must not answer), false if it
 * could not wait (then the caller answers now).
 */
bool ktr_ends__wait(struct ktr_ends *e, struct ktr_conn *cn, const __u32 *routes, unsigned int n,
		    int error, unsigned int done, const char *msg, unsigned long long ring_bytes);
/* Route r ended: line (its summary) for the answers waiting for it, sent if complete. */
void ktr_ends__ended(struct ktr_ends *e, __u32 r, const char *line);
/* Answers whose time is up, sent, each file still writing said (files: for its name). */
void ktr_ends__sweep(struct ktr_ends *e, const struct ktr_files *files);
/* cn is going away: its answers are dropped. */
void ktr_ends__gone(struct ktr_ends *e, struct ktr_conn *cn);
/* Does an answer wait (the daemon is not idle)? */
bool ktr_ends__busy(const struct ktr_ends *e);

/*
 * A trace that ended, remembered: its file (dev, ino), owner, the
 * processes it stopped (pids, n), its summary line, the records it wrote,
 * and whether it was a recording recovered from a daemon that was killed.
 */
void ktr_ends__remember(struct ktr_ends *e, dev_t dev, ino_t ino, uid_t owner, const pid_t *pids,
			unsigned int n, const char *line, unsigned long long records,
			bool recovered);
/*
 * The line of a remembered trace of pid (or of file dev/ino) uid may hear
 * of (its owner, or root), NULL if none; by pid (-c), it is said once.
 * *records: what it wrote, *recovered: as remembered.
 */
const char *ktr_ends__recall_pid(struct ktr_ends *e, pid_t pid, uid_t uid);
const char *ktr_ends__recall_file(struct ktr_ends *e, dev_t dev, ino_t ino, uid_t uid,
				  unsigned long long *records, bool *recovered);

#endif /* KTRACEB_KTR_ENDS_H */
