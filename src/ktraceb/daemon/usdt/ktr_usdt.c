// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The face of the daemon's USDT support (ktr_usdt.h): the daemon's calls.
 * What they do is in the parts ktr_usdt_state.h lists.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <bpf/libbpf.h>

#include "daemon/programs/ktr_bpf.h"
#include "ktr_usdt_attach.h"
#include "ktr_usdt_file.h"
#include "ktr_usdt_scan.h"
#include "ktr_usdt_proc.h"

struct ktr_usdt *ktr_usdt__new(struct ktr_bpf *b, enum ktr_usdt_mode mode,
			       const struct ktr_usdt_hooks *hooks)
{
	struct ktr_usdt *u = calloc(1, sizeof(*u));

	if (!u)
		return NULL;
	u->ep = epoll_create1(EPOLL_CLOEXEC);
	if (u->ep < 0) {
		free(u);
		return NULL;
	}
	u->b = b;
	u->mode = mode;
	u->hooks = *hooks;
	u->sites_fd = ktr_bpf__map_fd(b, usdt_sites);
	u->quiet_fd = ktr_bpf__map_fd(b, usdt_quiet);
	u->used_ids[0] = 1; /* id 0 is "none" */
	u->next_id = 1;
	return u;
}

int ktr_usdt__fd(const struct ktr_usdt *u)
{
	return u->ep;
}

/* Tell the object of mapping m (its build id known), or say a scan must read it. */
static bool scan__object(struct ktr_usdt *u, pid_t pid, const struct map_line *m)
{
	const struct usdt_object *o = usdt_object__find(u, m->dev, m->ino);
	struct ktr_object_map where = { m->start, m->end, m->pgoff };

	if (!o)
		return true;
	if (u->hooks.object)
		u->hooks.object(u->hooks.ctx, pid, &o->id, o->path, &where);
	return false;
}

/*
 * Mapping m's probes: attached now if the file is known, and whether a
 * scan must read its notes (*notes) or fault its constants in again.
 */
static bool scan__probes(struct ktr_usdt *u, struct usdt_proc *p, const struct map_line *m,
			 unsigned long rodata, bool held, bool *notes)
{
	struct usdt_file *f = usdt_file__find(u, m->dev, m->ino);
	struct usdt_use *use = f ? usdt_proc__use(p, f) : NULL;

	*notes = false;
	if (!f && usdt_quiet__known(u, p, m, !held))
		return false;
	/* the stopped command: its constants faulted in again where they moved */
	if (use && (!held || use->rodata == rodata || !use->nprobes))
		return false;
	/* a file known already is attached now; its scan faults its strings in */
	if (f && !use)
		usdt_proc__attach(u, p, f);
	use = f ? usdt_proc__use(p, f) : NULL;
	if (use && !use->nprobes)
		return false; /* none of its probes armed: no string of it read */
	if (use)
		use->rodata = rodata;
	*notes = !f;
	return true;
}

int ktr_usdt__scan(struct ktr_usdt *u, pid_t pid, uid_t uid, gid_t gid, bool exec, bool held,
		   unsigned int want, const struct ktr_usdt_sel *sel)
{
	bool probes = (want & KTR_USDT_PROBES) && u->mode != KTR_USDT_NONE;
	bool objects = want & KTR_USDT_OBJECTS;
	struct usdt_proc *p;
	struct map_line *m = NULL;
	int n;

	if (!probes && !objects)
		return 0;
	p = usdt_proc__get(u, pid, uid, gid);
	if (!p)
		return -ENOMEM;
	p->probes = probes;
	p->objects = objects;
	if (probes)
		usdt_proc__select(u, p, sel);
	/* the old image's probes went with it; what the new one maps is scanned afresh */
	if (exec) {
		usdt_proc__release(u, p);
		usdt_scans__cancel(u, p);
		p->nchecked = 0;
	}
	n = usdt_maps__read(pid, &m);
	if (n < 0 && n != -ENOENT && n != -ESRCH)
		usdt__warn(u, pid, "USDT: pid %d: not probed: cannot read its mappings: %s", pid,
			   strerror(-n));
	for (int i = 0; i < n; i++) {
		unsigned long rodata = usdt_maps__rodata(m, n, m[i].dev, m[i].ino);
		bool need_id, notes = false, scan_probes;

		if (!m[i].exec || usdt_scan__pending(u, pid, m[i].dev, m[i].ino))
			continue;
		need_id = objects && scan__object(u, pid, &m[i]);
		scan_probes = probes && scan__probes(u, p, &m[i], rodata, held, &notes);
		if ((scan_probes || need_id) &&
		    usdt_scan__queue(u, p, &m[i], notes, need_id, rodata))
			p->scans++;
	}
	free(m);
	usdt_scans__run(u);
	if (held && p->scans)
		p->held = true;
	return n < 0 ? n : (int)p->scans;
}

void ktr_usdt__fork(struct ktr_usdt *u, pid_t pid, pid_t child, bool child_traced)
{
	struct usdt_proc *p = usdt_proc__find(u, pid), *c;

	/*
	 * An untraced child's copy of the parent's memory has the breakpoints
	 * and raised semaphores: the kernel takes each breakpoint out at its
	 * first hit there (no consumer wants it), lowering its semaphore.
	 */
	if (!p || !p->nuses || !child_traced)
		return;
	c = usdt_proc__get(u, child, p->owner, p->owner_gid);
	if (c)
		usdt_proc__select(u, c, usdt_proc__sel(p)); /* the same file's: the same patterns */
	for (int i = 0; c && i < p->nuses; i++)
		usdt_proc__attach(u, c, p->uses[i].f);
}

void ktr_usdt__forget(struct ktr_usdt *u, pid_t pid)
{
	struct usdt_proc **pp = usdt_proc__slot(u, pid), *p = *pp;

	if (!p)
		return;
	usdt_proc__release(u, p);
	usdt_proc__unselect(u, p);
	usdt_scans__cancel(u, p);
	if (p->held && u->hooks.release)
		u->hooks.release(u->hooks.ctx, pid); /* nothing may stay stopped */
	*pp = p->next;
	free(p);
	usdt_scans__run(u);
}

int ktr_usdt__pids(const struct ktr_usdt *u, pid_t **out)
{
	int n = 0;
	pid_t *v;

	for (const struct usdt_proc *p = u->procs; p; p = p->next)
		n++;
	v = calloc(n + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	n = 0;
	for (const struct usdt_proc *p = u->procs; p; p = p->next)
		v[n++] = p->pid;
	*out = v;
	return n;
}

void ktr_usdt__free(struct ktr_usdt *u)
{
	if (!u)
		return;
	while (u->procs)
		ktr_usdt__forget(u, u->procs->pid);
	while (u->scans) {
		struct usdt_scan *l = u->scans;

		usdt_scan__unlink(u, l);
		free(l);
	}
	usdt_closer__finish(); /* before the files' descriptors go: the links are on them */
	usdt_objects__free(u);
	while (u->files)
		usdt_file__drop(u, u->files);
	ktr_usdt_job__reap();
	close(u->ep);
	free(u);
}
