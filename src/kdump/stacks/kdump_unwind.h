/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * A -k stack copy unwound (KTR_USTACK with KTR_USTACK_F_REGS, ktr.h): the
 * registers at the call and the stack bytes the record holds, the objects
 * at the addresses the process mapped them (kdump_mappings.h), as found on
 * this machine (kdump_syms.h), unwound with elfutils' unwinder by each
 * object's DWARF call frame information (.eh_frame, .debug_frame), as
 * perf's --call-graph dwarf does.  Where an object has none, elfutils
 * falls back on the frame pointer; a frame found so is kept only if its
 * return address follows a call instruction, and the unwind ends there
 * otherwise.  No address is taken for a frame unless it is one: where the
 * unwind ends early, why is said instead (the stack copy ends, no object
 * is mapped there, an object is not on this machine, ...).
 */
#ifndef KDUMP_UNWIND_H
#define KDUMP_UNWIND_H

#include <stdbool.h>
#include <linux/types.h>

#include "ktraceb/ktr.h"
#include "kdump_mappings.h"

#define KD_UNWIND_MAX 128 /* frames unwound per stack at most */

struct kdump_syms;
struct kd_unwinder;

struct kd_unwound {
	unsigned int n;
	/* each frame as a walk's would be: build id and file offset, else the address */
	struct ktr_ustack_frame f[KD_UNWIND_MAX];
	char stop[320]; /* why the unwind ends where it does; "" at the outermost frame */
};

struct kd_unwinder *kd_unwinder__new(struct kdump_syms *syms);
void kd_unwinder__free(struct kd_unwinder *u);

/*
 * The stack of thread tid of process pid: the registers (ur, regs) and
 * stack bytes of its record, unwound over maps[0..nmaps) (key: the
 * mappings' kd_mappings__at key).  The result into out.
 */
void kd_unwinder__run(struct kd_unwinder *u, __s32 pid, __s32 tid, const struct ktr_uregs *ur,
		      const __u64 *regs, const unsigned char *stack, size_t stack_len,
		      const struct kd_mapping *maps, size_t nmaps, __u64 key, struct kd_unwound *out);

#endif /* KDUMP_UNWIND_H */
