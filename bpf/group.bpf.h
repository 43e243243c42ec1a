/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Processes traced by their cgroup (ktraceb -G, bpf_shared.h): the traced
 * group a cgroup is in, whether a process may enter its trace, the entry,
 * the move out, and the KTR_CGROUP records that say where it was.  For the
 * fork program (proc.bpf.c) and the cgroup ones (cgroup.bpf.c).
 */
#ifndef KTRACEB_GROUP_BPF_H
#define KTRACEB_GROUP_BPF_H

#include "procs.bpf.h"
#include "record.bpf.h"

/*
 * The global functions of cgroup.bpf.c, each verified once, not in every
 * path of the programs that call them: kernel pointers go to them as
 * numbers (group__num), read with BPF_CORE_READ there.
 */
/* The slot of the traced group cgroup cg is in or below (the deepest), 0 if none. */
int group__slot_of(__u64 cg);
/*
 * task's process (task is its main thread) enters the group of slot, if
 * the group may take it (else it is counted as left out); what, id, path
 * (0: the group's own) as the record says.  1 if it is traced now.
 */
int group__enter(__u64 task, __u32 slot, __u32 what, __u64 id, __u64 path);
/*
 * A KTR_CGROUP record about task into route's file: what (KTR_CGROUP_*)
 * with its flags (KTR_CGROUP_F_*) above bit 16, path a kernel string (0:
 * none).
 */
int group__record(__u32 route, __u64 task, __u32 what, __u64 id, __u64 path);
#define GROUP_WHAT(what, flags) ((what) | (flags) << 16)

/* A kernel pointer as a number, for a global function (the verifier takes no BTF pointer there). */
static __always_inline __u64 group__num(const void *p)
{
	__u64 v = 0;

	bpf_probe_read_kernel(&v, sizeof(v), &p);
	return v;
}

/* task's process, traced by its group (ps), moved out to cgroup id, path: no longer traced. */
static __always_inline void group__leave(struct task_struct *task, struct ktr_proc_state *ps,
					 __u64 id, const char *path)
{
	__u32 tgid = task->tgid;

	group__record(ps->route, group__num(task), KTR_CGROUP_LEFT, id, group__num(path));
	bpf_map_delete_elem(&procs, &tgid);
	proc__changed();
}

/* A new thread of a process its group traces: its ids, for kdump -N. */
static __always_inline void group__thread(struct task_struct *child)
{
	struct ktr_proc_state *ps = proc__lookup_tgid(child->tgid);

	if (ps && (ps->flags & KTR_PS_GROUP) && !(ps->flags & KTR_PS_QUIET))
		group__record(ps->route, group__num(child), KTR_CGROUP_THREAD, 0, 0);
}

/* A new process (child) not traced by its parent's trace: traced if its cgroup is. */
static __always_inline bool group__fork(struct task_struct *child)
{
	struct cgroup *cg = BPF_CORE_READ(child, cgroups, dfl_cgrp);
	__u32 slot = cg ? group__slot_of((__u64)cg) : 0;

	return slot && group__enter(group__num(child), slot, KTR_CGROUP_FORKED,
				    BPF_CORE_READ(cg, kn, id), 0);
}

#endif /* KTRACEB_GROUP_BPF_H */
