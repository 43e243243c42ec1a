// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "ktraceb/ktr.h"
#include "common/ktr_arch.h"
#include "daemon/ktr_clock.h"
#include "daemon/requests/ktr_conn.h"
#include "daemon/ktr_object_id.h"
#include "daemon/ktr_record.h"
#include "daemon/programs/ktr_skel.h"
#include "ktr_tracefile.h"
#include "ktr_writer.h"

#define KTR_HELD_MAX (4u << 20) /* bytes of objects and mappings a recorder keeps */

/* A record to the writer, or to what a recorder holds for its next dump. */
static int tracefile__put(struct ktr_tracefile *f, const struct ktr_header *h, size_t len,
			  __s64 wall_offset_ns, unsigned int flags)
{
	if (f->flight && !(flags & KTR_WRITER_WAIT)) {
		unsigned char *p;

		/*
		 * An event's format, a traced group's member (-G), an object
		 * and its mappings (-k): written by the next dump, before the
		 * records that need them; the recorder's own records go to its
		 * ring, in BPF.
		 */
		if (h->ktr_type != KTR_TPFORMAT && h->ktr_type != KTR_CGROUP &&
		    h->ktr_type != KTR_OBJECT && h->ktr_type != KTR_MAPPING)
			return 0;
		if (h->ktr_type != KTR_TPFORMAT && f->nheld + len > KTR_HELD_MAX)
			return 0; /* past it: stacks go unnamed, members unsaid (a recorder lives long) */
		p = realloc(f->held, f->nheld + len);
		if (!p)
			return -ENOMEM;
		memcpy(p + f->nheld, h, len);
		f->held = p;
		f->nheld += len;
		return 0;
	}
	return ktr_writer__append(f->w, h, len, wall_offset_ns, flags);
}

int ktr_tracefile__append(struct ktr_tracefile *f, const struct ktr_header *h, size_t len,
			  __s64 wall_offset_ns)
{
	return tracefile__put(f, h, len, wall_offset_ns, 0);
}

int ktr_tracefile__append_dump(struct ktr_tracefile *f, const struct ktr_header *h, size_t len,
			       __s64 wall_offset_ns)
{
	return tracefile__put(f, h, len, wall_offset_ns, KTR_WRITER_WAIT);
}

/* A record ktraceb makes, whole: its header, then its payload. */
union made_rec {
	struct ktr_header h;
	char bytes[sizeof(struct ktr_header) + sizeof(struct ktr_fileinfo) + 64];
};

int ktr_tracefile__append_made(struct ktr_tracefile *f, const struct ktr_header *h,
			       const void *payload, __s64 wall_offset_ns)
{
	union made_rec small;
	struct ktr_header *rec = &small.h;
	size_t len = (size_t)h->ktr_len;
	int err;

	if (h->ktr_len < 0 || len > KTR_MADE_MAX)
		return -E2BIG;
	/* most fit on the stack; an object's path may not */
	if (len > sizeof(small) - sizeof(small.h)) {
		rec = malloc(sizeof(*rec) + len);
		if (!rec)
			return -ENOMEM;
	}
	*rec = *h;
	memcpy(rec + 1, payload, len);
	err = ktr_tracefile__append(f, rec, sizeof(*rec) + len, wall_offset_ns);
	if (rec != &small.h)
		free(rec);
	return err;
}

unsigned long long ktr_tracefile__lost(const struct ktr_tracefile *f)
{
	return f->lost_bpf + f->lost_held + f->lost_queue + f->lost_cpus + ktr_writer__lost(f->w);
}

/*
 * A LOST record for what was lost since the last one.  One that finds no
 * room is not counted lost itself: the next one says its records too.
 */
static void tracefile__say_lost(struct ktr_tracefile *f, __s64 wall_offset_ns)
{
	unsigned long long total = ktr_tracefile__lost(f);
	struct {
		struct ktr_header h;
		struct ktr_lost l;
	} rec;

	ktr_writer__set_lost_total(f->w, f->lost_bpf + f->lost_held + f->lost_queue + f->lost_cpus);
	/* a recording that has not dumped has no file yet to say it in */
	if (f->ending || total <= f->lost_said || (f->flight && !f->info_written))
		return;
	rec.l.lost = total - f->lost_said;
	rec.l.lost_total = total;
	ktr_record__own(&rec.h, KTR_LOST, sizeof(rec.l), 0);
	if (ktr_writer__append(f->w, &rec, sizeof(rec), wall_offset_ns, KTR_WRITER_OURS) == 0)
		f->lost_said = total;
}

void ktr_tracefile__flush(struct ktr_tracefile *f, __s64 wall_offset_ns)
{
	if (f->ending)
		return;
	tracefile__say_lost(f, wall_offset_ns);
	ktr_writer__flush(f->w);
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
	return !f->ending && ktr_writer__unlinked(f->w);
}

void ktr_tracefile__end_why(struct ktr_tracefile *f, __u32 why, int err, pid_t pid, uid_t uid)
{
	if (f->end.ke_why)
		return;
	f->end.ke_why = why;
	f->end.ke_errno = err;
	f->end.ke_pid = pid;
	f->end.ke_uid = uid;
}

void ktr_tracefile__finish(struct ktr_tracefile *f)
{
	if (f->ending)
		return;
	if (!f->end.ke_why)
		f->end.ke_why = KTR_END_EXITED;
	tracefile__say_lost(f, ktr_wall_offset_ns());
	/* a recording that never dumped wrote nothing: nothing to end either */
	ktr_writer__finish(f->w, !f->flight || f->info_written ? &f->end : NULL);
	f->ending = true;
}

bool ktr_tracefile__done(const struct ktr_tracefile *f)
{
	return f->ending && ktr_writer__done(f->w);
}

bool ktr_tracefile__stuck(struct ktr_tracefile *f)
{
	return ktr_writer__stuck(f->w);
}

const char *ktr_tracefile__why_words(const struct ktr_end *e)
{
	static const char *const words[KTR_END_MAX + 1] = {
		[KTR_END_EXITED] = "every traced process exited",
		[KTR_END_CLEARED] = "cleared",
		[KTR_END_STOPPED] = "stopped by its ktraceb",
		[KTR_END_WRITE_ERROR] = "the file took no more records",
		[KTR_END_REMOVED] = "the file was removed",
		[KTR_END_DAEMON] = "the ktraceb daemon was stopped",
		[KTR_END_RING] = "the ring buffer failed",
		[KTR_END_KILLED] = "the ktraceb daemon writing it was killed",
	};

	return e->ke_why <= KTR_END_MAX && words[e->ke_why] ? words[e->ke_why] : "";
}

void ktr_tracefile__summary(const struct ktr_tracefile *f, char *buf, size_t size)
{
	int err = ktr_tracefile__error(f);
	char why[96];

	if (f->end.ke_why == KTR_END_KILLED) {
		snprintf(buf, size,
			 "%s: %s; its END record says so (its last records before the "
			 "kill are cut off)",
			 ktr_tracefile__path(f), ktr_tracefile__why_words(&f->end));
		return;
	}
	if (err)
		snprintf(why, sizeof(why), "%s", strerror(err));
	else if (f->end.ke_why == KTR_END_CLEARED)
		snprintf(why, sizeof(why), "cleared by pid %d (uid %u)", f->end.ke_pid,
			 f->end.ke_uid);
	else
		snprintf(why, sizeof(why), "%s", ktr_tracefile__why_words(&f->end));
	snprintf(buf, size, "%s: %s; %llu records written, %llu lost", ktr_tracefile__path(f), why,
		 ktr_tracefile__records(f), ktr_tracefile__lost(f));
}

void ktr_tracefile__wait(struct ktr_tracefile *f, struct ktr_conn *cn)
{
	if (f->fg)
		ktr_conn__release(f->fg);
	f->fg = cn;
	if (cn)
		ktr_conn__hold(cn);
}

void ktr_tracefile__write_info(struct ktr_tracefile *f)
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
	fi.fi_flags = KTR_FI_BPF_KNOWN | (ktr_skel__old() ? KTR_FI_BPF_OLD : 0);
	fi.fi_clock = CLOCK_MONOTONIC;
	fi.fi_wall_offset_ns = ktr_wall_offset_ns();
	snprintf(fi.fi_tool, sizeof(fi.fi_tool), "ktraceb %s", KTRACEB_VERSION);
	/* straight to the file, recorder or not: the file's first record */
	ktr_record__own(&rec.h, KTR_FILEINFO, sizeof(fi), 0);
	memcpy(&rec.h + 1, &fi, sizeof(fi));
	ktr_writer__append(f->w, &rec.h, sizeof(rec.h) + sizeof(fi), fi.fi_wall_offset_ns, 0);
	f->info_written = true;
}

void ktr_tracefile__describe_object(struct ktr_tracefile *f, const struct ktr_object_id *id,
				    const char *path)
{
	struct {
		struct ktr_object o;
		struct ktr_object_load loads[KTR_OBJECT_MAXLOADS];
		char path[PATH_MAX];
	} rec = { 0 };
	__u32 h = 2166136261u; /* FNV-1a of the build id */
	size_t plen = strnlen(path, sizeof(rec.path) - 1), llen;
	int len = id->build_id_len;
	struct ktr_header hdr;

	if (len <= 0 || len > (int)sizeof(rec.o.ko_build_id) || id->nloads < 0 ||
	    id->nloads > KTR_OBJECT_MAXLOADS)
		return;
	for (int i = 0; i < len; i++)
		h = (h ^ id->build_id[i]) * 16777619u;
	for (unsigned int i = 0; i < f->nobjects; i++)
		if (f->objects[i] == h)
			return;
	if (f->nobjects >= KTR_TRACEFILE_OBJECTS)
		return;
	if (f->nobjects % 64 == 0) {
		__u32 *v = realloc(f->objects, (f->nobjects + 64) * sizeof(*v));

		if (!v)
			return;
		f->objects = v;
	}
	f->objects[f->nobjects++] = h;
	memcpy(rec.o.ko_build_id, id->build_id, len);
	rec.o.ko_build_id_len = len;
	rec.o.ko_nloads = id->nloads;
	/* the loads, then the path right after them */
	llen = id->nloads * sizeof(rec.loads[0]);
	memcpy(rec.loads, id->loads, llen);
	memcpy((char *)rec.loads + llen, path, plen);
	((char *)rec.loads)[llen + plen] = '\0';
	ktr_record__own(&hdr, KTR_OBJECT, sizeof(rec.o) + llen + plen + 1, 0);
	ktr_tracefile__append_made(f, &hdr, &rec, ktr_wall_offset_ns());
}
