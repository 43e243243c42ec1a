// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <stddef.h>

#include "ktraceb/bpf_kernel.h"
#include "ktraceb/ktr.h"
#include "trstr.h"

/*
 * A program named in no row is loaded by the calling thread (KTR_LOAD_EXIT),
 * attached with the others and needed by every trace: sys_exit (c's
 * returns, n's paths, i's data), signal_generate (s), fork and exit.
 */
const struct ktr_trpoint ktr_trpoints[] = {
	/*
	 * with the structures they pass and exec's argv/envp; sys_enter runs
	 * on every syscall machine-wide: attached by the tick only while
	 * some trace needs CALL records (ktr_files__need_enter: a compact
	 * recorder needs only sys_exit's returns)
	 */
	{ 'c', KTRFAC_SYSCALL | KTRFAC_SYSRET | KTRFAC_STRUCT | KTRFAC_ARGS | KTRFAC_ENVS,
	  "syscall",
	  "system calls and returns, with the structures they pass and\n"
	  "     exec's arguments and environment",
	  "calls and returns", .shows = { KTR_USTACK, KTR_OBJECT }, .compact = KTRFAC_SYSRET,
	  .between = { KTR_BETWEEN_STRUCTS, KTRFAC_STRUCT }, .prog = "ktr_syscall_enter",
	  .load = KTR_LOAD_ENTER, .attach = KTR_ATTACH_APART, .refuse = KTR_REFUSE_SYS_ENTER },
	/* n and i: sys_exit's; n's are also the paths of the descriptors a process had */
	{ 'n', KTRFAC_NAMEI, "namei", "path names (namei)", "paths", .shows = { KTR_FD },
	  .between = { KTR_BETWEEN_PATHS, KTRFAC_NAMEI }, .prog = NULL },
	{ 'i', KTRFAC_GENIO, "genio",
	  "data read and written (genio), up to -s iosize bytes per I/O", "I/O data",
	  .between = { KTR_BETWEEN_DATA, KTRFAC_GENIO }, .prog = NULL },
	{ 's', KTRFAC_PSIG, "psig", "signals delivered (psig)", "signals", .compact = KTRFAC_PSIG,
	  .prog = "ktr_psig_deliver", .load = KTR_LOAD_ENTER, .attach = KTR_ATTACH_ALWAYS },
	/* attached by the daemon to the probe sites it finds (ktr_usdt.c) */
	{ 'u', KTRFAC_USER, "user",
	  "user records: the programs' own (utrace(), spans of\n"
	  "     <ktraceb/utrace.h>: the ktraceb provider's USDT probes), and the\n"
	  "     probes of runtimes and libraries -e usdt: names",
	  "user records", .does = KTR_FAC_PROBES, .prog = "ktr_usdt_record", .load = KTR_LOAD_USDT,
	  .attach = KTR_ATTACH_APART, .refuse = KTR_REFUSE_USDT, .lacks = "-t u: USDT probes" },
	/* sched_switch runs on every switch machine-wide */
	{ 'w', KTRFAC_CSW, "csw", "context switches (csw)", "context switches",
	  .prog = "ktr_csw_switch", .load = KTR_LOAD_ENTER, .attach = KTR_ATTACH_TRACED,
	  .refuse = KTR_REFUSE_CSW, .lacks = "-t w: context switches" },
	/* attached by the daemon to each event some trace asks for (ktr_tp.c) */
	{ 'k', KTRFAC_TRACEPOINT, "tracepoint",
	  "kernel tracepoints, those -e names (implied by -e)", "kernel events (ktraceb -e)",
	  .shows = { KTR_TRACEPOINT }, .does = KTR_FAC_EVENTS, .prog = "ktr_tp_record",
	  .load = KTR_LOAD_ENTER, .attach = KTR_ATTACH_APART, .refuse = KTR_REFUSE_TP,
	  .lacks = "-e: kernel events" },
	{ '+', KTR_DEF_POINTS, "default", "the default set", "the default set (cnisu)",
	  .prog = NULL },
	/*
	 * -k's, no letter: the user stack of each call traced, taken with its
	 * CALL (syscall.bpf.c), unwound by kdump with the objects the trace
	 * is told; kdump -t c shows them
	 */
	{ '\0', KTRFAC_USTACK, "ustack", "the user stack of each call (-k, -K size)", "user stacks",
	  .option = 'k', .does = KTR_FAC_OBJECTS, .needs = KTRFAC_SYSCALL,
	  .unmet = "-k: the stacks are those of the calls: trace them (-t c)", .prog = NULL },
	{ 0 },
};

const unsigned int ktr_ntrpoints = sizeof(ktr_trpoints) / sizeof(ktr_trpoints[0]) - 1;
_Static_assert(sizeof(ktr_trpoints) / sizeof(ktr_trpoints[0]) - 1 <= KTR_TRPOINTS_MAX,
	       "more rows than KTR_TRPOINTS_MAX");

int ktr_getpoints(const char *trstr)
{
	int facs = 0;

	for (; *trstr != '\0'; trstr++) {
		unsigned int i = 0;

		while (i < ktr_ntrpoints && ktr_trpoints[i].letter != *trstr)
			i++;
		if (i == ktr_ntrpoints)
			return -1;
		facs |= ktr_trpoints[i].facs;
	}
	return facs;
}

unsigned int ktr_facs_that(unsigned int does)
{
	unsigned int facs = 0;

	for (unsigned int i = 0; i < ktr_ntrpoints; i++)
		if (ktr_trpoints[i].does & does)
			facs |= ktr_trpoints[i].facs;
	return facs;
}

unsigned int ktr_facs_of_option(char option)
{
	for (unsigned int i = 0; i < ktr_ntrpoints; i++)
		if (option != '\0' && ktr_trpoints[i].option == option)
			return ktr_trpoints[i].facs;
	return 0;
}

unsigned int ktr_facs_compact(void)
{
	unsigned int facs = 0;

	for (unsigned int i = 0; i < ktr_ntrpoints; i++)
		facs |= ktr_trpoints[i].compact;
	return facs;
}

unsigned int ktr_facs_between(enum ktr_between by)
{
	unsigned int facs = 0;

	for (unsigned int i = 0; i < ktr_ntrpoints; i++)
		if (by != KTR_BETWEEN_NONE && ktr_trpoints[i].between.by == by)
			facs |= ktr_trpoints[i].between.facs;
	return facs;
}

unsigned int ktr_facs_showing(int type)
{
	for (unsigned int i = 0; i < ktr_ntrpoints; i++)
		for (size_t j = 0; j < sizeof(ktr_trpoints[i].shows) / sizeof(int); j++)
			if (type > 0 && ktr_trpoints[i].shows[j] == type)
				return ktr_trpoints[i].facs;
	return type > 0 && type < 32 ? 1u << type : 0;
}

const char *ktr_facs_unmet(unsigned int facs)
{
	for (unsigned int i = 0; i < ktr_ntrpoints; i++) {
		const struct ktr_trpoint *t = &ktr_trpoints[i];

		if ((facs & t->facs) && (facs & t->needs) != (unsigned int)t->needs)
			return t->unmet;
	}
	return NULL;
}
