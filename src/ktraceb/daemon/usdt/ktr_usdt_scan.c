// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The scans of the files traced processes map (ktr_usdt_state.h): queued,
 * started as far as the limits let them (each a child: ktr_usdt_job.h),
 * and what each found put to use when it arrives.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>

#include "daemon/ktr_clock.h"
#include "daemon/requests/ktr_share.h"
#include "ktr_usdt_attach.h"
#include "ktr_usdt_file.h"
#include "ktr_usdt_scan.h"
#include "ktr_usdt_proc.h"

/*
 * Whose credentials a scan takes: the trace's owner, and for root's
 * traces the traced process's own user (real ids): root reading a user's
 * files is the user reading them, so nothing of a user's file is ever
 * parsed with root's rights.
 */
static void scan__creds(pid_t pid, uid_t owner, gid_t owner_gid, uid_t *uid, gid_t *gid)
{
	char path[64], line[256];
	FILE *f;

	*uid = owner;
	*gid = owner_gid;
	if (owner != 0)
		return;
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned int id;

		if (sscanf(line, "Uid: %u", &id) == 1)
			*uid = id;
		else if (sscanf(line, "Gid: %u", &id) == 1)
			*gid = id;
	}
	if (f)
		fclose(f);
}

bool usdt_scan__pending(const struct ktr_usdt *u, pid_t pid, dev_t dev, ino_t ino)
{
	for (const struct usdt_scan *l = u->scans; l; l = l->next)
		if (l->spec.pid == pid && l->spec.dev == dev && l->spec.ino == ino)
			return true;
	return false;
}

/* Start the scans waiting their turn, as far as the limits let them. */
void usdt_scans__run(struct ktr_usdt *u)
{
	for (struct usdt_scan *l = u->scans; l && u->nrunning < SCANS_MAX; l = l->next) {
		unsigned int *mine;
		struct epoll_event ev = { .events = EPOLLIN };

		if (l->job)
			continue;
		mine = l->spec.uid ? usdt_uid__charge(u, l->spec.uid, true) : NULL;
		if (l->spec.uid && (!mine || ktr_share__may(KTR_POOL_USDT_READS, l->spec.uid, *mine,
							    u->nrunning, 1, NULL, 0)))
			continue;
		l->job = ktr_usdt_job__start(&l->spec);
		if (!l->job) {
			usdt__warn(u, l->spec.pid, "USDT: %s: cannot start a look at it: %s",
				   l->spec.path, strerror(errno));
			continue; /* tried again at the next poll */
		}
		ev.data.ptr = l;
		epoll_ctl(u->ep, EPOLL_CTL_ADD, ktr_usdt_job__fd(l->job), &ev);
		u->nrunning++;
		u->nqueued--;
		if (mine)
			(*mine)++;
	}
}

/* May a trace of owner queue one more scan (ktr_share.h)?  0, or -errno with why. */
static int scan__share(const struct ktr_usdt *u, uid_t owner, char *why, size_t size)
{
	unsigned int mine = 0;

	for (const struct usdt_scan *l = u->scans; l; l = l->next)
		mine += !l->job && l->spec.uid == owner;
	return ktr_share__may(KTR_POOL_USDT_WAITING, owner, mine, u->nqueued, 1, why, size);
}

/* A scan of mapping m of p, queued; false if none could be. */
bool usdt_scan__queue(struct ktr_usdt *u, const struct usdt_proc *p, const struct map_line *m,
		      bool want_notes, bool want_build_id, unsigned long rodata)
{
	struct usdt_scan *l;
	char why[256];

	if (u->nqueued >= SCANS_QUEUED) {
		usdt__warn(u, p->pid, "USDT: %s: not probed: too many files waiting for a look",
			   m->path);
		return false;
	}
	if (p->owner && scan__share(u, p->owner, why, sizeof(why)) < 0) {
		usdt__warn(u, p->pid, "USDT: %s: not probed: %s", m->path, why);
		return false;
	}
	l = calloc(1, sizeof(*l));
	if (!l)
		return false;
	l->spec.pid = p->pid;
	l->spec.start = m->start;
	l->spec.end = m->end;
	l->spec.pgoff = m->pgoff;
	l->spec.dev = m->dev;
	l->spec.ino = m->ino;
	snprintf(l->spec.path, sizeof(l->spec.path), "%s", m->path);
	scan__creds(p->pid, p->owner, p->owner_gid, &l->spec.uid, &l->spec.gid);
	l->spec.want_notes = want_notes;
	l->spec.want_build_id = want_build_id;
	l->spec.rodata = rodata;
	l->next = u->scans;
	u->scans = l;
	u->nqueued++;
	return true;
}

void usdt_scan__unlink(struct ktr_usdt *u, struct usdt_scan *l)
{
	struct usdt_scan **pp = &u->scans;

	while (*pp && *pp != l)
		pp = &(*pp)->next;
	if (*pp)
		*pp = l->next;
	if (l->job) {
		unsigned int *mine = l->spec.uid ? usdt_uid__charge(u, l->spec.uid, true) : NULL;

		epoll_ctl(u->ep, EPOLL_CTL_DEL, ktr_usdt_job__fd(l->job), NULL);
		ktr_usdt_job__free(l->job);
		u->nrunning--;
		if (mine && *mine)
			(*mine)--;
	} else {
		u->nqueued--;
	}
}

/* What a scan found, put to use. */
static void scan__finish(struct ktr_usdt *u, struct usdt_scan *l, struct ktr_usdt_job_result *res)
{
	const struct ktr_usdt_job_spec *spec = &l->spec;
	struct usdt_proc *p = usdt_proc__find(u, spec->pid);
	struct usdt_file *f = usdt_file__find(u, spec->dev, spec->ino);

	if (!res->error && res->object.build_id_len) {
		const struct usdt_object *o =
			usdt_object__add(u, spec->dev, spec->ino, &res->object, spec->path);

		struct ktr_object_map where = { spec->start, spec->end, spec->pgoff };

		if (o && p && p->objects && u->hooks.object)
			u->hooks.object(u->hooks.ctx, spec->pid, &o->id, o->path, &where);
	}
	if (res->error) {
		usdt__warn(u, spec->pid, "USDT: %s", res->why);
	} else if (!f && spec->want_notes && res->nnotes == 0) {
		/* no probes: not scanned again while its ctime is this, mapping it stops nobody */
		usdt_quiet__add(u, spec->dev, spec->ino, res->ctime_ns);
		/* the key BPF makes on a stacked fs */
		usdt_quiet__add(u, res->st_dev, res->st_ino, res->ctime_ns);
	} else if (!f && res->nnotes) {
		if (res->seen > res->nnotes)
			usdt__warn(u, spec->pid,
				   "USDT: %s: only the first %d of its %d probes attached",
				   spec->path, res->nnotes, res->seen);
		f = usdt_file__new(u, spec, res);
	}
	if (f && p && p->probes && !usdt_proc__use(p, f)) {
		usdt_proc__attach(u, p, f);
		if (usdt_proc__use(p, f))
			usdt_proc__use(p, f)->rodata = spec->rodata;
	} else if (f && !f->uses)
		usdt_file__drop(u, f); /* its process went meanwhile */
	if (res->fd >= 0)
		close(res->fd);
	free(res->notes);
}

void ktr_usdt__poll(struct ktr_usdt *u)
{
	long long now = ktr_now_ms();

	/*
	 * Every running scan is asked (u->ep is level-triggered: it stays
	 * readable until each answer is read, and a scan whose answer is
	 * read leaves it); those past their time end too.
	 */
	for (struct usdt_scan *l = u->scans, *next; l; l = next) {
		struct ktr_usdt_job_result res;
		pid_t pid = l->spec.pid;

		next = l->next;
		if (!l->job || !ktr_usdt_job__poll(l->job, now, &res))
			continue;
		usdt_scan__unlink(u, l);
		scan__finish(u, l, &res);
		free(l);
		usdt_proc__look_done(u, pid);
		next = u->scans; /* the list may have changed under us */
	}
	usdt_scans__run(u);
	ktr_usdt_job__reap();
}

/* The scans p waits for, ended (its old image's, or it is gone). */
void usdt_scans__cancel(struct ktr_usdt *u, struct usdt_proc *p)
{
	for (struct usdt_scan *l = u->scans, *next; l; l = next) {
		next = l->next;
		if (l->spec.pid != p->pid)
			continue;
		usdt_scan__unlink(u, l);
		free(l);
		if (p->scans)
			p->scans--;
	}
}
