/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The BPF programs the loader treats apart from the rest, by name: a
 * facility's own, in its row (src/common/trstr.c), and the few that belong
 * to no facility, here (ktr_progs.c): which load each is in, when it is
 * attached, its number for the tests' fault injection, and the facility a
 * trace can do without when the kernel refuses it.  A program with neither
 * is loaded by the calling thread, attached with the others, never refused
 * on purpose and needed by every trace.
 */
#ifndef KTRACEB_KTR_PROGS_H
#define KTRACEB_KTR_PROGS_H

#include <linux/types.h>

#include "trstr.h"

struct ktr_bpf;

struct ktr_prog_role {
	const char *name; /* NULL: a program with no row */
	enum ktr_prog_load load;
	enum ktr_prog_attach attach;
	__u32 refuse; /* KTR_REFUSE_* (bpf_kernel.h): KTRACEB_REFUSE_PROG=name refuses it */
	const struct ktr_trpoint *fac; /* its facility, if a trace can do without it; or NULL */
};

/* name's role (name NULL if it has no row). */
struct ktr_prog_role ktr_prog_role(const char *name);
/* The facility row whose program the kernel may refuse alone, of index i; or NULL. */
const struct ktr_trpoint *ktr_prog_optional(unsigned int i);
/* The name of the first program a row names that the skeleton lacks, or NULL. */
const char *ktr_progs__unknown(const struct ktr_bpf *b);

#endif /* KTRACEB_KTR_PROGS_H */
