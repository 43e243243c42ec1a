// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "ktraceb/bpf_shared.h"
#include "ktraceb.skel.h"
#include "ktr_captures.h"
#include "ktr_arch.h"
#include "ktr_kernel_caps.h"
#include "ktr_loader.h"
#include "ktr_refusal.h"
#include "syscalltab.h"

static enum ktr_usdt_mode loader_usdt_mode;
static char loader_usdt_why[160];
static int loader_rb_fd = -1, loader_scratch_fd = -1;

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
 * first needs it (ktr_loader__load_usdt).  The skeleton the daemon uses is
 * the maps' one, its program pointers set to where each program loaded.
 */
enum loader_part {
	PART_MAPS,
	PART_EXIT, /* loaded by the calling thread */
	PART_ENTER, /* loaded by a second thread */
	PART_USDT,
	PART_N,
};

static struct ktraceb_bpf *loader_parts[PART_N];

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
static char optional_missing[N_OPTIONAL][320];

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
	char why[320], prog[64];
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

/* Attached with the others by ktraceb_bpf__attach()? */
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
	};

	for (size_t i = 0; i < sizeof(apart) / sizeof(apart[0]); i++)
		if (strcmp(name, apart[i]) == 0)
			return false;
	return true;
}

/* Another instance of the object, on skel's maps, loading only part's programs. */
static struct ktraceb_bpf *part__open(struct ktraceb_bpf *skel, enum loader_part part)
{
	struct ktraceb_bpf *p = ktraceb_bpf__open();
	struct bpf_program *prog;
	struct bpf_map *map;
	int err = 0;

	if (!p)
		return NULL;
	bpf_object__for_each_map(map, p->obj) {
		const struct bpf_map *own =
			bpf_object__find_map_by_name(skel->obj, bpf_map__name(map));

		err = own ? bpf_map__reuse_fd(map, bpf_map__fd(own)) : -ENOENT;
		if (err)
			break;
	}
	bpf_object__for_each_program(prog, p->obj) {
		const char *name = bpf_program__name(prog);

		bpf_program__set_autoload(prog, prog__part(name) == part && !prog__missing(name));
		bpf_program__set_autoattach(prog, prog__autoattach(bpf_program__name(prog)));
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

/* skel's program pointers to those p loaded. */
static void part__adopt(struct ktraceb_bpf *skel, struct ktraceb_bpf *p)
{
	const struct bpf_object_skeleton *s = skel->skeleton, *ps = p->skeleton;

	for (int i = 0; i < s->prog_cnt; i++)
		if (bpf_program__autoload(*ps->progs[i].prog))
			*s->progs[i].prog = *ps->progs[i].prog;
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

static void loader__destroy_parts(void);

/* The programs of PART_EXIT and PART_ENTER, loaded side by side; 0 or -errno. */
static int loader__load_halves(struct ktraceb_bpf *skel)
{
	struct part_load enter = { 0 };
	pthread_t tid;
	bool threaded;
	int err = 0;

	loader_parts[PART_EXIT] = part__open(skel, PART_EXIT);
	if (!loader_parts[PART_EXIT])
		return errno ? -errno : -ENOMEM;
	enter.p = loader_parts[PART_ENTER] = part__open(skel, PART_ENTER);
	if (!enter.p)
		return errno ? -errno : -ENOMEM;
	threaded = pthread_create(&tid, NULL, part__load_thread, &enter) == 0;
	if (!threaded)
		part__load_thread(&enter);
	err = ktraceb_bpf__load(loader_parts[PART_EXIT]);
	if (threaded)
		pthread_join(tid, NULL);
	if (!err)
		err = enter.err;
	if (err)
		return err;
	part__adopt(skel, loader_parts[PART_EXIT]);
	part__adopt(skel, loader_parts[PART_ENTER]);
	return 0;
}

/* Both halves, again without each optional program the kernel refused. */
static int loader__load_parts(struct ktraceb_bpf *skel)
{
	int err;

	for (size_t tries = 0;; tries++) {
		ktr_refusal__clear();
		err = loader__load_halves(skel);
		if (!err || tries == N_OPTIONAL || !optional__refused())
			return err;
		loader__destroy_parts();
	}
}

static void loader__destroy_parts(void)
{
	for (int i = PART_N - 1; i > PART_MAPS; i--) {
		ktraceb_bpf__destroy(loader_parts[i]);
		loader_parts[i] = NULL;
	}
}

int ktr_loader__load_usdt(struct ktraceb_bpf *skel)
{
	struct ktraceb_bpf *p;
	int err;

	if (loader_parts[PART_USDT])
		return 0;
	if (ktr_loader__missing(KTRFAC_USER))
		return -ENOTSUP;
	p = part__open(skel, PART_USDT);
	if (!p)
		return errno ? -errno : -ENOMEM;
	ktr_refusal__clear();
	err = ktraceb_bpf__load(p);
	if (err) {
		/* said once, and never tried again */
		if (!optional__refused())
			snprintf(optional_missing[optional__index("ktr_usdt_record")],
				 sizeof(optional_missing[0]), "cannot load the USDT program: %s",
				 strerror(-err));
		ktraceb_bpf__destroy(p);
		return err;
	}
	loader_parts[PART_USDT] = p;
	part__adopt(skel, p);
	return 0;
}

/*
 * The daemon's own ring buffer and scratch area, made and put into their
 * holders (map_shapes.bpf.h); 0 or -errno.
 */
static int loader__new_scratch(int ncpus)
{
	loader_scratch_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "scratch", sizeof(__u32),
					   KTR_SCRATCH_SIZE, ncpus, NULL);
	return loader_scratch_fd < 0 ? -errno : 0;
}

static int loader__fill_holders(struct ktraceb_bpf *skel, size_t ring_bytes)
{
	__u32 zero = 0;

	loader_rb_fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "rb", 0, 0, ring_bytes, NULL);
	if (loader_rb_fd < 0)
		return -errno;
	if (bpf_map_update_elem(bpf_map__fd(skel->maps.rb_holder), &zero, &loader_rb_fd, 0) < 0 ||
	    bpf_map_update_elem(bpf_map__fd(skel->maps.scratch_holder), &zero, &loader_scratch_fd,
				0) < 0)
		return -errno;
	skel->bss->ktr_wakeup_bytes = ring_bytes / 4;
	return 0;
}

int ktr_loader__rb_fd(void)
{
	return loader_rb_fd;
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

struct ktraceb_bpf *ktr_loader__load(const struct ktr_loader_opts *opts, const char **why)
{
	struct ktraceb_bpf *skel;
	struct bpf_program *prog;
	int ncpus, err;

	ktr_refusal__listen(opts->verbose);
	if (libbpf_probe_bpf_map_type(BPF_MAP_TYPE_RINGBUF, NULL) <= 0) {
		*why = access("/sys/kernel/btf/vmlinux", R_OK) == 0 && geteuid() != 0 ?
			       "probing BPF needs root, or CAP_BPF and CAP_PERFMON" :
			       "kernel has no BPF ring buffer (needs Linux 5.8 or later)";
		errno = ENOTSUP;
		return NULL;
	}
	skel = ktraceb_bpf__open();
	if (!skel) {
		*why = loader__why(-errno);
		return NULL;
	}
	ncpus = libbpf_num_possible_cpus();
	err = ncpus < 0 ? ncpus : 0;
	if (!err)
		err = loader__new_scratch(ncpus);
	/* the holder's template: an inner array must have the size of the one put in */
	if (!err)
		err = bpf_map__set_inner_map_fd(skel->maps.scratch_holder, loader_scratch_fd);
	if (!err && opts->procs_fd > 0)
		err = bpf_map__reuse_fd(skel->maps.procs, opts->procs_fd);
	if (!err && opts->procs_fd > 0 && opts->selects_fd > 0)
		err = bpf_map__reuse_fd(skel->maps.selects, opts->selects_fd);
	loader_usdt_mode = ktr_caps__usdt_mode(loader_usdt_why, sizeof(loader_usdt_why));
	bpf_object__for_each_program(prog, skel->obj)
		bpf_program__set_autoload(prog, false);
	if (err)
		goto fail;
	loader__fill_table(skel->rodata->ktr_nargs64, skel->rodata->ktr_pathmask64,
			   ktr_arch_host.native, *ktr_arch_host.nnative);
	loader__fill_table(skel->rodata->ktr_nargs32, skel->rodata->ktr_pathmask32,
			   ktr_arch_host.compat, ktr_arch_host.compat ? *ktr_arch_host.ncompat : 0);
	skel->rodata->ktr_refuse_prog = loader__refuse_for_tests();
	if (ncpus > 0 && ncpus < KTR_FLIGHT_MAX_CPUS)
		skel->rodata->ktr_ncpus = ncpus;
	ktr_captures__fill(skel->rodata->ktr_genio64, skel->rodata->ktr_captures64,
			   skel->rodata->ktr_capwhen64);
	err = ktraceb_bpf__load(skel);
	if (!err)
		err = loader__load_parts(skel);
	if (!err)
		err = loader__fill_holders(skel, opts->ring_bytes);

	if (err)
		goto fail;
	if (!opts->defer_attach)
		err = ktraceb_bpf__attach(skel);
	if (err)
		goto fail;
	return skel;
fail:
	*why = loader__why(err);
	ktr_loader__destroy(skel);
	errno = -err;
	return NULL;
}

void ktr_loader__detach(struct ktraceb_bpf *skel)
{
	const struct bpf_object_skeleton *s = skel->skeleton;

	/* a pinned link would outlive its destruction: the programs must go */
	for (int i = 0; i < s->prog_cnt; i++)
		if (*s->progs[i].link && bpf_link__pin_path(*s->progs[i].link))
			bpf_link__unpin(*s->progs[i].link);
	ktraceb_bpf__detach(skel);
}

/* One of the programs attached apart, into its skeleton link (pinned with the others). */
static int loader__attach_apart(struct bpf_program *prog, struct bpf_link **link, bool want)
{
	if (want && !*link) {
		*link = bpf_program__attach(prog);
		if (!*link)
			return -errno;
	} else if (!want && *link) {
		if (bpf_link__pin_path(*link))
			bpf_link__unpin(*link);
		bpf_link__destroy(*link);
		*link = NULL;
	}
	return 0;
}

int ktr_loader__attach_enter(struct ktraceb_bpf *skel, bool want)
{
	return loader__attach_apart(skel->progs.ktr_syscall_enter, &skel->links.ktr_syscall_enter,
				    want);
}

int ktr_loader__attach_csw(struct ktraceb_bpf *skel, bool want)
{
	return loader__attach_apart(skel->progs.ktr_csw_switch, &skel->links.ktr_csw_switch, want);
}

int ktr_loader__attach(struct ktraceb_bpf *skel)
{
	return ktraceb_bpf__attach(skel);
}

void ktr_loader__destroy(struct ktraceb_bpf *skel)
{
	ktraceb_bpf__destroy(skel);
	loader__destroy_parts();
	if (loader_rb_fd >= 0)
		close(loader_rb_fd);
	if (loader_scratch_fd >= 0)
		close(loader_scratch_fd);
	loader_rb_fd = loader_scratch_fd = -1;
}
