// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The writer, the loop's side (ktr_writer.h): records gathered into
 * chunks and handed to the file's thread (ktr_writer_out.c) without
 * waiting, what did not fit counted, and the thread's word read back.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "daemon/ktr_clock.h"
#include "ktr_writer.h"
#include "ktr_writer_priv.h"

#define ATOMIC_GET(p)	 __atomic_load_n(p, __ATOMIC_ACQUIRE)
#define ATOMIC_SET(p, v) __atomic_store_n(p, v, __ATOMIC_RELEASE)

/* The thread's stack: a write, deflate (its state on the heap), no more. */
#define WRITER_STACK (256u << 10)

/* --- what every writer shares ---------------------------------------------- */

static bool (*writer_may_take)(void *ctx, long long ns);
static void *writer_may_take_ctx;
static int writer_notify_fd = -1;

void ktr_writer__pace_by(bool (*may_take)(void *ctx, long long ns), void *ctx)
{
	writer_may_take = may_take;
	writer_may_take_ctx = ctx;
}

bool ktr_writer__paced(long long ns, bool *yes)
{
	if (!writer_may_take)
		return false;
	*yes = writer_may_take(writer_may_take_ctx, ns);
	return true;
}

void ktr_writer__notify_by(int fd)
{
	writer_notify_fd = fd;
}

void ktr_writer__notify(void)
{
	__u64 one = 1;

	if (writer_notify_fd >= 0 && write(writer_notify_fd, &one, sizeof(one)) < 0) {
		/* a full counter wakes the loop all the same */
	}
}

/*
 * Each uid's chunk bytes (KTR_WRITER_UID_BYTES).  The table is the loop's
 * alone (writers are made and freed there); a budget's bytes are atomic,
 * since a thread gives its chunks back.
 */
static struct ktr_writer_budget **budgets;
static unsigned int nbudgets;

static struct ktr_writer_budget *budget__get(uid_t uid)
{
	struct ktr_writer_budget *b, **v;

	for (unsigned int i = 0; i < nbudgets; i++)
		if (budgets[i]->uid == uid) {
			budgets[i]->users++;
			return budgets[i];
		}
	v = reallocarray(budgets, nbudgets + 1, sizeof(*v));
	b = v ? calloc(1, sizeof(*b)) : NULL;
	if (v)
		budgets = v;
	if (!b)
		return NULL;
	b->uid = uid;
	b->users = 1;
	budgets[nbudgets++] = b;
	return b;
}

static void budget__put(struct ktr_writer_budget *b)
{
	if (!b || --b->users)
		return;
	for (unsigned int i = 0; i < nbudgets; i++)
		if (budgets[i] == b) {
			budgets[i] = budgets[--nbudgets];
			break;
		}
	/* a stuck thread still holding chunks of it keeps it: left, as the thread is */
	if (ATOMIC_GET(&b->bytes) == 0)
		free(b);
	if (!nbudgets) {
		free(budgets);
		budgets = NULL;
	}
}

static struct ktr_chunk *writer__chunk_new(struct ktr_writer *w)
{
	const long long size = sizeof(struct ktr_chunk) + KTR_WRITER_CHUNK;
	struct ktr_writer_budget *b = w->budget;
	struct ktr_chunk *c;

	if (__atomic_add_fetch(&b->bytes, size, __ATOMIC_ACQ_REL) >
		    (long long)KTR_WRITER_UID_BYTES &&
	    b->uid != 0) {
		__atomic_sub_fetch(&b->bytes, size, __ATOMIC_ACQ_REL);
		return NULL;
	}
	c = malloc(size);
	if (!c) {
		__atomic_sub_fetch(&b->bytes, size, __ATOMIC_ACQ_REL);
		return NULL;
	}
	c->next = NULL;
	c->len = 0;
	c->n = 0;
	c->own = 0;
	return c;
}

void ktr_writer__chunk_free(struct ktr_writer *w, struct ktr_chunk *c)
{
	if (!c)
		return;
	__atomic_sub_fetch(&w->budget->bytes, sizeof(*c) + KTR_WRITER_CHUNK, __ATOMIC_ACQ_REL);
	free(c);
}

/* --- a writer ----------------------------------------------------------------- */

/* The thread started with every signal blocked: they are the loop's. */
static int writer__start(struct ktr_writer *w)
{
	sigset_t all, old;
	pthread_attr_t attr;
	int err;

	if (pthread_attr_init(&attr))
		return -ENOMEM;
	pthread_attr_setstacksize(&attr, WRITER_STACK);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&w->thread, &attr, ktr_writer__thread, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	w->started = err == 0;
	return -err;
}

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
	w->zcap = deflateBound(w->z, KTR_WRITER_CHUNK) + 64 + KTR_WRITER_CHUNK / 1024;
	w->zbuf = malloc(w->zcap);
	return w->zbuf ? 0 : -ENOMEM;
}

struct ktr_writer *ktr_writer__new(int fd, uid_t uid, gid_t gid, bool gzip)
{
	return ktr_writer__new_at(fd, uid, gid, gzip, -1);
}

void ktr_writer__publish(struct ktr_writer *w, __u64 *committed)
{
	__atomic_store_n(&w->publish, committed, __ATOMIC_RELEASE);
}

struct ktr_writer *ktr_writer__new_at(int fd, uid_t uid, gid_t gid, bool gzip, off_t cut)
{
	struct ktr_writer *w = calloc(1, sizeof(*w));
	char link[64], target[4096];
	ssize_t n;
	int err;

	if (!w) {
		close(fd);
		return NULL;
	}
	w->fd = fd;
	w->uid = uid;
	w->gid = gid;
	w->gzip = gzip;
	w->end_off = -1;
	w->cut = cut;
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->more, NULL);
	pthread_cond_init(&w->room, NULL);
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, target, sizeof(target) - 1);
	target[n > 0 ? n : 0] = '\0';
	w->path = strdup(n > 0 ? target : "trace file");
	w->budget = budget__get(uid);
	err = !w->path || !w->budget || (gzip && writer__gzip_init(w)) ? -ENOMEM : 0;
	if (!err)
		err = writer__start(w);
	if (err) {
		ktr_writer__free(w); /* closes fd */
		errno = -err;
		return NULL;
	}
	return w;
}

bool ktr_writer__gzip(const struct ktr_writer *w)
{
	return w->gzip;
}

/*
 * Does thread tid wait in the kernel (its state in /proc not R)?  A thread
 * that is only starved of CPU time (a thousand writers starting at once on
 * a busy machine) is not stuck in its file.  Without /proc: it waits.
 */
static bool writer__waits(pid_t tid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return true;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return true;
	buf[n] = '\0';
	p = strrchr(buf, ')'); /* after the name, which may hold anything */
	return !p || p[1] != ' ' || p[2] != 'R';
}

/*
 * Has the thread been in one file operation for KTR_WRITER_STUCK_MS,
 * waiting in the kernel?  Once found so, it is until that operation returns.
 */
static bool writer__stuck_now(struct ktr_writer *w)
{
	__u64 since = ATOMIC_GET(&w->busy_ns);

	if (!w->started || !since || ATOMIC_GET(&w->done))
		return false;
	if (since == w->stuck_since)
		return true;
	if (ktr_mono_ns() - since < (__u64)KTR_WRITER_STUCK_MS * 1000000 ||
	    !writer__waits(ATOMIC_GET(&w->tid)))
		return false;
	w->stuck_since = since;
	return true;
}

/*
 * A stuck writer's records, the chunk being filled and the queue, dropped
 * and counted as the file's: it holds the chunk its thread writes alone.
 */
static void writer__shed(struct ktr_writer *w)
{
	struct ktr_chunk *c;

	if (w->fill) {
		__atomic_add_fetch(&w->unwritten, w->fill->n - w->fill->own, __ATOMIC_ACQ_REL);
		ktr_writer__chunk_free(w, w->fill);
		w->fill = NULL;
	}
	pthread_mutex_lock(&w->mu);
	c = w->head;
	w->head = w->tail = NULL;
	while (c) {
		struct ktr_chunk *next = c->next;

		__atomic_sub_fetch(&w->held, c->len, __ATOMIC_RELAXED);
		__atomic_sub_fetch(&w->pending, c->n, __ATOMIC_ACQ_REL);
		__atomic_add_fetch(&w->unwritten, c->n - c->own, __ATOMIC_ACQ_REL);
		ktr_writer__chunk_free(w, c);
		c = next;
	}
	pthread_cond_broadcast(&w->room);
	pthread_mutex_unlock(&w->mu);
}

bool ktr_writer__stuck(struct ktr_writer *w)
{
	w->stuck = writer__stuck_now(w);
	if (w->stuck)
		writer__shed(w);
	return w->stuck;
}

/*
 * The chunk being filled onto the queue, if there is room (wait: for up
 * to KTR_WRITER_WAIT_MS, a dump's).  0 or -ENOBUFS; the last one (end)
 * goes whatever the queue holds.  A stuck writer's queue takes nothing
 * but the last one (which it drops at its next ktr_writer__stuck()).
 */
static int writer__queue(struct ktr_writer *w, bool wait, bool end)
{
	struct ktr_chunk *c = w->fill;
	struct timespec until;
	int err = 0;

	if (!end && writer__stuck_now(w))
		return -ENOBUFS;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += (long)KTR_WRITER_WAIT_MS * 1000000;
	until.tv_sec += until.tv_nsec / 1000000000;
	until.tv_nsec %= 1000000000;
	pthread_mutex_lock(&w->mu);
	if (w->held == 0)
		w->behind = false; /* caught up */
	while (!end && w->held && w->held + c->len > KTR_WRITER_QUEUE_BYTES && !err)
		err = !wait || w->behind ? ETIMEDOUT :
					   pthread_cond_timedwait(&w->room, &w->mu, &until);
	if (err) {
		w->behind = w->behind || wait;
		pthread_mutex_unlock(&w->mu);
		return -ENOBUFS;
	}
	if (w->tail)
		w->tail->next = c;
	else
		w->head = c;
	w->tail = c;
	__atomic_add_fetch(&w->held, c->len, __ATOMIC_RELAXED);
	__atomic_add_fetch(&w->pending, c->n, __ATOMIC_ACQ_REL);
	pthread_cond_signal(&w->more);
	pthread_mutex_unlock(&w->mu);
	w->fill = NULL;
	return 0;
}

static void writer__stamp(struct ktr_header *h, __s64 wall_offset_ns)
{
	__s64 wall = (__s64)h->ktr_mono_ns + wall_offset_ns;

	h->ktr_time_sec = wall / 1000000000;
	h->ktr_time_usec = (wall % 1000000000) / 1000;
}

/* A record with no room: counted, but a LOST record (its count goes on in the next). */
static int writer__drop(struct ktr_writer *w, unsigned int flags, int err)
{
	if (!(flags & KTR_WRITER_OURS))
		w->dropped++;
	return err;
}

int ktr_writer__append(struct ktr_writer *w, const void *rec, size_t len, __s64 wall_offset_ns,
		       unsigned int flags)
{
	int err = ATOMIC_GET(&w->error);

	if (w->finishing)
		return -ESHUTDOWN;
	if (err)
		return writer__drop(w, flags, -err);
	/*
	 * Asked again: the operation that made it stuck may have returned
	 * since the tick found it so, and from then on the file takes records
	 */
	if (w->stuck && (w->stuck = writer__stuck_now(w)))
		return writer__drop(w, flags, -ENOBUFS);
	if (len > KTR_WRITER_CHUNK)
		return writer__drop(w, flags, -E2BIG);
	if (w->fill && w->fill->len + len > KTR_WRITER_CHUNK &&
	    writer__queue(w, flags & KTR_WRITER_WAIT, false) < 0)
		return writer__drop(w, flags, -ENOBUFS);
	if (!w->fill)
		w->fill = writer__chunk_new(w);
	if (!w->fill)
		return writer__drop(w, flags, -ENOBUFS);
	memcpy(w->fill->data + w->fill->len, rec, len);
	writer__stamp((struct ktr_header *)(w->fill->data + w->fill->len), wall_offset_ns);
	w->fill->len += len;
	w->fill->n++;
	w->fill->own += (flags & KTR_WRITER_OURS) != 0;
	return 0;
}

void ktr_writer__flush(struct ktr_writer *w)
{
	/*
	 * While the thread writes, the chunk grows (and goes when full): a
	 * flush hands it over when the thread has nothing else to write
	 */
	if (!w->finishing && w->fill && w->fill->len && !ATOMIC_GET(&w->pending))
		writer__queue(w, false, false);
}

int ktr_writer__settle(struct ktr_writer *w)
{
	unsigned long long left, before;
	int err = 0;

	if (!w->finishing && w->fill && w->fill->len)
		writer__queue(w, true, false);
	pthread_mutex_lock(&w->mu);
	while ((left = ATOMIC_GET(&w->pending)) && !w->behind && !err) {
		struct timespec until;

		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += (long)KTR_WRITER_WAIT_MS * 1000000;
		until.tv_sec += until.tv_nsec / 1000000000;
		until.tv_nsec %= 1000000000;
		before = left;
		err = pthread_cond_timedwait(&w->room, &w->mu, &until);
		/* no record written for that long: it fell behind */
		if (err && ATOMIC_GET(&w->pending) < before)
			err = 0;
		w->behind = err != 0;
	}
	pthread_mutex_unlock(&w->mu);
	return left ? -ETIMEDOUT : 0;
}

int ktr_writer__error(const struct ktr_writer *w)
{
	return ATOMIC_GET(&w->error);
}

unsigned long long ktr_writer__records(const struct ktr_writer *w)
{
	return ATOMIC_GET(&w->records);
}

unsigned long long ktr_writer__lost(const struct ktr_writer *w)
{
	return w->dropped + ATOMIC_GET(&w->unwritten);
}

unsigned long long ktr_writer__pending(const struct ktr_writer *w)
{
	return ATOMIC_GET(&w->pending) + (w->fill ? w->fill->n : 0);
}

void ktr_writer__set_lost_total(struct ktr_writer *w, unsigned long long total)
{
	w->lost_base = total;
	ATOMIC_SET(&w->lost_total, total + w->dropped);
	pthread_mutex_lock(&w->mu);
	if (!w->finish)
		w->end.ke_unwritten = w->dropped; /* the loop's part, for an END after an error */
	pthread_mutex_unlock(&w->mu);
}

const char *ktr_writer__path(const struct ktr_writer *w)
{
	return w->path;
}

bool ktr_writer__unlinked(const struct ktr_writer *w)
{
	struct statx stx;

	/* the attributes the kernel has: a network or FUSE file system is not asked */
	return !w->finishing &&
	       statx(w->fd, "", AT_EMPTY_PATH | AT_STATX_DONT_SYNC, STATX_NLINK, &stx) == 0 &&
	       (stx.stx_mask & STATX_NLINK) && stx.stx_nlink == 0;
}

void ktr_writer__finish(struct ktr_writer *w, const struct ktr_end *end)
{
	if (w->finishing)
		return;
	if (w->fill && !w->fill->len) {
		ktr_writer__chunk_free(w, w->fill);
		w->fill = NULL;
	}
	if (w->fill)
		writer__queue(w, false, true);
	w->finishing = true;
	ATOMIC_SET(&w->lost_total, w->lost_base + w->dropped);
	pthread_mutex_lock(&w->mu);
	w->finish = true;
	w->has_end = end != NULL;
	if (end) {
		w->end = *end;
		w->end.ke_unwritten = w->dropped;
	}
	pthread_cond_signal(&w->more);
	pthread_mutex_unlock(&w->mu);
}

bool ktr_writer__done(const struct ktr_writer *w)
{
	return ATOMIC_GET(&w->done) != 0;
}

bool ktr_writer__end_written(const struct ktr_writer *w)
{
	return ATOMIC_GET(&w->end_written) != 0;
}

bool ktr_writer__wait_done(struct ktr_writer *w, int ms)
{
	for (int i = 0; i < ms && !ktr_writer__done(w); i += 5)
		usleep(5000);
	return ktr_writer__done(w);
}

void ktr_writer__free(struct ktr_writer *w)
{
	if (!w)
		return;
	/* never finished (a trace that could not start): it ends with no END */
	if (w->started && !w->finishing) {
		ktr_writer__finish(w, NULL);
		ktr_writer__wait_done(w, KTR_WRITER_WAIT_MS);
	}
	if (w->started && !ktr_writer__done(w)) {
		/* stuck in the file: the thread keeps the writer and its chunk alone */
		writer__shed(w);
		pthread_detach(w->thread);
		budget__put(w->budget);
		return;
	}
	if (w->started)
		pthread_join(w->thread, NULL);
	else if (w->fd >= 0)
		close(w->fd);
	while (w->head) {
		struct ktr_chunk *c = w->head;

		w->head = c->next;
		ktr_writer__chunk_free(w, c);
	}
	if (w->budget)
		ktr_writer__chunk_free(w, w->fill);
	if (w->z) {
		deflateEnd(w->z);
		free(w->z);
	}
	pthread_mutex_destroy(&w->mu);
	pthread_cond_destroy(&w->more);
	pthread_cond_destroy(&w->room);
	free(w->zbuf);
	free(w->path);
	budget__put(w->budget);
	free(w);
}
