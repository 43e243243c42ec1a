/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The facilities a trace can do without: when the kernel refuses the
 * program of one (ktr_progs.c names it), that facility alone is refused
 * (the loader loads the others without it; the daemon says so to each
 * trace that asks for it and runs the rest).  A refusal of any other
 * program fails the whole load.  Read by ktr_loader.c and
 * ktr_request_set.c.
 */
#ifndef KTRACEB_KTR_OPTIONAL_H
#define KTRACEB_KTR_OPTIONAL_H

#include <linux/types.h>

struct ktr_optional {
	__u32 fac; /* the KTRFAC_* bit */
	const char *what; /* said in "... are not recorded on this kernel" */
};

#define KTR_NOPTIONAL 3
/* In the order a trace is told which it lacks. */
extern const struct ktr_optional ktr_optional[KTR_NOPTIONAL];

#endif /* KTRACEB_KTR_OPTIONAL_H */
