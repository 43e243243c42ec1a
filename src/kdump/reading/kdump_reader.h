/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * A bounded reader of trace files, shared by kdump and the tests.
 *
 * Invariants:
 *  - A record is handed out only once its header and all ktr_len payload
 *    bytes are buffered; the payload stays valid until the next call.
 *  - ktr_len is checked (0..KTR_READER_MAXLEN) before any allocation, so a
 *    hostile file cannot make the reader allocate more than that.
 *  - In follow mode, EOF in the middle of a record keeps the bytes read so
 *    far and waits for the rest: the stream never loses synchronisation.
 *  - The payload is followed by one NUL byte that is not part of ktr_len.
 *  - A file starting with gzip's magic (ktraceb -z) is read through a
 *    streamed decompressor (kdump_gz.h), one or more members, with all of
 *    the above holding of its decompressed bytes.
 */
#ifndef KTRACEB_KDUMP_READER_H
#define KTRACEB_KDUMP_READER_H

#include <stdio.h>
#include "ktraceb/ktr.h"
#include "kdump_bsd.h"

/* KTR_READER_MAXLEN (kdump_bsd.h), the largest ktr_len: anything above is "bogus length". */

/* ktr_reader__open() flags */
#define KTR_READER_FOLLOW 0x1 /* kdump -l: wait at EOF instead of ending */

struct ktr_record {
	struct ktr_header hdr; /* a copy: aligned whatever the buffer is */
	const void *data; /* hdr.ktr_len bytes */
};

struct ktr_reader;

/* A reader of in (not closed by the reader), or NULL with errno set. */
struct ktr_reader *ktr_reader__open(FILE *in, int flags);

/*
 * The next record into *rec.  Returns 1 for a record, 0 at a clean end of
 * file, or:
 *   -EBADMSG  ktr_len is negative or above KTR_READER_MAXLEN ("bogus length")
 *   -ENODATA  the file ends inside a header or a payload ("data too short")
 *   -ENOEXEC  the file is no system's ktrace file ("not a dump")
 *   -EPROTO   a foreign file's record has a type its system does not have
 *   -EILSEQ   a compressed file's data is corrupt (ktr_reader__gzip_why())
 *   -ENOMEM, -EIO
 * A compressed file that ends inside a gzip member is -ENODATA after its
 * last whole record, even at a record boundary.
 * After an error, ktr_reader__header() is the header that caused it.
 */
int ktr_reader__next(struct ktr_reader *r, struct ktr_record *rec);

/* The last header read, for error messages ("bogus length 0x%x"). */
const struct ktr_header *ktr_reader__header(const struct ktr_reader *r);

/*
 * The system and header layout of the file (kdump_bsd.h), known once
 * ktr_reader__next() has returned: KD_SYS_KTRACEB for ktraceb's own.
 */
const struct kd_bsd_fmt *ktr_reader__format(const struct ktr_reader *r);

/* zlib's words for corrupt compressed data (-EILSEQ), or "". */
const char *ktr_reader__gzip_why(const struct ktr_reader *r);

void ktr_reader__close(struct ktr_reader *r);

#endif /* KTRACEB_KDUMP_READER_H */
