// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "ktraceb/bpf_shared.h"
#include "ktraceb.skel.h"
#include "ktr_captures.h"
#include "ktr_arch.h"
#include "ktr_loader.h"
#include "syscalltab.h"

static bool loader_verbose;
static enum ktr_usdt_mode loader_usdt_mode;

static int loader__print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG && !loader_verbose)
		return 0;
	if (level != LIBBPF_WARN && !loader_verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

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

/* CAP_BPF (39) and CAP_PERFMON (38) in our effective set? */
static bool loader__has_caps(void)
{
	unsigned long long eff = 0;
	char line[128];
	FILE *f = fopen("/proc/self/status", "re");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			break;
	fclose(f);
	return (eff & (3ULL << 38)) == (3ULL << 38);
}

static const char *loader__why(int err)
{
	/* the verifier refuses with EACCES too: only EPERM is about privilege */
	if (err == -EPERM || (err == -EACCES && geteuid() != 0 && !loader__has_caps()))
		return "loading BPF programs needs root, or CAP_BPF and CAP_PERFMON";
	if (err == -EACCES)
		return "the kernel's BPF verifier refused the programs (run with -v for its log)";
	if (access("/sys/kernel/btf/vmlinux", R_OK) < 0)
		return "kernel has no BTF (/sys/kernel/btf/vmlinux; needs CONFIG_DEBUG_INFO_BTF)";
	return "cannot load the BPF programs (run with -v for the verifier's log)";
}

/*
 * BPF_TRACE_UPROBE_MULTI links (Linux 6.6) attach every site of a file at
 * once and need only CAP_BPF and CAP_PERFMON; a uprobe perf event, the way
 * before them, needs CAP_SYS_ADMIN on current kernels.  Probed by loading
 * a program of that attach type (bpf.h of libbpf 1.1 has no name for it).
 */
#define ATTACH_UPROBE_MULTI 48

static bool loader__has_uprobe_multi(void)
{
	const struct bpf_insn ret0[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, o, .expected_attach_type = ATTACH_UPROBE_MULTI);
	int fd = bpf_prog_load(BPF_PROG_TYPE_KPROBE, NULL, "GPL", ret0, 2, &o);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* How USDT probes are attached here, or not at all (ktr_loader.h). */
static enum ktr_usdt_mode loader__usdt_mode(void)
{
	/* bpf_loop (5.17) and attach cookies (5.15) are what the program needs */
	if (libbpf_probe_bpf_helper(BPF_PROG_TYPE_KPROBE, BPF_FUNC_loop, NULL) <= 0 ||
	    libbpf_probe_bpf_helper(BPF_PROG_TYPE_KPROBE, BPF_FUNC_get_attach_cookie, NULL) <= 0)
		return KTR_USDT_NONE;
	return loader__has_uprobe_multi() ? KTR_USDT_MULTI : KTR_USDT_PERF_EVENT;
}

enum ktr_usdt_mode ktr_loader__usdt_mode(void)
{
	return loader_usdt_mode;
}

struct ktraceb_bpf *ktr_loader__load(const struct ktr_loader_opts *opts, const char **why)
{
	struct ktraceb_bpf *skel;
	int ncpus, err;

	loader_verbose = opts->verbose;
	libbpf_set_print(loader__print);
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
		err = bpf_map__set_max_entries(skel->maps.scratch, ncpus);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.rb, opts->ring_bytes);
	if (!err && opts->procs_fd > 0)
		err = bpf_map__reuse_fd(skel->maps.procs, opts->procs_fd);
	/*
	 * sched_switch runs on every switch machine-wide: loaded, but attached
	 * by the daemon only while some process is traced with 'w'.
	 */
	bpf_program__set_autoattach(skel->progs.ktr_csw_switch, false);
	/*
	 * sys_enter runs on every syscall machine-wide: attached by the daemon
	 * only while some trace needs it (a compact recorder needs only
	 * sys_exit's returns).
	 */
	bpf_program__set_autoattach(skel->progs.ktr_syscall_enter, false);
	/* attached by the daemon to the probe sites it finds (ktr_usdt.c) */
	bpf_program__set_autoattach(skel->progs.ktr_usdt_record, false);
	/* attached by the daemon to each event some trace asks for (ktr_tp.c) */
	bpf_program__set_autoattach(skel->progs.ktr_tp_record, false);
	loader_usdt_mode = loader__usdt_mode();
	if (loader_usdt_mode == KTR_USDT_NONE)
		bpf_program__set_autoload(skel->progs.ktr_usdt_record, false);
	else if (loader_usdt_mode == KTR_USDT_MULTI)
		bpf_program__set_expected_attach_type(skel->progs.ktr_usdt_record,
						      ATTACH_UPROBE_MULTI);
	if (err)
		goto fail;
	loader__fill_table(skel->rodata->ktr_nargs64, skel->rodata->ktr_pathmask64,
			   ktr_arch_host.native, *ktr_arch_host.nnative);
	loader__fill_table(skel->rodata->ktr_nargs32, skel->rodata->ktr_pathmask32,
			   ktr_arch_host.compat, ktr_arch_host.compat ? *ktr_arch_host.ncompat : 0);
	skel->rodata->ktr_wakeup_bytes = opts->ring_bytes / 4;
	ktr_captures__fill(skel->rodata->ktr_genio64, skel->rodata->ktr_captures64);
	err = ktraceb_bpf__load(skel);
	if (!err && !opts->defer_attach)
		err = ktraceb_bpf__attach(skel);
	if (err)
		goto fail;
	return skel;
fail:
	*why = loader__why(err);
	ktraceb_bpf__destroy(skel);
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

int ktr_loader__attach_enter(struct ktraceb_bpf *skel, bool want)
{
	struct bpf_link **link = &skel->links.ktr_syscall_enter;

	if (want && !*link) {
		*link = bpf_program__attach(skel->progs.ktr_syscall_enter);
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

int ktr_loader__attach(struct ktraceb_bpf *skel)
{
	return ktraceb_bpf__attach(skel);
}

void ktr_loader__destroy(struct ktraceb_bpf *skel)
{
	ktraceb_bpf__destroy(skel);
}
