// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "ktraceb/bpf_shared.h"
#include "ktraceb.skel.h"
#include "ktr_creds.h"
#include "ktr_loader.h"
#include "ktr_usdt.h"
#include "ktr_usdt_elf.h"

/*
 * A hostile ELF file may carry any number of notes, and a user may map many
 * files: the site ids (KTR_MAX_USDT_SITES) are shared by all traces, so a
 * file counts at most FILE_SITES_MAX of its notes, and the files a uid
 * other than root brought in at most UID_SITES_MAX sites together.
 */
#define FILE_SITES_MAX 1024
#define UID_SITES_MAX  8192
#define UID_SLOTS      64

/* A file with probes (or known to have none), attached while a process uses it. */
struct usdt_file {
	dev_t dev;
	ino_t ino;
	struct ktr_file_key key; /* the kernel's names, for usdt_quiet */
	int fd;
	struct ktr_usdt_note *notes;
	int nnotes;
	__u32 *ids; /* the site id of each note, 0 if not attached */
	int multi_fd; /* the uprobe_multi link of all of them, or -1 */
	struct bpf_link **links; /* else one perf-event uprobe each */
	unsigned int refs; /* processes using it */
	bool guarded; /* some probe has a semaphore */
	uid_t charged; /* whose UID_SITES_MAX its attached sites count against */
	unsigned int nattached;
	struct usdt_file *next;
};

/* One process's use of one file: the semaphores raised in its memory. */
struct usdt_use {
	struct usdt_file *f;
	unsigned long *sema; /* run-time addresses raised, 0-terminated */
	unsigned long faulted[8][2]; /* read-only mappings faulted in: start, end */
	size_t bytes_faulted;
};

struct usdt_proc {
	pid_t pid;
	struct usdt_use *uses;
	int nuses;
	struct usdt_proc *next;
};

struct ktr_usdt {
	struct ktraceb_bpf *skel;
	enum ktr_usdt_mode mode;
	int sites_fd;
	int quiet_fd;
	struct usdt_file *files;
	struct usdt_proc *procs;
	unsigned char used_ids[KTR_MAX_USDT_SITES / 8];
	__u32 next_id;
	struct {
		uid_t uid;
		unsigned int sites;
	} charges[UID_SLOTS]; /* sites attached per uid other than root */
};

/* The sites uid has attached, where they are counted (NULL: none may be counted). */
static unsigned int *uid__sites(struct ktr_usdt *u, uid_t uid)
{
	int free_slot = -1;

	for (int i = 0; i < UID_SLOTS; i++) {
		if (u->charges[i].sites && u->charges[i].uid == uid)
			return &u->charges[i].sites;
		if (!u->charges[i].sites && free_slot < 0)
			free_slot = i;
	}
	if (free_slot < 0)
		return NULL;
	u->charges[free_slot].uid = uid;
	return &u->charges[free_slot].sites;
}

/* One line of /proc/PID/maps that maps a file. */
struct map_line {
	unsigned long start, end, pgoff;
	dev_t dev;
	ino_t ino;
	bool exec, write;
	char path[PATH_MAX];
};

struct ktr_usdt *ktr_usdt__new(struct ktraceb_bpf *skel, enum ktr_usdt_mode mode)
{
	struct ktr_usdt *u = calloc(1, sizeof(*u));

	if (!u)
		return NULL;
	u->skel = skel;
	u->mode = mode;
	u->sites_fd = bpf_map__fd(skel->maps.usdt_sites);
	u->quiet_fd = bpf_map__fd(skel->maps.usdt_quiet);
	u->used_ids[0] = 1; /* id 0 is "none" */
	u->next_id = 1;
	return u;
}

/* --- /proc/PID/maps ------------------------------------------------------ */

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

		if (sscanf(line, "%lx-%lx %7s %lx %x:%x %lu %n", &m.start, &m.end, perms, &m.pgoff,
			   &maj, &min, &ino, &pos) < 7 ||
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
			cap = cap ? 2 * cap : 32;
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
 * Where file offset off of file (dev, ino) is in the process's writable
 * data, 0 if not mapped there yet: ld.so maps a library whole, read-only,
 * before it maps its data over it, and a write into the first mapping
 * would be lost.
 */
static unsigned long maps__addr(const struct map_line *m, int n, dev_t dev, ino_t ino, __u64 off)
{
	for (int i = 0; i < n; i++)
		if (m[i].dev == dev && m[i].ino == ino && m[i].write && off >= m[i].pgoff &&
		    off < m[i].pgoff + (m[i].end - m[i].start))
			return m[i].start + (off - m[i].pgoff);
	return 0;
}

/* --- semaphores in a process's memory ------------------------------------ */

/* Add delta to the 16-bit semaphore at addr of pid; 0 or -errno. */
static int sema__adjust(int memfd, unsigned long addr, int delta)
{
	unsigned short v;

	if (pread(memfd, &v, sizeof(v), addr) != sizeof(v))
		return -errno;
	if (delta < 0 && v == 0)
		return 0;
	v += delta;
	return pwrite(memfd, &v, sizeof(v), addr) == sizeof(v) ? 0 : -errno;
}

static int mem__open(pid_t pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	return open(path, O_RDWR | O_CLOEXEC);
}

/*
 * Lower the semaphores use raised in pid, where they still are: only
 * addresses that /proc/pid/maps still shows as that file's (an exec the
 * daemon has not heard of yet must not get a write into its new image).
 */
static void use__disarm(pid_t pid, const struct usdt_use *use)
{
	struct map_line *m = NULL;
	int n = maps__read(pid, &m), memfd;

	if (n <= 0 || !use->sema || !use->sema[0] || (memfd = mem__open(pid)) < 0) {
		free(m);
		return;
	}
	for (unsigned long *a = use->sema; *a; a++)
		for (int i = 0; i < n; i++)
			if (m[i].dev == use->f->dev && m[i].ino == use->f->ino &&
			    *a >= m[i].start && *a + 2 <= m[i].end) {
				sema__adjust(memfd, *a, -1);
				break;
			}
	close(memfd);
	free(m);
}

/*
 * The probes' BPF program cannot fault pages in, and a string argument in
 * a library's read-only data nobody read yet would show as a bare
 * pointer.  Reading a file's read-only mappings through /proc/PID/mem
 * faults them into the process (up to PREFAULT_MAX bytes a file).
 */
#define PREFAULT_MAX (16u << 20)

/*
 * The read-only mappings of use's file not faulted in yet: ld.so maps a
 * library whole, then its segments over it, so a mapping seen at one note
 * may be a new one at the next.
 */
static void use__prefault(struct usdt_use *use, int memfd, const struct map_line *m, int n)
{
	static char buf[1 << 16];
	const size_t nslots = sizeof(use->faulted) / sizeof(use->faulted[0]);

	for (int i = 0; i < n && use->bytes_faulted < PREFAULT_MAX; i++) {
		size_t k;

		if (m[i].dev != use->f->dev || m[i].ino != use->f->ino || m[i].write)
			continue;
		/* a mapping replaced by another at the same place ends elsewhere */
		for (k = 0; k < nslots && use->faulted[k][0] &&
			    (use->faulted[k][0] != m[i].start || use->faulted[k][1] != m[i].end);
		     k++)
			;
		if (k < nslots && use->faulted[k][0] == m[i].start &&
		    use->faulted[k][1] == m[i].end)
			continue;
		if (k == nslots) /* full: start over, a few mappings may be read twice */
			memset(use->faulted, 0, sizeof(use->faulted));
		k %= nslots;
		use->faulted[k][0] = m[i].start;
		use->faulted[k][1] = m[i].end;
		for (unsigned long a = m[i].start;
		     a < m[i].end && use->bytes_faulted < PREFAULT_MAX; a += sizeof(buf)) {
			size_t len = m[i].end - a < sizeof(buf) ? m[i].end - a : sizeof(buf);

			if (pread(memfd, buf, len, a) <= 0)
				break;
			use->bytes_faulted += len;
		}
	}
}

/* --- files and their probes ---------------------------------------------- */

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

/* Describe note i of f to BPF under a new site id; 0 or -errno. */
static int site__add(struct ktr_usdt *u, struct usdt_file *f, int i)
{
	struct ktr_usdt_site site = { 0 };

	f->ids[i] = id__alloc(u);
	if (!f->ids[i])
		return -ENOSPC;
	site.kind = site__kind(&f->notes[i]);
	site.nargs = f->notes[i].nargs;
	memcpy(site.args, f->notes[i].args, sizeof(site.args));
	memcpy(site.provider, f->notes[i].provider, sizeof(site.provider));
	memcpy(site.name, f->notes[i].name, sizeof(site.name));
	if (bpf_map_update_elem(u->sites_fd, &f->ids[i], &site, BPF_ANY) < 0) {
		int err = -errno;

		id__free(u, f->ids[i]);
		f->ids[i] = 0;
		return err;
	}
	return 0;
}

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
			      const __u64 *cookies, __u32 cnt)
{
	union bpf_attr attr;
	struct uprobe_multi_attr *a = (void *)&attr.link_create;

	_Static_assert(sizeof(*a) <= sizeof(attr.link_create) + 16, "fits bpf_attr");
	memset(&attr, 0, sizeof(attr));
	a->prog_fd = prog_fd;
	a->attach_type = 48; /* BPF_TRACE_UPROBE_MULTI */
	a->path = (__u64)(unsigned long)path;
	a->offsets = (__u64)(unsigned long)offsets;
	a->cookies = (__u64)(unsigned long)cookies;
	a->cnt = cnt;
	return syscall(__NR_bpf, BPF_LINK_CREATE, &attr, sizeof(attr));
}

/* Every site of f, one link for all processes; 0 or -errno. */
static int file__attach_multi(struct ktr_usdt *u, struct usdt_file *f, const char *path)
{
	__u64 *offs = calloc(f->nnotes, sizeof(*offs)), *cookies = calloc(f->nnotes, 8);
	__u32 n = 0;
	int err = 0;

	for (int i = 0; offs && cookies && i < f->nnotes; i++) {
		if (site__add(u, f, i) < 0)
			continue;
		offs[n] = f->notes[i].pc_off;
		cookies[n++] = f->ids[i];
	}
	if (!offs || !cookies)
		err = -ENOMEM;
	else if (n)
		f->multi_fd = link__uprobe_multi(bpf_program__fd(u->skel->progs.ktr_usdt_record),
						 path, offs, cookies, n);
	if (!err && n && f->multi_fd < 0)
		err = -errno;
	free(offs);
	free(cookies);
	return err;
}

/* One uprobe per site, each a perf event (kernels before uprobe_multi). */
static int file__attach_each(struct ktr_usdt *u, struct usdt_file *f, const char *path)
{
	int err = 0;

	for (int i = 0; i < f->nnotes; i++) {
		LIBBPF_OPTS(bpf_uprobe_opts, opts);

		if (f->links[i] || site__add(u, f, i) < 0)
			continue;
		opts.bpf_cookie = f->ids[i];
		f->links[i] = bpf_program__attach_uprobe_opts(u->skel->progs.ktr_usdt_record, -1,
							      path, f->notes[i].pc_off, &opts);
		if (!f->links[i]) {
			err = -errno;
			id__free(u, f->ids[i]);
			f->ids[i] = 0;
		}
	}
	return err;
}

static bool file__attached(const struct usdt_file *f)
{
	if (f->multi_fd >= 0)
		return true;
	for (int i = 0; i < f->nnotes; i++)
		if (!f->links[i])
			return false;
	return f->nnotes > 0;
}

/* Every probe site of f, for every process, counted against uid; 0 or -errno. */
static int file__attach(struct ktr_usdt *u, struct usdt_file *f, uid_t uid)
{
	unsigned int *sites = uid == 0 ? NULL : uid__sites(u, uid);
	char path[64];
	int err;

	if (file__attached(f) || u->mode == KTR_USDT_NONE)
		return 0;
	if (uid != 0 && (!sites || *sites + f->nnotes > UID_SITES_MAX))
		return -EDQUOT; /* this user's files hold their share of the sites */
	err = ktr_loader__load_usdt(u->skel);
	if (err)
		return err;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", f->fd);
	if (u->mode == KTR_USDT_MULTI)
		err = file__attach_multi(u, f, path);
	else
		err = file__attach_each(u, f, path);
	f->charged = uid;
	f->nattached = f->nnotes;
	if (sites)
		*sites += f->nattached;
	return err;
}

static void file__detach(struct ktr_usdt *u, struct usdt_file *f)
{
	unsigned int *sites = f->charged == 0 ? NULL : uid__sites(u, f->charged);

	if (sites && f->nattached)
		*sites -= *sites < f->nattached ? *sites : f->nattached;
	f->nattached = 0;
	if (f->multi_fd >= 0)
		close(f->multi_fd);
	f->multi_fd = -1;
	for (int i = 0; i < f->nnotes; i++) {
		bpf_link__destroy(f->links[i]);
		f->links[i] = NULL;
		id__free(u, f->ids[i]);
		f->ids[i] = 0;
	}
	/* mapping it again needs a look: it is attached no more */
	if (f->nnotes)
		bpf_map_delete_elem(u->quiet_fd, &f->key);
}

/*
 * Opening the file as its trace's owner is the readability check: a user
 * does not learn about (or probe) a binary they cannot read.
 */
static int file__open_as(pid_t pid, const struct map_line *m, uid_t uid, gid_t gid)
{
	struct ktr_saved_creds saved;
	char path[PATH_MAX + 32];
	struct stat st;
	int fd = -1;

	snprintf(path, sizeof(path), "/proc/%d/root%s", pid, m->path);
	/* root reads anything (and may look into a process holding capabilities) */
	if (uid == 0 || ktr_creds__as_owner(uid, gid, &saved) == 0)
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (uid != 0)
		ktr_creds__restore(&saved);
	if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_dev != m->dev ||
			st.st_ino != m->ino)) {
		close(fd); /* the path names another file than the mapping now */
		fd = -1;
	}
	return fd;
}

static struct usdt_file *file__find(struct ktr_usdt *u, dev_t dev, ino_t ino)
{
	for (struct usdt_file *f = u->files; f; f = f->next)
		if (f->dev == dev && f->ino == ino)
			return f;
	return NULL;
}

/* The file of mapping m, read as uid/gid: NULL if they cannot, or it is not ELF. */
static struct usdt_file *file__get(struct ktr_usdt *u, pid_t pid, const struct map_line *m,
				   uid_t uid, gid_t gid)
{
	struct usdt_file *f = file__find(u, m->dev, m->ino);
	int fd = file__open_as(pid, m, uid, gid);

	if (fd < 0)
		return NULL;
	if (f) {
		close(fd);
		return f;
	}
	f = calloc(1, sizeof(*f));
	if (!f) {
		close(fd);
		return NULL;
	}
	f->fd = fd;
	f->multi_fd = -1;
	f->dev = m->dev;
	f->ino = m->ino;
	f->key.dev = ((__u64)major(m->dev) << 20) | minor(m->dev);
	f->key.ino = m->ino;
	f->nnotes = ktr_usdt_elf__notes(fd, &f->notes);
	if (f->nnotes < 0)
		f->nnotes = 0;
	if (f->nnotes > FILE_SITES_MAX)
		f->nnotes = FILE_SITES_MAX;
	f->ids = calloc(f->nnotes + 1, sizeof(*f->ids));
	f->links = calloc(f->nnotes + 1, sizeof(*f->links));
	if (!f->ids || !f->links) {
		free(f->ids);
		free(f->links);
		free(f->notes);
		close(fd);
		free(f);
		return NULL;
	}
	for (int i = 0; i < f->nnotes; i++)
		f->guarded |= f->notes[i].sema_off != 0;
	if (!f->nnotes) {
		/* remembered so it is not read again; nothing to attach it by */
		close(fd);
		f->fd = -1;
	}
	f->next = u->files;
	u->files = f;
	return f;
}

/* A file needs no stop when mapped: nothing to arm, every probe attached. */
static void file__mark_quiet(struct ktr_usdt *u, struct usdt_file *f)
{
	__u8 one = 1;

	if (f->guarded || (f->nnotes && !file__attached(f)))
		return;
	bpf_map_update_elem(u->quiet_fd, &f->key, &one, BPF_ANY);
}

static void file__unref(struct ktr_usdt *u, struct usdt_file *f)
{
	if (f->refs && --f->refs == 0)
		file__detach(u, f);
}

/* --- processes ------------------------------------------------------------ */

static struct usdt_proc **proc__slot(struct ktr_usdt *u, pid_t pid)
{
	struct usdt_proc **pp = &u->procs;

	while (*pp && (*pp)->pid != pid)
		pp = &(*pp)->next;
	return pp;
}

static struct usdt_proc *proc__get(struct ktr_usdt *u, pid_t pid)
{
	struct usdt_proc **pp = proc__slot(u, pid);

	if (!*pp) {
		*pp = calloc(1, sizeof(**pp));
		if (*pp)
			(*pp)->pid = pid;
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

/* Drop p's uses; disarm: lower its semaphores first (not after an exec). */
static void proc__release(struct ktr_usdt *u, struct usdt_proc *p, bool disarm)
{
	for (int i = 0; i < p->nuses; i++) {
		if (disarm)
			use__disarm(p->pid, &p->uses[i]);
		free(p->uses[i].sema);
		file__unref(u, p->uses[i].f);
	}
	free(p->uses);
	p->uses = NULL;
	p->nuses = 0;
}

/*
 * Raise, in the process open as memfd, the semaphores of use's file not
 * raised yet whose data is mapped now (a library's data comes after its
 * text).  use->sema (room for one per note, 0-terminated) lists them.
 */
static void use__arm(struct usdt_use *use, int memfd, const struct map_line *m, int n)
{
	const struct usdt_file *f = use->f;
	int k = 0;

	while (use->sema[k])
		k++;
	for (int i = 0; i < f->nnotes && memfd >= 0; i++) {
		unsigned long a;
		bool seen = false;

		if (!f->notes[i].sema_off || !f->ids[i])
			continue;
		a = maps__addr(m, n, f->dev, f->ino, f->notes[i].sema_off);
		for (int j = 0; j < k; j++)
			seen |= use->sema[j] == a;
		if (a && !seen && k < f->nnotes && sema__adjust(memfd, a, +1) == 0)
			use->sema[k++] = a;
	}
}

static struct usdt_use *proc__add_use(struct usdt_proc *p, struct usdt_file *f,
				      const unsigned long *sema)
{
	struct usdt_use *nu = reallocarray(p->uses, p->nuses + 1, sizeof(*nu));
	unsigned long *s = calloc(f->nnotes + 1, sizeof(*s));
	int k = 0;

	if (!nu || !s) {
		free(s);
		if (nu)
			p->uses = nu;
		return NULL;
	}
	while (sema && sema[k] && k < f->nnotes) {
		s[k] = sema[k];
		k++;
	}
	p->uses = nu;
	memset(&p->uses[p->nuses], 0, sizeof(p->uses[0]));
	p->uses[p->nuses].f = f;
	p->uses[p->nuses].sema = s;
	f->refs++;
	return &p->uses[p->nuses++];
}

int ktr_usdt__scan(struct ktr_usdt *u, pid_t pid, uid_t uid, gid_t gid, bool exec)
{
	struct usdt_proc *p = proc__get(u, pid), old = { 0 };
	struct map_line *m = NULL;
	int n, memfd = -1, armed = 0;

	if (!p)
		return -ENOMEM;
	if (exec) {
		/*
		 * The old image and its semaphores are gone; its files are let
		 * go after the new image took its own (no detach and attach
		 * again of the libraries both map).
		 */
		old = *p;
		p->uses = NULL;
		p->nuses = 0;
	}
	n = maps__read(pid, &m);
	for (int i = 0; i < n; i++) {
		struct usdt_file *f;

		if (!m[i].exec)
			continue;
		struct usdt_use *use;

		if (!m[i].exec)
			continue;
		f = file__find(u, m[i].dev, m[i].ino);
		if (f && !f->nnotes)
			file__mark_quiet(u, f); /* again: the LRU may have let it go */
		if (f && !f->nnotes)
			continue;
		use = f ? proc__use(p, f) : NULL;
		if (!use) {
			f = file__get(u, pid, &m[i], uid, gid);
			if (!f || !f->nnotes) {
				if (f)
					file__mark_quiet(u, f);
				continue;
			}
			file__attach(u, f, uid);
			use = proc__add_use(p, f, NULL);
			if (!use)
				continue;
			armed += f->nnotes;
		}
		if (memfd < 0)
			memfd = mem__open(pid);
		if (memfd >= 0)
			use__prefault(use, memfd, m, n);
		use__arm(use, memfd, m, n);
		file__mark_quiet(u, f);
	}
	if (memfd >= 0)
		close(memfd);
	free(m);
	proc__release(u, &old, false);
	return n < 0 ? n : armed;
}

void ktr_usdt__fork(struct ktr_usdt *u, pid_t pid, pid_t child, bool child_traced)
{
	struct usdt_proc *p = *proc__slot(u, pid), *c;

	if (!p || !p->nuses)
		return;
	if (!child_traced) {
		/* its copy of the parent's memory has them raised: an untraced child pays nothing */
		for (int i = 0; i < p->nuses; i++)
			use__disarm(child, &p->uses[i]);
		return;
	}
	c = proc__get(u, child);
	for (int i = 0; c && i < p->nuses; i++)
		proc__add_use(c, p->uses[i].f, p->uses[i].sema);
}

void ktr_usdt__forget(struct ktr_usdt *u, pid_t pid)
{
	struct usdt_proc **pp = proc__slot(u, pid), *p = *pp;

	if (!p)
		return;
	proc__release(u, p, kill(pid, 0) == 0);
	*pp = p->next;
	free(p);
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
	while (u->files) {
		struct usdt_file *f = u->files;

		u->files = f->next;
		file__detach(u, f);
		free(f->notes);
		free(f->ids);
		free(f->links);
		if (f->fd >= 0)
			close(f->fd);
		free(f);
	}
	free(u);
}
