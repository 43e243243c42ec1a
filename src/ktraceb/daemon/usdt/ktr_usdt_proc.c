// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The processes traced with 'u' (ktr_usdt_state.h): what each maps
 * (/proc/PID/maps), and its probes in each file, attached for it alone and
 * charged to its trace's owner.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "daemon/programs/ktr_loader.h"
#include "daemon/programs/ktr_progs.h"
#include "daemon/requests/ktr_share.h"
#include "ktr_usdt_attach.h"
#include "ktr_usdt_file.h"
#include "ktr_usdt_proc.h"

/* --- /proc/PID/maps ------------------------------------------------------ */

/*
 * What the read-only mappings of a file are now, as one number: ld.so
 * maps a library whole, then its segments over that, so the constants a
 * scan faulted in at the library's text may be in a new mapping by its
 * data's turn, and need faulting in again.
 */
unsigned long usdt_maps__rodata(const struct map_line *m, int n, dev_t dev, ino_t ino)
{
	unsigned long sum = 0;

	for (int i = 0; i < n; i++)
		if (m[i].dev == dev && m[i].ino == ino && !m[i].write && !m[i].exec)
			sum = sum * 31 + m[i].start + m[i].end;
	return sum;
}

/* --- processes ------------------------------------------------------------------ */

struct usdt_proc **usdt_proc__slot(struct ktr_usdt *u, pid_t pid)
{
	struct usdt_proc **pp = &u->procs;

	while (*pp && (*pp)->pid != pid)
		pp = &(*pp)->next;
	return pp;
}

struct usdt_proc *usdt_proc__find(struct ktr_usdt *u, pid_t pid)
{
	return *usdt_proc__slot(u, pid);
}

struct usdt_proc *usdt_proc__get(struct ktr_usdt *u, pid_t pid, uid_t owner, gid_t gid)
{
	struct usdt_proc **pp = usdt_proc__slot(u, pid);

	if (!*pp) {
		*pp = calloc(1, sizeof(**pp));
		if (*pp)
			(*pp)->pid = pid;
	}
	if (*pp) {
		(*pp)->owner = owner;
		(*pp)->owner_gid = gid;
	}
	return *pp;
}

struct usdt_use *usdt_proc__use(const struct usdt_proc *p, const struct usdt_file *f)
{
	for (int i = 0; i < p->nuses; i++)
		if (p->uses[i].f == f)
			return &p->uses[i];
	return NULL;
}

/* --- the probes each process arms (its trace file's patterns) ------------------ */

/* sel, shared with the processes that arm the same (NULL: the ktraceb provider's alone). */
static struct usdt_sel *usdt_sel__get(struct ktr_usdt *u, const struct ktr_usdt_sel *sel)
{
	struct usdt_sel *s;

	if (!sel || !sel->n)
		return NULL;
	for (s = u->sels; s; s = s->next)
		if (ktr_usdt_sel__same(&s->sel, sel))
			break;
	if (!s) {
		s = calloc(1, sizeof(*s));
		if (!s)
			return NULL; /* the ktraceb provider's alone: fewer probes, never more */
		s->sel = *sel;
		s->next = u->sels;
		u->sels = s;
	}
	s->refs++;
	return s;
}

static void usdt_sel__put(struct ktr_usdt *u, struct usdt_sel *s)
{
	struct usdt_sel **pp = &u->sels;

	if (!s || --s->refs)
		return;
	while (*pp && *pp != s)
		pp = &(*pp)->next;
	if (*pp)
		*pp = s->next;
	free(s);
}

const struct ktr_usdt_sel *usdt_proc__sel(const struct usdt_proc *p)
{
	return p->sel ? &p->sel->sel : NULL;
}

void usdt_proc__select(struct ktr_usdt *u, struct usdt_proc *p, const struct ktr_usdt_sel *sel)
{
	struct usdt_sel *s = usdt_sel__get(u, sel);

	if (s == p->sel) {
		usdt_sel__put(u, s);
		return;
	}
	/* moved to a file with other patterns: what it armed for the old ones goes */
	usdt_proc__release(u, p);
	usdt_sel__put(u, p->sel);
	p->sel = s;
}

void usdt_proc__unselect(struct ktr_usdt *u, struct usdt_proc *p)
{
	usdt_sel__put(u, p->sel);
	p->sel = NULL;
}

/* A use of f by p with nothing armed: f stays known while p maps it, never read again. */
static int proc__use_none(struct usdt_proc *p, struct usdt_file *f)
{
	struct usdt_use *uses = reallocarray(p->uses, p->nuses + 1, sizeof(*uses));

	if (!uses)
		return -ENOMEM;
	p->uses = uses;
	memset(&p->uses[p->nuses], 0, sizeof(*uses));
	p->uses[p->nuses].f = f;
	p->uses[p->nuses].multi_fd = -1;
	p->nuses++;
	f->uses++;
	return 0;
}

/* p's probes in f that its patterns arm, attached; 0 or -errno (said to the daemon). */
int usdt_proc__attach(struct ktr_usdt *u, struct usdt_proc *p, struct usdt_file *f)
{
	unsigned int *probes = p->owner ? usdt_uid__charge(u, p->owner, false) : NULL;
	unsigned int armed = usdt_file__armed(f, usdt_proc__sel(p));
	struct usdt_use *uses, *use;
	char why[256];
	int err;

	if (usdt_proc__use(p, f))
		return 0;
	if (u->hooks.traced && !u->hooks.traced(u->hooks.ctx, p->pid))
		return -ESRCH;
	if (!armed)
		return proc__use_none(p, f); /* not even the USDT program is loaded for it */
	if (p->owner &&
	    (!probes || ktr_share__may(KTR_POOL_USDT_PROBES, p->owner, *probes,
				       usdt_uid__total(u, false), armed, why, sizeof(why)))) {
		usdt__warn(u, p->pid, "USDT: %s: not probed: %s", f->path,
			   probes ? why : "too many users with USDT probes");
		return -EDQUOT;
	}
	err = ktr_loader__load_usdt(u->b);
	if (err) {
		const char *prog = "ktr_usdt_record";

		usdt__warn(u, p->pid, "%s are not recorded on this kernel: %s",
			   ktr_prog_role(prog).fac->lacks,
			   ktr_loader__prog_missing(prog) ?: strerror(-err));
		return err;
	}
	uses = reallocarray(p->uses, p->nuses + 1, sizeof(*uses));
	if (!uses)
		return -ENOMEM;
	p->uses = uses;
	use = &p->uses[p->nuses];
	memset(use, 0, sizeof(*use));
	use->f = f;
	err = usdt_use__attach(u, use, p->pid, usdt_proc__sel(p));
	if (probes)
		*probes += use->nprobes;
	if (err && err != -ESRCH) /* ESRCH: it is gone already */
		usdt__warn(u, p->pid, "USDT: %s: cannot attach its probes: %s", f->path,
			   strerror(-err));
	if (!use->nprobes) {
		usdt_use__detach(u, use, p->owner);
		return err;
	}
	p->nuses++;
	f->uses++;
	return err;
}

/* p's probes all go (an exec, a clear, an exit). */
void usdt_proc__release(struct ktr_usdt *u, struct usdt_proc *p)
{
	for (int i = 0; i < p->nuses; i++) {
		struct usdt_file *f = p->uses[i].f;

		usdt_use__detach(u, &p->uses[i], p->owner);
		if (--f->uses == 0)
			usdt_file__drop(u, f);
	}
	free(p->uses);
	p->uses = NULL;
	p->nuses = 0;
}

/* A scan p waited for is over: a held p goes on after its last. */
void usdt_proc__look_done(struct ktr_usdt *u, pid_t pid)
{
	struct usdt_proc *p = usdt_proc__find(u, pid);

	if (!p || !p->scans)
		return;
	if (--p->scans == 0 && p->held) {
		p->held = false;
		if (u->hooks.release)
			u->hooks.release(u->hooks.ctx, pid);
	}
}
