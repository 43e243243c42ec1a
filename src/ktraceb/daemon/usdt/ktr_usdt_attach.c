// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * A process's probes in one file, attached (one uprobe_multi link with its
 * pid, else a perf-event uprobe per site opened for it) and taken out (by
 * a thread of their own), and what each user holds of what every trace
 * shares (ktr_usdt_state.h's limits).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "daemon/programs/ktr_bpf.h"
#include "daemon/programs/ktr_link.h"
#include "ktr_usdt_attach.h"

/* What uid holds, where it is counted (NULL: no slot free, nothing may be taken). */
unsigned int *usdt_uid__charge(struct ktr_usdt *u, uid_t uid, bool scans)
{
	int free_slot = -1;

	for (int i = 0; i < UID_SLOTS; i++) {
		if ((u->charges[i].probes || u->charges[i].scans) && u->charges[i].uid == uid)
			return scans ? &u->charges[i].scans : &u->charges[i].probes;
		if (!u->charges[i].probes && !u->charges[i].scans && free_slot < 0)
			free_slot = i;
	}
	if (free_slot < 0)
		return NULL;
	u->charges[free_slot].uid = uid;
	return scans ? &u->charges[free_slot].scans : &u->charges[free_slot].probes;
}

/* What all users hold together (scans: the scans running for them). */
unsigned int usdt_uid__total(const struct ktr_usdt *u, bool scans)
{
	unsigned int n = 0;

	for (int i = 0; i < UID_SLOTS; i++)
		n += scans ? u->charges[i].scans : u->charges[i].probes;
	return n;
}

/* --- attaching ------------------------------------------------------------------ */

/*
 * BPF_LINK_CREATE of a uprobe_multi link (Linux 6.6), by hand: libbpf 1.1
 * knows neither the attach type nor its attributes.  include/uapi/linux/
 * bpf.h, link_create.uprobe_multi, after prog_fd, target_fd, attach_type
 * and flags.
 */
struct uprobe_multi_attr {
	__u32 prog_fd;
	__u32 target_fd;
	__u32 attach_type;
	__u32 flags;
	__u64 path;
	__u64 offsets;
	__u64 ref_ctr_offsets;
	__u64 cookies;
	__u32 cnt;
	__u32 um_flags;
	__u32 pid;
	__u32 pad;
};

static int link__uprobe_multi(int prog_fd, const char *path, const __u64 *offsets,
			      const __u64 *ref_ctr_offsets, const __u64 *cookies, __u32 cnt,
			      pid_t pid)
{
	union bpf_attr attr;
	struct uprobe_multi_attr *a = (void *)&attr.link_create;

	_Static_assert(sizeof(*a) <= sizeof(attr.link_create) + 16, "fits bpf_attr");
	memset(&attr, 0, sizeof(attr));
	a->prog_fd = prog_fd;
	a->attach_type = 48; /* BPF_TRACE_UPROBE_MULTI */
	a->path = (__u64)(unsigned long)path;
	a->offsets = (__u64)(unsigned long)offsets;
	a->ref_ctr_offsets = (__u64)(unsigned long)ref_ctr_offsets;
	a->cookies = (__u64)(unsigned long)cookies;
	a->cnt = cnt;
	a->pid = pid;
	return syscall(__NR_bpf, BPF_LINK_CREATE, &attr, sizeof(attr));
}

/* Is note i of f armed by sel: it has a site id, and sel takes it in? */
static bool note__armed(const struct usdt_file *f, int i, const struct ktr_usdt_sel *sel)
{
	return f->ids[i] && ktr_usdt_sel__match(sel, f->notes[i].provider, f->notes[i].name);
}

unsigned int usdt_file__armed(const struct usdt_file *f, const struct ktr_usdt_sel *sel)
{
	unsigned int n = 0;

	for (int i = 0; i < f->nnotes; i++)
		n += note__armed(f, i, sel);
	return n;
}

/* Every site of use's file sel arms, for pid alone, in one link; 0 or -errno. */
static int use__attach_multi(struct ktr_usdt *u, struct usdt_use *use, const char *path, pid_t pid,
			     const struct ktr_usdt_sel *sel)
{
	const struct usdt_file *f = use->f;
	__u64 *offs = calloc(f->nnotes, 3 * sizeof(*offs)), *refs, *cookies;
	__u32 n = 0;
	int err = 0;

	if (!offs)
		return -ENOMEM;
	refs = offs + f->nnotes;
	cookies = refs + f->nnotes;
	for (int i = 0; i < f->nnotes; i++) {
		if (!note__armed(f, i, sel))
			continue;
		offs[n] = f->notes[i].pc_off;
		refs[n] = f->notes[i].sema_off; /* the kernel raises it in pid's memory */
		cookies[n++] = f->ids[i];
	}
	if (n) {
		use->multi_fd = link__uprobe_multi(u->b->prog_fd[KTR_PROG(ktr_usdt_record)], path,
						   offs, refs, cookies, n, pid);
		if (use->multi_fd < 0)
			err = -errno;
	}
	use->nprobes = err ? 0 : n;
	free(offs);
	return err;
}

/* One perf-event uprobe per site sel arms, each for pid (kernels before uprobe_multi). */
static int use__attach_each(struct ktr_usdt *u, struct usdt_use *use, const char *path, pid_t pid,
			    const struct ktr_usdt_sel *sel)
{
	const struct usdt_file *f = use->f;
	int err = 0;

	use->links = calloc(f->nnotes, sizeof(*use->links));
	if (!use->links)
		return -ENOMEM;
	for (int i = 0; i < f->nnotes; i++)
		use->links[i] = -1;
	for (int i = 0; i < f->nnotes && !err; i++) {
		if (!note__armed(f, i, sel))
			continue;
		use->links[i] = ktr_link__uprobe(u->b->prog_fd[KTR_PROG(ktr_usdt_record)], path,
						 f->notes[i].pc_off, f->notes[i].sema_off, pid,
						 f->ids[i]);
		if (use->links[i] >= 0)
			use->nprobes++;
		else
			err = use->links[i];
	}
	return err;
}

int usdt_use__attach(struct ktr_usdt *u, struct usdt_use *use, pid_t pid,
		     const struct ktr_usdt_sel *sel)
{
	char path[64];

	use->multi_fd = -1;
	/* the scan's descriptor: the file it checked, whatever its path names now */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", use->f->fd);
	if (u->mode == KTR_USDT_MULTI)
		return use__attach_multi(u, use, path, pid, sel);
	return use__attach_each(u, use, path, pid, sel);
}

/*
 * Taking a probe out waits for the kernel's RCU grace periods: a
 * perf-event uprobe at a time, a process with a thousand sites keeps the
 * daemon a second or more on a small machine (longer under emulation),
 * and nobody else would be served meanwhile.  So the links of a process
 * that is done are closed by a thread of their own, in the order given:
 * its records already stopped (it is not traced any more), and the
 * kernel lowers its semaphores as each probe goes.
 */
struct closing {
	int fd;
	int *links;
	int nlinks;
	struct closing *next;
};

static struct {
	pthread_mutex_t lock;
	pthread_cond_t more;
	struct closing *head, **tail;
	bool started, stop;
	pthread_t tid;
} closer = { .lock = PTHREAD_MUTEX_INITIALIZER, .more = PTHREAD_COND_INITIALIZER };

static void closing__do(struct closing *c)
{
	if (c->fd >= 0)
		close(c->fd);
	for (int i = 0; i < c->nlinks; i++)
		if (c->links[i] >= 0)
			close(c->links[i]);
	free(c->links);
	free(c);
}

static void *closer__run(void *arg)
{
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL); /* the daemon's signals are its loop's */
	pthread_mutex_lock(&closer.lock);
	for (;;) {
		struct closing *c = closer.head;

		if (!c && closer.stop)
			break;
		if (!c) {
			pthread_cond_wait(&closer.more, &closer.lock);
			continue;
		}
		closer.head = c->next;
		if (!closer.head)
			closer.tail = &closer.head;
		pthread_mutex_unlock(&closer.lock);
		closing__do(c);
		pthread_mutex_lock(&closer.lock);
	}
	pthread_mutex_unlock(&closer.lock);
	return arg;
}

/* Hand the links over to the closing thread (closed here if it cannot run). */
static void closer__push(struct closing *c)
{
	pthread_mutex_lock(&closer.lock);
	if (!closer.started) {
		closer.tail = &closer.head;
		closer.started = pthread_create(&closer.tid, NULL, closer__run, NULL) == 0;
	}
	if (closer.started) {
		c->next = NULL;
		*closer.tail = c;
		closer.tail = &c->next;
		pthread_cond_signal(&closer.more);
		c = NULL;
	}
	pthread_mutex_unlock(&closer.lock);
	if (c)
		closing__do(c);
}

/* Every link handed over is closed: at the daemon's end. */
void usdt_closer__finish(void)
{
	pthread_mutex_lock(&closer.lock);
	closer.stop = true;
	pthread_cond_signal(&closer.more);
	pthread_mutex_unlock(&closer.lock);
	if (closer.started)
		pthread_join(closer.tid, NULL);
	closer.started = closer.stop = false;
}

void usdt_use__detach(struct ktr_usdt *u, struct usdt_use *use, uid_t owner)
{
	unsigned int *probes = owner ? usdt_uid__charge(u, owner, false) : NULL;
	struct closing *c;

	if (use->multi_fd < 0 && !use->links)
		return; /* none armed */
	c = calloc(1, sizeof(*c));

	if (c) {
		c->fd = use->multi_fd;
		c->links = use->links;
		c->nlinks = use->links ? use->f->nnotes : 0;
		closer__push(c);
	} else {
		if (use->multi_fd >= 0)
			close(use->multi_fd);
		for (int i = 0; use->links && i < use->f->nnotes; i++)
			if (use->links[i] >= 0)
				close(use->links[i]);
		free(use->links);
	}
	use->multi_fd = -1;
	use->links = NULL;
	if (probes)
		*probes -= *probes < use->nprobes ? *probes : use->nprobes;
	use->nprobes = 0;
}
