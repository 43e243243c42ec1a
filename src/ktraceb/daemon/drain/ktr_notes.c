// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
#include "ktraceb/bpf_procs.h"
#include "ktraceb/bpf_sample.h"
#include "daemon/files/ktr_files.h"
#include "daemon/files/ktr_mappings.h"
#include "ktr_notes.h"
#include "daemon/targets/ktr_proc_usdt.h"
#include "daemon/targets/ktr_procmap.h"
#include "daemon/files/ktr_recorder.h"
#include "daemon/ktr_parts.h"
#include "daemon/usdt/ktr_usdt.h"
#include "trstr.h"

bool ktr_notes__take(const struct ktr_parts *k, const struct ktr_note *n)
{
	struct ktr_proc_state ps;
	bool traced = ktr_procmap__get(k->procs, n->pid, &ps) &&
		      (ps.facs & ktr_facs_that(KTR_FAC_SCANNED)) && !(ps.flags & KTR_PS_PENDING);
	bool held = n->flags & KTR_NOTE_HELD;

	if (n->kind == KTR_NOTE_EXIT)
		return true;
	if (n->kind == KTR_NOTE_FLIGHT) {
		struct ktr_tracefile *f = ktr_files__get(k->files, n->child);

		if (f && ktr_recorder__due(f))
			ktr_recorder__dump_frozen(f);
		return false;
	}
	if (n->kind == KTR_NOTE_FORK) {
		if (traced && k->usdt)
			ktr_usdt__fork(k->usdt, n->pid, n->child, n->flags & KTR_NOTE_CHILD_TRACED);
		/* -k: the child's stacks are unwound with what its parent maps */
		if (traced && (ps.facs & ktr_facs_that(KTR_FAC_OBJECTS)) &&
		    (n->flags & KTR_NOTE_CHILD_TRACED)) {
			struct ktr_tracefile *f = ktr_files__get(k->files, ps.route);

			if (f)
				ktr_mappings__fork(f, n->pid, n->child);
		}
		return false;
	}
	if (traced && ktr_proc_usdt__scan(k, n->pid, ps.route, n->kind == KTR_NOTE_EXEC, held) > 0)
		return false; /* continued when its scans are over */
	if (held)
		ktr_proc_usdt__release(k->procs, n->pid);
	return false;
}
