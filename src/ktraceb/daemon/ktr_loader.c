// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "ktraceb/bpf_shared.h"
#include "ktr_bpf.h"
#include "ktr_captures.h"
#include "ktr_arch.h"
#include "ktr_kernel_caps.h"
#include "ktr_link.h"
#include "ktr_loader.h"
#include "ktr_pin.h"
#include "ktr_progcache.h"
#include "ktr_refusal.h"
#include "syscalltab.h"

static enum ktr_usdt_mode loader_usdt_mode;
static char loader_usdt_why[160];

static void loader__fill_table(volatile __u8 *nargs, volatile __u8 *pathmask,
			       const struct ktr_sysent *tab, unsigned int n)
{
	for (unsigned int nr = 0; nr < KTR_MAX_SYSCALLS; nr++) {
		/* unknown numbers keep all six registers: nothing is thrown away */
		nargs[nr] = KTR_MAXARGS;
		pathmask[nr] = 0;
		if (nr < n && tab[nr].name) {
			nargs[nr] = tab[nr].narg;
			pathmask[nr] = tab[nr].pathmask;
		}
	}
}

/*
 * What comes between each native call's CALL and RET, and which calls make
 * their CALL at entry whatever the trace (bpf_shared.h, ktr_between64).
 */
static void loader__fill_between(struct ktraceb_bpf *skel)
{
	static const char *const at_entry[] = {
		"exit", "exit_group", "execve",	      "execveat",	 "clone", "clone3",
		"fork", "vfork",      "rt_sigreturn", "restart_syscall", "prctl",
	};
	const struct ktr_sysent *tab = ktr_arch_host.native;
	unsigned int n = *ktr_arch_host.nnative;

	for (unsigned int nr = 0; nr < KTR_MAX_SYSCALLS; nr++) {
		__u32 b = 0;

		if (skel->rodata->ktr_pathmask64[nr])
			b |= KTRFAC_NAMEI;
		if (skel->rodata->ktr_capwhen64[nr])
			b |= KTRFAC_STRUCT;
		if (skel->rodata->ktr_genio64[nr] != KTR_GIO_NONE)
			b |= KTRFAC_GENIO;
		if (nr >= n || !tab[nr].name)
			b |= KTR_CALL_AT_ENTRY;
		for (size_t i = 0;
		     !(b & KTR_CALL_AT_ENTRY) && i < sizeof(at_entry) / sizeof(at_entry[0]); i++)
			if (strcmp(tab[nr].name, at_entry[i]) == 0)
				b |= KTR_CALL_AT_ENTRY;
		skel->rodata->ktr_between64[nr] = b;
	}
}

static const char *loader__why(int err)
{
	static char why[320];

	/* the verifier refuses with EACCES too: only EPERM is about privilege */
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
	PART_N,
};

/*
 * The programs a trace can do without: when the kernel refuses one, its
 * facility alone is refused (ktr_loader__missing says why) and the others
 * load without it.  A refusal of any other program fails the whole load.
 */
static const struct {
	const char *prog;
	__u32 fac;
} optional_progs[] = {
	{ "ktr_csw_switch", KTRFAC_CSW },
	{ "ktr_tp_record", KTRFAC_TRACEPOINT },
	{ "ktr_usdt_record", KTRFAC_USER },
};
#define N_OPTIONAL (sizeof(optional_progs) / sizeof(optional_progs[0]))
static char optional_missing[N_OPTIONAL][KTR_PROGCACHE_WHY];

static int optional__index(const char *prog)
{
	for (size_t i = 0; i < N_OPTIONAL; i++)
		if (strcmp(prog, optional_progs[i].prog) == 0)
			return i;
	return -1;
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
	for (size_t i = 0; i < N_OPTIONAL; i++)
		if ((fac & optional_progs[i].fac) && optional_missing[i][0])
			return optional_missing[i];
	if ((fac & KTRFAC_USER) && loader_usdt_mode == KTR_USDT_NONE)
		return loader_usdt_why;
	return NULL;
}

static enum loader_part prog__part(const char *name)
{
	static const char *const enter_half[] = {
		"ktr_syscall_enter", "ktr_psig_deliver", "ktr_proc_exec",
		"ktr_tp_record",     "ktr_csw_switch",
	};

	if (strcmp(name, "ktr_usdt_record") == 0)
		return PART_USDT;
	for (size_t i = 0; i < sizeof(enter_half) / sizeof(enter_half[0]); i++)
		if (strcmp(name, enter_half[i]) == 0)
			return PART_ENTER;
	return PART_EXIT;
}

/* Attached on the tracepoint it was loaded for (tp_btf), by a link of its own here? */
static bool prog__tp_btf(const struct ktr_bpf *b, size_t i)
{
	return bpf_program__type(*b->skel->skeleton->progs[i].prog) == BPF_PROG_TYPE_TRACING;
}

/* Attached with the others by ktr_loader__attach()? */
static bool prog__autoattach(const char *name)
{
	static const char *const apart[] = {
		/*
		 * sched_switch runs on every switch machine-wide: loaded, but
		 * attached by the daemon only while some process is traced
		 * with 'w'.
		 */
		"ktr_csw_switch",
		/*
		 * sys_enter runs on every syscall machine-wide: attached by the
		 * daemon only while some trace needs it (a compact recorder
		 * needs only sys_exit's returns).
		 */
		"ktr_syscall_enter",
		/* attached by the daemon to the probe sites it finds (ktr_usdt.c) */
		"ktr_usdt_record",
		/* attached by the daemon to each event some trace asks for (ktr_tp.c) */
		"ktr_tp_record",
		/* never attached: the daemon runs it on a CPU (ktr_drain.c) */
		"ktr_stage_flush",
	};

	for (size_t i = 0; i < sizeof(apart) / sizeof(apart[0]); i++)
		if (strcmp(name, apart[i]) == 0)
			return false;
	return true;
}

/* Another instance of the object, on b's maps, loading only part's programs. */
static struct ktraceb_bpf *part__open(const struct ktr_bpf *b, enum loader_part part)
{
	const struct bpf_object_skeleton *s = b->skel->skeleton;
	struct ktraceb_bpf *p = ktraceb_bpf__open();
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
		if (!err || tries == N_OPTIONAL || !optional__refused())
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
	if (ktr_loader__missing(KTRFAC_USER))
		return -ENOTSUP;
	p = part__open(b, PART_USDT);
	if (!p)
		return errno ? -errno : -ENOMEM;
	ktr_refusal__clear();
	err = ktraceb_bpf__load(p);
	if (err) {
		/* said once, and never tried again */
		int o = optional__index("ktr_usdt_record");

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

/* The daemon's own scratch area (a slot per possible CPU: map_shapes.bpf.h); 0 or -errno. */
static int loader__new_scratch(struct ktr_bpf *b, int ncpus)
{
	b->scratch_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "scratch", sizeof(__u32),
				       KTR_SCRATCH_SIZE, ncpus, NULL);
	return b->scratch_fd < 0 ? -errno : 0;
}

/*
 * Each holder's entry set (to *inner, or to a ring buffer of ring_bytes
 * made first) or taken out (inner NULL).  An update of an array of maps
 * from user space takes effect at once, but the call returns only after
 * an RCU grace period (the kernel's maybe_wait_bpf_programs(): no program
 * uses the old entry any more), 10 ms and often much more: the longest
 * step of a start from kept programs, and of an end.  Nothing here needs
 * that wait, so each update is made by a thread of its own, and the
 * loader waits only until the entry reads back as set: the programs use
 * it from then on.  The threads end by themselves after the grace period.
 */
struct holder {
	int holder_fd;
	int *inner;
	size_t ring_bytes; /* > 0: *inner is a ring buffer to make */
	__u32 id; /* the inner map's, once it is made */
	int err;
	bool done;
};

static struct holder loader_holders[2]; /* the ring buffer's and the scratch area's */
static pthread_t loader_holder_tids[2];
static bool loader_holder_threads[2];

static void *holder__run(void *arg)
{
	struct holder *h = arg;
	struct bpf_map_info info = { 0 };
	__u32 len = sizeof(info), zero = 0;
	int err = 0;

	if (h->ring_bytes) {
		*h->inner = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "rb", 0, 0, h->ring_bytes, NULL);
		if (*h->inner < 0)
			err = -errno;
	}
	if (!err && h->inner && bpf_obj_get_info_by_fd(*h->inner, &info, &len) < 0)
		err = -errno;
	__atomic_store_n(&h->id, info.id, __ATOMIC_RELEASE);
	if (!err &&
	    (h->inner ? bpf_map_update_elem(h->holder_fd, &zero, h->inner, 0) :
			bpf_map_delete_elem(h->holder_fd, &zero)) < 0 &&
	    (h->inner || errno != ENOENT))
		err = -errno;
	h->err = err;
	__atomic_store_n(&h->done, true, __ATOMIC_RELEASE);
	return NULL;
}

/* Holder i's update begun (the last one's thread done first). */
static void holder__start(int i, int holder_fd, int *inner, size_t ring_bytes)
{
	struct holder *h = &loader_holders[i];

	if (loader_holder_threads[i])
		pthread_join(loader_holder_tids[i], NULL);
	*h = (struct holder){ .holder_fd = holder_fd, .inner = inner, .ring_bytes = ring_bytes };
	loader_holder_threads[i] = pthread_create(&loader_holder_tids[i], NULL, holder__run, h) ==
				   0;
	if (!loader_holder_threads[i])
		holder__run(h);
}

/* Holder i's entry as its update left it, whether or not the call has returned; 0 or -errno. */
static int holder__wait(int i)
{
	struct holder *h = &loader_holders[i];
	__u32 zero = 0, id;

	for (;;) {
		if (__atomic_load_n(&h->done, __ATOMIC_ACQUIRE))
			return h->err;
		id = __atomic_load_n(&h->id, __ATOMIC_ACQUIRE);
		if (!h->inner && bpf_map_lookup_elem(h->holder_fd, &zero, &id) < 0 &&
		    errno == ENOENT)
			return 0;
		if (h->inner && id && bpf_map_lookup_elem(h->holder_fd, &zero, &id) == 0 &&
		    id == __atomic_load_n(&h->id, __ATOMIC_ACQUIRE))
			return 0;
		usleep(20);
	}
}

/* The ring buffer and the scratch area into their holders: begun; loader__filled() ends it. */
static void loader__fill(struct ktr_bpf *b, size_t ring_bytes)
{
	holder__start(0, ktr_bpf__map_fd(b, rb_holder), &b->rb_fd, ring_bytes);
	holder__start(1, ktr_bpf__map_fd(b, scratch_holder), &b->scratch_fd, 0);
}

static int loader__filled(struct ktr_bpf *b, size_t ring_bytes)
{
	int err = holder__wait(0), err2 = holder__wait(1);

	if (err || err2)
		return err ? err : err2;
	b->bss->ktr_wakeup_bytes = ring_bytes / 4;
	/* a stage is at most an eighth of the ring: a small ring still takes many */
	b->bss->ktr_stage_bytes = ring_bytes / 8 < KTR_STAGE_BYTES ? ring_bytes / 8 :
								     KTR_STAGE_BYTES;
	/*
	 * Ours now: a system-wide trace leaves the daemon's own writes out, and
	 * a daemon that starts from kept programs and finds it set knows the one
	 * before did not end (ktr_progcache__reset); cleared at our end.
	 */
	b->bss->ktr_daemon_tgid = getpid();
	return 0;
}

/* Both holders emptied: the ring and the scratch area are the daemon's alone, and go with it. */
static void loader__empty(struct ktr_bpf *b)
{
	holder__start(0, ktr_bpf__map_fd(b, rb_holder), NULL, 0);
	holder__start(1, ktr_bpf__map_fd(b, scratch_holder), NULL, 0);
	holder__wait(0);
	holder__wait(1);
}

/* KTRACEB_REFUSE_PROG=NAME: the tests' fault injection (bpf_shared.h, KTR_REFUSE_*). */
static __u32 loader__refuse_for_tests(void)
{
	static const char *const names[] = {
		[KTR_REFUSE_CSW] = "ktr_csw_switch",
		[KTR_REFUSE_TP] = "ktr_tp_record",
		[KTR_REFUSE_USDT] = "ktr_usdt_record",
		[KTR_REFUSE_SYS_ENTER] = "ktr_syscall_enter",
	};
	const char *name = getenv("KTRACEB_REFUSE_PROG");

	for (__u32 i = 1; name && i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i]) == 0)
			return i;
	return 0;
}

/* What the programs are loaded with, into skel's .rodata: the same for a kept one. */
static void loader__configure(struct ktraceb_bpf *skel, int ncpus)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, skel->obj)
		bpf_program__set_autoload(prog, false);
	loader__fill_table(skel->rodata->ktr_nargs64, skel->rodata->ktr_pathmask64,
			   ktr_arch_host.native, *ktr_arch_host.nnative);
	loader__fill_table(skel->rodata->ktr_nargs32, skel->rodata->ktr_pathmask32,
			   ktr_arch_host.compat, ktr_arch_host.compat ? *ktr_arch_host.ncompat : 0);
	skel->rodata->ktr_refuse_prog = loader__refuse_for_tests();
	if (ncpus > 0 && ncpus < KTR_FLIGHT_MAX_CPUS)
		skel->rodata->ktr_ncpus = ncpus;
	ktr_captures__fill(skel->rodata->ktr_genio64, skel->rodata->ktr_captures64,
			   skel->rodata->ktr_capwhen64);
	loader__fill_between(skel);
}

/* A handle with nothing in it yet: every descriptor -1. */
static struct ktr_bpf *loader__new(void)
{
	struct ktr_bpf *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	for (size_t i = 0; i < KTR_NPROGS; i++)
		b->prog_fd[i] = b->link_fd[i] = -1;
	b->rb_fd = b->scratch_fd = -1;
	return b;
}

/* b's skeleton opened and configured, its scratch area made; 0 or -errno. */
static int loader__open(struct ktr_bpf *b, const struct ktr_loader_opts *opts)
{
	int ncpus = libbpf_num_possible_cpus(), err;

	b->skel = ktraceb_bpf__open();
	if (!b->skel)
		return -errno;
	err = ncpus < 0 ? ncpus : loader__new_scratch(b, ncpus);
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
	loader__configure(b->skel, ncpus);
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
	loader__fill(b, ring_bytes);
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
		loader__fill(b, ring_bytes);
		err = loader__filled(b, ring_bytes);
	}
	return err;
}

struct ktr_bpf *ktr_loader__load(const struct ktr_loader_opts *opts, const char **why)
{
	struct ktr_bpf *b;
	int err, kept;

	ktr_refusal__listen(opts->verbose);
	if (libbpf_probe_bpf_map_type(BPF_MAP_TYPE_RINGBUF, NULL) <= 0) {
		*why = access("/sys/kernel/btf/vmlinux", R_OK) == 0 && geteuid() != 0 ?
			       "probing BPF needs root, or CAP_BPF and CAP_PERFMON" :
			       "kernel has no BPF ring buffer (needs Linux 5.8 or later)";
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

int ktr_loader__attach_csw(struct ktr_bpf *b, bool want)
{
	return loader__attach_apart(b, KTR_PROG(ktr_csw_switch), want);
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
	if (b->rb_fd >= 0)
		loader__empty(b); /* they were filled */
	if (b->bss) {
		b->bss->ktr_daemon_tgid = 0; /* a clean end (ktr_loader__load) */
		munmap(b->bss, b->bss_bytes);
	}
	loader__close_progs(b);
	if (b->rb_fd >= 0)
		close(b->rb_fd);
	if (b->scratch_fd >= 0)
		close(b->scratch_fd);
	ktraceb_bpf__destroy(b->skel);
	free(b);
	ktr_progcache__release();
}
