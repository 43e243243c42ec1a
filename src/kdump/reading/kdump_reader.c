// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gzip_magic.h"
#include "kdump_bsd.h"
#include "kdump_gz.h"
#include "kdump_reader.h"

/* kdump -l polls a growing file at this interval (BSD kdump sleeps 1 s). */
#define FOLLOW_NSEC   200000000L
/* What detection reads of a file that does not start with ktraceb's INFO. */
#define DETECT_WINDOW (1u << 20)

struct ktr_reader {
	FILE *in;
	int flags;
	unsigned char *buf;
	size_t cap;
	size_t have; /* bytes of the current record already buffered */
	unsigned long nrec;
	struct ktr_header hdr;
	bool detected;
	struct kd_bsd_fmt fmt; /* the file's system (kdump_bsd.h) */
	unsigned char *peek; /* bytes detection read, handed out before the file's */
	size_t peek_len, peek_off;
	unsigned char *conv; /* a foreign payload in ktraceb's layout */
	size_t conv_cap;
	bool sniffed; /* the first bytes were looked at for gzip's magic */
	struct kd_gz *gz; /* a compressed trace (ktraceb -z): all bytes come through it */
};

struct ktr_reader *ktr_reader__open(FILE *in, int flags)
{
	struct ktr_reader *r;

	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->in = in;
	r->flags = flags;
	return r;
}

void ktr_reader__close(struct ktr_reader *r)
{
	if (!r)
		return;
	free(r->buf);
	free(r->peek);
	free(r->conv);
	kd_gz__close(r->gz);
	free(r);
}

const struct ktr_header *ktr_reader__header(const struct ktr_reader *r)
{
	return &r->hdr;
}

const struct kd_bsd_fmt *ktr_reader__format(const struct ktr_reader *r)
{
	return &r->fmt;
}

const char *ktr_reader__gzip_why(const struct ktr_reader *r)
{
	return r->gz ? kd_gz__why(r->gz) : "";
}

/* The file's bytes, decompressed if it is compressed: fread() of them. */
static size_t in_read(struct ktr_reader *r, unsigned char *dst, size_t n)
{
	return r->gz ? kd_gz__read(r->gz, dst, n) : fread(dst, 1, n, r->in);
}

/* After in_read() gave nothing: -errno for an error, else 0 (end of the input). */
static int in_error(struct ktr_reader *r)
{
	if (r->gz)
		return kd_gz__error(r->gz);
	if (ferror(r->in))
		return errno ? -errno : -EIO; /* EISDIR, ... */
	return 0;
}

/* Follow mode: read again past the end of the input. */
static void in_clearerr(struct ktr_reader *r)
{
	if (r->gz)
		kd_gz__clearerr(r->gz);
	else
		clearerr(r->in);
}

/* The end of the input, reached: at a record boundary, or not? */
static bool in_eof(struct ktr_reader *r)
{
	return r->gz ? kd_gz__eof(r->gz) : feof(r->in);
}

/* fread(), from what detection read first. */
static size_t src_read(struct ktr_reader *r, unsigned char *dst, size_t n)
{
	size_t k = r->peek_len - r->peek_off;

	if (k == 0)
		return in_read(r, dst, n);
	if (k > n)
		k = n;
	memcpy(dst, r->peek + r->peek_off, k);
	r->peek_off += k;
	if (r->peek_off == r->peek_len) {
		free(r->peek);
		r->peek = NULL;
		r->peek_len = r->peek_off = 0;
	}
	return k;
}

static int reserve(struct ktr_reader *r, size_t need)
{
	size_t cap = r->cap ? r->cap : 4096;
	unsigned char *nb;

	if (need <= r->cap)
		return 0;
	while (cap < need)
		cap *= 2;
	nb = realloc(r->buf, cap);
	if (!nb)
		return -ENOMEM;
	r->buf = nb;
	r->cap = cap;
	return 0;
}

/* Buffer the current record up to need bytes: 0, 1 on EOF at a record boundary, -errno. */
static int fill(struct ktr_reader *r, size_t need)
{
	static const struct timespec pause = { 0, FOLLOW_NSEC };
	size_t n;
	int err;

	err = reserve(r, need + 1);
	if (err)
		return err;
	while (r->have < need) {
		n = src_read(r, r->buf + r->have, need - r->have);
		r->have += n;
		if (n > 0)
			continue;
		err = in_error(r);
		if (err)
			return err;
		if (r->flags & KTR_READER_FOLLOW) {
			in_clearerr(r);
			nanosleep(&pause, NULL);
			continue;
		}
		/* a gzip member cut short is data too short, even between records */
		return r->have == 0 && !(r->gz && kd_gz__cut(r->gz)) ? 1 : -ENODATA;
	}
	return 0;
}

/* ktraceb's INFO record, by its header: type 24 and a payload that can hold it. */
static bool starts_with_info(const unsigned char *p, size_t len)
{
	struct ktr_header h;

	if (len < sizeof(h))
		return false;
	memcpy(&h, p, sizeof(h));
	return h.ktr_type == KTR_FILEINFO && h.ktr_len >= (__s32)sizeof(struct ktr_fileinfo) &&
	       h.ktr_len <= KTR_READER_MAXLEN;
}

/* Read up to want bytes into the peek buffer: 0, or -errno. */
static int peek_more(struct ktr_reader *r, size_t want)
{
	static const struct timespec pause = { 0, FOLLOW_NSEC };
	unsigned char *nb;
	size_t n;
	int err;

	nb = realloc(r->peek, want);
	if (!nb)
		return -ENOMEM;
	r->peek = nb;
	while (r->peek_len < want) {
		n = in_read(r, r->peek + r->peek_len, want - r->peek_len);
		r->peek_len += n;
		if (n > 0)
			continue;
		err = in_error(r);
		if (err)
			return err;
		/* -l on a file not yet holding one header: wait for it */
		if ((r->flags & KTR_READER_FOLLOW) && r->peek_len < sizeof(struct ktr_header)) {
			in_clearerr(r);
			nanosleep(&pause, NULL);
			continue;
		}
		break;
	}
	return 0;
}

/*
 * A compressed trace (ktraceb -z) by gzip's magic: from then on every byte
 * comes through the decompressor.  Anything else keeps the bytes looked
 * at in the peek buffer.  0 or -errno.
 */
static int sniff_gzip(struct ktr_reader *r)
{
	static const struct timespec pause = { 0, FOLLOW_NSEC };
	unsigned char head[KTR_GZIP_MAGIC_LEN];
	size_t have = 0, n;

	r->sniffed = true;
	while (have < sizeof(head)) {
		n = fread(head + have, 1, sizeof(head) - have, r->in);
		have += n;
		if (n > 0)
			continue;
		if (ferror(r->in))
			return errno ? -errno : -EIO;
		if (!(r->flags & KTR_READER_FOLLOW))
			break;
		clearerr(r->in);
		nanosleep(&pause, NULL);
	}
	if (ktr_gzip_magic(head, have)) {
		r->gz = kd_gz__open(r->in, head, have);
		return r->gz ? 0 : -errno;
	}
	r->peek = malloc(sizeof(head));
	if (!r->peek)
		return -ENOMEM;
	memcpy(r->peek, head, have);
	r->peek_len = have;
	return 0;
}

/*
 * Which system wrote the file (kdump_bsd.h), once, before its first record:
 * a file starting with ktraceb's INFO is ktraceb's at once; any other is
 * read up to DETECT_WINDOW bytes and its records walked.
 */
static int detect(struct ktr_reader *r)
{
	const size_t hsz = sizeof(struct ktr_header);
	struct ktr_header h;
	int err;

	r->detected = true;
	if (!r->sniffed && (err = sniff_gzip(r)))
		return err;
	err = peek_more(r, hsz);
	if (err)
		return err;
	if (r->peek_len < hsz || starts_with_info(r->peek, r->peek_len))
		return 0;
	err = peek_more(r, DETECT_WINDOW);
	if (err)
		return err;
	if (kd_bsd__detect(r->peek, r->peek_len, in_eof(r), &r->fmt) == 0)
		return 0;
	memset(&r->fmt, 0, sizeof(r->fmt));
	memcpy(&h, r->peek, hsz);
	r->hdr = h;
	return -ENOEXEC;
}

/* The next record of a foreign file, in ktraceb's layout. */
static int next_foreign(struct ktr_reader *r, struct ktr_record *rec)
{
	const size_t hsz = (size_t)r->fmt.hdrsize;
	size_t plen;
	int err;

	err = fill(r, hsz);
	if (err)
		return err == 1 ? 0 : err;
	err = kd_bsd__header(&r->fmt, r->buf, &r->hdr, &plen);
	if (err)
		return err;
	err = fill(r, hsz + plen);
	if (err)
		return err == 1 ? -ENODATA : err;
	if (r->conv_cap < 2 * plen + 64) {
		unsigned char *nb = realloc(r->conv, 2 * plen + 64);

		if (!nb)
			return -ENOMEM;
		r->conv = nb;
		r->conv_cap = 2 * plen + 64;
	}
	kd_bsd__payload(&r->fmt, &r->hdr, r->buf + hsz, plen, r->conv);
	r->conv[r->hdr.ktr_len] = '\0';
	r->have = 0;
	r->nrec++;
	rec->hdr = r->hdr;
	rec->data = r->conv;
	return 1;
}

int ktr_reader__next(struct ktr_reader *r, struct ktr_record *rec)
{
	const size_t hsz = sizeof(struct ktr_header);
	int err;

	if (!r->detected) {
		err = detect(r);
		if (err)
			return err;
	}
	if (r->fmt.sys != KD_SYS_KTRACEB && r->fmt.sys != KD_SYS_DRAGONFLY)
		return next_foreign(r, rec);
	err = fill(r, hsz);
	if (err)
		return err == 1 ? 0 : err;
	memcpy(&r->hdr, r->buf, hsz);
	if (r->hdr.ktr_len < 0 || r->hdr.ktr_len > KTR_READER_MAXLEN)
		return -EBADMSG;
	/* No file header: a type outside 1..31 up front is the only "magic" check. */
	if (r->nrec == 0 && (r->hdr.ktr_type <= 0 || r->hdr.ktr_type > KTR_TYPE_MAX))
		return -ENOEXEC;
	err = fill(r, hsz + (size_t)r->hdr.ktr_len);
	if (err)
		return err == 1 ? -ENODATA : err;
	r->buf[r->have] = '\0';
	r->have = 0;
	r->nrec++;
	rec->hdr = r->hdr;
	rec->data = r->buf + hsz;
	return 1;
}
