// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "kdump_gz.h"

#define GZ_INBUF (64u << 10)

struct kd_gz {
	FILE *in;
	z_stream zs;
	bool between; /* after a member's end: the next byte starts one, or the input ends */
	bool eof;
	int err;
	char why[80];
	unsigned char inbuf[GZ_INBUF];
};

struct kd_gz *kd_gz__open(FILE *in, const void *head, size_t n)
{
	struct kd_gz *z;

	if (n > GZ_INBUF) {
		errno = EINVAL;
		return NULL;
	}
	z = calloc(1, sizeof(*z));
	if (!z)
		return NULL;
	/* 15 + 16: gzip only, with its header and trailer checked */
	if (inflateInit2(&z->zs, 15 + 16) != Z_OK) {
		free(z);
		errno = ENOMEM;
		return NULL;
	}
	z->in = in;
	memcpy(z->inbuf, head, n);
	z->zs.next_in = z->inbuf;
	z->zs.avail_in = n;
	return z;
}

void kd_gz__close(struct kd_gz *z)
{
	if (!z)
		return;
	inflateEnd(&z->zs);
	free(z);
}

int kd_gz__error(const struct kd_gz *z)
{
	return z->err;
}

const char *kd_gz__why(const struct kd_gz *z)
{
	return z->why;
}

bool kd_gz__eof(const struct kd_gz *z)
{
	return z->eof;
}

bool kd_gz__cut(const struct kd_gz *z)
{
	return z->eof && !z->between;
}

void kd_gz__clearerr(struct kd_gz *z)
{
	z->eof = false;
	clearerr(z->in);
}

/* More input when zlib has used all it had: false at its end or on an error. */
static bool gz__refill(struct kd_gz *z)
{
	size_t n;

	if (z->zs.avail_in > 0)
		return true;
	n = fread(z->inbuf, 1, sizeof(z->inbuf), z->in);
	if (n == 0) {
		if (ferror(z->in))
			z->err = errno ? -errno : -EIO;
		z->eof = true;
		return false;
	}
	z->zs.next_in = z->inbuf;
	z->zs.avail_in = n;
	return true;
}

static void gz__corrupt(struct kd_gz *z, int ret)
{
	z->err = ret == Z_MEM_ERROR ? -ENOMEM : -EILSEQ;
	snprintf(z->why, sizeof(z->why), "%s", z->zs.msg ? z->zs.msg : "corrupt data");
}

size_t kd_gz__read(struct kd_gz *z, void *dst, size_t n)
{
	int ret;

	if (z->err || n == 0)
		return 0;
	z->zs.next_out = dst;
	z->zs.avail_out = n;
	while (z->zs.avail_out > 0) {
		if (!gz__refill(z))
			break;
		if (z->between) {
			/* the next member; a non-gzip byte here is corrupt data */
			inflateReset(&z->zs);
			z->between = false;
		}
		ret = inflate(&z->zs, Z_NO_FLUSH);
		if (ret == Z_STREAM_END) {
			z->between = true;
			continue;
		}
		/* Z_BUF_ERROR: no progress; only right when all input is used */
		if (ret == Z_OK || (ret == Z_BUF_ERROR && z->zs.avail_in == 0))
			continue;
		gz__corrupt(z, ret);
		return 0;
	}
	return n - z->zs.avail_out;
}
