/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The system-wide trace (ktraceb -S, root's alone): the -e events of every
 * task on the machine into one trace file, through per-CPU buffers
 * (ktr_cpubuf.h) rather than the ring.  One at a time; with no process of
 * its own ("alone") it lasts until ktraceb -c or -C.
 */
#ifndef KTRACEB_KTR_SYSWIDE_H
#define KTRACEB_KTR_SYSWIDE_H

#include <stdbool.h>
#include <linux/types.h>

struct ktr_files;
struct ktr_syswide;
struct ktr_bpf;

/*
 * None yet, for b's programs into files' files; the buffers, when one
 * starts, wake the loop's epoll ep with wake, and share ring_bytes out.
 */
struct ktr_syswide *ktr_syswide__new(struct ktr_bpf *b, struct ktr_files *files, int ep,
				     void *wake, unsigned long long ring_bytes);
/* Ended first, if one runs. */
void ktr_syswide__free(struct ktr_syswide *sw);

/*
 * Route r becomes the system-wide trace: its events from every task;
 * alone, it has no process.  0, or -errno with a line in msg (one at a
 * time: -EBUSY if another runs).
 */
int ktr_syswide__start(struct ktr_syswide *sw, __u32 r, bool alone, char *msg);
/* It ends: nothing more recorded, its buffers read and closed (the file stays). */
void ktr_syswide__end(struct ktr_syswide *sw);
/* Its route, 0 if none runs. */
__u32 ktr_syswide__route(const struct ktr_syswide *sw);
/* Is route r the system-wide trace with no process (it ends at -c or -C only)? */
bool ktr_syswide__alone(const struct ktr_syswide *sw, __u32 r);
/* What its buffers hold now, into its file. */
void ktr_syswide__drain(struct ktr_syswide *sw);

#endif /* KTRACEB_KTR_SYSWIDE_H */
