// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The writer, a file's thread (ktr_writer.h): the chunks the loop queued,
 * written in order as the file's owner, each gzip-compressed into one
 * member under -z; the space for the END kept past the file's end; on a
 * write error the file cut back to whole records with the END in place of
 * what did not fit; at the end the END, and the file closed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/falloc.h>
#include <sys/prctl.h>
#include <sys/stat.h>

#include "common/ktr_creds.h"
#include "daemon/ktr_clock.h"
#include "daemon/ktr_record.h"
#include "ktr_writer.h"
#include "ktr_writer_priv.h"

#define ATOMIC_GET(p)	 __atomic_load_n(p, __ATOMIC_ACQUIRE)
#define ATOMIC_SET(p, v) __atomic_store_n(p, v, __ATOMIC_RELEASE)
#define ATOMIC_ADD(p, v) __atomic_add_fetch(p, v, __ATOMIC_ACQ_REL)

/* How far the file is written whole, for a daemon that finds this one killed. */
static void out__published(struct ktr_writer *w)
{
	__u64 *p = ATOMIC_GET(&w->publish);

	if (p)
		ATOMIC_SET(p, (__u64)w->committed);
}

/* n bytes of src at off; *done: how many made it before a failure.  0 or -errno. */
static int out__write_at(struct ktr_writer *w, const void *src, size_t n, off_t off, size_t *done)
{
	*done = 0;
	while (*done < n) {
		ssize_t k = pwrite(w->fd, (const char *)src + *done, n - *done, off + *done);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return k < 0 ? -errno : -ENOSPC;
		*done += k;
	}
	return 0;
}

/*
 * KTR_WRITER_RESERVE bytes allocated past off, the file's size kept: the
 * room an END needs when the disk is full.  0, or -errno when the disk has
 * not that much left (a file system that cannot keep room: 0, unreserved).
 */
static int out__reserve(struct ktr_writer *w, off_t off)
{
	if (fallocate(w->fd, FALLOC_FL_KEEP_SIZE, off, KTR_WRITER_RESERVE) == 0) {
		w->reserved = true;
		return 0;
	}
	w->reserved = false;
	if (errno == ENOSPC || errno == EDQUOT || errno == EFBIG)
		return -errno;
	return 0; /* EOPNOTSUPP and the like: no room kept, the END as luck has it */
}

/*
 * The whole records at the start of buf that fit in n bytes: their
 * length; *count of them, *own of them LOST records.
 */
static size_t out__whole(const char *buf, size_t n, unsigned long long *count,
			 unsigned long long *own)
{
	size_t off = 0;

	*count = *own = 0;
	for (;;) {
		struct ktr_header h;

		if (off + sizeof(h) > n)
			break;
		memcpy(&h, buf + off, sizeof(h));
		if (h.ktr_len < 0 || off + sizeof(h) + (size_t)h.ktr_len > n)
			break;
		off += sizeof(h) + h.ktr_len;
		(*count)++;
		*own += h.ktr_type == KTR_LOST;
	}
	return off;
}

/*
 * src (len) as one whole gzip member at level into zbuf: its size, or 0.
 * Level 0 (stored) gives the same size for the same length: an END
 * rewritten in place fits where the first one was.
 */
static size_t out__member(struct ktr_writer *w, const void *src, size_t len, int level)
{
	size_t out;
	int zerr;

	deflateParams(w->z, level, Z_DEFAULT_STRATEGY); /* just reset: nothing to flush */
	w->z->next_in = (Bytef *)src;
	w->z->avail_in = len;
	w->z->next_out = w->zbuf;
	w->z->avail_out = w->zcap;
	zerr = deflate(w->z, Z_FINISH);
	out = w->zcap - w->z->avail_out;
	deflateReset(w->z);
	return zerr == Z_STREAM_END ? out : 0;
}

/* An END record, whole. */
union end_rec {
	struct ktr_header h;
	char b[sizeof(struct ktr_header) + sizeof(struct ktr_end)];
};

/*
 * The END record as it stands now, in rec, and its file bytes in *bytes
 * (under -z a stored member, in zbuf); their size, 0 if none.
 */
static size_t out__end_bytes(struct ktr_writer *w, const struct ktr_end *end, void **bytes,
			     union end_rec *rec)
{
	__s64 wall;
	struct ktr_end e = *end;
	size_t len = sizeof(rec->h) + sizeof(e);

	/* the records before it: an END written after an error is counted among them */
	e.ke_records = ATOMIC_GET(&w->records) - ATOMIC_GET(&w->end_written);
	e.ke_unwritten += ATOMIC_GET(&w->unwritten);
	e.ke_lost += ATOMIC_GET(&w->unwritten);
	ktr_record__own(&rec->h, KTR_END, sizeof(e), 0);
	memcpy(&rec->h + 1, &e, sizeof(e));
	wall = (__s64)rec->h.ktr_mono_ns + ktr_wall_offset_ns();
	rec->h.ktr_time_sec = wall / 1000000000;
	rec->h.ktr_time_usec = (wall % 1000000000) / 1000;
	*bytes = rec->b;
	if (!w->z)
		return len;
	*bytes = w->zbuf;
	return out__member(w, rec->b, len, 0);
}

/* The END the loop knows of so far, for one written after an error. */
static void out__end_now(struct ktr_writer *w, struct ktr_end *e, int err)
{
	pthread_mutex_lock(&w->mu);
	*e = w->end;
	pthread_mutex_unlock(&w->mu);
	e->ke_why = KTR_END_WRITE_ERROR;
	e->ke_errno = err;
	e->ke_pid = 0;
	e->ke_uid = 0;
	e->ke_lost = ATOMIC_GET(&w->lost_total);
}

/*
 * A write-out of c at base (tried bytes: c's, or its member's) failed
 * with err after done bytes (had: room was kept past base).  The file keeps the whole records that fit before
 * the END: it goes where the first record cut off was, into bytes the
 * file already has, so it needs no room the disk has not got.
 */
static void out__fail(struct ktr_writer *w, const struct ktr_chunk *c, off_t base, size_t tried,
		      size_t done, bool had, int err)
{
	union end_rec rec;
	unsigned long long fit = 0, own = 0;
	size_t room = had && done < KTR_WRITER_RESERVE ? KTR_WRITER_RESERVE : done, keep, elen;
	struct ktr_end e;
	void *bytes;

	out__end_now(w, &e, err);
	elen = out__end_bytes(w, &e, &bytes, &rec);
	if (w->z)
		keep = done == tried && done + elen <= room ? done : 0;
	else
		keep = out__whole(c->data, done, &fit, &own);
	/* plain records: as many whole ones as leave the END room */
	while (!w->z && keep && keep + elen > room)
		keep = out__whole(c->data, keep - 1, &fit, &own);
	if (w->z && keep) {
		fit = c->n;
		own = c->own;
	}
	ATOMIC_SET(&w->error, -err);
	ATOMIC_ADD(&w->records, fit);
	ATOMIC_ADD(&w->unwritten, (c->n - c->own) - (fit - own));
	elen = out__end_bytes(w, &e, &bytes, &rec); /* with the counts now */
	w->committed = base + keep;
	if (elen && out__write_at(w, bytes, elen, w->committed, &done) == 0) {
		w->end_off = w->committed;
		w->end_len = elen;
		w->committed += elen;
		ATOMIC_SET(&w->end_written, 1);
		ATOMIC_ADD(&w->records, 1);
	}
	if (ftruncate(w->fd, w->committed) < 0) {
		/* an append-only file: what is there stays */
	}
	w->reserved = false;
	out__published(w);
	ktr_writer__notify();
}

/*
 * -z: the level of a member.  When chunks come faster than they are
 * compressed (tar's trace: about 850 MB/s, zlib's level 1 about 100),
 * half the queue's bytes waiting after this one, members are stored
 * (deflate's level 0: still gzip, about as fast as a plain write) until
 * the thread has caught up.
 */
static int out__level(struct ktr_writer *w, size_t len)
{
	size_t behind = __atomic_load_n(&w->held, __ATOMIC_RELAXED);
	bool yes;

	if (ktr_writer__paced((long long)(w->z_ns_per_byte * (double)len), &yes))
		return yes ? KTR_WRITER_GZIP_LEVEL : 0;
	return behind > len && behind - len >= KTR_WRITER_QUEUE_BYTES / 2 ? 0 :
									    KTR_WRITER_GZIP_LEVEL;
}

/*
 * One chunk, written whole at the file's end (under -z as one member),
 * room for the END kept after it unless it is the END.
 */
static void out__chunk(struct ktr_writer *w, const struct ktr_chunk *c, bool is_end)
{
	off_t base = w->committed;
	bool had = w->reserved;
	const void *src = c->data;
	size_t len = c->len, done = 0;
	int err;

	if (ATOMIC_GET(&w->error)) {
		ATOMIC_ADD(&w->unwritten, c->n - c->own);
		return;
	}
	if (w->z) {
		int level = out__level(w, c->len);
		__u64 t0 = ktr_mono_ns();

		len = out__member(w, c->data, c->len, level);
		if (level)
			w->z_ns_per_byte =
				(double)(ktr_mono_ns() - t0) / (double)(c->len ? c->len : 1);
		src = w->zbuf;
		if (!len) {
			out__fail(w, c, base, 0, 0, had, -EIO);
			return;
		}
	}
	err = out__write_at(w, src, len, base, &done);
	if (!err) {
		done = len;
		if (is_end)
			w->reserved = false; /* the END went into the room */
		else
			err = out__reserve(w, base + len);
	}
	if (err) {
		out__fail(w, c, base, len, done, had, err);
		return;
	}
	w->committed = base + len;
	ATOMIC_ADD(&w->records, c->n);
	out__published(w);
}

/*
 * The END with the final counts: in place of the one an error wrote (the
 * same size), or after the last records.  Then the room kept goes.
 */
static void out__end(struct ktr_writer *w)
{
	union end_rec rec;
	struct ktr_end e;
	struct ktr_chunk *c;
	void *bytes;
	size_t elen, done;

	pthread_mutex_lock(&w->mu);
	e = w->end;
	pthread_mutex_unlock(&w->mu);
	e.ke_lost = ATOMIC_GET(&w->lost_total);
	if (w->end_off >= 0) {
		struct ktr_end first;

		/* the error is why it ended, whatever ended the trace after it */
		out__end_now(w, &first, ATOMIC_GET(&w->error));
		e.ke_why = first.ke_why;
		e.ke_errno = first.ke_errno;
		e.ke_pid = 0;
		e.ke_uid = 0;
		elen = out__end_bytes(w, &e, &bytes, &rec);
		if (elen == w->end_len && w->positional)
			out__write_at(w, bytes, elen, w->end_off, &done);
		return;
	}
	if (ATOMIC_GET(&w->error))
		return; /* no END fitted after the error */
	c = malloc(sizeof(*c) + sizeof(rec));
	if (!c)
		return;
	elen = out__end_bytes(w, &e, &bytes, &rec);
	memcpy(c->data, rec.b, sizeof(rec.h) + sizeof(e));
	c->len = sizeof(rec.h) + sizeof(e);
	c->n = 1;
	c->own = 1;
	out__chunk(w, c, true);
	free(c);
	if (!ATOMIC_GET(&w->error))
		ATOMIC_SET(&w->end_written, 1);
}

/*
 * Open for appending: positional writes from the end it has now (a
 * killed daemon's file: from where it was written whole).
 */
static void out__start(struct ktr_writer *w)
{
	int fl = fcntl(w->fd, F_GETFL);
	off_t end = lseek(w->fd, 0, SEEK_END);

	if (w->cut >= 0 && end > w->cut && ftruncate(w->fd, w->cut) == 0)
		end = w->cut;
	if (w->cut >= 0 && end != w->cut)
		ATOMIC_SET(&w->error, ESTALE); /* not the file it wrote: left alone */
	w->committed = end > 0 ? end : 0;
	/* O_APPEND makes pwrite append: off, so an END can be written in place */
	if (fl >= 0 && (fl & O_APPEND))
		fcntl(w->fd, F_SETFL, fl & ~O_APPEND);
	fl = fcntl(w->fd, F_GETFL);
	w->positional = fl >= 0 && !(fl & O_APPEND);
	if (!ATOMIC_GET(&w->error))
		out__reserve(w, w->committed);
}

/*
 * At the close, the room kept past the end given back, or the block the
 * END's room reached past the END: seen as more blocks than the size
 * needs (a big file's extent tree counts there too, and is truncated as
 * before).  Only then: ftruncate costs ext4 a journal transaction, and a
 * traced command's ktraceb waits for it.
 */
static void out__give_back(struct ktr_writer *w)
{
	struct stat st;

	if (!w->reserved) {
		if (fstat(w->fd, &st) < 0 || st.st_blksize <= 0)
			return;
		if ((off_t)st.st_blocks * 512 <=
		    (st.st_size + st.st_blksize - 1) / st.st_blksize * st.st_blksize)
			return;
	}
	if (ftruncate(w->fd, w->committed) < 0) {
		/* the room kept stays allocated: no harm to the trace */
	}
}

/* In a file operation from now on (the loop may find it stuck), or out of it. */
static void out__busy(struct ktr_writer *w, bool busy)
{
	ATOMIC_SET(&w->busy_ns, busy ? ktr_mono_ns() : 0);
}

/*
 * The next chunk of the queue, taken off it (what stays queued is the
 * loop's to drop if this one's write never returns), or NULL at the end.
 */
static struct ktr_chunk *out__next(struct ktr_writer *w)
{
	struct ktr_chunk *c;

	pthread_mutex_lock(&w->mu);
	while (!w->head && !w->finish)
		pthread_cond_wait(&w->more, &w->mu);
	c = w->head;
	if (c) {
		w->head = c->next;
		if (!w->head)
			w->tail = NULL;
		c->next = NULL;
	}
	pthread_mutex_unlock(&w->mu);
	return c;
}

void *ktr_writer__thread(void *arg)
{
	struct ktr_writer *w = arg;
	struct ktr_saved_creds saved;
	struct ktr_chunk *c;

	prctl(PR_SET_NAME, "ktracebd-write");
	ATOMIC_SET(&w->tid, gettid());
	/* this thread writes as the file's owner, for good: its ids are its own */
	out__busy(w, true);
	if (ktr_creds__as_owner(w->uid, w->gid, &saved) < 0)
		ATOMIC_SET(&w->error, EPERM);
	else
		out__start(w);
	out__busy(w, false);
	while ((c = out__next(w))) {
		unsigned long long n = c->n;
		size_t len = c->len;

		out__busy(w, true);
		out__chunk(w, c, false);
		out__busy(w, false);
		ktr_writer__chunk_free(w, c);
		/* room again, for the loop and a dump waiting for its records */
		pthread_mutex_lock(&w->mu);
		__atomic_sub_fetch(&w->held, len, __ATOMIC_RELAXED);
		__atomic_sub_fetch(&w->pending, n, __ATOMIC_ACQ_REL);
		pthread_cond_broadcast(&w->room);
		pthread_mutex_unlock(&w->mu);
	}
	out__busy(w, true);
	if (w->has_end)
		out__end(w);
	out__give_back(w);
	close(w->fd);
	out__busy(w, false);
	ATOMIC_SET(&w->done, 1);
	ktr_writer__notify();
	return NULL;
}
