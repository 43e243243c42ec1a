// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* The USDT scans of traced processes (ktr_proc_usdt.h). */
#include <stdlib.h>
#include <signal.h>
#include <bpf/bpf.h>

#include "ktraceb/bpf_procs.h"
#include "daemon/files/ktr_files.h"
#include "daemon/files/ktr_mappings.h"
#include "daemon/files/ktr_selection.h"
#include "daemon/usdt/ktr_usdt.h"
#include "daemon/ktr_parts.h"
#include "ktr_proc_usdt.h"
#include "ktr_procmap.h"
#include "trstr.h"

/* What a process traced with facs has its files scanned for (ktr_usdt.h). */
static unsigned int proc_usdt__want(__u32 facs)
{
	return ((facs & ktr_facs_that(KTR_FAC_PROBES)) ? KTR_USDT_PROBES : 0) |
	       ((facs & ktr_facs_that(KTR_FAC_OBJECTS)) ? KTR_USDT_OBJECTS : 0);
}

int ktr_proc_usdt__scan(const struct ktr_parts *k, pid_t pid, __u32 route, bool exec, bool held)
{
	struct ktr_tracefile *f = ktr_files__get(k->files, route);
	struct ktr_proc_state ps;

	if (!f || !k->usdt || !ktr_procmap__get(k->procs, pid, &ps))
		return 0;
	if (exec && (ps.facs & ktr_facs_that(KTR_FAC_OBJECTS)))
		ktr_mappings__exec(f, pid); /* before the new image's mappings */
	return ktr_usdt__scan(k->usdt, pid, f->owner, f->owner_gid, exec, held,
			      proc_usdt__want(ps.facs), ktr_selection__usdt(k->selection, route));
}

bool ktr_proc_usdt__traced(const struct ktr_procmap *pm, pid_t pid)
{
	struct ktr_proc_state ps;

	return ktr_procmap__get(pm, pid, &ps) && (ps.facs & ktr_facs_that(KTR_FAC_SCANNED)) &&
	       !(ps.flags & KTR_PS_PENDING);
}

void ktr_proc_usdt__release(struct ktr_procmap *pm, pid_t pid)
{
	struct ktr_proc_state ps;

	if (ktr_procmap__get(pm, pid, &ps) && (ps.flags & KTR_PS_HELD)) {
		ps.flags &= ~KTR_PS_HELD;
		ktr_procmap__put(pm, pid, &ps, BPF_EXIST);
	}
	kill(pid, SIGCONT);
}

void ktr_proc_usdt__sweep(struct ktr_usdt *u, const struct ktr_procmap *pm)
{
	pid_t *pids;
	int n = u ? ktr_usdt__pids(u, &pids) : 0;

	for (int i = 0; i < n; i++) {
		struct ktr_proc_state ps;

		if (!ktr_procmap__get(pm, pids[i], &ps) ||
		    !(ps.facs & ktr_facs_that(KTR_FAC_SCANNED)))
			ktr_usdt__forget(u, pids[i]);
	}
	if (n >= 0 && u)
		free(pids);
}
