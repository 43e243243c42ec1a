/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The procs map: pid -> tracing state, BSD's p_traceflag and trace node,
 * shared with the BPF programs (bpf_procs.h).  Every change of it goes
 * through this part: after one, the syscall programs' copies of its
 * entries are stale (the generation is bumped), and a process enters it
 * only after its bit in ktr_traced is set.  Who may set which entry is
 * ktr_policy.h's to say; this part only reads, writes and lists them.
 */
#ifndef KTRACEB_KTR_PROCMAP_H
#define KTRACEB_KTR_PROCMAP_H

#include <stdbool.h>
#include <linux/types.h>
#include "ktraceb/bpf_procs.h"

struct ktr_proc_state;
struct ktr_procmap;
struct ktr_bpf;

/* The procs map of b (a dead daemon's, if the loader was given it: ktr_pin.h). */
struct ktr_procmap *ktr_procmap__new(struct ktr_bpf *b);
void ktr_procmap__free(struct ktr_procmap *pm);

/* Process pid's entry into *ps: false if it has none. */
bool ktr_procmap__get(const struct ktr_procmap *pm, __u32 pid, struct ktr_proc_state *ps);
/* Process tgid is about to enter the map: its bit in ktr_traced first (bpf_procs.h). */
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

#endif /* KTRACEB_KTR_PROCMAP_H */
