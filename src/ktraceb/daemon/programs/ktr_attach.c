// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <stdlib.h>
#include <syslog.h>

#include "ktraceb/bpf_captures.h"
#include "ktraceb/bpf_procs.h"
#include "ktraceb/bpf_sample.h"
#include "ktraceb/bpf_ustack.h"
#include "ktraceb/ktr.h"
#include "ktraceb.skel.h"
#include "ktr_attach.h"
#include "ktr_bpf.h"
#include "ktr_loader.h"
#include "ktr_pin.h"

struct ktr_attach {
	struct ktr_bpf *b;
	bool detached; /* no trace: the always-on programs detached */
	bool pinned; /* links and procs pinned: a recording exists */
	bool pin_failed; /* said once in the log */
	bool staging; /* sched_switch attached for the stages, and they are on */
	bool csw_wanted; /* some process is traced with 'w' */
};

struct ktr_attach *ktr_attach__new(struct ktr_bpf *b)
{
	struct ktr_attach *a = calloc(1, sizeof(*a));

	if (!a)
		return NULL;
	a->b = b;
	a->detached = true; /* the loader was told to defer it */
	return a;
}

void ktr_attach__free(struct ktr_attach *a)
{
	if (!a)
		return;
	if (a->pinned)
		ktr_pin__keep(a->b, false);
	free(a);
}

/*
 * The stages (bpf_stage.h) on: sched_switch keeps each thread's records in
 * order, so staging is on only while it is attached.  A kernel that
 * refused it gets every record into the ring buffer directly.
 */
static void attach__staging_on(struct ktr_attach *a)
{
	if (a->staging || ktr_loader__missing(KTRFAC_CSW))
		return;
	if (ktr_loader__attach_csw(a->b, true) < 0) {
		syslog(LOG_WARNING, "cannot attach the context-switch program: records unstaged");
		return;
	}
	__atomic_store_n(&a->b->bss->ktr_stage_on, 1, __ATOMIC_SEQ_CST);
	a->staging = true;
}

/* Off before sched_switch goes; what the stages hold is sent on by the drain. */
static void attach__staging_off(struct ktr_attach *a)
{
	if (!a->staging)
		return;
	__atomic_store_n(&a->b->bss->ktr_stage_on, 0, __ATOMIC_SEQ_CST);
	a->staging = false;
	if (!a->csw_wanted)
		ktr_loader__attach_csw(a->b, false);
}

int ktr_attach__start(struct ktr_attach *a)
{
	int err;

	if (!a->detached)
		return 0;
	err = ktr_loader__attach(a->b);
	if (err)
		return err;
	a->detached = false;
	return 0;
}

bool ktr_attach__idle(struct ktr_attach *a)
{
	if (a->detached)
		return false;
	attach__staging_off(a);
	ktr_loader__detach(a->b);
	a->detached = true;
	return true;
}

void ktr_attach__enter(struct ktr_attach *a, bool want)
{
	if (a->detached)
		return;
	if (ktr_loader__attach_enter(a->b, want) < 0)
		syslog(LOG_WARNING, "cannot attach the syscall entry program");
	else if (want && a->pinned)
		ktr_pin__keep(a->b, true); /* its link outlives us with the others */
}

void ktr_attach__stages(struct ktr_attach *a, bool want)
{
	if (want && !a->detached)
		attach__staging_on(a);
	else if (!want)
		attach__staging_off(a);
}

void ktr_attach__csw(struct ktr_attach *a, bool want)
{
	a->csw_wanted = want;
	if (want && ktr_loader__missing(KTRFAC_CSW))
		return; /* said to each trace that asked (ktr_request_set.c) */
	if (a->staging)
		return; /* attached for the stages, which the 'w' records go through too */
	if (ktr_loader__attach_csw(a->b, want) < 0)
		syslog(LOG_WARNING, "cannot attach the context-switch program");
}

int ktr_attach__load_groups(struct ktr_attach *a, const char **why)
{
	return ktr_loader__load_groups(a->b, why);
}

int ktr_attach__groups(struct ktr_attach *a, bool want)
{
	int err;

	if (a->detached)
		return want ? -ENOENT : 0;
	err = ktr_loader__attach_groups(a->b, want);
	if (!err && want && a->pinned)
		ktr_pin__keep(a->b, true); /* their links outlive us with the others */
	return err;
}

void ktr_attach__pins(struct ktr_attach *a, bool want)
{
	if (want == a->pinned || !ktr_pin__enabled())
		return;
	if (ktr_pin__keep(a->b, want) == 0 || !want)
		a->pinned = want;
	else if (!a->pin_failed)
		syslog(LOG_WARNING, "cannot pin the programs: recordings end with the daemon");
	a->pin_failed = want && !a->pinned;
}
