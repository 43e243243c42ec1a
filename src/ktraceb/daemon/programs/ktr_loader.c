// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "ktraceb/ktr.h"
#include "ktr_bpf.h"
#include "ktr_holders.h"
#include "ktr_kernel_caps.h"
#include "ktr_link.h"
#include "ktr_loader.h"
#include "ktr_pin.h"
#include "ktr_progcache.h"
#include "ktr_progs.h"
#include "ktr_refusal.h"
#include "ktr_rodata.h"
#include "ktr_skel.h"

static enum ktr_usdt_mode loader_usdt_mode;
static char loader_usdt_why[160];
static char loader_bad_row[160]; /* a facility's row names a program bpf/ lacks */

static const char *loader__why(int err)
{
	static char why[320];
	struct rlimit rl;

	/* the verifier refuses with EACCES too: only EPERM is about privilege */
	if (err == -EPERM && geteuid() != 0 && ktr_caps__bpf() &&
	    (ktr_caps__lacks() & KTR_LACKS_MEMCG) && getrlimit(RLIMIT_MEMLOCK, &rl) == 0 &&
	    rl.rlim_cur != RLIM_INFINITY) {
		snprintf(why, sizeof(why),
			 "the kernel counts BPF memory against the locked-memory limit "
			 "(Linux %s moved it to the memory cgroup), and %llu KiB (ulimit -l) "
			 "is too little: raise it for this user, or trace as root",
			 ktr_caps__since(KTR_LACKS_MEMCG), (unsigned long long)rl.rlim_cur / 1024);
		return why;
	}
	if (loader_bad_row[0])
		return loader_bad_row;
	if (err == -EPERM || (err == -EACCES && geteuid() != 0 && !ktr_caps__bpf()))
		return "loading BPF programs needs root, or CAP_BPF and CAP_PERFMON";
	if (access("/sys/kernel/btf/vmlinux", R_OK) < 0)
		return "kernel has no BTF (/sys/kernel/btf/vmlinux; needs CONFIG_DEBUG_INFO_BTF)";
	if (ktr_refusal__say(why, sizeof(why)))
		return why;
	snprintf(why, sizeof(why),
		 "cannot load the BPF programs: %s (ktraceb -v shows libbpf's log)",
		 strerror(-err));
	return why;
}

enum ktr_usdt_mode ktr_loader__usdt_mode(void)
{
	return loader_usdt_mode;
}

/*
 * The kernel verifies each program apart, and verification is most of a
 * cold start: the maps' object (every program left out) creates and fills
 * the maps, then two more instances of the same object, sharing its maps,
 * load their halves of the programs at once on two CPUs.  The USDT program,
 * the costliest after sys_exit, is loaded by a fourth only when a trace
 * first needs it (ktr_loader__load_usdt).  The daemon keeps the maps'
 * skeleton and each program's descriptor (ktr_bpf.h); the other instances
 * go once loaded.
 */
enum loader_part {
	PART_MAPS,
	PART_EXIT, /* loaded by the calling thread */
	PART_ENTER, /* loaded by a second thread */
	PART_USDT,
	PART_GROUPS, /* ktraceb -G's, loaded at its first use (ktr_loader__load_groups) */
	PART_N,
};

/*
 * Why the program of each facility a trace can do without (its row's
 * lacks, trstr.h) was refused, by row, "" while it was not:
 * ktr_loader__missing says it.
 */
static char optional_missing[KTR_TRPOINTS_MAX][KTR_PROGCACHE_WHY];

/* prog's facility's row in ktr_trpoints, or -1: no trace can do without it. */
static int optional__index(const char *prog)
{
	const struct ktr_trpoint *fac = ktr_prog_role(prog).fac;

	return fac ? (int)(fac - ktr_trpoints) : -1;
}

/* Left out of every load: the kernel refused it once already. */
static bool prog__missing(const char *name)
{
	int i = optional__index(name);

	return i >= 0 && optional_missing[i][0];
}

/* The last refusal, if of an optional program, makes it missing: true then. */
static bool optional__refused(void)
{
	char why[KTR_PROGCACHE_WHY], prog[64];
	int i;

	if (!ktr_refusal__prog(prog, sizeof(prog)))
		return false;
	i = optional__index(prog);
	if (i < 0 || optional_missing[i][0] || !ktr_refusal__say(why, sizeof(why)))
		return false;
	snprintf(optional_missing[i], sizeof(optional_missing[i]), "%s", why);
	return true;
}

const char *ktr_loader__missing(__u32 fac)
{
	for (unsigned int i = 0; i < ktr_ntrpoints; i++) {
		const struct ktr_trpoint *t = ktr_prog_optional(i);

		if (!t || !(fac & t->facs))
			continue;
		if (optional_missing[i][0])
			return optional_missing[i];
		/* the program loaded for uprobes, which this kernel cannot attach */
		if (t->load == KTR_LOAD_USDT && loader_usdt_mode == KTR_USDT_NONE)
			return loader_usdt_why;
	}
	return NULL;
}

const char *ktr_loader__prog_missing(const char *prog)
{
	const struct ktr_trpoint *fac = ktr_prog_role(prog).fac;

	return fac ? ktr_loader__missing(fac->facs) : NULL;
}

static enum loader_part prog__part(const char *name)
{
	static const enum loader_part part[] = {
		[KTR_LOAD_EXIT] = PART_EXIT,
		[KTR_LOAD_ENTER] = PART_ENTER,
		[KTR_LOAD_USDT] = PART_USDT,
		[KTR_LOAD_GROUPS] = PART_GROUPS,
	};

	return part[ktr_prog_role(name).load];
}

/* Attached on the tracepoint it was loaded for (tp_btf), by a link of its own here? */
static bool prog__tp_btf(const struct ktr_bpf *b, size_t i)
{
	return bpf_program__type(*b->skel->skeleton->progs[i].prog) == BPF_PROG_TYPE_TRACING;
}

/* Attached with the others by ktr_loader__attach()? (its row says why not, ktr_progs.h) */
static bool prog__autoattach(const char *name)
{
	return ktr_prog_role(name).attach == KTR_ATTACH_ALWAYS;
}

/* Another instance of the object, on b's maps, loading only part's programs. */
static struct ktraceb_bpf *part__open(const struct ktr_bpf *b, enum loader_part part)
{
	const struct bpf_object_skeleton *s = b->skel->skeleton;
	struct ktraceb_bpf *p = ktr_skel__open();
	struct bpf_program *prog;
	int err = 0;

	if (!p)
		return NULL;
	/* the same object: its maps in the same order */
	for (int i = 0; i < s->map_cnt && !err; i++)
		err = bpf_map__reuse_fd(*p->skeleton->maps[i].map, bpf_map__fd(*s->maps[i].map));
	bpf_object__for_each_program(prog, p->obj) {
		const char *name = bpf_program__name(prog);

		bpf_program__set_autoload(prog, prog__part(name) == part && !prog__missing(name));
	}
	if (!err && part == PART_USDT && loader_usdt_mode == KTR_USDT_MULTI)
		err = bpf_program__set_expected_attach_type(p->progs.ktr_usdt_record,
							    ATTACH_UPROBE_MULTI);
	if (err) {
		ktraceb_bpf__destroy(p);
		errno = -err;
		return NULL;
	}
	return p;
}

/* The descriptors of the programs p loaded, b's from now on; 0 or -errno. */
static int part__take(struct ktr_bpf *b, const struct ktraceb_bpf *p)
{
	const struct bpf_object_skeleton *ps = p->skeleton;

	for (int i = 0; i < ps->prog_cnt; i++) {
		if (!bpf_program__autoload(*ps->progs[i].prog))
			continue;
		b->prog_fd[i] = fcntl(bpf_program__fd(*ps->progs[i].prog), F_DUPFD_CLOEXEC, 3);
		if (b->prog_fd[i] < 0)
			return -errno;
	}
	return 0;
}

struct part_load {
	struct ktraceb_bpf *p;
	int err;
};

static void *part__load_thread(void *arg)
{
	struct part_load *pl = arg;

	pl->err = ktraceb_bpf__load(pl->p);
	return NULL;
}

/* The programs of PART_EXIT and PART_ENTER, loaded side by side into b; 0 or -errno. */
static int loader__load_halves(struct ktr_bpf *b)
{
	struct part_load exit = { 0 }, enter = { 0 };
	pthread_t tid;
	bool threaded;
	int err = 0;

	exit.p = part__open(b, PART_EXIT);
	enter.p = exit.p ? part__open(b, PART_ENTER) : NULL;
	if (!enter.p) {
		err = errno ? -errno : -ENOMEM;
		ktraceb_bpf__destroy(exit.p);
		return err;
	}
	threaded = pthread_create(&tid, NULL, part__load_thread, &enter) == 0;
	if (!threaded)
		part__load_thread(&enter);
	part__load_thread(&exit);
	if (threaded)
		pthread_join(tid, NULL);
	err = exit.err ? exit.err : enter.err;
	if (!err)
		err = part__take(b, exit.p);
	if (!err)
		err = part__take(b, enter.p);
	/* the programs live on in b's descriptors: libbpf's copies of the object go */
	ktraceb_bpf__destroy(exit.p);
	ktraceb_bpf__destroy(enter.p);
	return err;
}

static void loader__close_progs(struct ktr_bpf *b)
{
	for (size_t i = 0; i < KTR_NPROGS; i++) {
		if (b->prog_fd[i] >= 0)
			close(b->prog_fd[i]);
		b->prog_fd[i] = -1;
	}
}

/* Both halves, again without each optional program the kernel refused. */
static int loader__load_parts(struct ktr_bpf *b)
{
	int err;

	for (size_t tries = 0;; tries++) {
		ktr_refusal__clear();
		err = loader__load_halves(b);
		if (!err || tries == ktr_ntrpoints || !optional__refused())
			return err;
		loader__close_progs(b);
	}
}

int ktr_loader__load_usdt(struct ktr_bpf *b)
{
	const size_t usdt = KTR_PROG(ktr_usdt_record);
	struct ktraceb_bpf *p;
	int err;

	if (b->prog_fd[usdt] >= 0)
		return 0;
	if (ktr_loader__prog_missing("ktr_usdt_record"))
		return -ENOTSUP;
	p = part__open(b, PART_USDT);
	if (!p)
		return errno ? -errno : -ENOMEM;
	ktr_refusal__clear();
	err = ktraceb_bpf__load(p);
	if (err) {
		/* said once, and never tried again */
		int o = optional__index(ktr_bpf__prog_name(b, usdt));

		/* the verifier's refusal holds for the next daemons too, another error not */
		if (optional__refused())
			ktr_progcache__add(b, usdt, optional_missing[o]);
		else
			snprintf(optional_missing[o], sizeof(optional_missing[0]),
				 "cannot load the USDT program: %s", strerror(-err));
	} else {
		err = part__take(b, p);
		if (!err)
			ktr_progcache__add(b, usdt, NULL);
	}
	ktraceb_bpf__destroy(p);
	return err;
}

/* The .bss map, mapped: what the daemon and the programs share (ktr_procmap.c). */
static int loader__map_bss(struct ktr_bpf *b)
{
	long page = sysconf(_SC_PAGESIZE);
	void *mem;

	b->bss_bytes = (bpf_map__value_size(b->skel->maps.bss) + page - 1) / page * page;
	mem = mmap(NULL, b->bss_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, ktr_bpf__map_fd(b, bss),
		   0);
	if (mem == MAP_FAILED)
		return -errno;
	b->bss = mem;
	return 0;
}

/* The holders filled (ktr_holders__fill), and what goes with the ring into .bss; 0 or -errno. */
static int loader__filled(struct ktr_bpf *b, size_t ring_bytes)
{
	int err;

	ktr_holders__tell_size(b, ring_bytes); /* before the rings are chosen among */
	err = ktr_holders__wait(b);
	if (err)
		return err;
	/*
	 * Ours now: a system-wide trace leaves the daemon's own writes out, and
	 * a daemon that starts from kept programs and finds it set knows the one
	 * before did not end (ktr_progcache__reset); cleared at our end.
	 */
	b->bss->ktr_daemon_tgid = getpid();
	return 0;
}

/* A handle with nothing in it yet: every descriptor -1. */
static struct ktr_bpf *loader__new(void)
{
	struct ktr_bpf *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	for (size_t i = 0; i < KTR_NPROGS; i++)
		b->prog_fd[i] = b->link_fd[i] = -1;
	for (size_t i = 0; i < KTR_RINGS_MAX; i++)
		b->rb_fds[i] = -1;
	b->scratch_fd = -1;
	return b;
}

/* b's skeleton opened and configured, its scratch area made; 0 or -errno. */
static int loader__open(struct ktr_bpf *b, const struct ktr_loader_opts *opts)
{
	int ncpus = libbpf_num_possible_cpus(), err;
	struct bpf_program *prog;

	b->skel = ktr_skel__open();
	if (!b->skel)
		return -errno;
	if (ktr_progs__unknown(b)) {
		snprintf(loader_bad_row, sizeof(loader_bad_row),
			 "a facility's row (trstr.c) names %s, a program bpf/ lacks",
			 ktr_progs__unknown(b));
		return -ENOENT;
	}
	err = ncpus < 0 ? ncpus : ktr_holders__new_scratch(b, ncpus);
	b->nrings = ktr_holders__rings_for(ncpus);
	/* the holder's template: an inner array must have the size of the one put in */
	if (!err)
		err = bpf_map__set_inner_map_fd(b->skel->maps.scratch_holder, b->scratch_fd);
	if (!err)
		err = bpf_map__set_max_entries(b->skel->maps.stages, ncpus);
	if (!err && opts->procs_fd > 0)
		err = bpf_map__reuse_fd(b->skel->maps.procs, opts->procs_fd);
	if (!err && opts->procs_fd > 0 && opts->selects_fd > 0)
		err = bpf_map__reuse_fd(b->skel->maps.selects, opts->selects_fd);
	loader_usdt_mode = ktr_caps__usdt_mode(loader_usdt_why, sizeof(loader_usdt_why));
	bpf_object__for_each_program(prog, b->skel->obj)
		bpf_program__set_autoload(prog, false);
	ktr_rodata__fill(b->skel, ncpus);
	ktr_progcache__init(b, ncpus, loader_usdt_mode == KTR_USDT_MULTI ? ATTACH_UPROBE_MULTI : 0);
	return err;
}

/* The kernel's reasons for the programs it refused, by program (ktr_progcache.h). */
static void loader__refusals(const struct ktr_bpf *b, char (*refused)[KTR_PROGCACHE_WHY])
{
	for (size_t i = 0; i < KTR_NPROGS; i++) {
		int o = optional__index(ktr_bpf__prog_name(b, i));

		snprintf(refused[i], KTR_PROGCACHE_WHY, "%s", o >= 0 ? optional_missing[o] : "");
	}
}

/*
 * The refusals a cache kept, as if said here; false, and none taken, if
 * one is of a program no trace can do without.
 */
static bool loader__take_refusals(const struct ktr_bpf *b, char (*refused)[KTR_PROGCACHE_WHY])
{
	for (size_t i = 0; i < KTR_NPROGS; i++)
		if (refused[i][0] && optional__index(ktr_bpf__prog_name(b, i)) < 0)
			return false;
	for (size_t i = 0; i < KTR_NPROGS; i++)
		if (refused[i][0]) /* terminated */
			memcpy(optional_missing[optional__index(ktr_bpf__prog_name(b, i))],
			       refused[i], KTR_PROGCACHE_WHY);
	return true;
}

/* b's programs and maps as an earlier daemon kept them, emptied (ktr_progcache.h); 0 or -errno. */
static int loader__open_kept(struct ktr_bpf *b, size_t ring_bytes)
{
	char refused[KTR_NPROGS][KTR_PROGCACHE_WHY];
	int err = ktr_progcache__open(b, refused), err2;

	if (!err && !loader__take_refusals(b, refused))
		err = -EINVAL;
	if (!err)
		err = loader__map_bss(b);
	if (err)
		return err;
	ktr_holders__fill(b, ring_bytes);
	err = ktr_progcache__reset(b);
	err2 = loader__filled(b, ring_bytes);
	return err ? err : err2;
}

/* b's programs loaded and verified now, and kept for the next daemon; 0 or -errno. */
static int loader__load_fresh(struct ktr_bpf *b, size_t ring_bytes)
{
	char refused[KTR_NPROGS][KTR_PROGCACHE_WHY];
	/* the maps first, by the object with every program left out */
	int err = ktraceb_bpf__load(b->skel);

	if (!err)
		err = loader__load_parts(b);
	if (!err) {
		loader__refusals(b, refused);
		ktr_progcache__save(b, refused); /* without, the next daemon loads them again */
	}
	if (!err)
		err = loader__map_bss(b);
	if (!err) {
		ktr_holders__fill(b, ring_bytes);
		err = loader__filled(b, ring_bytes);
	}
	return err;
}

/*
 * Before 5.11 the kernel counts BPF memory against RLIMIT_MEMLOCK: libbpf
 * asks for no limit, which only a privileged daemon gets; a user's may
 * still go up to its hard limit.
 */
static void loader__raise_memlock(void)
{
	struct rlimit rl;

	if (!(ktr_caps__lacks() & KTR_LACKS_MEMCG) || getrlimit(RLIMIT_MEMLOCK, &rl) < 0 ||
	    rl.rlim_cur == rl.rlim_max)
		return;
	rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_MEMLOCK, &rl);
}

struct ktr_bpf *ktr_loader__load(const struct ktr_loader_opts *opts, const char **why)
{
	struct ktr_bpf *b;
	int err, kept;

	ktr_refusal__listen(opts->verbose);
	loader__raise_memlock();
	if (libbpf_probe_bpf_map_type(BPF_MAP_TYPE_RINGBUF, NULL) <= 0) {
		*why = access("/sys/kernel/btf/vmlinux", R_OK) == 0 && geteuid() != 0 ?
			       "probing BPF needs root, or CAP_BPF and CAP_PERFMON" :
			       "the kernel has no BPF ring buffer (ktraceb needs Linux 5.10)";
		errno = ENOTSUP;
		return NULL;
	}
	if (ktr_caps__lacks() & KTR_LACKS_INNER_MAP) {
		*why = "the kernel has no inner maps of any size (ktraceb needs Linux 5.10)";
		errno = ENOTSUP;
		return NULL;
	}
	b = loader__new();
	err = b ? loader__open(b, opts) : -ENOMEM;
	/*
	 * The programs an earlier daemon kept, unless a dead daemon's
	 * recordings wait to be taken over (opts->procs_fd): its links run the
	 * programs it ran.  Kept ones that cannot be used are dropped, and the
	 * programs loaded afresh into an object they have not been near.
	 */
	kept = !err && opts->procs_fd <= 0 ? loader__open_kept(b, opts->ring_bytes) : -ENOENT;
	if (!err && kept && kept != -ENOENT) {
		if (kept == -ESTALE)
			syslog(LOG_NOTICE,
			       "the daemon before did not end: its kept programs are loaded afresh");
		ktr_progcache__drop();
		/* what it said is not believed */
		memset(optional_missing, 0, sizeof(optional_missing));
		ktr_loader__destroy(b);
		b = loader__new();
		err = b ? loader__open(b, opts) : -ENOMEM;
	}
	if (!err && kept)
		err = loader__load_fresh(b, opts->ring_bytes);
	if (!err && !opts->defer_attach)
		err = ktr_loader__attach(b);
	if (err) {
		*why = loader__why(err);
		ktr_loader__destroy(b);
		errno = -err;
		return NULL;
	}
	return b;
}

/* The program of index i's link (if attached) closed: it is detached, unless pinned. */
static void loader__unlink(struct ktr_bpf *b, size_t i)
{
	if (b->link_fd[i] < 0)
		return;
	/* a pinned link would outlive its descriptor: the program must go */
	ktr_pin__unpin_link(b, i);
	close(b->link_fd[i]);
	b->link_fd[i] = -1;
}

void ktr_loader__detach(struct ktr_bpf *b)
{
	for (size_t i = 0; i < KTR_NPROGS; i++)
		if (prog__tp_btf(b, i))
			loader__unlink(b, i);
}

/* One of the programs attached apart (want) or detached. */
static int loader__attach_apart(struct ktr_bpf *b, size_t i, bool want)
{
	if (want && b->link_fd[i] < 0) {
		int fd = b->prog_fd[i] >= 0 ? ktr_link__tp_btf(b->prog_fd[i]) : -ENOENT;

		if (fd < 0)
			return fd;
		b->link_fd[i] = fd;
	} else if (!want) {
		loader__unlink(b, i);
	}
	return 0;
}

int ktr_loader__attach_enter(struct ktr_bpf *b, bool want)
{
	return loader__attach_apart(b, KTR_PROG(ktr_syscall_enter), want);
}

int ktr_loader__attach_prog(struct ktr_bpf *b, const char *name, bool want)
{
	for (size_t i = 0; i < KTR_NPROGS; i++)
		if (strcmp(ktr_bpf__prog_name(b, i), name) == 0)
			return loader__attach_apart(b, i, want);
	return -ENOENT;
}

/* The programs of -G (cgroup.bpf.c), each a prog index. */
static const size_t group_progs[] = { KTR_PROG(ktr_cgroup_attach), KTR_PROG(ktr_cgroup_mkdir),
				      KTR_PROG(ktr_cgroup_rmdir), KTR_PROG(ktr_cgroup_fork),
				      KTR_PROG(ktr_cgroup_exec) };
#define N_GROUP_PROGS (sizeof(group_progs) / sizeof(group_progs[0]))

int ktr_loader__load_groups(struct ktr_bpf *b, const char **why)
{
	static char refused[KTR_PROGCACHE_WHY];
	struct ktraceb_bpf *p;
	size_t loaded = 0;
	int err;

	for (size_t i = 0; i < N_GROUP_PROGS; i++)
		loaded += b->prog_fd[group_progs[i]] >= 0;
	if (loaded == N_GROUP_PROGS)
		return 0;
	if (refused[0]) {
		*why = refused; /* said once, never tried again */
		return -ENOTSUP;
	}
	p = part__open(b, PART_GROUPS);
	if (!p)
		return errno ? -errno : -ENOMEM;
	ktr_refusal__clear();
	err = ktraceb_bpf__load(p);
	if (!err)
		err = part__take(b, p);
	for (size_t i = 0; i < N_GROUP_PROGS && !err; i++)
		ktr_progcache__add(b, group_progs[i], NULL);
	ktraceb_bpf__destroy(p);
	if (err && !ktr_refusal__say(refused, sizeof(refused)))
		snprintf(refused, sizeof(refused), "cannot load the cgroup programs: %s",
			 strerror(-err));
	*why = refused;
	return err;
}

int ktr_loader__attach_groups(struct ktr_bpf *b, bool want)
{
	const size_t *progs = group_progs;
	int err = 0;

	for (size_t i = 0; i < N_GROUP_PROGS && !err; i++)
		err = loader__attach_apart(b, progs[i], want);
	if (err)
		for (size_t i = 0; i < N_GROUP_PROGS; i++)
			loader__attach_apart(b, progs[i], false);
	return err;
}

int ktr_loader__attach(struct ktr_bpf *b)
{
	for (size_t i = 0; i < KTR_NPROGS; i++) {
		int err = prog__tp_btf(b, i) && prog__autoattach(ktr_bpf__prog_name(b, i)) ?
				  loader__attach_apart(b, i, true) :
				  0;

		if (err) {
			ktr_loader__detach(b);
			return err;
		}
	}
	return 0;
}

void ktr_loader__destroy(struct ktr_bpf *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < KTR_NPROGS; i++)
		if (b->link_fd[i] >= 0)
			close(b->link_fd[i]);
	if (b->rb_fds[0] >= 0)
		ktr_holders__empty(b); /* they were filled */
	if (b->bss) {
		b->bss->ktr_daemon_tgid = 0; /* a clean end (ktr_loader__load) */
		munmap(b->bss, b->bss_bytes);
	}
	loader__close_progs(b);
	for (int i = 0; i < b->nrings; i++)
		if (b->rb_fds[i] >= 0)
			close(b->rb_fds[i]);
	if (b->scratch_fd >= 0)
		close(b->scratch_fd);
	ktraceb_bpf__destroy(b->skel);
	free(b);
	ktr_progcache__release();
}
