// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <stddef.h>
#include <string.h>

#include "ktraceb/bpf_kernel.h"
#include "ktraceb/ktr.h"
#include "ktr_bpf.h"
#include "ktr_progs.h"

/* KTR_PROG(p) fails to build if the skeleton has no program p. */
#define ROW(p) #p, KTR_PROG(p)

static const struct ktr_prog_role roles[] = {
	/*
	 * sys_enter runs on every syscall machine-wide: attached by the
	 * daemon only while some trace needs it (a compact recorder needs
	 * only sys_exit's returns).
	 */
	{ ROW(ktr_syscall_enter), KTR_LOAD_ENTER, true, KTR_REFUSE_SYS_ENTER, 0 },
	{ ROW(ktr_psig_deliver), KTR_LOAD_ENTER, false, 0, 0 },
	{ ROW(ktr_proc_exec), KTR_LOAD_ENTER, false, 0, 0 },
	/* attached by the daemon to each event some trace asks for (ktr_tp.c) */
	{ ROW(ktr_tp_record), KTR_LOAD_ENTER, true, KTR_REFUSE_TP, KTRFAC_TRACEPOINT },
	/*
	 * sched_switch runs on every switch machine-wide: loaded, but
	 * attached by the daemon only while some process is traced with 'w'.
	 */
	{ ROW(ktr_csw_switch), KTR_LOAD_ENTER, true, KTR_REFUSE_CSW, KTRFAC_CSW },
	/* attached by the daemon to the probe sites it finds (ktr_usdt.c) */
	{ ROW(ktr_usdt_record), KTR_LOAD_USDT, true, KTR_REFUSE_USDT, KTRFAC_USER },
	/* never attached: the daemon runs it on a CPU (ktr_drain.c) */
	{ ROW(ktr_stage_flush), KTR_LOAD_EXIT, true, 0, 0 },
	/*
	 * attached only while a cgroup is traced (-G): the kernel formats a
	 * path for each cgroup event a program is on
	 */
	{ ROW(ktr_cgroup_attach), KTR_LOAD_GROUPS, true, 0, 0 },
	{ ROW(ktr_cgroup_mkdir), KTR_LOAD_GROUPS, true, 0, 0 },
	{ ROW(ktr_cgroup_rmdir), KTR_LOAD_GROUPS, true, 0, 0 },
	{ ROW(ktr_cgroup_fork), KTR_LOAD_GROUPS, true, 0, 0 },
};

const struct ktr_prog_role *ktr_prog_role(const char *name)
{
	static const struct ktr_prog_role none = { .name = NULL };

	for (size_t i = 0; i < sizeof(roles) / sizeof(roles[0]); i++)
		if (strcmp(name, roles[i].name) == 0)
			return &roles[i];
	return &none;
}
