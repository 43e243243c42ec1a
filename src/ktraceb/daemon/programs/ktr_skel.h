/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The programs' object opened through its skeleton (ktraceb.skel.h): the
 * build for this kernel.  The programs are built twice (Makefile,
 * bpf/old_kernel.bpf.h): for Linux 5.12 and later, and for older kernels
 * (no BPF atomics but add: ktr_caps__lacks' KTR_LACKS_ATOMICS), whose
 * object has the same maps, programs and variables
 * (scripts/check_old_bpf.sh), so one skeleton opens either.
 */
#ifndef KTRACEB_KTR_SKEL_H
#define KTRACEB_KTR_SKEL_H

#include <stdbool.h>

struct ktraceb_bpf;

/* Opened, not loaded (ktraceb_bpf__open()), or NULL with errno set. */
struct ktraceb_bpf *ktr_skel__open(void);
/* Is it the build for kernels before 5.12? */
bool ktr_skel__old(void);
/* Which build it is, in words: "for Linux 5.12 and later", "for kernels before 5.12 (...)". */
const char *ktr_skel__build(void);

#endif /* KTRACEB_KTR_SKEL_H */
