/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The daemon's trace files.  Every record in the ring carries the number
 * of the file it belongs to (its route, index into this table; 0 is never
 * a file); each file has one writer, the uid and gid it is written as, and
 * at most one foreground connection waiting for its end.
 *
 * A file is joined only through a descriptor open for writing, of a
 * regular file on a real filesystem, by its owner or by root: holding a
 * descriptor (an O_PATH one, say) of someone else's trace file gives
 * nothing.  The table grows as files are added; a uid other than root
 * holds at most KTR_FILES_PER_UID of them.
 */
#ifndef KTRACEB_KTR_FILES_H
#define KTRACEB_KTR_FILES_H

#include <stdbool.h>
#include <sys/types.h>
#include <linux/types.h>
#include "ktr_flight.h"

/* -D at most this often per recording: a dump costs the daemon the whole ring. */
#define KTR_DUMP_INTERVAL_MS	250
/* A uid other than root: at most this many bytes of recorder rings at once. */
#define KTR_FLIGHT_UID_BYTES	(256ull << 20)
/* A uid other than root: at most this many trace files at once. */
#define KTR_FILES_PER_UID	1024
/* Slots only root's requests may take, so users together cannot fill the table. */
#define KTR_FILES_ROOT_RESERVE	256

struct ktr_caller;
struct ktr_conn;
struct ktr_header;

struct ktr_tracefile {
	struct ktr_writer *w;		/* NULL: a free slot */
	dev_t dev;
	ino_t ino;
	uid_t owner;			/* the caller who created it: writes are its */
	gid_t owner_gid;
	struct ktr_conn *fg;		/* foreground connection waiting for DONE */
	unsigned int nprocs;		/* processes tracing into it, last scan */
	unsigned long long lost_seen;	/* BPF losses already written as LOST */
	int stop_err;			/* why it stopped early, for DONE */
	char stop_msg[256];
	struct ktr_flight *flight;	/* -R: records go here, to the file at a trigger */
	bool flight_due;		/* a trigger froze it: dump at the next tick */
	bool info_written;		/* its INFO record is in the file */
	long long last_dump_ms;		/* -D: one per KTR_DUMP_INTERVAL_MS */
	bool syswide_alone;		/* -S with no process: ends at -c or -C only */
	/* a recorder's records made by ktraceb (event formats), for its next dump */
	unsigned char *held;
	size_t nheld;
	/* the warnings said about this trace already (hashes): each is said once */
	__u32 said[16];
	unsigned int nsaid;
};

struct ktr_files {
	struct ktr_tracefile *v;	/* v[route] */
	unsigned int cap;
	unsigned int used;
	struct ktr_flight_maps flight_maps; /* where the recorders' rings go */
};

/* The file of route r, NULL if r names no open file. */
/*
 * The one way a record reaches a trace file: h and its ktr_len bytes of
 * payload (len in all), from the ring or made by ktraceb.  Returns 0 or
 * -errno; the first error sticks to the file (ktr_tracefile__error) and
 * every later record is refused, so the file stays whole up to its last
 * record.
 */
int ktr_tracefile__append(struct ktr_tracefile *f, const struct ktr_header *h, size_t len,
			  __s64 wall_offset_ns);
/*
 * A record ktraceb makes (LOST, PROCCTOR): its header h (ktr_record.h), then
 * the ktr_len bytes of payload.
 */
int ktr_tracefile__append_made(struct ktr_tracefile *f, const struct ktr_header *h,
			       const void *payload, __s64 wall_offset_ns);
int ktr_tracefile__flush(struct ktr_tracefile *f);
/* The file's first write error (an errno value), or 0. */
int ktr_tracefile__error(const struct ktr_tracefile *f);
const char *ktr_tracefile__path(const struct ktr_tracefile *f);
unsigned long long ktr_tracefile__records(const struct ktr_tracefile *f);
/* Is line a warning not said about this trace yet?  It is remembered as said. */
bool ktr_tracefile__first_time(struct ktr_tracefile *f, const char *line);
/* Its last link is gone (deleted while traced into). */
bool ktr_tracefile__unlinked(const struct ktr_tracefile *f);
/* Last flush and close; 0 or the -errno of its first error.  The slot stays
 * taken until ktr_files__close(). */
int ktr_tracefile__finish(struct ktr_tracefile *f);
/*
 * A recorder's ring into its file (ktr_flight__walk), after the INFO record
 * if none is there yet; *written: records written.  0 or -errno.
 */
int ktr_tracefile__dump(struct ktr_tracefile *f, __u32 why, unsigned long long *written);

struct ktr_tracefile *ktr_files__get(const struct ktr_files *t, __u32 r);

/*
 * The route for the trace file behind fd (taken over: closed on every
 * path), created if new, after the join rules above.  -errno with a line
 * for the caller appended to msg (KTR_REPLY_MSG_MAX) if refused.
 */
/*
 * flight_bytes > 0: a recorder (ktr_flight.h) of that size and flight_flags.
 * gzip: a new file is written gzip-compressed (ktr_writer.h); an existing
 * one is joined only if it is written the same way.
 */
int ktr_files__join(struct ktr_files *t, const struct ktr_caller *c, int fd, __u64 flight_bytes,
		    unsigned int flight_flags, bool gzip, char *msg);
/* The file at fd, if c may act on it as on its own trace (join's rules); -errno, msg. */
/*
 * A recording a dead daemon left (ktr_pin.h) back at its route r, its file
 * opened again as its owner by the path it began with (and refused unless
 * it is the same file).  r, or -errno with *why.
 */
int ktr_files__adopt(struct ktr_files *t, __u32 r, struct ktr_flight *fl, const char **why);
int ktr_files__own_fd(const struct ktr_files *t, const struct ktr_caller *c, int fd, char *msg);

/* The route of the file behind fd, which the caller opened for writing; -errno if none. */
int ktr_files__find_fd(const struct ktr_files *t, int fd);
/* The route of the file open here that is (dev, ino); -ENOENT if none. */
int ktr_files__find(const struct ktr_files *t, dev_t dev, ino_t ino);

/* Trace files uid has open. */
unsigned int ktr_files__count_uid(const struct ktr_files *t, uid_t uid);

/* Flush and close route r's file; the slot is free again. */
void ktr_files__close(struct ktr_files *t, __u32 r);

void ktr_files__free(struct ktr_files *t);

#endif /* KTRACEB_KTR_FILES_H */
