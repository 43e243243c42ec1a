// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "ktraceb/bpf_shared.h"
#include "ktraceb.skel.h"
#include "ktr_loader.h"
#include "ktr_usdt.h"
#include "ktr_usdt_job.h"

/*
 * What one user may take of what every trace shares: probes attached (the
 * kernel keeps a consumer for each, per process), and looks at files
 * under way.  Root's traces count nothing.
 */
#define UID_PROBES_MAX 16384
#define UID_SLOTS      64
#define UID_LOOKS_MAX  4 /* at once; more wait their turn */
#define LOOKS_MAX      16 /* at once, all users */
#define LOOKS_QUEUED   256

/* A file with probes, as a look found it; kept while a traced process uses it. */
struct usdt_file {
	dev_t dev; /* as /proc/PID/maps and uprobes know it */
	ino_t ino;
	char *path; /* for messages */
	int fd; /* the look's descriptor: what the probes are attached through */
	struct ktr_usdt_note *notes;
	int nnotes;
	__u32 *ids; /* the site id of each note, 0 if none was free */
	unsigned int uses;
	struct usdt_file *next;
};

/* One process's probes in one file. */
struct usdt_use {
	struct usdt_file *f;
	int multi_fd; /* its uprobe_multi link, or -1 */
	struct bpf_link **links; /* else a perf-event uprobe per note */
	unsigned int nprobes; /* attached, charged to the owner */
	unsigned long rodata; /* its read-only mappings when last faulted in (maps__rodata) */
};

struct usdt_proc {
	pid_t pid;
	uid_t owner; /* the trace's: charged for its probes */
	gid_t owner_gid;
	struct usdt_use *uses;
	int nuses;
	unsigned int looks; /* looks it waits for */
	bool held; /* stopped until they end */
	struct usdt_proc *next;
};

/* A look at a file for a process: running (job set) or waiting its turn. */
struct usdt_look {
	struct ktr_usdt_job_spec spec;
	struct ktr_usdt_job *job;
	struct usdt_look *next;
};

struct ktr_usdt {
	struct ktraceb_bpf *skel;
	enum ktr_usdt_mode mode;
	struct ktr_usdt_hooks hooks;
	int sites_fd;
	int quiet_fd;
	int ep; /* the running looks' sockets */
	struct usdt_file *files;
	struct usdt_proc *procs;
	struct usdt_look *looks;
	unsigned int nrunning, nqueued;
	unsigned char used_ids[KTR_MAX_USDT_SITES / 8];
	__u32 next_id;
	struct {
		uid_t uid;
		unsigned int probes;
		unsigned int looks;
	} charges[UID_SLOTS];
};

static void __attribute__((format(printf, 3, 4)))
usdt__warn(struct ktr_usdt *u, pid_t pid, const char *fmt, ...)
{
	char line[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (u->hooks.warn)
		u->hooks.warn(u->hooks.ctx, pid, line);
}

/* What uid holds, where it is counted (NULL: no slot free, nothing may be taken). */
static unsigned int *uid__charge(struct ktr_usdt *u, uid_t uid, bool looks)
{
	int free_slot = -1;

	for (int i = 0; i < UID_SLOTS; i++) {
		if ((u->charges[i].probes || u->charges[i].looks) && u->charges[i].uid == uid)
			return looks ? &u->charges[i].looks : &u->charges[i].probes;
		if (!u->charges[i].probes && !u->charges[i].looks && free_slot < 0)
			free_slot = i;
	}
	if (free_slot < 0)
		return NULL;
	u->charges[free_slot].uid = uid;
	return looks ? &u->charges[free_slot].looks : &u->charges[free_slot].probes;
}

struct ktr_usdt *ktr_usdt__new(struct ktraceb_bpf *skel, enum ktr_usdt_mode mode,
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
	u->skel = skel;
	u->mode = mode;
	u->hooks = *hooks;
	u->sites_fd = bpf_map__fd(skel->maps.usdt_sites);
	u->quiet_fd = bpf_map__fd(skel->maps.usdt_quiet);
	u->used_ids[0] = 1; /* id 0 is "none" */
	u->next_id = 1;
	return u;
}

int ktr_usdt__fd(const struct ktr_usdt *u)
{
	return u->ep;
}

/* --- /proc/PID/maps ------------------------------------------------------ */

/* One line of /proc/PID/maps that maps a file. */
struct map_line {
	unsigned long start, end;
	dev_t dev;
	ino_t ino;
	bool exec, write;
	char path[PATH_MAX];
};

static int maps__read(pid_t pid, struct map_line **out)
{
	char path[64], line[PATH_MAX + 128];
	struct map_line *v = NULL, *tmp;
	int n = 0, cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		struct map_line m;
		unsigned int maj, min;
		unsigned long ino;
		char perms[8];
		int pos = 0;

		if (sscanf(line, "%lx-%lx %7s %*x %x:%x %lu %n", &m.start, &m.end, perms, &maj,
			   &min, &ino, &pos) < 6 ||
		    ino == 0 || line[pos] != '/')
			continue;
		line[strcspn(line, "\n")] = '\0';
		if (strstr(line + pos, " (deleted)"))
			continue; /* its path names no file any more */
		m.dev = makedev(maj, min);
		m.ino = ino;
		m.exec = perms[2] == 'x';
		m.write = perms[1] == 'w';
		snprintf(m.path, sizeof(m.path), "%s", line + pos);
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			tmp = reallocarray(v, cap, sizeof(*v));
			if (!tmp) {
				free(v);
				fclose(f);
				return -ENOMEM;
			}
			v = tmp;
		}
		v[n++] = m;
	}
	fclose(f);
	*out = v;
	return n;
}

/*
 * What the read-only mappings of a file are now, as one number: ld.so
 * maps a library whole, then its segments over that, so the constants a
 * look faulted in at the library's text may be in a new mapping by its
 * data's turn, and need faulting in again.
 */
static unsigned long maps__rodata(const struct map_line *m, int n, dev_t dev, ino_t ino)
{
	unsigned long sum = 0;

	for (int i = 0; i < n; i++)
		if (m[i].dev == dev && m[i].ino == ino && !m[i].write && !m[i].exec)
			sum = sum * 31 + m[i].start + m[i].end;
	return sum;
}

/* --- the files known to have no probes (BPF's usdt_quiet) ------------------ */

/* The key BPF makes of a file: the kernel's dev_t (major << 20 | minor) and inode. */
static struct ktr_file_key quiet__key(dev_t dev, ino_t ino)
{
	struct ktr_file_key key = { 0 };

	key.dev = ((__u64)major(dev) << 20) | minor(dev);
	key.ino = ino;
	return key;
}

static bool quiet__known(struct ktr_usdt *u, dev_t dev, ino_t ino)
{
	struct ktr_file_key key = quiet__key(dev, ino);
	__u8 v;

	return bpf_map_lookup_elem(u->quiet_fd, &key, &v) == 0;
}

static void quiet__add(struct ktr_usdt *u, dev_t dev, ino_t ino)
{
	struct ktr_file_key key = quiet__key(dev, ino);
	__u8 one = 1;

	bpf_map_update_elem(u->quiet_fd, &key, &one, BPF_ANY);
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

static struct usdt_file *file__find(struct ktr_usdt *u, dev_t dev, ino_t ino)
{
	for (struct usdt_file *f = u->files; f; f = f->next)
		if (f->dev == dev && f->ino == ino)
			return f;
	return NULL;
}

/* A file a look found probes in: its notes and descriptor are the file's now. */
static struct usdt_file *file__new(struct ktr_usdt *u, const struct ktr_usdt_job_spec *spec,
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
static void file__drop(struct ktr_usdt *u, struct usdt_file *f)
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

/* Every site of use's file, for pid alone, in one link; 0 or -errno. */
static int use__attach_multi(struct ktr_usdt *u, struct usdt_use *use, const char *path, pid_t pid)
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
		if (!f->ids[i])
			continue;
		offs[n] = f->notes[i].pc_off;
		refs[n] = f->notes[i].sema_off; /* the kernel raises it in pid's memory */
		cookies[n++] = f->ids[i];
	}
	if (n) {
		use->multi_fd = link__uprobe_multi(bpf_program__fd(u->skel->progs.ktr_usdt_record),
						   path, offs, refs, cookies, n, pid);
		if (use->multi_fd < 0)
			err = -errno;
	}
	use->nprobes = err ? 0 : n;
	free(offs);
	return err;
}

/* One perf-event uprobe per site, each for pid (kernels before uprobe_multi). */
static int use__attach_each(struct ktr_usdt *u, struct usdt_use *use, const char *path, pid_t pid)
{
	const struct usdt_file *f = use->f;
	int err = 0;

	use->links = calloc(f->nnotes, sizeof(*use->links));
	if (!use->links)
		return -ENOMEM;
	for (int i = 0; i < f->nnotes && !err; i++) {
		LIBBPF_OPTS(bpf_uprobe_opts, opts);

		if (!f->ids[i])
			continue;
		opts.bpf_cookie = f->ids[i];
		opts.ref_ctr_offset = f->notes[i].sema_off;
		use->links[i] = bpf_program__attach_uprobe_opts(u->skel->progs.ktr_usdt_record, pid,
								path, f->notes[i].pc_off, &opts);
		if (use->links[i])
			use->nprobes++;
		else
			err = -errno;
	}
	return err;
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
	struct bpf_link **links;
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
		bpf_link__destroy(c->links[i]);
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
static void closer__finish(void)
{
	pthread_mutex_lock(&closer.lock);
	closer.stop = true;
	pthread_cond_signal(&closer.more);
	pthread_mutex_unlock(&closer.lock);
	if (closer.started)
		pthread_join(closer.tid, NULL);
	closer.started = closer.stop = false;
}

static void use__detach(struct ktr_usdt *u, struct usdt_use *use, uid_t owner)
{
	unsigned int *probes = owner ? uid__charge(u, owner, false) : NULL;
	struct closing *c = calloc(1, sizeof(*c));

	if (c) {
		c->fd = use->multi_fd;
		c->links = use->links;
		c->nlinks = use->links ? use->f->nnotes : 0;
		closer__push(c);
	} else {
		if (use->multi_fd >= 0)
			close(use->multi_fd);
		for (int i = 0; use->links && i < use->f->nnotes; i++)
			bpf_link__destroy(use->links[i]);
		free(use->links);
	}
	use->multi_fd = -1;
	use->links = NULL;
	if (probes)
		*probes -= *probes < use->nprobes ? *probes : use->nprobes;
	use->nprobes = 0;
}

/* --- processes ------------------------------------------------------------------ */

static struct usdt_proc **proc__slot(struct ktr_usdt *u, pid_t pid)
{
	struct usdt_proc **pp = &u->procs;

	while (*pp && (*pp)->pid != pid)
		pp = &(*pp)->next;
	return pp;
}

static struct usdt_proc *proc__find(struct ktr_usdt *u, pid_t pid)
{
	return *proc__slot(u, pid);
}

static struct usdt_proc *proc__get(struct ktr_usdt *u, pid_t pid, uid_t owner, gid_t gid)
{
	struct usdt_proc **pp = proc__slot(u, pid);

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

static struct usdt_use *proc__use(const struct usdt_proc *p, const struct usdt_file *f)
{
	for (int i = 0; i < p->nuses; i++)
		if (p->uses[i].f == f)
			return &p->uses[i];
	return NULL;
}

/* p's probes in f, attached; 0 or -errno (said to the daemon). */
static int proc__attach(struct ktr_usdt *u, struct usdt_proc *p, struct usdt_file *f)
{
	unsigned int *probes = p->owner ? uid__charge(u, p->owner, false) : NULL;
	struct usdt_use *uses, *use;
	char path[64];
	int err;

	if (proc__use(p, f))
		return 0;
	if (u->hooks.traced && !u->hooks.traced(u->hooks.ctx, p->pid))
		return -ESRCH;
	if (p->owner && (!probes || *probes + f->nnotes > UID_PROBES_MAX)) {
		usdt__warn(u, p->pid, "USDT: %s: not probed: uid %u has %d probes attached already",
			   f->path, p->owner, UID_PROBES_MAX);
		return -EDQUOT;
	}
	err = ktr_loader__load_usdt(u->skel);
	if (err) {
		usdt__warn(u, p->pid, "-t u: USDT probes are not recorded on this kernel: %s",
			   ktr_loader__missing(KTRFAC_USER) ?: strerror(-err));
		return err;
	}
	uses = reallocarray(p->uses, p->nuses + 1, sizeof(*uses));
	if (!uses)
		return -ENOMEM;
	p->uses = uses;
	use = &p->uses[p->nuses];
	memset(use, 0, sizeof(*use));
	use->f = f;
	use->multi_fd = -1;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", f->fd);
	if (u->mode == KTR_USDT_MULTI)
		err = use__attach_multi(u, use, path, p->pid);
	else
		err = use__attach_each(u, use, path, p->pid);
	if (probes)
		*probes += use->nprobes;
	if (err && err != -ESRCH) /* ESRCH: it is gone already */
		usdt__warn(u, p->pid, "USDT: %s: cannot attach its probes: %s", f->path,
			   strerror(-err));
	if (!use->nprobes) {
		use__detach(u, use, p->owner);
		return err;
	}
	p->nuses++;
	f->uses++;
	return err;
}

/* p's probes all go (an exec, a clear, an exit). */
static void proc__release(struct ktr_usdt *u, struct usdt_proc *p)
{
	for (int i = 0; i < p->nuses; i++) {
		struct usdt_file *f = p->uses[i].f;

		use__detach(u, &p->uses[i], p->owner);
		if (--f->uses == 0)
			file__drop(u, f);
	}
	free(p->uses);
	p->uses = NULL;
	p->nuses = 0;
}

/* A look p waited for is over: a held p goes on after its last. */
static void proc__look_done(struct ktr_usdt *u, pid_t pid)
{
	struct usdt_proc *p = proc__find(u, pid);

	if (!p || !p->looks)
		return;
	if (--p->looks == 0 && p->held) {
		p->held = false;
		if (u->hooks.release)
			u->hooks.release(u->hooks.ctx, pid);
	}
}

/* --- looks ---------------------------------------------------------------------- */

/*
 * Whose credentials a look takes: the trace's owner, and for root's
 * traces the traced process's own user (real ids): root reading a user's
 * files is the user reading them, so nothing of a user's file is ever
 * parsed with root's rights.
 */
static void look__creds(pid_t pid, uid_t owner, gid_t owner_gid, uid_t *uid, gid_t *gid)
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

static bool look__pending(const struct ktr_usdt *u, pid_t pid, dev_t dev, ino_t ino)
{
	for (const struct usdt_look *l = u->looks; l; l = l->next)
		if (l->spec.pid == pid && l->spec.dev == dev && l->spec.ino == ino)
			return true;
	return false;
}

/* Start the looks waiting their turn, as far as the limits let them. */
static void looks__run(struct ktr_usdt *u)
{
	for (struct usdt_look *l = u->looks; l && u->nrunning < LOOKS_MAX; l = l->next) {
		unsigned int *mine;
		struct epoll_event ev = { .events = EPOLLIN };

		if (l->job)
			continue;
		mine = l->spec.uid ? uid__charge(u, l->spec.uid, true) : NULL;
		if (l->spec.uid && (!mine || *mine >= UID_LOOKS_MAX))
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

/* A look at mapping m of p, queued; false if none could be. */
static bool look__queue(struct ktr_usdt *u, const struct usdt_proc *p, const struct map_line *m,
			bool want_notes, unsigned long rodata)
{
	struct usdt_look *l;

	if (u->nqueued >= LOOKS_QUEUED) {
		usdt__warn(u, p->pid, "USDT: %s: not probed: too many files waiting for a look",
			   m->path);
		return false;
	}
	l = calloc(1, sizeof(*l));
	if (!l)
		return false;
	l->spec.pid = p->pid;
	l->spec.start = m->start;
	l->spec.end = m->end;
	l->spec.dev = m->dev;
	l->spec.ino = m->ino;
	snprintf(l->spec.path, sizeof(l->spec.path), "%s", m->path);
	look__creds(p->pid, p->owner, p->owner_gid, &l->spec.uid, &l->spec.gid);
	l->spec.want_notes = want_notes;
	l->spec.rodata = rodata;
	l->next = u->looks;
	u->looks = l;
	u->nqueued++;
	return true;
}

static void look__unlink(struct ktr_usdt *u, struct usdt_look *l)
{
	struct usdt_look **pp = &u->looks;

	while (*pp && *pp != l)
		pp = &(*pp)->next;
	if (*pp)
		*pp = l->next;
	if (l->job) {
		unsigned int *mine = l->spec.uid ? uid__charge(u, l->spec.uid, true) : NULL;

		epoll_ctl(u->ep, EPOLL_CTL_DEL, ktr_usdt_job__fd(l->job), NULL);
		ktr_usdt_job__free(l->job);
		u->nrunning--;
		if (mine && *mine)
			(*mine)--;
	} else {
		u->nqueued--;
	}
}

/* What a look found, put to use. */
static void look__finish(struct ktr_usdt *u, struct usdt_look *l, struct ktr_usdt_job_result *res)
{
	const struct ktr_usdt_job_spec *spec = &l->spec;
	struct usdt_proc *p = proc__find(u, spec->pid);
	struct usdt_file *f = file__find(u, spec->dev, spec->ino);

	if (res->error) {
		usdt__warn(u, spec->pid, "USDT: %s", res->why);
	} else if (!f && spec->want_notes && res->nnotes == 0) {
		/* no probes: never looked at again, mapping it stops nobody */
		quiet__add(u, spec->dev, spec->ino);
		quiet__add(u, res->st_dev, res->st_ino); /* the key BPF makes on a stacked fs */
	} else if (!f && res->nnotes) {
		if (res->seen > res->nnotes)
			usdt__warn(u, spec->pid,
				   "USDT: %s: only the first %d of its %d probes attached",
				   spec->path, res->nnotes, res->seen);
		f = file__new(u, spec, res);
	}
	if (f && p && !proc__use(p, f)) {
		proc__attach(u, p, f);
		if (proc__use(p, f))
			proc__use(p, f)->rodata = spec->rodata;
	} else if (f && !f->uses)
		file__drop(u, f); /* its process went meanwhile */
	if (res->fd >= 0)
		close(res->fd);
	free(res->notes);
}

void ktr_usdt__poll(struct ktr_usdt *u)
{
	long long now;
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	/*
	 * Every running look is asked (u->ep is level-triggered: it stays
	 * readable until each answer is read, and a look whose answer is
	 * read leaves it); those past their time end too.
	 */
	for (struct usdt_look *l = u->looks, *next; l; l = next) {
		struct ktr_usdt_job_result res;
		pid_t pid = l->spec.pid;

		next = l->next;
		if (!l->job || !ktr_usdt_job__poll(l->job, now, &res))
			continue;
		look__unlink(u, l);
		look__finish(u, l, &res);
		free(l);
		proc__look_done(u, pid);
		next = u->looks; /* the list may have changed under us */
	}
	looks__run(u);
	ktr_usdt_job__reap();
}

/* The looks p waits for, ended (its old image's, or it is gone). */
static void proc__cancel_looks(struct ktr_usdt *u, struct usdt_proc *p)
{
	for (struct usdt_look *l = u->looks, *next; l; l = next) {
		next = l->next;
		if (l->spec.pid != p->pid)
			continue;
		look__unlink(u, l);
		free(l);
		if (p->looks)
			p->looks--;
	}
}

/* --- the daemon's calls ------------------------------------------------------------ */

int ktr_usdt__scan(struct ktr_usdt *u, pid_t pid, uid_t uid, gid_t gid, bool exec, bool held)
{
	struct usdt_proc *p;
	struct map_line *m = NULL;
	int n;

	if (u->mode == KTR_USDT_NONE)
		return 0;
	p = proc__get(u, pid, uid, gid);
	if (!p)
		return -ENOMEM;
	/* the old image's probes went with it; what the new one maps is looked at afresh */
	if (exec) {
		proc__release(u, p);
		proc__cancel_looks(u, p);
	}
	n = maps__read(pid, &m);
	if (n < 0 && n != -ENOENT && n != -ESRCH)
		usdt__warn(u, pid, "USDT: pid %d: not probed: cannot read its mappings: %s", pid,
			   strerror(-n));
	for (int i = 0; i < n; i++) {
		struct usdt_file *f = file__find(u, m[i].dev, m[i].ino);
		unsigned long rodata = maps__rodata(m, n, m[i].dev, m[i].ino);
		struct usdt_use *use = f ? proc__use(p, f) : NULL;

		if (!m[i].exec || look__pending(u, pid, m[i].dev, m[i].ino))
			continue;
		if (!f && quiet__known(u, m[i].dev, m[i].ino))
			continue;
		/* the stopped command: its constants faulted in again where they moved */
		if (use && (!held || use->rodata == rodata))
			continue;
		/* a file known already is attached now; its look faults its strings in */
		if (f && !use)
			proc__attach(u, p, f);
		use = f ? proc__use(p, f) : NULL;
		if (use)
			use->rodata = rodata;
		if (look__queue(u, p, &m[i], !f, rodata))
			p->looks++;
	}
	free(m);
	looks__run(u);
	if (held && p->looks)
		p->held = true;
	return n < 0 ? n : (int)p->looks;
}

void ktr_usdt__fork(struct ktr_usdt *u, pid_t pid, pid_t child, bool child_traced)
{
	struct usdt_proc *p = proc__find(u, pid), *c;

	/*
	 * An untraced child's copy of the parent's memory has the breakpoints
	 * and raised semaphores: the kernel takes each breakpoint out at its
	 * first hit there (no consumer wants it), lowering its semaphore.
	 */
	if (!p || !p->nuses || !child_traced)
		return;
	c = proc__get(u, child, p->owner, p->owner_gid);
	for (int i = 0; c && i < p->nuses; i++)
		proc__attach(u, c, p->uses[i].f);
}

void ktr_usdt__forget(struct ktr_usdt *u, pid_t pid)
{
	struct usdt_proc **pp = proc__slot(u, pid), *p = *pp;

	if (!p)
		return;
	proc__release(u, p);
	proc__cancel_looks(u, p);
	if (p->held && u->hooks.release)
		u->hooks.release(u->hooks.ctx, pid); /* nothing may stay stopped */
	*pp = p->next;
	free(p);
	looks__run(u);
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
	while (u->looks) {
		struct usdt_look *l = u->looks;

		look__unlink(u, l);
		free(l);
	}
	closer__finish(); /* before the files' descriptors go: the links are on them */
	while (u->files)
		file__drop(u, u->files);
	ktr_usdt_job__reap();
	close(u->ep);
	free(u);
}
