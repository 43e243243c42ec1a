/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * A streamed gzip decompressor under the trace reader (kdump_reader.c):
 * a trace written with ktraceb -z is one or more gzip members (RFC 1952),
 * read here as one byte stream.
 *
 * Invariants:
 *  - Memory is bounded whatever the input: zlib's 32 KiB window and one
 *    input buffer; bytes are inflated only as the reader asks for them, so
 *    a zip bomb costs time, never memory.
 *  - Members follow each other with nothing between; anything else after
 *    a member is corrupt data, not silently ignored.
 *  - At the end of the input, kd_gz__cut() tells whether it ended inside a
 *    member (a writer killed mid-write, a copy cut short); with follow, a
 *    later read takes up the input where it stopped.
 */
#ifndef KTRACEB_KDUMP_GZ_H
#define KTRACEB_KDUMP_GZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct kd_gz;

/*
 * A decompressor of in (not closed), whose first n bytes (head, already
 * read from in: the magic, gzip_magic.h) come first.  NULL with errno set.
 */
struct kd_gz *kd_gz__open(FILE *in, const void *head, size_t n);

/*
 * Up to n decompressed bytes into dst; fewer only at the end of the input
 * (so far) or on an error, which kd_gz__error() and kd_gz__eof() tell.
 */
size_t kd_gz__read(struct kd_gz *z, void *dst, size_t n);

/* 0, or the sticky error: -EILSEQ corrupt data, -ENOMEM, -EIO or another -errno. */
int kd_gz__error(const struct kd_gz *z);
/* zlib's words for a corrupt stream ("invalid block type"), or "". */
const char *kd_gz__why(const struct kd_gz *z);
/* The input has ended (so far): read again after kd_gz__clearerr() to follow it. */
bool kd_gz__eof(const struct kd_gz *z);
/* The input ended inside a member. */
bool kd_gz__cut(const struct kd_gz *z);
void kd_gz__clearerr(struct kd_gz *z);

void kd_gz__close(struct kd_gz *z);

#endif /* KTRACEB_KDUMP_GZ_H */
