/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Traced cgroups (ktraceb -G; bpf/cgroup.bpf.c, the daemon's ktr_groups.h).
 * A traced group has a slot in the groups array (1 .. KTR_MAX_GROUPS - 1):
 * the procs entry its processes get (KTR_PS_GROUP, its slot in group),
 * whose processes a user's group may take, and how many it left out.
 * group_ids names a traced group's slot by its cgroup id; a process is a
 * member when its cgroup or an ancestor has one, looked up at the levels
 * (depths below the root) whose bit ktr_group_levels (.bss) has set: 0
 * while no group is traced, and every program passes by.  group_paths
 * names the slot by the group's path too, so that the group removed and
 * made again (systemctl restart) is traced again from its mkdir.
 * Membership is decided by a process's main thread, where the kernel moves
 * it: at fork, at a move (cgroup_attach_task) and at mkdir.
 */
#ifndef KTRACEB_BPF_GROUPS_H
#define KTRACEB_BPF_GROUPS_H

#include "ktraceb/ktr.h"
#include "ktraceb/bpf_procs.h"

#define KTR_MAX_GROUPS	    256
#define KTR_MAX_GROUP_IDS   4096 /* traced cgroups, made again ones included */
#define KTR_GROUP_LEVELS    32 /* a traced group is at most this deep below the root */
struct ktr_group {
	struct ktr_proc_state ps; /* what its processes get */
	__u32 uid; /* a user's group (no KTRFAC_ROOT in ps.facs): only his processes */
	__u32 gid;
	__u32 live; /* set last by the daemon, cleared first */
	__u32 level; /* its depth below the root */
	__u64 skipped[KTR_CGROUP_SKIPS]; /* processes left out by BPF, by why */
	char path[KTR_CGROUP_PATH_MAX]; /* below the cgroup2 root, "/system.slice/x.service" */
};
struct ktr_group_path {
	char path[KTR_CGROUP_PATH_MAX]; /* NUL-padded */
};

#endif /* KTRACEB_BPF_GROUPS_H */
