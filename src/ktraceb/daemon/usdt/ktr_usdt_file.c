// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The files with probes that traced processes map (ktr_usdt_state.h): each
 * one's notes, its sites described to BPF under ids of their own (the
 * usdt_sites map: what a hit's cookie names), and the files a scan found
 * no probe in (usdt_quiet), which BPF then stops nobody for.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <bpf/bpf.h>

#include "ktraceb/bpf_usdt.h"
#include "ktr_usdt_file.h"

/* --- the files known to have no probes (BPF's usdt_quiet) ------------------ */

/* The key BPF makes of a file: the kernel's dev_t (major << 20 | minor) and inode. */
static struct ktr_file_key quiet__key(dev_t dev, ino_t ino)
{
	struct ktr_file_key key = { 0 };

	key.dev = ((__u64)major(dev) << 20) | minor(dev);
	key.ino = ino;
	return key;
}

/*
 * The change time of pid's mapping m, in ns: 0 if it cannot be told.
 * Through map_files (root's daemon: exactly the file mapped), with the
 * attributes the kernel has at hand: a network or FUSE file's server is
 * not asked, and cannot hold the daemon up.
 */
static __u64 mapping__ctime_ns(pid_t pid, const struct map_line *m)
{
	char path[96];
	struct statx stx;

	snprintf(path, sizeof(path), "/proc/%d/map_files/%lx-%lx", pid, m->start, m->end);
	if (statx(AT_FDCWD, path, AT_STATX_DONT_SYNC, STATX_CTIME, &stx) < 0 ||
	    !(stx.stx_mask & STATX_CTIME))
		return 0;
	return (__u64)stx.stx_ctime.tv_sec * 1000000000ull + stx.stx_ctime.tv_nsec;
}

/* Has p's mapping m's file been checked here since p's exec?  If not, it is now. */
static bool proc__checked(struct usdt_proc *p, const struct map_line *m)
{
	unsigned int n = p->nchecked < USDT_CHECKED_MAX ? p->nchecked : USDT_CHECKED_MAX;

	for (unsigned int i = 0; i < n; i++)
		if (p->checked[i].dev == m->dev && p->checked[i].ino == m->ino)
			return true;
	p->checked[p->nchecked % USDT_CHECKED_MAX] = (struct usdt_file_id){ m->dev, m->ino };
	p->nchecked++;
	return false;
}

bool usdt_quiet__known(struct ktr_usdt *u, struct usdt_proc *p, const struct map_line *m,
		       bool check)
{
	struct ktr_file_key key = quiet__key(m->dev, m->ino);
	__u64 scanned, now;

	if (bpf_map_lookup_elem(u->quiet_fd, &key, &scanned) < 0)
		return false;
	/* BPF checked a file a held process just mapped (note.bpf.c); others are checked here */
	now = check && !proc__checked(p, m) ? mapping__ctime_ns(p->pid, m) : 0;
	if (now && now != scanned) {
		bpf_map_delete_elem(u->quiet_fd, &key);
		return false;
	}
	return true;
}

void usdt_quiet__add(struct ktr_usdt *u, dev_t dev, ino_t ino, __u64 ctime_ns)
{
	struct ktr_file_key key = quiet__key(dev, ino);

	bpf_map_update_elem(u->quiet_fd, &key, &ctime_ns, BPF_ANY);
}

/* --- site ids ---------------------------------------------------------------- */

static __u32 id__alloc(struct ktr_usdt *u)
{
	for (__u32 i = 0; i < KTR_MAX_USDT_SITES; i++) {
		__u32 id = (u->next_id + i) % KTR_MAX_USDT_SITES;

		if (!(u->used_ids[id / 8] & (1 << (id % 8)))) {
			u->used_ids[id / 8] |= 1 << (id % 8);
			u->next_id = id + 1;
			return id;
		}
	}
	return 0;
}

static void id__free(struct ktr_usdt *u, __u32 id)
{
	if (id) {
		u->used_ids[id / 8] &= ~(1 << (id % 8));
		bpf_map_delete_elem(u->sites_fd, &id);
	}
}

static __u8 site__kind(const struct ktr_usdt_note *n)
{
	if (strcmp(n->provider, KTR_USDT_PROVIDER) != 0)
		return KTR_UREC_PROBE;
	if (strcmp(n->name, "utrace") == 0)
		return KTR_USITE_UTRACE;
	if (strcmp(n->name, "span_enter") == 0)
		return KTR_UREC_SPAN_ENTER;
	if (strcmp(n->name, "span_exit") == 0)
		return KTR_UREC_SPAN_EXIT;
	return KTR_UREC_PROBE;
}

/* Describe note i of f to BPF under a new site id (f->ids[i], 0 if none). */
static void site__add(struct ktr_usdt *u, struct usdt_file *f, int i)
{
	struct ktr_usdt_site site = { 0 };

	f->ids[i] = id__alloc(u);
	if (!f->ids[i])
		return;
	site.kind = site__kind(&f->notes[i]);
	site.nargs = f->notes[i].nargs;
	memcpy(site.args, f->notes[i].args, sizeof(site.args));
	memcpy(site.provider, f->notes[i].provider, sizeof(site.provider));
	memcpy(site.name, f->notes[i].name, sizeof(site.name));
	if (bpf_map_update_elem(u->sites_fd, &f->ids[i], &site, BPF_ANY) < 0) {
		id__free(u, f->ids[i]);
		f->ids[i] = 0;
	}
}

/* --- files ------------------------------------------------------------------- */

struct usdt_file *usdt_file__find(struct ktr_usdt *u, dev_t dev, ino_t ino)
{
	for (struct usdt_file *f = u->files; f; f = f->next)
		if (f->dev == dev && f->ino == ino)
			return f;
	return NULL;
}

/* A file a scan found probes in: its notes and descriptor are the file's now. */
struct usdt_file *usdt_file__new(struct ktr_usdt *u, const struct ktr_usdt_job_spec *spec,
				 struct ktr_usdt_job_result *res)
{
	struct usdt_file *f = calloc(1, sizeof(*f));

	if (f) {
		f->ids = calloc(res->nnotes, sizeof(*f->ids));
		f->path = strdup(spec->path);
	}
	if (!f || !f->ids || !f->path) {
		if (f) {
			free(f->ids);
			free(f->path);
		}
		free(f);
		return NULL;
	}
	f->dev = spec->dev;
	f->ino = spec->ino;
	f->fd = res->fd;
	f->notes = res->notes;
	f->nnotes = res->nnotes;
	res->fd = -1;
	res->notes = NULL;
	for (int i = 0; i < f->nnotes; i++)
		site__add(u, f, i);
	f->next = u->files;
	u->files = f;
	return f;
}

/* Its last user is gone: nothing of it stays. */
void usdt_file__drop(struct ktr_usdt *u, struct usdt_file *f)
{
	struct usdt_file **pp = &u->files;

	while (*pp && *pp != f)
		pp = &(*pp)->next;
	if (*pp)
		*pp = f->next;
	for (int i = 0; i < f->nnotes; i++)
		id__free(u, f->ids[i]);
	close(f->fd);
	free(f->notes);
	free(f->ids);
	free(f->path);
	free(f);
}

const struct usdt_object *usdt_object__find(const struct ktr_usdt *u, dev_t dev, ino_t ino)
{
	for (unsigned int i = 0; i < USDT_OBJECTS_MAX; i++)
		if (u->objects[i].id.build_id_len && u->objects[i].dev == dev &&
		    u->objects[i].ino == ino)
			return &u->objects[i];
	return NULL;
}

const struct usdt_object *usdt_object__add(struct ktr_usdt *u, dev_t dev, ino_t ino,
					   const struct ktr_object_id *id, const char *path)
{
	struct usdt_object *o = &u->objects[u->next_object++ % USDT_OBJECTS_MAX];
	char *copy = strdup(path);

	if (!copy || id->build_id_len <= 0) {
		free(copy);
		return NULL;
	}
	free(o->path);
	o->dev = dev;
	o->ino = ino;
	o->id = *id;
	o->path = copy;
	return o;
}

void usdt_objects__free(struct ktr_usdt *u)
{
	for (unsigned int i = 0; i < USDT_OBJECTS_MAX; i++) {
		free(u->objects[i].path);
		u->objects[i].path = NULL;
		u->objects[i].id.build_id_len = 0;
	}
}
