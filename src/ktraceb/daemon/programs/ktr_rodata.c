// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <stdlib.h>
#include <string.h>

#include "ktraceb/bpf_captures.h"
#include "ktraceb/bpf_flight.h"
#include "ktraceb/bpf_kernel.h"
#include "ktraceb/bpf_limits.h"
#include "ktraceb/bpf_procs.h"
#include "ktraceb/bpf_sample.h"
#include "ktraceb/bpf_ustack.h"
#include "ktraceb.skel.h"
#include "common/ktr_arch.h"
#include "ktr_captures.h"
#include "ktr_kernel_caps.h"
#include "ktr_progs.h"
#include "ktr_rodata.h"
#include "syscalltab.h"
#include "trstr.h"

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
 * their CALL at entry whatever the trace (bpf_captures.h, ktr_between64).
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
			b |= ktr_facs_between(KTR_BETWEEN_PATHS);
		if (skel->rodata->ktr_capwhen64[nr])
			b |= ktr_facs_between(KTR_BETWEEN_STRUCTS);
		if (skel->rodata->ktr_genio64[nr] != KTR_GIO_NONE)
			b |= ktr_facs_between(KTR_BETWEEN_DATA);
		if (nr >= n || !tab[nr].name)
			b |= KTR_CALL_AT_ENTRY;
		for (size_t i = 0;
		     !(b & KTR_CALL_AT_ENTRY) && i < sizeof(at_entry) / sizeof(at_entry[0]); i++)
			if (strcmp(ktr_sysent_name(&tab[nr]), at_entry[i]) == 0)
				b |= KTR_CALL_AT_ENTRY;
		/* its return's note of a mapped file (syscall.bpf.c, syscall__note_mmap) */
		if (nr < n && tab[nr].name && strcmp(ktr_sysent_name(&tab[nr]), "mmap") == 0)
			b |= ktr_facs_that(KTR_FAC_SCANNED);
		skel->rodata->ktr_between64[nr] = b;
	}
}

/*
 * KTRACEB_REFUSE_PROG=NAME: the tests' fault injection (bpf_kernel.h,
 * KTR_REFUSE_*): a program's (its row, ktr_progs.h), or stage_send or
 * switch_in, which are none.
 */
static __u32 loader__refuse_for_tests(void)
{
	const char *name = getenv("KTRACEB_REFUSE_PROG");

	if (!name)
		return 0;
	if (strcmp(name, "stage_send") == 0)
		return KTR_REFUSE_STAGE_SEND;
	if (strcmp(name, "switch_in") == 0)
		return KTR_REFUSE_SWITCH_IN;
	return ktr_prog_role(name).refuse;
}

void ktr_rodata__fill(struct ktraceb_bpf *skel, int ncpus)
{
	loader__fill_table(skel->rodata->ktr_nargs64, skel->rodata->ktr_pathmask64,
			   ktr_arch_host.native, *ktr_arch_host.nnative);
	loader__fill_table(skel->rodata->ktr_nargs32, skel->rodata->ktr_pathmask32,
			   ktr_arch_host.compat, ktr_arch_host.compat ? *ktr_arch_host.ncompat : 0);
	skel->rodata->ktr_refuse_prog = loader__refuse_for_tests();
	skel->rodata->ktr_kernel_lacks = ktr_caps__lacks() & KTR_LACKS_PROGRAMS;
	if (ncpus > 0 && ncpus < KTR_FLIGHT_MAX_CPUS)
		skel->rodata->ktr_ncpus = ncpus;
	ktr_captures__fill(skel->rodata->ktr_genio64, skel->rodata->ktr_captures64,
			   skel->rodata->ktr_capwhen64);
	loader__fill_between(skel);
}
