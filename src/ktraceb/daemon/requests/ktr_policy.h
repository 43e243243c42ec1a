/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Who may set or clear tracing on which process, and doing it: BSD's
 * ktrops() on the procs map (ktr_procmap.h), for the requests
 * (ktr_request.c, ktr_request_set.c) and the tick.  The permission is BSD's
 * ktrcanset (ktr_perm__canset).
 *
 * Setting tracing for a non-root caller takes three steps, so that no exec
 * can come between the permission check and the start of tracing:
 *  1. check (ktr_perm__canset), then write the entry PENDING: BPF records
 *     nothing for it, but a set-id exec already deletes it (proc.bpf.c
 *     looks at that before anything else);
 *  2. check again: an exec that finished before step 1 shows now;
 *  3. clear PENDING on the entries still there (BPF_EXIST: never bring back
 *     one BPF deleted), children forked meanwhile included.
 * Root's tracing needs none of it (root may trace anything) and is marked
 * KTRFAC_ROOT, which only this part ever sets.
 */
#ifndef KTRACEB_KTR_POLICY_H
#define KTRACEB_KTR_POLICY_H

#include <stdbool.h>
#include <sys/types.h>
#include <linux/types.h>
#include "ktraceb/bpf_procs.h"

struct ktr_caller;
struct ktr_proc_state;
struct ktr_request;
struct ktr_parts;

/*
 * BSD's ktrops() for each of the n processes pids a SET names, into route
 * r's file, in the three steps above: how many are traced now, with a line
 * in msg for each refused.
 */
int ktr_policy__set(const struct ktr_parts *k, const struct ktr_caller *c,
		    const struct ktr_request *req, const pid_t *pids, int n, int r, char *msg);
/*
 * A pending entry ps of pid the request that made it did not settle (a
 * child forked the moment its parent's tracing started): checked as the
 * file's owner, then started or dropped.
 */
void ktr_policy__settle(const struct ktr_parts *k, __u32 pid, const struct ktr_proc_state *ps);
/*
 * Clear facs (0: all) of pid if c may (BSD: clearing an untraced process
 * succeeds if the caller may trace it); 0 or -errno with a line in msg
 * unless quiet.
 */
int ktr_policy__clear(const struct ktr_parts *k, const struct ktr_caller *c, pid_t pid,
		      __u32 facs, char *msg, bool quiet);

/*
 * The request as route r's file takes it: *eff if it must change (a
 * compact recorder keeps only returns, signals and exits, so the programs
 * need not even build the rest), else req.
 */
const struct ktr_request *ktr_policy__for_file(const struct ktr_parts *k,
					       const struct ktr_request *req, int r,
					       struct ktr_request *eff);

#endif /* KTRACEB_KTR_POLICY_H */
