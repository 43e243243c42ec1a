/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Syscall selection (ktraceb -e trace=, -e status=; src/common/ktr_select.h):
 * a trace with one has a slot in the selects array (its processes' state
 * names it, 0 for none), which the syscall programs look up inline: a
 * call not selected costs that look and a bit test, and makes no record.
 * With a status filter, a call's CALL is written at its return, when the
 * return is known to pass, right before its NAMI, STRU, GIO and RET.
 */
#ifndef KTRACEB_BPF_SELECT_H
#define KTRACEB_BPF_SELECT_H

#include "ktraceb/bpf_limits.h"

#define KTR_SELECT_WORDS	(KTR_MAX_SYSCALLS / 64)
#define KTR_MAX_SELECTS		256	/* traces with a selection at once (slot 0: none) */
#define KTR_SELECT_SUCCESSFUL	0x1
#define KTR_SELECT_FAILED	0x2
struct ktr_select_map {
	__u64 native[KTR_SELECT_WORDS];	/* bit nr: syscall nr selected */
	__u64 compat[KTR_SELECT_WORDS];	/* the same for 32-bit (compat) syscalls */
	__u32 status;			/* KTR_SELECT_* wanted, 0 for any */
	__u32 pad;
};

#endif /* KTRACEB_BPF_SELECT_H */
