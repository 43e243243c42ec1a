/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The procs map: pid -> tracing state, BSD's p_traceflag and trace node,
 * shared with the BPF programs (bpf_shared.h).  Every change of it goes
 * through this part: after one, the syscall programs' copies of its
 * entries are stale (the generation is bumped), and a process enters it
 * only after its bit in ktr_traced is set.
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
#ifndef KTRACEB_KTR_PROCMAP_H
#define KTRACEB_KTR_PROCMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <linux/types.h>

struct ktr_caller;
struct ktr_proc_state;
struct ktr_procmap;
struct ktr_request;
struct ktr_parts;
struct ktr_bpf;

/* The procs map of b (a dead daemon's, if the loader was given it: ktr_pin.h). */
struct ktr_procmap *ktr_procmap__new(struct ktr_bpf *b);
void ktr_procmap__free(struct ktr_procmap *pm);

/* Process pid's entry into *ps: false if it has none. */
bool ktr_procmap__get(const struct ktr_procmap *pm, __u32 pid, struct ktr_proc_state *ps);
/* Process tgid is about to enter the map: its bit in ktr_traced first (bpf_shared.h). */
void ktr_procmap__mark_traced(struct ktr_procmap *pm, __u32 tgid);
int ktr_procmap__put(struct ktr_procmap *pm, __u32 tgid, const struct ktr_proc_state *ps,
		     __u64 flags);
void ktr_procmap__drop(struct ktr_procmap *pm, __u32 tgid);
/* Nothing is traced any more: every ktr_traced bit goes (none is set until a trace starts). */
void ktr_procmap__untrace_all(struct ktr_procmap *pm);
/*
 * The traced pids (of route r, or all with r < 0), collected before any is
 * changed: deleting while walking a hash map can revisit or skip keys.
 * *out is malloc'ed; the count.
 */
int ktr_procmap__keys(const struct ktr_procmap *pm, int r, __u32 **out);

/*
 * BSD's ktrops() for each of the n processes pids a SET names, into route
 * r's file, in the three steps above: how many are traced now, with a line
 * in msg for each refused.
 */
int ktr_procmap__set(const struct ktr_parts *k, const struct ktr_caller *c,
		     const struct ktr_request *req, const pid_t *pids, int n, int r, char *msg);
/*
 * Clear facs (0: all) of pid if c may (BSD: clearing an untraced process
 * succeeds if the caller may trace it); 0 or -errno with a line in msg
 * unless quiet.
 */
int ktr_procmap__clear(const struct ktr_parts *k, const struct ktr_caller *c, pid_t pid,
		       __u32 facs, char *msg, bool quiet);
/*
 * Every process tracing into route r stops; their pids, " 12 34" as far as
 * they fit, in pids.
 */
void ktr_procmap__stop_route(const struct ktr_parts *k, int r, char *pids, size_t size);
/*
 * The tick's scan: processes counted per file (nprocs), entries whose
 * process or file is gone dropped, pending ones the request that made them
 * did not settle (a child forked the moment its parent's tracing started)
 * checked as the file's owner, then started or dropped.  Does any process
 * want context switches?
 */
bool ktr_procmap__scan(const struct ktr_parts *k);

/*
 * Attach the USDT probes of pid, traced with 'u' into route's file (its
 * files scanned first, as the file's owner): how many scans it waits for
 * (held: it is stopped until they end), or -errno.
 */
int ktr_procmap__usdt_scan(const struct ktr_parts *k, pid_t pid, __u32 route, bool exec,
			   bool held);
/* Is pid traced with 'u', and no longer pending? */
bool ktr_procmap__usdt_traced(const struct ktr_procmap *pm, pid_t pid);
/* pid, stopped for its probes (KTR_PS_HELD), goes on. */
void ktr_procmap__usdt_release(struct ktr_procmap *pm, pid_t pid);
/* The probes of processes no longer traced with 'u' go. */
void ktr_procmap__usdt_sweep(const struct ktr_parts *k);

#endif /* KTRACEB_KTR_PROCMAP_H */
