/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The trace-file writer: the buffered, owner-credentialed byte sink under a
 * trace file (ktr_files.h owns the file; nothing else calls this).  Records
 * are appended whole: the buffer only ever
 * holds complete records, and a failed write is cut back to the last whole
 * record, so a file is valid up to its last record whatever happens (a full
 * disk, an I/O error, a signal).
 *
 * A gzip writer (ktraceb -z) compresses each write-out of the buffer into
 * one whole gzip member (RFC 1952; a file of several members is one valid
 * gzip file), so the same holds of the file's uncompressed contents, and
 * gzip -t accepts the file after every write-out.  In a burst that the
 * compression cannot keep up with, members are stored rather than
 * compressed (ktr_writer__pace_by): the file grows, no record is lost.
 */
#ifndef KTRACEB_KTR_WRITER_H
#define KTRACEB_KTR_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <linux/types.h>

struct ktr_writer;

/*
 * zlib's level for -z: the fastest.  The daemon compresses every trace's
 * records on one thread; bench/compress.sh: level 1 against 3 costs tar's
 * trace 0.9 s against 1.4 s, for 6.1x against 6.7x smaller files.
 */
#define KTR_WRITER_GZIP_LEVEL	1

/*
 * Who judges whether a -z member may be compressed now (may_take(ctx, ns):
 * true if the daemon may spend ns on it), for every writer; a member it
 * says no to is stored instead.  None: every member is compressed.
 */
void ktr_writer__pace_by(bool (*may_take)(void *ctx, long long ns), void *ctx);

/*
 * A writer appending to fd (which it takes over), or NULL with errno set.
 * Every write is made as uid/gid with no capability (ktr_creds__as_owner).
 * gzip: the records go to the file gzip-compressed, as described above.
 */
struct ktr_writer *ktr_writer__new(int fd, uid_t uid, gid_t gid, bool gzip);
int ktr_writer__fd(const struct ktr_writer *w);
bool ktr_writer__gzip(const struct ktr_writer *w);

/*
 * Append one record (header + payload, ktr_len checked by the caller),
 * stamping ktr_time from its CLOCK_MONOTONIC time and wall_offset_ns.
 * Returns 0 or -errno; after an error the writer refuses every record.
 */
int ktr_writer__append(struct ktr_writer *w, const void *rec, size_t len, __s64 wall_offset_ns);

int ktr_writer__flush(struct ktr_writer *w);
/* The first write error (an errno value), or 0. */
int ktr_writer__error(const struct ktr_writer *w);
unsigned long long ktr_writer__records(const struct ktr_writer *w);
const char *ktr_writer__path(const struct ktr_writer *w);
/* Flush and close the file; returns 0 or the -errno of the first error. */
int ktr_writer__finish(struct ktr_writer *w);
void ktr_writer__free(struct ktr_writer *w);

#endif /* KTRACEB_KTR_WRITER_H */
