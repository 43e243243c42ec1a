// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
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
#include "trstr.h"

/* The program that sends a thread's stage on when it is switched out (csw.bpf.c). */
#define STAGE_PROG "ktr_csw_switch"

struct ktr_attach {
	struct ktr_bpf *b;
	bool detached; /* no trace: the always-on programs detached */
	bool pinned; /* links and procs pinned: a recording exists */
	bool pin_failed; /* said once in the log */
	bool staging; /* sched_switch attached for the stages, and they are on */
	__u32 facs; /* the facilities some process is traced with */
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
 * refused it gets every record into the ring buffer directly.  Each
 * attachment has a number of its own: what the switch program noted in
 * the stages while attached before is known for old (csw.bpf.c).
 */
static void attach__staging_on(struct ktr_attach *a)
{
	if (a->staging || ktr_loader__prog_missing(STAGE_PROG))
		return;
	if (ktr_loader__attach_prog(a->b, STAGE_PROG, true) < 0) {
		syslog(LOG_WARNING, "cannot attach the context-switch program: records unstaged");
		return;
	}
	/* (counted in the object, which a cached one keeps with its stages) */
	if (++a->b->bss->ktr_stage_attachments == 0)
		a->b->bss->ktr_stage_attachments = 1;
	__atomic_store_n(&a->b->bss->ktr_stage_on, a->b->bss->ktr_stage_attachments,
			 __ATOMIC_SEQ_CST);
	a->staging = true;
}

/*
 * The programs of the facilities attached while some process is traced
 * with them (their rows' KTR_ATTACH_TRACED, trstr.c), attached or detached
 * as a->facs wants them; one the stages hold stays.
 */
static void attach__traced(struct ktr_attach *a)
{
	for (unsigned int i = 0; i < ktr_ntrpoints; i++) {
		const struct ktr_trpoint *t = &ktr_trpoints[i];
		bool want = (a->facs & t->facs) != 0;

		if (t->attach != KTR_ATTACH_TRACED || !t->prog)
			continue;
		if (want && ktr_loader__missing(t->facs))
			continue; /* said to each trace that asked (ktr_request_set.c) */
		if (a->staging && strcmp(t->prog, STAGE_PROG) == 0)
			continue; /* attached for the stages, which its records go through too */
		if (ktr_loader__attach_prog(a->b, t->prog, want) < 0)
			syslog(LOG_WARNING, "cannot attach the program of -t %c (%s)", t->letter,
			       t->prog);
	}
}

/* Off before sched_switch goes; what the stages hold is sent on by the drain. */
static void attach__staging_off(struct ktr_attach *a)
{
	if (!a->staging)
		return;
	__atomic_store_n(&a->b->bss->ktr_stage_on, 0, __ATOMIC_SEQ_CST);
	a->staging = false;
	attach__traced(a); /* sched_switch goes, unless 'w' wants it */
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

void ktr_attach__facs(struct ktr_attach *a, __u32 facs)
{
	a->facs = facs;
	attach__traced(a);
}

void ktr_attach__more(struct ktr_attach *a, __u32 facs)
{
	ktr_attach__facs(a, a->facs | facs);
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
