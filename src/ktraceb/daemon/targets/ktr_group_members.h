/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * A traced group's members when its trace begins (ktr_groups.h): the
 * processes in cgroup.procs of the group and of each sub-group, each set
 * as -p sets one (ktr_policy.h's three steps for a user) with the
 * group's state, and said in the file (a KTR_CGROUP MEMBER record, its
 * threads' ids in THREAD records, a PROCCTOR); and the records the daemon
 * writes of a group.
 */
#ifndef KTRACEB_KTR_GROUP_MEMBERS_H
#define KTRACEB_KTR_GROUP_MEMBERS_H

#include <linux/types.h>

#include "ktraceb/bpf_procs.h"

struct ktr_caller;
struct ktr_parts;
struct ktr_tracefile;

/*
 * Set the members of the group at path (below the cgroup2 root mounted at
 * mnt), whose processes get *tmpl, into route r: how many are traced
 * (those already traced by the group too); those left out counted into
 * out by why.
 */
int ktr_group_members__set(const struct ktr_parts *k, const struct ktr_caller *c,
			   const struct ktr_proc_state *tmpl, const char *mnt, const char *path,
			   __u64 out[KTR_CGROUP_SKIPS]);

/* The traced group is the container label names ("RUNTIME NAME ID"): said in f. */
void ktr_group_members__container(struct ktr_tracefile *f, __u64 id, const char *label);

/* The group's left-out counts, a SKIPPED record of the daemon's, into f. */
void ktr_group_members__skipped(struct ktr_tracefile *f, __u64 id, const char *path,
				const __u64 counts[KTR_CGROUP_SKIPS]);

#endif /* KTRACEB_KTR_GROUP_MEMBERS_H */
