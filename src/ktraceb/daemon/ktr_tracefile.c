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
#include "ktr_arch.h"
#include "ktr_clock.h"
#include "ktr_conn.h"
#include "ktr_object_id.h"
#include "ktr_record.h"
#include "ktr_tracefile.h"
#include "ktr_writer.h"

#define KTR_HELD_MAX (4u << 20) /* bytes of objects and mappings a recorder keeps */

int ktr_tracefile__append(struct ktr_tracefile *f, const struct ktr_header *h, size_t len,
			  __s64 wall_offset_ns)
{
	/*
	 * An event's format, an object and its mappings (-k): written by the
	 * next dump, before the records that need them.
	 */
	if (f->flight && (h->ktr_type == KTR_TPFORMAT || h->ktr_type == KTR_OBJECT ||
			  h->ktr_type == KTR_MAPPING)) {
		unsigned char *p;

		if (h->ktr_type != KTR_TPFORMAT && f->nheld + len > KTR_HELD_MAX)
			return 0; /* stacks past it go unnamed: a recorder lives long */
		p = realloc(f->held, f->nheld + len);
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
	fi.fi_clock = CLOCK_MONOTONIC;
	fi.fi_wall_offset_ns = ktr_wall_offset_ns();
	snprintf(fi.fi_tool, sizeof(fi.fi_tool), "ktraceb %s", KTRACEB_VERSION);
	/* straight to the file, recorder or not: the file's first record */
	ktr_record__own(&rec.h, KTR_FILEINFO, sizeof(fi), 0);
	memcpy(&rec.h + 1, &fi, sizeof(fi));
	ktr_writer__append(f->w, &rec.h, sizeof(rec.h) + sizeof(fi), fi.fi_wall_offset_ns);
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
