// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <zlib.h>

#include "ktraceb/ktr.h"
#include "common/ktr_creds.h"
#include "ktr_clock.h"
#include "ktr_writer.h"

#define WRITER_BUFSIZE (1 << 20)

struct ktr_writer {
	int fd;
	int error;
	uid_t uid; /* written as this user, with no capability (ktr_creds.h) */
	gid_t gid;
	char *path;
	char *buf;
	size_t len;
	off_t committed; /* file size after the last whole flush */
	unsigned long long records; /* whole records on disk */
	unsigned long long pending; /* records in buf */
	z_stream *z; /* -z: each write-out is one whole gzip member */
	unsigned char *zbuf; /* its compressed bytes, deflateBound(WRITER_BUFSIZE) */
	size_t zcap;
	double z_ns_per_byte; /* what compressing cost the last time it was done */
};

/* The deflate state of a -z writer; 0 or -ENOMEM. */
static int writer__gzip_init(struct ktr_writer *w)
{
	w->z = calloc(1, sizeof(*w->z));
	if (!w->z)
		return -ENOMEM;
	/* 15 + 16: a gzip wrapper (RFC 1952) around the deflate data */
	if (deflateInit2(w->z, KTR_WRITER_GZIP_LEVEL, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
	    Z_OK) {
		free(w->z);
		w->z = NULL;
		return -ENOMEM;
	}
	/* level 1's bound, and room for stored blocks (5 bytes in each 64 KiB) */
	w->zcap = deflateBound(w->z, WRITER_BUFSIZE) + 64 + WRITER_BUFSIZE / 1024;
	w->zbuf = malloc(w->zcap);
	return w->zbuf ? 0 : -ENOMEM;
}

struct ktr_writer *ktr_writer__new(int fd, uid_t uid, gid_t gid, bool gzip)
{
	struct ktr_writer *w = calloc(1, sizeof(*w));
	char link[64], target[4096];
	ssize_t n;

	if (!w)
		return NULL;
	w->buf = malloc(WRITER_BUFSIZE);
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, target, sizeof(target) - 1);
	target[n > 0 ? n : 0] = '\0';
	w->path = strdup(n > 0 ? target : "trace file");
	if (!w->buf || !w->path || (gzip && writer__gzip_init(w))) {
		w->fd = -1;
		ktr_writer__free(w);
		errno = ENOMEM;
		return NULL;
	}
	w->fd = fd;
	w->uid = uid;
	w->gid = gid;
	w->committed = lseek(fd, 0, SEEK_END);
	return w;
}

int ktr_writer__fd(const struct ktr_writer *w)
{
	return w->fd;
}

bool ktr_writer__gzip(const struct ktr_writer *w)
{
	return w->z != NULL;
}

/* The whole records at the start of buf that fit in n bytes: their length. */
static size_t writer__whole(const char *buf, size_t n, unsigned long long *count)
{
	size_t off = 0;

	*count = 0;
	for (;;) {
		struct ktr_header h;

		if (off + sizeof(h) > n)
			break;
		memcpy(&h, buf + off, sizeof(h));
		if (off + sizeof(h) + (size_t)h.ktr_len > n)
			break;
		off += sizeof(h) + h.ktr_len;
		(*count)++;
	}
	return off;
}

/*
 * The bytes of src (n) to the file; on a short write, cut the file back to
 * keep bytes and fail.  *done: what was written before the failure.
 */
static int writer__write_all(struct ktr_writer *w, const void *src, size_t n, size_t *done)
{
	*done = 0;
	while (*done < n) {
		ssize_t k = write(w->fd, (const char *)src + *done, n - *done);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return k < 0 ? -errno : -ENOSPC;
		*done += k;
	}
	return 0;
}

/* A failed write-out: the file cut back to committed + keep bytes, fit records. */
static int writer__fail(struct ktr_writer *w, int err, size_t keep, unsigned long long fit)
{
	w->error = -err;
	if (ftruncate(w->fd, w->committed + keep) < 0)
		w->error = w->error ? w->error : errno;
	w->committed += keep;
	w->records += fit;
	w->len = 0;
	w->pending = 0;
	return -w->error;
}

static void writer__done(struct ktr_writer *w, size_t bytes)
{
	w->committed += bytes;
	w->records += w->pending;
	w->len = 0;
	w->pending = 0;
}

/* Write buf as the file's user; on a short write keep the whole records. */
static int writer__write_out(struct ktr_writer *w)
{
	unsigned long long fit;
	size_t done, keep;
	int err = writer__write_all(w, w->buf, w->len, &done);

	if (err) {
		/* keep every whole record that made it, drop the partial tail */
		keep = writer__whole(w->buf, done, &fit);
		return writer__fail(w, err, keep, fit);
	}
	writer__done(w, w->len);
	return 0;
}

/* The daemon's judge of whether compressing may take that long now (ktr_writer.h). */
static bool (*writer_may_take)(void *ctx, long long ns);
static void *writer_may_take_ctx;

void ktr_writer__pace_by(bool (*may_take)(void *ctx, long long ns), void *ctx)
{
	writer_may_take = may_take;
	writer_may_take_ctx = ctx;
}

/*
 * -z in a burst: records can come faster than the daemon's one thread
 * compresses them (tar's trace: about 850 MB/s, zlib's level 1 about 100),
 * and the ring buffer fills while it does.  A member is stored instead
 * (deflate's level 0: still gzip, about as fast as a plain write) when
 * compressing it, as long as the last one took, would fill the ring past
 * half at the pace it fills now: the burst costs file size, not records.
 */
static int writer__gzip_level(const struct ktr_writer *w)
{
	long long cost = (long long)(w->z_ns_per_byte * (double)w->len);

	return !writer_may_take || writer_may_take(writer_may_take_ctx, cost) ?
		       KTR_WRITER_GZIP_LEVEL :
		       0;
}

/*
 * -z: buf as one whole gzip member (header, deflate data, trailer), so the
 * file is a valid multi-member gzip file after every write-out: a daemon
 * killed, a full disk or an append later (-a, a recorder taken over) leaves
 * every earlier member whole.  A member cut short is cut off altogether.
 */
static int writer__write_gzip(struct ktr_writer *w)
{
	__u64 t0 = ktr_mono_ns();
	int level = writer__gzip_level(w);
	size_t out, done;
	int zerr, err;

	deflateParams(w->z, level, Z_DEFAULT_STRATEGY); /* just reset: nothing to flush */
	w->z->next_in = (Bytef *)w->buf;
	w->z->avail_in = w->len;
	w->z->next_out = w->zbuf;
	w->z->avail_out = w->zcap;
	zerr = deflate(w->z, Z_FINISH);
	out = w->zcap - w->z->avail_out;
	deflateReset(w->z);
	if (level)
		w->z_ns_per_byte = (double)(ktr_mono_ns() - t0) / (double)(w->len ? w->len : 1);
	if (zerr != Z_STREAM_END)
		return writer__fail(w, -EIO, 0, 0);
	err = writer__write_all(w, w->zbuf, out, &done);
	if (err)
		return writer__fail(w, err, 0, 0);
	writer__done(w, out);
	return 0;
}

int ktr_writer__flush(struct ktr_writer *w)
{
	struct ktr_saved_creds saved;
	int err;

	if (w->error)
		return -w->error;
	if (!w->len)
		return 0;
	err = ktr_creds__as_owner(w->uid, w->gid, &saved);
	if (err) {
		w->error = -err;
		w->len = 0;
		w->pending = 0;
	} else {
		err = w->z ? writer__write_gzip(w) : writer__write_out(w);
	}
	ktr_creds__restore(&saved);
	return err;
}

static void writer__stamp(struct ktr_header *h, __s64 wall_offset_ns)
{
	__s64 wall = (__s64)h->ktr_mono_ns + wall_offset_ns;

	h->ktr_time_sec = wall / 1000000000;
	h->ktr_time_usec = (wall % 1000000000) / 1000;
}

int ktr_writer__append(struct ktr_writer *w, const void *rec, size_t len, __s64 wall_offset_ns)
{
	int err;

	if (w->error)
		return -w->error;
	if (len > WRITER_BUFSIZE)
		return -E2BIG;
	if (w->len + len > WRITER_BUFSIZE) {
		err = ktr_writer__flush(w);
		if (err)
			return err;
	}
	memcpy(w->buf + w->len, rec, len);
	writer__stamp((struct ktr_header *)(w->buf + w->len), wall_offset_ns);
	w->len += len;
	w->pending++;
	return 0;
}

int ktr_writer__error(const struct ktr_writer *w)
{
	return w->error;
}

unsigned long long ktr_writer__records(const struct ktr_writer *w)
{
	return w->records;
}

const char *ktr_writer__path(const struct ktr_writer *w)
{
	return w->path;
}

int ktr_writer__finish(struct ktr_writer *w)
{
	if (w->fd < 0)
		return -w->error;
	ktr_writer__flush(w);
	if (close(w->fd) < 0 && !w->error)
		w->error = errno;
	w->fd = -1;
	return -w->error;
}

void ktr_writer__free(struct ktr_writer *w)
{
	if (!w)
		return;
	if (w->fd >= 0)
		close(w->fd);
	if (w->z) {
		deflateEnd(w->z);
		free(w->z);
	}
	free(w->zbuf);
	free(w->buf);
	free(w->path);
	free(w);
}
