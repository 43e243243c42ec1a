// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kdump_reader.h"

/* kdump -l polls a growing file at this interval (BSD kdump sleeps 1 s). */
#define FOLLOW_NSEC 200000000L

struct ktr_reader {
	FILE *in;
	int flags;
	unsigned char *buf;
	size_t cap;
	size_t have; /* bytes of the current record already buffered */
	unsigned long nrec;
	struct ktr_header hdr;
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
	free(r);
}

const struct ktr_header *ktr_reader__header(const struct ktr_reader *r)
{
	return &r->hdr;
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
		n = fread(r->buf + r->have, 1, need - r->have, r->in);
		r->have += n;
		if (n > 0)
			continue;
		if (ferror(r->in))
			return errno ? -errno : -EIO; /* EISDIR, ... */
		if (r->flags & KTR_READER_FOLLOW) {
			clearerr(r->in);
			nanosleep(&pause, NULL);
			continue;
		}
		return r->have == 0 ? 1 : -ENODATA;
	}
	return 0;
}

int ktr_reader__next(struct ktr_reader *r, struct ktr_record *rec)
{
	const size_t hsz = sizeof(struct ktr_header);
	int err;

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
