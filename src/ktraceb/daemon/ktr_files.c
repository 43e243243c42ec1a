// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>

#include "ktraceb/bpf_shared.h"
#include "ktr_arch.h"
#include "ktr_clock.h"
#include "ktr_files.h"
#include "ktr_flight.h"
#include "common/ktr_creds.h"
#include "common/ktr_perm.h"
#include "common/ktr_proto.h"
#include "ktr_record.h"
#include "ktr_writer.h"

struct ktr_tracefile *ktr_files__get(const struct ktr_files *t, __u32 r)
{
	return r < t->cap && t->v[r].w ? &t->v[r] : NULL;
}

/*
 * Kernel interfaces that look like regular files but act on what is
 * written (and may check the writer's privileges as they do): the daemon
 * writes trace records to none of them.
 */
static bool fs__is_pseudo(long type)
{
	static const long pseudo[] = {
		PROC_SUPER_MAGIC,
		SYSFS_MAGIC,
		CGROUP_SUPER_MAGIC,
		CGROUP2_SUPER_MAGIC,
		DEBUGFS_MAGIC,
		TRACEFS_MAGIC,
		SECURITYFS_MAGIC,
		BPF_FS_MAGIC,
		0x62656570 /* configfs */,
		EFIVARFS_MAGIC,
		PSTOREFS_MAGIC,
		SELINUX_MAGIC,
		SMACK_MAGIC,
		0x65735543 /* fusectl */,
		BINFMTFS_MAGIC,
		DEVPTS_SUPER_MAGIC,
		NSFS_MAGIC,
		ANON_INODE_FS_MAGIC,
	};

	for (size_t i = 0; i < sizeof(pseudo) / sizeof(pseudo[0]); i++)
		if (type == pseudo[i])
			return true;
	return false;
}

/* May c write its trace into the file open at fd?  0, or -errno and *why. */
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
	*why = "trace file: removed";
	if (st->st_nlink == 0)
		return -ENOENT;
	*why = "trace file: not on a filesystem for files";
	if (fstatfs(fd, &sfs) < 0 || fs__is_pseudo(sfs.f_type))
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

/* A free slot for uid, growing the table; -errno with *why if none may be had. */
static int files__slot(struct ktr_files *t, uid_t uid, const char **why)
{
	unsigned int limit = KTR_MAX_ROUTES - (uid == 0 ? 0 : KTR_FILES_ROOT_RESERVE), r;
	struct ktr_tracefile *nv;

	*why = NULL;
	if (uid != 0 && ktr_files__count_uid(t, uid) >= KTR_FILES_PER_UID)
		return -EMFILE;
	for (r = 1; r < t->cap && r < limit; r++)
		if (!t->v[r].w)
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

static void files__write_info(struct ktr_tracefile *f);

int ktr_tracefile__append(struct ktr_tracefile *f, const struct ktr_header *h, size_t len,
			  __s64 wall_offset_ns)
{
	if (f->flight && h->ktr_type == KTR_TPFORMAT) {
		/* an event's format: written by the next dump, before the events */
		unsigned char *p = realloc(f->held, f->nheld + len);

		if (!p)
			return -ENOMEM;
		memcpy(p + f->nheld, h, len);
		f->held = p;
		f->nheld += len;
		return 0;
	}
	if (f->flight)
		return 0; /* a recorder's records go to its ring, in BPF */
	return ktr_writer__append(f->w, h, len, wall_offset_ns);
}

struct dump_ctx {
	struct ktr_tracefile *f;
	__s64 wall_offset_ns;
	unsigned long long n;
};

static int dump__record(void *ctx, const struct ktr_header *h, size_t len)
{
	struct dump_ctx *dc = ctx;
	int err = ktr_writer__append(dc->f->w, h, len, dc->wall_offset_ns);

	dc->n += !err;
	return err;
}

int ktr_tracefile__dump(struct ktr_tracefile *f, __u32 why, unsigned long long *written)
{
	struct dump_ctx dc = { f, ktr_wall_offset_ns(), 0 };
	int err;

	*written = 0;
	if (!f->flight)
		return -EINVAL;
	if (!f->info_written)
		files__write_info(f);
	for (size_t off = 0; off + sizeof(struct ktr_header) <= f->nheld;) {
		const struct ktr_header *h = (const void *)(f->held + off);
		size_t len = sizeof(*h) + (size_t)h->ktr_len;

		ktr_writer__append(f->w, h, len, dc.wall_offset_ns);
		off += len;
	}
	free(f->held);
	f->held = NULL;
	f->nheld = 0;
	err = ktr_flight__walk(f->flight, why, dump__record, &dc);
	if (!err)
		err = ktr_writer__flush(f->w);
	*written = dc.n;
	return err;
}

/* A record ktraceb makes, whole: its header, then its payload. */
union made_rec {
	struct ktr_header h;
	char bytes[sizeof(struct ktr_header) + sizeof(struct ktr_fileinfo) + 64];
};

int ktr_tracefile__append_made(struct ktr_tracefile *f, const struct ktr_header *h,
			       const void *payload, __s64 wall_offset_ns)
{
	union made_rec rec;
	size_t len = (size_t)h->ktr_len;

	if (h->ktr_len < 0 || len > sizeof(rec) - sizeof(rec.h))
		return -E2BIG;
	rec.h = *h;
	memcpy(&rec.h + 1, payload, len);
	return ktr_tracefile__append(f, &rec.h, sizeof(rec.h) + len, wall_offset_ns);
}

int ktr_tracefile__flush(struct ktr_tracefile *f)
{
	return ktr_writer__flush(f->w);
}

int ktr_tracefile__error(const struct ktr_tracefile *f)
{
	return ktr_writer__error(f->w);
}

const char *ktr_tracefile__path(const struct ktr_tracefile *f)
{
	return ktr_writer__path(f->w);
}

bool ktr_tracefile__first_time(struct ktr_tracefile *f, const char *line)
{
	const unsigned int n = sizeof(f->said) / sizeof(f->said[0]);
	__u32 h = 2166136261u; /* FNV-1a */

	for (const char *p = line; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	for (unsigned int i = 0; i < n && i < f->nsaid; i++)
		if (f->said[i] == h)
			return false;
	f->said[f->nsaid++ % n] = h;
	return true;
}

unsigned long long ktr_tracefile__records(const struct ktr_tracefile *f)
{
	return ktr_writer__records(f->w);
}

bool ktr_tracefile__unlinked(const struct ktr_tracefile *f)
{
	struct stat st;

	return fstat(ktr_writer__fd(f->w), &st) == 0 && st.st_nlink == 0;
}

int ktr_tracefile__finish(struct ktr_tracefile *f)
{
	return ktr_writer__finish(f->w);
}

static void files__write_info(struct ktr_tracefile *f)
{
	struct ktr_fileinfo fi;
	union made_rec rec;
	FILE *rel;

	memset(&fi, 0, sizeof(fi));
	memcpy(fi.fi_magic, KTR_FILEINFO_MAGIC, sizeof(KTR_FILEINFO_MAGIC));
	fi.fi_version = KTR_FORMAT_VERSION;
	fi.fi_hdrsize = sizeof(struct ktr_header);
	fi.fi_byteorder = KTR_BYTEORDER_MARK;
	snprintf(fi.fi_machine, sizeof(fi.fi_machine), "%s", ktr_arch_host.machine);
	rel = fopen("/proc/sys/kernel/osrelease", "re");
	if (rel) {
		if (fgets(fi.fi_release, sizeof(fi.fi_release), rel))
			fi.fi_release[strcspn(fi.fi_release, "\n")] = '\0';
		fclose(rel);
	}
	fi.fi_clock = CLOCK_MONOTONIC;
	fi.fi_wall_offset_ns = ktr_wall_offset_ns();
	snprintf(fi.fi_tool, sizeof(fi.fi_tool), "ktraceb %s", KTRACEB_VERSION);
	/* straight to the file, recorder or not: the file's first record */
	ktr_record__own(&rec.h, KTR_FILEINFO, sizeof(fi), 0);
	memcpy(&rec.h + 1, &fi, sizeof(fi));
	ktr_writer__append(f->w, &rec.h, sizeof(rec.h) + sizeof(fi), fi.fi_wall_offset_ns);
	f->info_written = true;
}

/* Recorder ring bytes uid holds now. */
static __u64 files__flight_bytes(const struct ktr_files *t, uid_t uid)
{
	__u64 n = 0;

	for (unsigned int r = 1; r < t->cap; r++)
		if (t->v[r].w && t->v[r].flight && t->v[r].owner == uid)
			n += ktr_flight__bytes(t->v[r].flight);
	return n;
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
	if (c->uid != 0 && files__flight_bytes(t, c->uid) + bytes > KTR_FLIGHT_UID_BYTES) {
		ktr_proto__msg_add(msg, "recorder: more than %llu MiB of rings for uid %u\n",
				   KTR_FLIGHT_UID_BYTES >> 20, (unsigned int)c->uid);
		return -ENOMEM;
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

int ktr_files__join(struct ktr_files *t, const struct ktr_caller *c, int fd, __u64 flight_bytes,
		    unsigned int flight_flags, bool gzip, char *msg)
{
	struct ktr_tracefile *f;
	const char *why;
	struct stat st;
	int r = files__check_fd(c, fd, &st, &why);

	if (r == 0 && (r = ktr_files__find(t, st.st_dev, st.st_ino)) >= 0) {
		close(fd);
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
	if (r == -ENOENT && flight_bytes) {
		int err = files__flight_ok(t, c, flight_bytes, flight_flags, msg);

		if (err) {
			close(fd);
			return err;
		}
	}
	if (r == -ENOENT)
		r = files__slot(t, c->uid, &why);
	if (r < 0) {
		close(fd);
		if (r == -EMFILE)
			ktr_proto__msg_add(msg, "too many traces for uid %u\n",
					   (unsigned int)c->uid);
		else
			ktr_proto__msg_add(msg, "%s\n", why ? why : strerror(-r));
		return r;
	}
	f = &t->v[r];
	memset(f, 0, sizeof(*f));
	f->w = ktr_writer__new(fd, c->uid, c->gid, gzip);
	if (f->w && flight_bytes)
		f->flight = files__flight_new(t, r, c, fd, &st, flight_bytes, flight_flags, gzip);
	if (!f->w || (flight_bytes && !f->flight)) {
		if (f->w)
			ktr_writer__free(f->w);
		else
			close(fd);
		f->w = NULL;
		ktr_proto__msg_add(msg, "trace file: %s\n", strerror(ENOMEM));
		return -ENOMEM;
	}
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	f->owner = c->uid;
	f->owner_gid = c->gid;
	t->used++;
	/* a recorder writes nothing, not even INFO, until its first dump */
	if (!f->flight)
		files__write_info(f);
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
	unsigned char magic[2];
	char link[64];
	bool gz;
	int rfd;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	/* no O_NOFOLLOW: the link is proc's magic one to fd's own file */
	rfd = open(link, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (rfd < 0)
		return false;
	gz = pread(rfd, magic, sizeof(magic), 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
	close(rfd);
	return gz;
}

int ktr_files__adopt(struct ktr_files *t, __u32 r, struct ktr_flight *fl, const char **why)
{
	const struct ktr_flight_meta *m = ktr_flight__meta(fl);
	struct ktr_saved_creds saved;
	struct ktr_tracefile *f;
	struct stat st;
	bool gzip = false;
	int fd = -1, err;

	*why = "no room for it";
	err = files__grow(t, r);
	if (err || t->v[r].w)
		return err ? err : -EEXIST;
	/* opened as its owner, as the owner's own ktraceb opened it */
	*why = "its file cannot be opened as its owner";
	if (ktr_creds__as_owner(m->uid, m->gid, &saved) == 0)
		fd = open(m->path,
			  O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	err = fd < 0 ? -errno : 0;
	/* -z as recorded, or as the file says (a ring of an older daemon) */
	if (fd >= 0)
		gzip = (m->file_flags & KTR_FLIGHT_FILE_GZIP) || files__starts_gzip(fd);
	ktr_creds__restore(&saved);
	if (fd < 0)
		return err ? err : -EPERM;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_dev != m->dev ||
	    st.st_ino != m->ino) {
		*why = "its file is not the one it began with";
		close(fd);
		return -ESTALE;
	}
	f = &t->v[r];
	memset(f, 0, sizeof(*f));
	f->w = ktr_writer__new(fd, m->uid, m->gid, gzip);
	if (!f->w) {
		*why = strerror(ENOMEM);
		close(fd);
		return -ENOMEM;
	}
	f->flight = fl;
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	f->owner = m->uid;
	f->owner_gid = m->gid;
	f->info_written = st.st_size > 0; /* dumped before: its INFO is there */
	t->used++;
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
	ktr_writer__free(f->w);
	ktr_flight__free(f->flight);
	free(f->held);
	memset(f, 0, sizeof(*f));
	t->used--;
}

void ktr_files__free(struct ktr_files *t)
{
	for (unsigned int r = 1; r < t->cap; r++)
		ktr_files__close(t, r);
	free(t->v);
	t->v = NULL;
	t->cap = 0;
}
