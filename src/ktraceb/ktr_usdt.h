/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * USDT probes of the processes traced with 'u' (bpf/user.bpf.c records
 * their hits).
 *
 * Attached once per file: every probe site of a file some traced process
 * maps gets a uprobe for every process (one uprobe_multi link per file
 * where the kernel has them, 6.6 and later: they need only CAP_BPF and
 * CAP_PERFMON, where a uprobe perf event needs CAP_SYS_ADMIN), without the kernel's
 * semaphore counting, which would arm the probe in every process on the
 * machine that maps the file (a Python interpreter's function probes, say).
 * Armed per process: the daemon raises a probe's semaphore in each traced
 * process itself (through /proc/PID/mem) and lowers it when the tracing
 * ends; a child forked with the tracing keeps its parent's armed copy.
 *
 * A file is probed only if the trace's owner can read it, checked by
 * opening it with the owner's rights (ktr_creds__as_owner).
 */
#ifndef KTRACEB_KTR_USDT_H
#define KTRACEB_KTR_USDT_H

#include <stdbool.h>
#include <sys/types.h>
#include <linux/types.h>

#include "ktr_loader.h"

struct ktraceb_bpf;
struct ktr_usdt;

/* mode: ktr_loader__usdt_mode(); with KTR_USDT_NONE nothing is ever attached. */
struct ktr_usdt *ktr_usdt__new(struct ktraceb_bpf *skel, enum ktr_usdt_mode mode);
/* Lower every semaphore raised, detach every probe. */
void ktr_usdt__free(struct ktr_usdt *u);

/*
 * Process pid, traced with 'u' into a file owned by uid/gid, maps what
 * /proc/pid/maps says: attach and arm what is new.  exec: it has a new
 * image (what was armed in the old one is gone).  Returns how many probe
 * sites it has armed or attached, or -errno.
 */
int ktr_usdt__scan(struct ktr_usdt *u, pid_t pid, uid_t uid, gid_t gid, bool exec);

/* pid forked child: a traced child shares what was armed, an untraced one is disarmed. */
void ktr_usdt__fork(struct ktr_usdt *u, pid_t pid, pid_t child, bool child_traced);

/* pid is no longer traced with 'u' (cleared, or gone): disarm it. */
void ktr_usdt__forget(struct ktr_usdt *u, pid_t pid);

/* The processes it keeps state for, to check against the procs map. */
int ktr_usdt__pids(const struct ktr_usdt *u, pid_t **out);

#endif /* KTRACEB_KTR_USDT_H */
