// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "ktraceb/bpf_flight_flags.h"
#include "ktraceb/bpf_sample.h"
#include "common/ktr_creds.h"
#include "common/ktr_gzfile.h"
#include "common/ktr_perm.h"
#include "common/ktr_proto.h"
#include "ktr_filestate.h"
#include "ktr_files.h"
#include "ktr_kernfs.h"
#include "daemon/flight/ktr_flight.h"
#include "ktr_mappings.h"
#include "daemon/requests/ktr_share.h"
#include "ktr_tracefile.h"
#include "ktr_writer.h"

struct ktr_files {
	struct ktr_tracefile *v; /* v[route] */
	unsigned int cap;
	unsigned int used;
	struct ktr_flight_maps flight_maps; /* where the recorders' rings go */
	/*
	 * routes of closed files whose records may still come (ktr_files__keep_route),
	 * and those of them no stage held at the last check
	 */
	__u64 kept[KTR_MAX_ROUTES / 64];
	__u64 kept_clear[KTR_MAX_ROUTES / 64];
	unsigned int nkept;
};

static bool files__kept(const struct ktr_files *t, __u32 r)
{
	return t->nkept && (t->kept[r / 64] >> (r % 64)) & 1;
}

void ktr_files__keep_route(struct ktr_files *t, __u32 r)
{
	if (r == 0 || r >= KTR_MAX_ROUTES || files__kept(t, r))
		return;
	t->kept[r / 64] |= 1ull << (r % 64);
	t->kept_clear[r / 64] &= ~(1ull << (r % 64));
	t->nkept++;
}

/*
 * A route is free at the second check in a row that finds none of its
 * records in a stage: what a stage sent on just before the first check was
 * still in the ring then, and the drain between the two took it.
 */
void ktr_files__release_routes(struct ktr_files *t, unsigned int (*held)(void *ctx, __u32 r),
			       void (*freed)(void *ctx, __u32 r), void *ctx)
{
	for (__u32 r = 1; t->nkept && r < t->cap; r++) {
		__u64 bit = 1ull << (r % 64);

		if (!files__kept(t, r))
			continue;
		if (held(ctx, r)) {
			t->kept_clear[r / 64] &= ~bit;
		} else if (!(t->kept_clear[r / 64] & bit)) {
			t->kept_clear[r / 64] |= bit;
		} else {
			t->kept[r / 64] &= ~bit;
			t->kept_clear[r / 64] &= ~bit;
			t->nkept--;
			freed(ctx, r);
		}
	}
}

struct ktr_files *ktr_files__new(const struct ktr_flight_maps *maps)
{
	struct ktr_files *t = calloc(1, sizeof(*t));

	if (t)
		t->flight_maps = *maps;
	return t;
}

const struct ktr_flight_maps *ktr_files__flight_maps(const struct ktr_files *t)
{
	return &t->flight_maps;
}

struct ktr_tracefile *ktr_files__get(const struct ktr_files *t, __u32 r)
{
	return r < t->cap && t->v[r].w ? &t->v[r] : NULL;
}

__u32 ktr_files__next(const struct ktr_files *t, __u32 r)
{
	while (++r < t->cap)
		if (t->v[r].w)
			return r;
	return 0;
}

unsigned int ktr_files__count(const struct ktr_files *t)
{
	return t->used;
}

bool ktr_files__recording(const struct ktr_files *t)
{
	for (__u32 r = ktr_files__next(t, 0); r; r = ktr_files__next(t, r))
		if (t->v[r].flight)
			return true;
	return false;
}

bool ktr_files__need_enter(const struct ktr_files *t)
{
	for (__u32 r = ktr_files__next(t, 0); r; r = ktr_files__next(t, r)) {
		const struct ktr_flight *fl = t->v[r].flight;

		if (!(fl && (ktr_flight__meta(fl)->flags & KTR_FLIGHT_F_COMPACT)))
			return true;
	}
	return false;
}

bool ktr_files__need_stage(const struct ktr_files *t)
{
	for (__u32 r = ktr_files__next(t, 0); r; r = ktr_files__next(t, r))
		if (!t->v[r].flight)
			return true;
	return false;
}

/*
 * May c write its trace into the file open at fd?  0, or -errno and *why.
 * Never -ENOENT, which the callers read as "no trace goes there yet": a
 * file with no name left (O_TMPFILE, a memfd, one removed) is refused as
 * any other that fails a check, before the checks after it are skipped.
 */
static int files__check_fd(const struct ktr_caller *c, int fd, struct stat *st, const char **why)
{
	struct statfs sfs;
	int fl = fcntl(fd, F_GETFL);

	*why = "trace file: not a regular file";
	if (fl < 0 || fstat(fd, st) < 0 || !S_ISREG(st->st_mode))
		return -EACCES;
	*why = "trace file: not open for writing";
	if ((fl & O_PATH) || ((fl & O_ACCMODE) != O_WRONLY && (fl & O_ACCMODE) != O_RDWR))
		return -EBADF;
	*why = "trace file: removed (no name left)";
	if (st->st_nlink == 0)
		return -ESTALE;
	*why = "trace file: not on a filesystem for files";
	if (fstatfs(fd, &sfs) < 0 || ktr_kernfs__is(sfs.f_type))
		return -EACCES;
	*why = "trace file: not yours";
	if (c->uid != 0 && st->st_uid != c->uid)
		return -EPERM;
	return 0;
}

unsigned int ktr_files__count_uid(const struct ktr_files *t, uid_t uid)
{
	unsigned int n = 0;

	for (unsigned int r = 1; r < t->cap; r++)
		n += t->v[r].w && t->v[r].owner == uid;
	return n;
}

int ktr_files__find(const struct ktr_files *t, dev_t dev, ino_t ino)
{
	for (unsigned int r = 1; r < t->cap; r++)
		if (t->v[r].w && t->v[r].dev == dev && t->v[r].ino == ino)
			return r;
	return -ENOENT;
}

int ktr_files__find_fd(const struct ktr_files *t, int fd)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	return ktr_files__find(t, st.st_dev, st.st_ino);
}

/* A free slot, growing the table; -errno with *why if none may be had. */
static int files__slot(struct ktr_files *t, const char **why)
{
	unsigned int limit = KTR_MAX_ROUTES, r;
	struct ktr_tracefile *nv;

	*why = NULL;
	for (r = 1; r < t->cap && r < limit; r++)
		if (!t->v[r].w && !files__kept(t, r))
			return r;
	*why = "too many trace files in use";
	if (r >= limit)
		return -ENFILE;
	nv = reallocarray(t->v, t->cap ? 2 * t->cap : 64, sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	memset(nv + t->cap, 0, t->cap ? t->cap * sizeof(*nv) : 64 * sizeof(*nv));
	t->v = nv;
	t->cap = t->cap ? 2 * t->cap : 64;
	if (t->cap > KTR_MAX_ROUTES)
		t->cap = KTR_MAX_ROUTES;
	return r;
}

/* Recorder ring bytes uid holds now, and everyone in *all. */
static __u64 files__flight_bytes(const struct ktr_files *t, uid_t uid, __u64 *all)
{
	__u64 n = 0;

	*all = 0;
	for (unsigned int r = 1; r < t->cap; r++)
		if (t->v[r].w && t->v[r].flight) {
			*all += ktr_flight__bytes(t->v[r].flight);
			n += t->v[r].owner == uid ? ktr_flight__bytes(t->v[r].flight) : 0;
		}
	return n;
}

/* Files of uid whose writer is stuck (ktr_writer.h): each keeps its slot and a thread. */
static unsigned int files__stuck_uid(struct ktr_files *t, uid_t uid)
{
	unsigned int n = 0;

	for (unsigned int r = 1; r < t->cap; r++)
		n += t->v[r].w && t->v[r].owner == uid && ktr_tracefile__stuck(&t->v[r]);
	return n;
}

/*
 * May c have one more file (a recorder of flight_bytes)?  Not a user with
 * KTR_FILES_UID_STUCK stuck files: each holds a thread until its write
 * returns, which may be never.  0, or -errno, a line in msg.
 */
static int files__share(struct ktr_files *t, const struct ktr_caller *c, __u64 flight_bytes,
			char *msg)
{
	char why[256];
	__u64 all, mine = files__flight_bytes(t, c->uid, &all);
	int err = ktr_share__may(KTR_POOL_FILES, c->uid, ktr_files__count_uid(t, c->uid),
				 ktr_files__count(t), 1, why, sizeof(why));

	if (!err && c->uid != 0 && files__stuck_uid(t, c->uid) >= KTR_FILES_UID_STUCK) {
		snprintf(why, sizeof(why),
			 "too many stuck trace files for uid %u (a user may have %d at once): "
			 "their writes have not returned for %d s",
			 (unsigned int)c->uid, KTR_FILES_UID_STUCK, KTR_WRITER_STUCK_MS / 1000);
		err = -EDQUOT;
	}
	if (!err && flight_bytes)
		err = ktr_share__may(KTR_POOL_RECORDER_BYTES, c->uid, mine, all, flight_bytes, why,
				     sizeof(why));
	if (err)
		ktr_proto__msg_add(msg, "%s\n", why);
	return err;
}

/* May c have a recorder of bytes now?  0, or -errno and a line in msg. */
static int files__flight_ok(const struct ktr_files *t, const struct ktr_caller *c, __u64 bytes,
			    unsigned int flags, char *msg)
{
	if (bytes < KTR_FLIGHT_MIN_BYTES || bytes > KTR_FLIGHT_MAX_BYTES ||
	    (flags & ~KTR_FLIGHT_FLAGS)) {
		ktr_proto__msg_add(msg,
				   "recorder: size out of range (64k to 4g) or unknown flags\n");
		return -EINVAL;
	}
	if (bytes < ktr_flight__min_bytes()) {
		ktr_proto__msg_add(
			msg,
			"recorder: %llu bytes are too few for this machine's CPUs: at least %lluk\n",
			(unsigned long long)bytes,
			(unsigned long long)(ktr_flight__min_bytes() + 1023) >> 10);
		return -EINVAL;
	}
	return 0;
}

/* The ring of a new recording into the file fd (st) of c, at route r. */
static struct ktr_flight *files__flight_new(struct ktr_files *t, __u32 r,
					    const struct ktr_caller *c, int fd,
					    const struct stat *st, __u64 bytes, unsigned int flags,
					    bool gzip)
{
	struct ktr_flight_meta *meta = calloc(1, sizeof(*meta));
	struct ktr_flight *fl;
	char link[64];
	ssize_t n;

	if (!meta)
		return NULL;
	meta->uid = c->uid;
	meta->gid = c->gid;
	meta->dev = st->st_dev;
	meta->ino = st->st_ino;
	meta->file_flags = gzip ? KTR_FLIGHT_FILE_GZIP : 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, meta->path, sizeof(meta->path) - 1);
	meta->path[n > 0 ? n : 0] = 0;
	fl = ktr_flight__new(&t->flight_maps, r, bytes, flags, meta);
	free(meta);
	return fl;
}

/* Joining the file r is already: the same kind of trace, or -EBUSY with a line in msg. */
static int files__rejoin(struct ktr_files *t, int r, __u64 flight_bytes, bool gzip, char *msg)
{
	/* one writer per file: a new trace starts after the last one's END */
	if (t->v[r].ending) {
		ktr_proto__msg_add(msg,
				   "trace file: its last trace is still being written "
				   "(%llu records to go): try again when it has ended\n",
				   ktr_writer__pending(t->v[r].w));
		return -EBUSY;
	}
	if (!t->v[r].flight != !flight_bytes) {
		ktr_proto__msg_add(msg, "trace file: already %s\n",
				   t->v[r].flight ? "a recorder's (-R)" :
						    "a trace's, not a recorder's");
		return -EBUSY;
	}
	/* one file, one stream: never deflate data mixed with plain records */
	if (ktr_writer__gzip(t->v[r].w) != gzip) {
		ktr_proto__msg_add(msg, "trace file: already traced into %s\n",
				   gzip ? "uncompressed, not with -z" : "compressed (-z)");
		return -EBUSY;
	}
	return r;
}

/* Route r's file in the state a daemon that finds this one killed reads (ktr_filestate.h). */
static void files__publish(struct ktr_tracefile *f, __u32 r, off_t size)
{
	unsigned int flags = (ktr_writer__gzip(f->w) ? KTR_FILESTATE_GZIP : 0) |
			     (f->flight ? KTR_FILESTATE_RECORDING : 0);

	ktr_writer__publish(f->w, ktr_filestate__set(r, f->owner, f->owner_gid, f->dev, f->ino,
						     flags, ktr_tracefile__path(f), size));
}

/* The file fd (st) of c at the free slot r, its writer and recorder made; 0 or -ENOMEM. */
static int files__open_new(struct ktr_files *t, int r, const struct ktr_caller *c, int fd,
			   const struct stat *st, __u64 flight_bytes, unsigned int flight_flags,
			   bool gzip)
{
	struct ktr_tracefile *f = &t->v[r];

	memset(f, 0, sizeof(*f));
	f->w = ktr_writer__new(fd, c->uid, c->gid, gzip);
	if (f->w && flight_bytes)
		f->flight = files__flight_new(t, r, c, fd, st, flight_bytes, flight_flags, gzip);
	if (!f->w || (flight_bytes && !f->flight)) {
		ktr_writer__free(f->w); /* it took fd over, made or not */
		f->w = NULL;
		return -ENOMEM;
	}
	f->dev = st->st_dev;
	f->ino = st->st_ino;
	f->owner = c->uid;
	f->owner_gid = c->gid;
	t->used++;
	files__publish(f, r, st->st_size);
	/* a recorder writes nothing, not even INFO, until its first dump */
	if (!f->flight)
		ktr_tracefile__write_info(f);
	return 0;
}

int ktr_files__join(struct ktr_files *t, const struct ktr_caller *c, int fd, __u64 flight_bytes,
		    unsigned int flight_flags, bool gzip, char *msg)
{
	const char *why;
	struct stat st;
	int r = files__check_fd(c, fd, &st, &why);

	/* from here on, -ENOENT means a file no trace goes into yet, and nothing else */
	if (r == 0 && (r = ktr_files__find(t, st.st_dev, st.st_ino)) >= 0) {
		close(fd);
		return files__rejoin(t, r, flight_bytes, gzip, msg);
	}
	if (r == -ENOENT && flight_bytes) {
		int err = files__flight_ok(t, c, flight_bytes, flight_flags, msg);

		if (err) {
			close(fd);
			return err;
		}
	}
	if (r == -ENOENT && (r = files__share(t, c, flight_bytes, msg)) < 0) {
		close(fd);
		return r;
	}
	if (r == 0) /* a new file */
		r = files__slot(t, &why);
	if (r < 0) {
		close(fd);
		ktr_proto__msg_add(msg, "%s\n", why ? why : strerror(-r));
		return r;
	}
	if (files__open_new(t, r, c, fd, &st, flight_bytes, flight_flags, gzip) < 0) {
		ktr_proto__msg_add(msg, "trace file: %s\n", strerror(ENOMEM));
		return -ENOMEM;
	}
	return r;
}

/* Room in the table for route r. */
static int files__grow(struct ktr_files *t, __u32 r)
{
	unsigned int cap = t->cap ? t->cap : 64;
	struct ktr_tracefile *nv;

	while (cap <= r)
		cap *= 2;
	if (cap > KTR_MAX_ROUTES)
		cap = KTR_MAX_ROUTES;
	if (r >= cap)
		return -ENFILE;
	if (cap == t->cap)
		return 0;
	nv = reallocarray(t->v, cap, sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	memset(nv + t->cap, 0, (cap - t->cap) * sizeof(*nv));
	t->v = nv;
	t->cap = cap;
	return 0;
}

/*
 * Does the file at fd (open for writing only) start with gzip's magic?  A
 * recording dumped with -z goes on compressed under a new daemon; one not
 * dumped yet cannot tell, and is written uncompressed.  Called as its owner.
 */
static bool files__starts_gzip(int fd)
{
	return ktr_gzfile__starts_gzip(fd) == 1;
}

/*
 * A file a daemon that died wrote, opened again as its owner (as the
 * owner's own ktraceb opened it) by path, and only if it is still the
 * file (dev, ino); *gzip if it starts with gzip's magic.  fd or -errno.
 */
static int files__reopen(uid_t uid, gid_t gid, const char *path, dev_t dev, ino_t ino, bool *gzip,
			 const char **why)
{
	struct ktr_saved_creds saved;
	struct stat st;
	int fd = -1, err;

	*why = "its file cannot be opened as its owner";
	if (ktr_creds__as_owner(uid, gid, &saved) == 0)
		fd = open(path,
			  O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	err = fd < 0 ? -errno : 0;
	if (fd >= 0)
		*gzip = *gzip || files__starts_gzip(fd);
	ktr_creds__restore(&saved);
	if (fd < 0)
		return err ? err : -EPERM;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_dev != dev || st.st_ino != ino) {
		*why = "its file is not the one it began with";
		close(fd);
		return -ESTALE;
	}
	return fd;
}

/*
 * Slot r, free, takes the file fd a daemon that died wrote, for owner
 * uid/gid, cut back to cut (-1: not), a recording's if fl; 0 or -ENOMEM.
 */
static int files__reopened(struct ktr_files *t, __u32 r, int fd, uid_t uid, gid_t gid, bool gzip,
			   off_t cut, struct ktr_flight *fl)
{
	struct ktr_tracefile *f = &t->v[r];
	struct stat st;

	if (fstat(fd, &st) < 0)
		st.st_size = 0;
	memset(f, 0, sizeof(*f));
	f->w = ktr_writer__new_at(fd, uid, gid, gzip, cut);
	if (!f->w)
		return -ENOMEM;
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	f->owner = uid;
	f->owner_gid = gid;
	f->info_written = st.st_size > 0; /* written before: its INFO is there */
	f->taken_over = true;
	f->flight = fl;
	t->used++;
	files__publish(f, r, cut >= 0 && cut < st.st_size ? cut : st.st_size);
	return 0;
}

int ktr_files__adopt(struct ktr_files *t, __u32 r, struct ktr_flight *fl, const char **why)
{
	const struct ktr_flight_meta *m = ktr_flight__meta(fl);
	const struct ktr_filestate_slot *old;
	/* -z as recorded, or as the file says (a ring of an older daemon) */
	bool gzip = m->file_flags & KTR_FLIGHT_FILE_GZIP;
	int fd, err;

	*why = "no room for it";
	err = files__grow(t, r);
	if (err || t->v[r].w)
		return err ? err : -EEXIST;
	fd = files__reopen(m->uid, m->gid, m->path, m->dev, m->ino, &gzip, why);
	if (fd < 0)
		return fd;
	/* a dump the kill cut short is cut off: the file is whole up to where it was */
	old = ktr_filestate__old(r, m->dev, m->ino);
	*why = strerror(ENOMEM);
	if (files__reopened(t, r, fd, m->uid, m->gid, gzip, old ? (off_t)old->committed : -1, fl))
		return -ENOMEM;
	return r;
}

int ktr_files__end_killed(struct ktr_files *t, const struct ktr_filestate_slot *s, const char **why)
{
	bool gzip = s->flags & KTR_FILESTATE_GZIP;
	int fd, r;

	if (ktr_files__find(t, s->dev, s->ino) >= 0)
		return -EEXIST; /* a recording taken over: it goes on */
	fd = files__reopen(s->uid, s->gid, s->path, s->dev, s->ino, &gzip, why);
	if (fd < 0)
		return fd;
	r = files__slot(t, why);
	if (r < 0 ||
	    files__reopened(t, r, fd, s->uid, s->gid, gzip, (off_t)s->committed, NULL) < 0) {
		*why = "no room for it";
		if (r >= 0)
			return -ENOMEM; /* the writer took fd over */
		close(fd);
		return r;
	}
	ktr_tracefile__end_why(&t->v[r], KTR_END_KILLED, 0, 0, 0);
	ktr_tracefile__finish(&t->v[r]);
	return r;
}

int ktr_files__own_fd(const struct ktr_files *t, const struct ktr_caller *c, int fd, char *msg)
{
	const char *why;
	struct stat st;
	int r = files__check_fd(c, fd, &st, &why);

	if (r == 0)
		r = ktr_files__find(t, st.st_dev, st.st_ino);
	if (r == -ENOENT)
		why = "trace file: no trace or recording goes there";
	if (r < 0)
		ktr_proto__msg_add(msg, "%s\n", why);
	return r;
}

void ktr_files__close(struct ktr_files *t, __u32 r)
{
	struct ktr_tracefile *f = ktr_files__get(t, r);

	if (!f)
		return;
	ktr_tracefile__wait(f, NULL);
	ktr_filestate__clear(r);
	ktr_writer__free(f->w);
	ktr_flight__free(f->flight);
	free(f->held);
	free(f->objects);
	ktr_mappings__free(f->mappings);
	memset(f, 0, sizeof(*f));
	t->used--;
}

void ktr_files__free(struct ktr_files *t)
{
	if (!t)
		return;
	for (unsigned int r = 1; r < t->cap; r++)
		ktr_files__close(t, r);
	free(t->v);
	free(t);
}
