/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * A CALL record's payload (struct ktr_syscall, ktr.h), made in one place
 * for the three ways a CALL leaves: at once (syscall.bpf.c), kept in the
 * stage and written out later (stage.bpf.c), or with its RET as one staged
 * pair (syscall.bpf.c).  The header stays each maker's: its type, time and
 * ABI flag differ.
 */
#ifndef KTRACEB_CALL_BPF_H
#define KTRACEB_CALL_BPF_H

#include "maps.bpf.h"
#include "ktraceb/bpf_sample.h"

/* A CALL record as it leaves: struct ktr_syscall with room for every argument. */
struct call_sample {
	struct ktr_sample s;
	struct ktr_header h;
	struct {
		__s16 ktr_code;
		__s16 ktr_narg;
		__u32 ktr_pad;
		__u64 ktr_args[KTR_MAXARGS];
	} c;
};

_Static_assert(sizeof(((struct call_sample *)0)->c) ==
		       sizeof(struct ktr_syscall) + KTR_MAXARGS * sizeof(__u64),
	       "the CALL payload is struct ktr_syscall");

/*
 * Fill rec's payload with call code's first narg of args (at most
 * KTR_MAXARGS; the rest of the room zeroed) and return its ktr_len.  narg
 * is capped before anything is indexed by it, and the loop's bound is a
 * constant, so every verifier sees each store in bounds.
 */
static __always_inline __u32 call__fill(struct call_sample *rec, long code, __u32 narg,
					const __u64 *args)
{
	if (narg > KTR_MAXARGS)
		narg = KTR_MAXARGS;
	rec->c.ktr_code = code;
	rec->c.ktr_narg = narg;
	rec->c.ktr_pad = 0;
	for (int i = 0; i < KTR_MAXARGS; i++)
		rec->c.ktr_args[i] = i < narg ? args[i] : 0;
	return sizeof(struct ktr_syscall) + narg * sizeof(__u64);
}

#endif /* KTRACEB_CALL_BPF_H */
