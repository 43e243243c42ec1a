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
	  "calls and returns", .prog = "ktr_syscall_enter", .load = KTR_LOAD_ENTER,
	  .attach = KTR_ATTACH_APART, .refuse = KTR_REFUSE_SYS_ENTER },
	/* n and i: sys_exit's */
	{ 'n', KTRFAC_NAMEI, "namei", "path names (namei)", "paths", .prog = NULL },
	{ 'i', KTRFAC_GENIO, "genio",
	  "data read and written (genio), up to -s iosize bytes per I/O", "I/O data",
	  .prog = NULL },
	{ 's', KTRFAC_PSIG, "psig", "signals delivered (psig)", "signals",
	  .prog = "ktr_psig_deliver", .load = KTR_LOAD_ENTER, .attach = KTR_ATTACH_ALWAYS },
	/* attached by the daemon to the probe sites it finds (ktr_usdt.c) */
	{ 'u', KTRFAC_USER, "user",
	  "user records: the programs' own (utrace(), spans of\n"
	  "     <ktraceb/utrace.h>: the ktraceb provider's USDT probes), and the\n"
	  "     probes of runtimes and libraries -e usdt: names",
	  "user records", .prog = "ktr_usdt_record", .load = KTR_LOAD_USDT,
	  .attach = KTR_ATTACH_APART, .refuse = KTR_REFUSE_USDT, .lacks = "-t u: USDT probes" },
	/* sched_switch runs on every switch machine-wide */
	{ 'w', KTRFAC_CSW, "csw", "context switches (csw)", "context switches",
	  .prog = "ktr_csw_switch", .load = KTR_LOAD_ENTER, .attach = KTR_ATTACH_TRACED,
	  .refuse = KTR_REFUSE_CSW, .lacks = "-t w: context switches" },
	/* attached by the daemon to each event some trace asks for (ktr_tp.c) */
	{ 'k', KTRFAC_TRACEPOINT, "tracepoint",
	  "kernel tracepoints, those -e names (implied by -e)", "kernel events (ktraceb -e)",
	  .prog = "ktr_tp_record", .load = KTR_LOAD_ENTER, .attach = KTR_ATTACH_APART,
	  .refuse = KTR_REFUSE_TP, .lacks = "-e: kernel events" },
	{ '+', KTR_DEF_POINTS, "default", "the default set", "the default set (cnisu)",
	  .prog = NULL },
	{ 0 },
};

const unsigned int ktr_ntrpoints = sizeof(ktr_trpoints) / sizeof(ktr_trpoints[0]) - 1;
_Static_assert(sizeof(ktr_trpoints) / sizeof(ktr_trpoints[0]) - 1 <= KTR_TRPOINTS_MAX,
	       "more rows than KTR_TRPOINTS_MAX");

int ktr_getpoints(const char *trstr)
{
	int facs = 0;

	for (; *trstr != '\0'; trstr++) {
		const struct ktr_trpoint *t = ktr_trpoints;

		while (t->letter != '\0' && t->letter != *trstr)
			t++;
		if (t->letter == '\0')
			return -1;
		facs |= t->facs;
	}
	return facs;
}
