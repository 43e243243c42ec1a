// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#include "ktraceb/bpf_shared.h"
#include "ktraceb.skel.h"
#include "ktr_captures.h"
#include "ktr_loader.h"
#include "syscalltab.h"

static bool loader_verbose;

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
	/*
	 * sched_switch runs on every switch machine-wide: loaded, but attached
	 * by the daemon only while some process is traced with 'w'.
	 */
	bpf_program__set_autoattach(skel->progs.ktr_csw_switch, false);
	if (err)
		goto fail;
	loader__fill_table(skel->rodata->ktr_nargs64, skel->rodata->ktr_pathmask64,
			   ktr_sysent_x86_64, ktr_nsysent_x86_64);
	loader__fill_table(skel->rodata->ktr_nargs32, skel->rodata->ktr_pathmask32, ktr_sysent_i386,
			   ktr_nsysent_i386);
	skel->rodata->ktr_wakeup_bytes = opts->ring_bytes / 4;
	ktr_captures__fill(skel->rodata->ktr_genio64, skel->rodata->ktr_captures64);
	err = ktraceb_bpf__load(skel);
	if (!err)
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

void ktr_loader__destroy(struct ktraceb_bpf *skel)
{
	ktraceb_bpf__destroy(skel);
}
