/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The BPF programs the loader treats apart from the rest, by name, in one
 * table (ktr_progs.c): which load each is in, whether the daemon attaches
 * it on its own, its number for the tests' fault injection, and the
 * facility a trace can do without when the kernel refuses it.  A program
 * with no row is loaded by the calling thread, attached with the others,
 * never refused on purpose and needed by every trace.
 */
#ifndef KTRACEB_KTR_PROGS_H
#define KTRACEB_KTR_PROGS_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

enum ktr_prog_load {
	KTR_LOAD_EXIT, /* by the calling thread */
	KTR_LOAD_ENTER, /* by a second thread */
	KTR_LOAD_USDT, /* when a trace first needs it (ktr_loader__load_usdt) */
	KTR_LOAD_GROUPS, /* at the first -G (ktr_loader__load_groups) */
};

struct ktr_prog_role {
	const char *name;
	size_t index; /* in the skeleton (KTR_PROG) */
	enum ktr_prog_load load;
	bool apart; /* attached by the daemon on its own, not by ktr_loader__attach */
	__u32 refuse; /* KTR_REFUSE_* (bpf_kernel.h): KTRACEB_REFUSE_PROG=name refuses it */
	__u32 fac; /* the KTRFAC_* bit refused alone when it is (ktr_optional.h), or 0 */
};

/* name's row, or the row of a program with none (name NULL). */
const struct ktr_prog_role *ktr_prog_role(const char *name);

#endif /* KTRACEB_KTR_PROGS_H */
