// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <stddef.h>

#include "ktraceb/ktr.h"
#include "trstr.h"

const struct ktr_trpoint ktr_trpoints[] = {
	/* with the structures they pass and exec's argv/envp */
	{ 'c', KTRFAC_SYSCALL | KTRFAC_SYSRET | KTRFAC_STRUCT | KTRFAC_ARGS | KTRFAC_ENVS,
	  "syscall",
	  "system calls and returns, with the structures they pass and\n"
	  "     exec's arguments and environment",
	  "calls and returns" },
	{ 'n', KTRFAC_NAMEI, "namei", "path names (namei)", "paths" },
	{ 'i', KTRFAC_GENIO, "genio",
	  "data read and written (genio), up to -s iosize bytes per I/O", "I/O data" },
	{ 's', KTRFAC_PSIG, "psig", "signals delivered (psig)", "signals" },
	{ 'u', KTRFAC_USER, "user",
	  "user records: the programs' own (utrace(), spans of\n"
	  "     <ktraceb/utrace.h>: the ktraceb provider's USDT probes), and the\n"
	  "     probes of runtimes and libraries -e usdt: names",
	  "user records" },
	{ 'w', KTRFAC_CSW, "csw", "context switches (csw)", "context switches" },
	{ 'k', KTRFAC_TRACEPOINT, "tracepoint",
	  "kernel tracepoints, those -e names (implied by -e)", "kernel events (ktraceb -e)" },
	{ '+', KTR_DEF_POINTS, "default", "the default set", "the default set (cnisu)" },
	{ '\0', 0, NULL, NULL, NULL },
};

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
