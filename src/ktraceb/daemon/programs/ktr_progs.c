// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "ktraceb/bpf_kernel.h"
#include "ktraceb/ktr.h"
#include "ktr_bpf.h"
#include "ktr_progs.h"

/* KTR_PROG(p) fails to build if the skeleton has no program p. */
#define ROW(p) (#p + 0 * KTR_PROG(p))

/* The programs of no facility (a facility's are in its row, trstr.c). */
static const struct ktr_prog_role roles[] = {
	{ ROW(ktr_proc_exec), KTR_LOAD_ENTER, KTR_ATTACH_ALWAYS, 0, NULL },
	/* never attached: the daemon runs it on a CPU (ktr_drain.c) */
	{ ROW(ktr_stage_flush), KTR_LOAD_EXIT, KTR_ATTACH_APART, 0, NULL },
	/*
	 * attached only while a cgroup is traced (-G): the kernel formats a
	 * path for each cgroup event a program is on
	 */
	{ ROW(ktr_cgroup_attach), KTR_LOAD_GROUPS, KTR_ATTACH_APART, 0, NULL },
	{ ROW(ktr_cgroup_mkdir), KTR_LOAD_GROUPS, KTR_ATTACH_APART, 0, NULL },
	{ ROW(ktr_cgroup_rmdir), KTR_LOAD_GROUPS, KTR_ATTACH_APART, 0, NULL },
	{ ROW(ktr_cgroup_fork), KTR_LOAD_GROUPS, KTR_ATTACH_APART, 0, NULL },
	{ ROW(ktr_cgroup_exec), KTR_LOAD_GROUPS, KTR_ATTACH_APART, 0, NULL },
};

struct ktr_prog_role ktr_prog_role(const char *name)
{
	struct ktr_prog_role none = { .name = NULL };

	for (unsigned int i = 0; i < ktr_ntrpoints; i++) {
		const struct ktr_trpoint *t = &ktr_trpoints[i];

		if (t->prog && strcmp(name, t->prog) == 0)
			return (struct ktr_prog_role){ t->prog, t->load, t->attach, t->refuse,
						       t->lacks ? t : NULL };
	}
	for (size_t i = 0; i < sizeof(roles) / sizeof(roles[0]); i++)
		if (strcmp(name, roles[i].name) == 0)
			return roles[i];
	return none;
}

const struct ktr_trpoint *ktr_prog_optional(unsigned int i)
{
	return i < ktr_ntrpoints && ktr_trpoints[i].prog && ktr_trpoints[i].lacks ?
		       &ktr_trpoints[i] :
		       NULL;
}

const char *ktr_progs__unknown(const struct ktr_bpf *b)
{
	for (unsigned int i = 0; i < ktr_ntrpoints; i++) {
		const char *prog = ktr_trpoints[i].prog;
		bool found = prog == NULL;

		for (size_t j = 0; j < KTR_NPROGS && !found; j++)
			found = strcmp(prog, ktr_bpf__prog_name(b, j)) == 0;
		if (!found)
			return prog;
	}
	return NULL;
}
