/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * One of the daemon's trace files (ktr_files.h keeps them, by route): its
 * writer, the uid and gid it is written as, the processes tracing into it
 * at the last scan, at most one foreground connection waiting for its end,
 * and, for a recording (-R), its ring (ktr_flight.h; its dumps:
 * ktr_recorder.h).  A record reaches it by ktr_tracefile__append alone.
 */
#ifndef KTRACEB_KTR_TRACEFILE_H
#define KTRACEB_KTR_TRACEFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <linux/types.h>

#include "ktraceb/ktr.h"

struct ktr_conn;
struct ktr_flight;

#define KTR_TRACEFILE_STOP_PIDS 8

struct ktr_tracefile {
	struct ktr_writer *w;		/* NULL: a free slot */
	dev_t dev;
	ino_t ino;
	uid_t owner;			/* the caller who created it: writes are its */
	gid_t owner_gid;
	struct ktr_conn *fg;		/* foreground connection waiting for DONE
					   (set by ktr_tracefile__wait alone) */
	unsigned int nprocs;		/* processes tracing into it, last scan */
	unsigned long long lost_bpf;	/* the BPF loss counter of its route, as last read */
	unsigned long long lost_held;	/* records a CPU's stage held at its end */
	unsigned long long lost_queue;	/* records the daemon's queue had no room for
					   (ktr_queue.h) */
	unsigned long long lost_cpus;	/* records -S's per-CPU buffers lost, each
					   CPU's said in LOST records of its own
					   (ktr_cpubuf.c) */
	unsigned long long lost_said;	/* lost_total of the last LOST record written,
					   and the CPUs' losses said since */
	int stop_err;			/* why it stopped early, for DONE */
	char stop_msg[256];
	pid_t stop_pids[KTR_TRACEFILE_STOP_PIDS]; /* the processes that stop stopped */
	unsigned int nstop_pids;
	struct ktr_end end;		/* why it ends (ke_why 0: not known yet) */
	bool ending;			/* its END is with its writer: closed when it is done */
	bool taken_over;		/* a recording taken over from a killed daemon */
	unsigned int ndumps;		/* a recording's dumps, and its records in them */
	unsigned long long dumped;
	__u32 trigger_why;		/* its last trigger's dump: KTR_FLIGHT_CRASH, _EXIT */
	__s32 trigger_pid, trigger_status;
	struct ktr_flight *flight;	/* -R: records go here, to the file at a trigger */
	bool info_written;		/* its INFO record is in the file */
	long long last_dump_ms;		/* -D: one per KTR_DUMP_INTERVAL_MS */
	long long stage_wait_ms;	/* when it began to wait, processes gone, for
					   records a CPU's stage held (ktr_tick.c) */
	/* a recorder's records made by ktraceb (event formats), for its next dump */
	unsigned char *held;
	size_t nheld;
	/* the warnings said about this trace already (hashes): each is said once */
	__u32 said[16];
	unsigned int nsaid;
	/* the objects described in it (-k, KTR_OBJECT), by their build ids' hashes */
	__u32 *objects;
	unsigned int nobjects;
	/* where its processes map them (-k, KTR_MAPPING): what was said (ktr_mappings.h) */
	struct ktr_mappings *mappings;
};

/* Objects a trace file describes at most (-k): more get no KTR_OBJECT. */
#define KTR_TRACEFILE_OBJECTS 4096

/*
 * The one way a record reaches a trace file: h and its ktr_len bytes of
 * payload (len in all), from the ring or made by ktraceb.  Returns 0 or
 * -errno; a record the file cannot take (its writer fell behind, a write
 * error) is counted lost (ktr_tracefile__lost), and the file stays whole
 * up to its last record.  A recorder's file takes only event formats
 * (held for its next dump): its records go to its ring, in BPF.
 */
int ktr_tracefile__append(struct ktr_tracefile *f, const struct ktr_header *h, size_t len,
			  __s64 wall_offset_ns);
/*
 * A record ktraceb makes (PROCCTOR, OBJECT, FILTER...): its header h
 * (ktr_record.h), then the ktr_len bytes of payload, at most KTR_MADE_MAX.
 */
#define KTR_MADE_MAX (64u << 10)
int ktr_tracefile__append_made(struct ktr_tracefile *f, const struct ktr_header *h,
			       const void *payload, __s64 wall_offset_ns);
/* A recorder's dump: as append, but waits a moment for room (ktr_writer.h). */
int ktr_tracefile__append_dump(struct ktr_tracefile *f, const struct ktr_header *h, size_t len,
			       __s64 wall_offset_ns);
/* The file's first record, FILEINFO: straight to the file, recorder or not. */
void ktr_tracefile__write_info(struct ktr_tracefile *f);
/*
 * A LOST record if records were lost since the last one (the BPF
 * counter's, a stage's, those the file did not take), then what is
 * gathered on its way to the file.
 */
void ktr_tracefile__flush(struct ktr_tracefile *f, __s64 wall_offset_ns);
/* Records of the trace lost so far, in all. */
unsigned long long ktr_tracefile__lost(const struct ktr_tracefile *f);
/* The file's first write error (an errno value), or 0. */
int ktr_tracefile__error(const struct ktr_tracefile *f);
const char *ktr_tracefile__path(const struct ktr_tracefile *f);
/* Records in the file. */
unsigned long long ktr_tracefile__records(const struct ktr_tracefile *f);
/* Is line a warning not said about this trace yet?  It is remembered as said. */
bool ktr_tracefile__first_time(struct ktr_tracefile *f, const char *line);
/*
 * The object of that build id and path, described in the file (KTR_OBJECT)
 * unless it is already; one record per object per file.
 */
struct ktr_object_id;
void ktr_tracefile__describe_object(struct ktr_tracefile *f, const struct ktr_object_id *id,
				    const char *path);
/* Its last link is gone (deleted while traced into). */
bool ktr_tracefile__unlinked(const struct ktr_tracefile *f);
/*
 * cn (NULL: nobody) waits for the file's DONE from now on; the connection
 * is told it is waited on (ktr_conn__hold), and the one before let go.
 */
void ktr_tracefile__wait(struct ktr_tracefile *f, struct ktr_conn *cn);
/* Why its tracing ends (KTR_END_*), unless a reason was given before: the first stays. */
void ktr_tracefile__end_why(struct ktr_tracefile *f, __u32 why, int err, pid_t pid, uid_t uid);
/*
 * The end: the last LOST, then the END (a recorder's only if it dumped),
 * the file closed, on the file's own thread: done when
 * ktr_tracefile__done().  The slot stays taken until ktr_files__close().
 */
void ktr_tracefile__finish(struct ktr_tracefile *f);
bool ktr_tracefile__done(const struct ktr_tracefile *f);
/*
 * Is its writer stuck in the file (ktr_writer.h)?  Then it holds one
 * chunk alone, and the slot stays taken, its owner's, until the write
 * returns (ktr_files.h).  Asked at every tick.
 */
bool ktr_tracefile__stuck(struct ktr_tracefile *f);
/* One line saying how it ended and what it wrote and lost ("" while it has not). */
void ktr_tracefile__summary(const struct ktr_tracefile *f, char *buf, size_t size);
/* The words of an END's reason ("every traced process exited"); "" if unknown. */
const char *ktr_tracefile__why_words(const struct ktr_end *e);

#endif /* KTRACEB_KTR_TRACEFILE_H */
