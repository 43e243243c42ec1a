/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Inside the writer (ktr_writer.h): what the daemon's loop (ktr_writer.c)
 * and a file's thread (ktr_writer_out.c) share.  The loop fills a chunk
 * and queues it under mu; the thread takes the queue, writes it and frees
 * the chunks; what the thread tells the loop (its error, its counts, that
 * it is done) is read with atomics, never under a lock the thread could
 * hold while it waits for the file.
 */
#ifndef KTRACEB_KTR_WRITER_PRIV_H
#define KTRACEB_KTR_WRITER_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <sys/types.h>
#include <zlib.h>

#include "ktraceb/ktr.h"

/* Records gathered for one write-out. */
struct ktr_chunk {
	struct ktr_chunk *next;
	size_t len;
	unsigned long long n; /* records in it */
	unsigned long long own; /* of them, LOST records (not counted lost if dropped) */
	char data[]; /* KTR_WRITER_CHUNK bytes */
};

/* What a uid's writers hold in chunks, in all (KTR_WRITER_UID_BYTES). */
struct ktr_writer_budget {
	uid_t uid;
	unsigned int users; /* writers of the uid: the loop's alone */
	long long bytes; /* atomic: the thread frees chunks too */
};

struct ktr_writer {
	/* set at the start, then read by both */
	char *path;
	int fd; /* the thread closes it at the end */
	uid_t uid; /* written as this user, with no capability (ktr_creds.h) */
	gid_t gid;
	bool gzip;
	struct ktr_writer_budget *budget;

	/* the loop's alone */
	struct ktr_chunk *fill; /* records gathered for the next write-out */
	unsigned long long dropped; /* records the loop found no room for */
	unsigned long long lost_base; /* the trace's other losses (ktr_writer__set_lost_total) */
	bool finishing; /* finish handed over: no record more */
	bool behind; /* a wait for room timed out: no WAIT until the queue is empty */
	bool stuck; /* the last ktr_writer__stuck() found it so: no record is taken */
	__u64 stuck_since; /* busy_ns of the operation it was found stuck in */
	bool started; /* the thread runs */
	pthread_t thread;

	/* under mu */
	pthread_mutex_t mu;
	pthread_cond_t more; /* the thread waits for chunks or the end */
	pthread_cond_t room; /* a dump waits for room in the queue */
	struct ktr_chunk *head, *tail; /* write-outs waiting, oldest first */
	size_t held; /* bytes of records queued and not yet written (KTR_WRITER_QUEUE_BYTES) */
	bool finish; /* the end: write the END after the queue */
	struct ktr_end end; /* its fields as the loop knows them */
	bool has_end;

	/* the thread's, read by the loop: atomics */
	int error; /* the first write error (an errno value) */
	unsigned long long records; /* whole records in the file */
	unsigned long long unwritten; /* records of chunks cut off or not written */
	unsigned long long pending; /* records queued, not yet written */
	unsigned long long lost_total; /* set by the loop: LOST records' total */
	int done; /* the file is closed */
	int end_written;
	__u64 busy_ns; /* when the file operation it is in began (ktr_mono_ns), 0: in none */
	pid_t tid; /* the thread's */

	__u64 *publish; /* where committed is stored for the next daemon (atomic pointer) */
	off_t cut; /* a killed daemon's file: cut back to this first (-1: no) */

	/* the thread's alone */
	off_t committed; /* file size after the last whole write-out */
	off_t end_off; /* where an END written after an error is (-1: none) */
	size_t end_len;
	bool reserved; /* KTR_WRITER_RESERVE bytes past committed are allocated */
	bool positional; /* O_APPEND is off: an END can be written again in place */
	z_stream *z; /* -z: each write-out is one whole gzip member */
	unsigned char *zbuf; /* its compressed bytes, deflateBound(KTR_WRITER_CHUNK) */
	size_t zcap;
	double z_ns_per_byte; /* what compressing cost the last time it was done */
};

/* The file's thread (ktr_writer_out.c): it takes the queue's chunks one at a time. */
void *ktr_writer__thread(void *arg);
/* A chunk given back to its uid's budget. */
void ktr_writer__chunk_free(struct ktr_writer *w, struct ktr_chunk *c);
/* Tell the loop (ktr_writer__notify_by). */
void ktr_writer__notify(void);
/* The pace judge set for tests (ktr_writer__pace_by), or false if none: then *yes is unset. */
bool ktr_writer__paced(long long ns, bool *yes);

#endif /* KTRACEB_KTR_WRITER_PRIV_H */
