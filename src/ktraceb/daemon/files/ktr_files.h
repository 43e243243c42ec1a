/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The daemon's trace files.  Every record in the ring carries the number
 * of the file it belongs to (its route, index into this table; 0 is never
 * a file; each file: ktr_tracefile.h).
 *
 * A file is joined only through a descriptor open for writing, of a
 * regular file on a real filesystem, by its owner or by root: holding a
 * descriptor (an O_PATH one, say) of someone else's trace file gives
 * nothing.  The table grows as files are added; a uid other than root
 * holds at most its share of them, and of recorders' rings (ktr_share.h).
 * A file whose writer is stuck (ktr_writer.h) keeps its slot, its owner's,
 * until the write returns; a uid other than root with
 * KTR_FILES_UID_STUCK of them gets no new file.
 */
#ifndef KTRACEB_KTR_FILES_H
#define KTRACEB_KTR_FILES_H

#include <stdbool.h>
#include <sys/types.h>
#include <linux/types.h>
#include "daemon/flight/ktr_flight.h"
#include "ktr_tracefile.h"

struct ktr_caller;
struct ktr_files;

/* Stuck trace files a user may have; with more, no new one (each holds a thread). */
#define KTR_FILES_UID_STUCK 4

/* The table, empty; recorders' rings are put into maps. */
struct ktr_files *ktr_files__new(const struct ktr_flight_maps *maps);
void ktr_files__free(struct ktr_files *t);
const struct ktr_flight_maps *ktr_files__flight_maps(const struct ktr_files *t);

/* The file of route r, NULL if r names no open file. */
struct ktr_tracefile *ktr_files__get(const struct ktr_files *t, __u32 r);
/* The first route after r with a file, 0 after the last: for (r = next(t, 0); r; r = next(t, r)). */
__u32 ktr_files__next(const struct ktr_files *t, __u32 r);
/*
 * Route r, its file closed, is given to no other file while held(ctx, r)
 * says records of it are still on their way (they would reach that file);
 * ktr_files__release_routes(), called after each drain of the ring, asks
 * again, and calls freed(ctx, r) for each route it gives back.
 */
void ktr_files__keep_route(struct ktr_files *t, __u32 r);
void ktr_files__release_routes(struct ktr_files *t, unsigned int (*held)(void *ctx, __u32 r),
			       void (*freed)(void *ctx, __u32 r), void *ctx);
/* Files open. */
unsigned int ktr_files__count(const struct ktr_files *t);
/* Is any of them a recording's (-R)? */
bool ktr_files__recording(const struct ktr_files *t);
/* Does any need CALL records (anything but a compact recorder: those keep returns only)? */
bool ktr_files__need_enter(const struct ktr_files *t);
/* Does any of them take its records from the ring buffer (not a recording's)? */
bool ktr_files__need_stage(const struct ktr_files *t);

/*
 * The route for the trace file behind fd (taken over: closed on every
 * path), created if new, after the join rules above.  flight_bytes > 0: a
 * recorder (ktr_flight.h) of that size and flight_flags.  gzip: a new file
 * is written gzip-compressed (ktr_writer.h); an existing one is joined
 * only if it is written the same way.  -errno with a line for the caller
 * appended to msg (KTR_REPLY_MSG_MAX) if refused.
 */
int ktr_files__join(struct ktr_files *t, const struct ktr_caller *c, int fd, __u64 flight_bytes,
		    unsigned int flight_flags, bool gzip, char *msg);
/*
 * A recording taken over from a killed daemon (ktr_pin.h) back at its
 * route r, its file opened again as its owner by the path it began with
 * (and refused unless it is the same file).  r, or -errno with *why.
 */
int ktr_files__adopt(struct ktr_files *t, __u32 r, struct ktr_flight *fl, const char **why);
/*
 * A trace file the daemon before us wrote when it was killed (its state,
 * ktr_filestate.h), opened again as its owner: cut back to where it was
 * written whole, its END (KTR_END_KILLED) on its way, its slot ending.
 * Its route, or -errno with *why (-EEXIST: a recording taken over).
 */
struct ktr_filestate_slot;
int ktr_files__end_killed(struct ktr_files *t, const struct ktr_filestate_slot *s,
			  const char **why);
/* The file at fd, if c may act on it as on its own trace (join's rules); -errno, msg. */
int ktr_files__own_fd(const struct ktr_files *t, const struct ktr_caller *c, int fd, char *msg);

/* The route of the file behind fd, which the caller opened for writing; -errno if none. */
int ktr_files__find_fd(const struct ktr_files *t, int fd);
/* The route of the file open here that is (dev, ino); -ENOENT if none. */
int ktr_files__find(const struct ktr_files *t, dev_t dev, ino_t ino);

/* Trace files uid has open. */
unsigned int ktr_files__count_uid(const struct ktr_files *t, uid_t uid);

/* Flush and close route r's file; the slot is free again. */
void ktr_files__close(struct ktr_files *t, __u32 r);

#endif /* KTRACEB_KTR_FILES_H */
