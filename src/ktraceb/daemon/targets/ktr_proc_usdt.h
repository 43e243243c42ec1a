/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The USDT scans of traced processes: the files of a process in the procs
 * map traced with 'u' (for its probes) or -k (for the objects its stacks
 * name) are scanned by the USDT part (ktr_usdt.h) as its trace file's
 * owner, and what was found for it is forgotten when that tracing ends.
 */
#ifndef KTRACEB_KTR_PROC_USDT_H
#define KTRACEB_KTR_PROC_USDT_H

#include <stdbool.h>
#include <sys/types.h>
#include <linux/types.h>

struct ktr_procmap;
struct ktr_parts;
struct ktr_usdt;

/*
 * Attach the USDT probes of pid, traced with 'u' into route's file (its
 * files scanned first, as the file's owner): how many scans it waits for
 * (held: it is stopped until they end), or -errno.
 */
int ktr_proc_usdt__scan(const struct ktr_parts *k, pid_t pid, __u32 route, bool exec, bool held);
/* Is pid traced with 'u', and no longer pending? */
bool ktr_proc_usdt__traced(const struct ktr_procmap *pm, pid_t pid);
/* pid, stopped for its probes (KTR_PS_HELD), goes on. */
void ktr_proc_usdt__release(struct ktr_procmap *pm, pid_t pid);
/* The probes of processes no longer traced with 'u' go (u: none if NULL). */
void ktr_proc_usdt__sweep(struct ktr_usdt *u, const struct ktr_procmap *pm);

#endif /* KTRACEB_KTR_PROC_USDT_H */
