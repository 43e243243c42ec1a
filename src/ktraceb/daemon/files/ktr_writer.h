/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The trace-file writer: the byte sink under a trace file (ktr_files.h
 * owns the file; nothing else calls this).  Each file has a thread of its
 * own that writes it, as its owner (ktr_creds__as_owner), so that a file
 * that does not take its records (a slow disk, a write held up by someone
 * holding the file's lock) stalls only itself: the daemon's loop gathers
 * records into a chunk and hands it over (ktr_writer__flush), and never
 * waits for a write.  A thread per file rather than a pool or a thread per
 * user: one stuck file takes one sleeping thread and nothing else, where
 * a pool is used up by as many stuck files as it has threads, and a
 * thread per user lets a user's stuck file stop his other traces and
 * root's one stuck file every trace of root's.
 *
 * The loop hands the chunk over at each flush while the thread has
 * nothing else to write, and otherwise when it is full: under load the
 * write-outs grow to a chunk's size.  A file has at most
 * KTR_WRITER_QUEUE_BYTES on their way; a uid other than root at most
 * KTR_WRITER_UID_BYTES of chunks in all.  A record that finds no room is
 * dropped and counted (ktr_writer__lost): the file falls behind, never
 * another trace.
 *
 * Records are written whole: a chunk holds complete records only, and a
 * failed write is cut back to the last whole record, so a file is valid
 * up to its last record whatever happens.  Beyond the file's end the
 * writer keeps KTR_WRITER_RESERVE bytes allocated (fallocate, the size
 * kept), so that when the disk fills up the END record (ktr.h) still fits
 * in place of the records cut off; where it cannot be kept (a file system
 * without fallocate) the END is written if there is room.  The END goes
 * into that room, with none kept after it; a block left past the end is
 * given back at the close (ftruncate, which costs ext4 a journal
 * transaction: about 0.3 ms, up to 4, in a traced `true`'s wait).
 *
 * A file operation of the thread's that has not returned after
 * KTR_WRITER_STUCK_MS, the thread waiting in the kernel (a write into a
 * FUSE file system that does not answer, a file whose lock another
 * process holds; not a thread that only waits for a CPU), makes the
 * writer stuck (ktr_writer__stuck): nothing more is queued for it, what
 * was is dropped and counted lost, so that it holds only the chunk its
 * thread writes, and its trace file's slot stays taken until the thread
 * has returned (ktr_files.h counts a user's stuck writers).
 *
 * A gzip writer (ktraceb -z) compresses each chunk into one whole gzip
 * member (RFC 1952; a file of several members is one valid gzip file), so
 * the same holds of the file's uncompressed contents, and gzip -t accepts
 * the file after every write-out.  When the thread falls behind (half its
 * queue's bytes waiting), members are stored rather than compressed: a
 * burst costs file size, not records.
 */
#ifndef KTRACEB_KTR_WRITER_H
#define KTRACEB_KTR_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <linux/types.h>

struct ktr_writer;
struct ktr_end;

/* zlib's level for -z: the fastest (bench/compress.sh: 6.1x against 6.7x for level 3). */
#define KTR_WRITER_GZIP_LEVEL  1
/* A write-out: at most this many bytes of records. */
#define KTR_WRITER_CHUNK       (1u << 20)
/* Bytes of records a file may have on their way to it, beside the chunk being filled. */
#define KTR_WRITER_QUEUE_BYTES (32u << 20)
/* Chunk bytes a uid other than root may hold in all, over all its files. */
#define KTR_WRITER_UID_BYTES   (128ull << 20)
/*
 * Bytes kept allocated past the file's end for its END record: the
 * record (ktr.h), and under -z the 23 bytes of a stored gzip member
 * around it, rounded up.  No more than that, so that the END written into
 * them leaves most often no block past the file's end to give back.
 */
#define KTR_WRITER_RESERVE     (sizeof(struct ktr_header) + sizeof(struct ktr_end) + 64)
/* A file operation that has not returned after this long makes the writer stuck. */
#define KTR_WRITER_STUCK_MS    5000
/* A dump (ktr_writer__append with WAIT) waits at most this long for room. */
#define KTR_WRITER_WAIT_MS     100

/* ktr_writer__append's flags: a LOST record (not counted lost if refused) */
#define KTR_WRITER_OURS 0x1
/*
 * A recorder's dump: wait for room up to KTR_WRITER_WAIT_MS, unless the
 * file fell behind before
 */
#define KTR_WRITER_WAIT 0x2

/*
 * Who judges whether a -z member may be compressed now (may_take(ctx, ns):
 * true if compressing it may take ns), for every writer; a member it says
 * no to is stored.  None (the daemon): the writer's own queue judges.
 * For tests.
 */
void ktr_writer__pace_by(bool (*may_take)(void *ctx, long long ns), void *ctx);
/* A descriptor written to (8 bytes, an eventfd's) when a file fails or is closed. */
void ktr_writer__notify_by(int fd);

/*
 * A writer appending to fd (which it takes over: closed if it fails) and its
 * thread, or NULL with errno set.  Every write is made as uid/gid with no capability.
 * gzip: the records go to the file gzip-compressed, as described above.
 */
struct ktr_writer *ktr_writer__new(int fd, uid_t uid, gid_t gid, bool gzip);
/*
 * The same for a file a daemon that was killed wrote whole up to cut
 * bytes (ktr_filestate.h): what is past cut (a write-out the kill cut
 * short) is cut off first; a file shorter than cut is not the one it
 * wrote, and is not written (error ESTALE).
 */
struct ktr_writer *ktr_writer__new_at(int fd, uid_t uid, gid_t gid, bool gzip, off_t cut);
/* Where to store how far the file is written whole, after every write-out (NULL: nowhere). */
void ktr_writer__publish(struct ktr_writer *w, __u64 *committed);
bool ktr_writer__gzip(const struct ktr_writer *w);

/*
 * Append one record (header + payload, ktr_len checked by the caller),
 * stamping ktr_time from its CLOCK_MONOTONIC time and wall_offset_ns.
 * 0, or -errno if it was dropped (counted lost, but with KTR_WRITER_OURS):
 * -ENOBUFS no room (the file fell behind), the file's error after one,
 * -ESHUTDOWN after finish.
 */
int ktr_writer__append(struct ktr_writer *w, const void *rec, size_t len, __s64 wall_offset_ns,
		       unsigned int flags);
/* The records gathered so far on their way to the file. */
void ktr_writer__flush(struct ktr_writer *w);

/*
 * The records on their way written (a recorder's dump, before -D says how
 * many it wrote): waits while the file's thread makes progress, at most
 * KTR_WRITER_WAIT_MS without any, not at all for a file that fell behind.
 * 0, or -ETIMEDOUT.
 */
int ktr_writer__settle(struct ktr_writer *w);
/* The file's first write error (an errno value), or 0. */
int ktr_writer__error(const struct ktr_writer *w);
/* Records in the file (whole, written). */
unsigned long long ktr_writer__records(const struct ktr_writer *w);
/* Records that did not reach the file: dropped for want of room, or cut off by an error. */
unsigned long long ktr_writer__lost(const struct ktr_writer *w);
/* Records on their way to the file. */
unsigned long long ktr_writer__pending(const struct ktr_writer *w);
/* The trace's lost records as the daemon knows them (LOST records' total), for the END. */
void ktr_writer__set_lost_total(struct ktr_writer *w, unsigned long long total);
const char *ktr_writer__path(const struct ktr_writer *w);
/* Is the file's last link gone?  Asked of the file without waiting for it. */
bool ktr_writer__unlinked(const struct ktr_writer *w);

/*
 * The end: what is gathered, then the END record end (ke_records, ke_lost
 * and ke_unwritten are the writer's to fill; NULL: none), the space kept
 * past it given back, the file closed, all on the file's thread.  Returns
 * at once; ktr_writer__done() says when it is over.
 */
void ktr_writer__finish(struct ktr_writer *w, const struct ktr_end *end);
/*
 * Is the thread stuck in the file (as above)?  If so, what the loop holds
 * for it and its queue are dropped now, counted lost.
 */
bool ktr_writer__stuck(struct ktr_writer *w);
/* Is the file closed (finished), and was its END written? */
bool ktr_writer__done(const struct ktr_writer *w);
bool ktr_writer__end_written(const struct ktr_writer *w);
/*
 * Wait up to ms for the thread to finish (the daemon's last moments);
 * true if it did.
 */
bool ktr_writer__wait_done(struct ktr_writer *w, int ms);
/* Its thread gone, the writer freed; one whose thread is stuck is left to it. */
void ktr_writer__free(struct ktr_writer *w);

#endif /* KTRACEB_KTR_WRITER_H */
