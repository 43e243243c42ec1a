// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Traced cgroups (ktraceb -G, bpf_shared.h): a process moved into a traced
 * group (or below one) is traced from its first system call there, one
 * moved out stops; a sub-group made is named in the trace; the group
 * removed and made again under its path (systemctl restart) is traced
 * again.  Forks are proc.bpf.c's.  The daemon attaches these only while a
 * group is traced: the kernel formats a path for each such event.  Only
 * the cgroup2 hierarchy counts (hierarchy 0): a move in a v1 hierarchy
 * changes no membership.
 */
#include "group.bpf.h"

/* cgrp (a tracepoint's) as a number, and whether it is of the cgroup2 hierarchy. */
static __always_inline struct cgroup *cgroup__v2(struct cgroup *cgrp)
{
	if (!ktr_group_levels || BPF_CORE_READ(cgrp, root, hierarchy_id) != 0)
		return NULL;
	return BPF_CORE_READ(cgrp, self.cgroup);
}

SEC("tp_btf/cgroup_attach_task")
int BPF_PROG(ktr_cgroup_attach, struct cgroup *dst, const char *path, struct task_struct *task,
	     bool threadgroup)
{
	struct cgroup *cg = cgroup__v2(dst);
	struct ktr_proc_state *ps;
	__u32 slot;
	__u64 id;

	/* a thread moved alone: its process stays where its main thread is */
	if (!cg || task->pid != task->tgid)
		return 0;
	slot = group__slot_of(cg);
	id = BPF_CORE_READ(cg, kn, id);
	ps = proc__lookup_tgid(task->tgid);
	if (ps && (ps->flags & KTR_PS_GROUP)) {
		if (ps->group == slot) {
			/* within its group: where it is now */
			group__record(ps->route, task, KTR_CGROUP_MOVED, id, path, 0);
			return 0;
		}
		group__leave(task, ps, id, path);
	}
	if (slot)
		group__enter(task, slot, KTR_CGROUP_MOVED, id, path);
	return 0;
}

/*
 * The group made again: its slot again if the group may have it (a user's
 * group only a directory that is his, as when he traced it).
 */
static __always_inline __u32 cgroup__made_again(struct cgroup *cg, __u32 slot)
{
	struct ktr_group *g = bpf_map_lookup_elem(&groups, &slot);
	struct kernfs_iattrs *ia;
	__u32 uid = 0;

	if (!g || !g->live)
		return 0;
	ia = BPF_CORE_READ(cg, kn, iattr);
	if (ia)
		uid = BPF_CORE_READ(ia, ia_uid.val);
	if (!(g->ps.facs & KTRFAC_ROOT) && uid != g->uid)
		return 0;
	return slot;
}

SEC("tp_btf/cgroup_mkdir")
int BPF_PROG(ktr_cgroup_mkdir, struct cgroup *cgrp, const char *path)
{
	struct cgroup *cg = cgroup__v2(cgrp);
	struct ktr_group_path *key;
	struct ktr_group *g;
	__u32 slot = 0, *slotp;
	__u64 id;

	if (!cg)
		return 0;
	id = BPF_CORE_READ(cg, kn, id);
	key = (struct ktr_group_path *)rec__scratch(); /* free until the record below */
	if (key) {
		__builtin_memset(key, 0, sizeof(*key));
		bpf_probe_read_kernel_str(key->path, sizeof(key->path), path);
		slotp = bpf_map_lookup_elem(&group_paths, key);
		slot = slotp ? cgroup__made_again(cg, *slotp) : 0;
		if (slot)
			bpf_map_update_elem(&group_ids, &id, &slot, BPF_ANY);
	}
	if (!slot)
		slot = group__slot_of(cg); /* a sub-group of a traced group */
	g = slot ? bpf_map_lookup_elem(&groups, &slot) : NULL;
	if (g && g->live)
		group__record(g->ps.route, bpf_get_current_task_btf(), KTR_CGROUP_MADE, id, path, 0);
	return 0;
}

SEC("tp_btf/cgroup_rmdir")
int BPF_PROG(ktr_cgroup_rmdir, struct cgroup *cgrp, const char *path)
{
	struct cgroup *cg = cgroup__v2(cgrp);
	struct ktr_group *g;
	__u32 slot, *slotp;
	__u64 id;

	if (!cg)
		return 0;
	slot = group__slot_of(cg);
	g = slot ? bpf_map_lookup_elem(&groups, &slot) : NULL;
	if (g && g->live)
		group__record(g->ps.route, bpf_get_current_task_btf(), KTR_CGROUP_REMOVED,
			      BPF_CORE_READ(cg, kn, id), path, 0);
	/* a traced group's id goes with it: ids are never used again */
	id = BPF_CORE_READ(cg, kn, id);
	slotp = bpf_map_lookup_elem(&group_ids, &id);
	if (slotp)
		bpf_map_delete_elem(&group_ids, &id);
	return 0;
}
