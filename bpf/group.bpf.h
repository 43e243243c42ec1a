/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Processes traced by their cgroup (ktraceb -G, bpf_shared.h): the traced
 * group a cgroup is in, whether a process may enter its trace, the entry,
 * the move out, and the KTR_CGROUP records that say where it was.  For the
 * fork program (proc.bpf.c) and the cgroup ones (cgroup.bpf.c).
 *
 * Cgroup and credential pointers here are read with BPF_CORE_READ alone:
 * they come from reads, not from the tracepoint's arguments, and the
 * verifier knows them as numbers.
 */
#ifndef KTRACEB_GROUP_BPF_H
#define KTRACEB_GROUP_BPF_H

#include "procs.bpf.h"
#include "record.bpf.h"

#define PF_KTHREAD	  0x00200000
#define MMF_DUMPABLE_MASK 3
#define SUID_DUMP_USER	  1

extern __u32 ktr_daemon_tgid; /* tp.bpf.c: never traced, whatever its group */

/* Linux before 6.18: mm->flags a word, not a bitmap of one (mm_flags_t) */
struct mm_struct___word {
	unsigned long flags;
} __attribute__((preserve_access_index));

/* Linux before 6.0: the ancestors' ids, not the ancestors */
struct cgroup___ids {
	u64 ancestor_ids[0];
} __attribute__((preserve_access_index));

/* The id of cg's ancestor at level (cg itself at its own level), chosen at load. */
static __always_inline __u64 group__ancestor_id(struct cgroup *cg, __u32 level)
{
	__u64 id = 0;

	if (bpf_core_field_exists(struct cgroup, ancestors)) {
		struct cgroup *a = NULL;

		bpf_probe_read_kernel(&a, sizeof(a),
				      (void *)cg + bpf_core_field_offset(struct cgroup, ancestors) +
					      level * sizeof(a));
		if (a)
			id = BPF_CORE_READ(a, kn, id);
	} else {
		bpf_probe_read_kernel(&id, sizeof(id),
				      (void *)cg +
					      bpf_core_field_offset(struct cgroup___ids, ancestor_ids) +
					      level * sizeof(id));
	}
	return id;
}

/*
 * The slot of the traced group cgroup cg is in or below (the deepest, when
 * groups nest), 0 if none: one lookup per level a traced group is at.
 */
static __always_inline __u32 group__slot_of(struct cgroup *cg)
{
	__u64 levels = ktr_group_levels;
	int level = BPF_CORE_READ(cg, level);

	for (int i = 0; i < KTR_GROUP_LEVELS; i++) {
		int l = KTR_GROUP_LEVELS - 1 - i;
		__u32 *slot;
		__u64 id;

		if (l > level || !(levels & (1ull << l)))
			continue;
		id = group__ancestor_id(cg, l);
		slot = id ? bpf_map_lookup_elem(&group_ids, &id) : NULL;
		if (slot)
			return *slot;
	}
	return 0;
}

/*
 * Why group g may not take task (a KTR_CGROUP_SKIP_*), or -1 if it may:
 * the rules the daemon applies to -p (ktr_perm.h), on the credentials the
 * kernel has now.  Root's group takes anyone; a user's only a process of
 * his own ids that gained nothing: no set-id, no capability, dumpable.
 */
static __always_inline int group__refuses(struct task_struct *task, const struct ktr_group *g)
{
	const struct cred *cr = BPF_CORE_READ(task, real_cred);
	__u64 caps = 0, mmflags = 0;
	struct mm_struct *mm;

	if (g->ps.facs & KTRFAC_ROOT)
		return -1;
	if (BPF_CORE_READ(cr, uid.val) != g->uid)
		return KTR_CGROUP_SKIP_NOT_YOURS;
	if (BPF_CORE_READ(cr, euid.val) != g->uid || BPF_CORE_READ(cr, suid.val) != g->uid ||
	    BPF_CORE_READ(cr, gid.val) != g->gid || BPF_CORE_READ(cr, egid.val) != g->gid ||
	    BPF_CORE_READ(cr, sgid.val) != g->gid)
		return KTR_CGROUP_SKIP_PRIVILEGED;
	/* kernel_cap_t: 64 bits, as two words before 6.3, one since */
	bpf_probe_read_kernel(&caps, sizeof(caps),
			      (void *)cr + bpf_core_field_offset(struct cred, cap_permitted));
	mm = BPF_CORE_READ(task, mm);
	if (caps || !mm)
		return KTR_CGROUP_SKIP_PRIVILEGED;
	/* mm->flags: a word, or a bitmap of one word since 6.18; the dumpable bits first */
	if (bpf_core_field_exists(struct mm_struct___word, flags))
		bpf_probe_read_kernel(&mmflags, sizeof(mmflags),
				      (void *)mm + bpf_core_field_offset(struct mm_struct___word, flags));
	else
		bpf_probe_read_kernel(&mmflags, sizeof(mmflags),
				      (void *)mm + bpf_core_field_offset(struct mm_struct, flags));
	if ((mmflags & MMF_DUMPABLE_MASK) != SUID_DUMP_USER)
		return KTR_CGROUP_SKIP_PRIVILEGED;
	return -1;
}

struct group_sample {
	struct ktr_sample s;
	struct ktr_header h;
	struct ktr_cgroup c;
	char path[KTR_CGROUP_PATH_MAX];
};

/* task's ids as its pid namespace sees them, into c. */
static __always_inline void group__ns_ids(struct task_struct *task, struct ktr_cgroup *c)
{
	struct pid *tp = BPF_CORE_READ(task, thread_pid);
	struct pid *pp = BPF_CORE_READ(task, group_leader, thread_pid);
	__u32 level = BPF_CORE_READ(tp, level), off = bpf_core_field_offset(struct pid, numbers);
	struct upid up = {};

	level &= 63; /* pid namespaces nest 32 deep at most */
	bpf_probe_read_kernel(&up, sizeof(up), (void *)tp + off + level * sizeof(up));
	c->kc_ns_tid = up.nr;
	c->kc_pidns = BPF_CORE_READ(up.ns, ns.inum);
	up.nr = 0;
	bpf_probe_read_kernel(&up, sizeof(up), (void *)pp + off + level * sizeof(up));
	c->kc_ns_pid = up.nr;
	c->kc_flags |= level == 0 ? KTR_CGROUP_F_HOSTNS : 0;
}

/*
 * A KTR_CGROUP record about task (its process's ids when it is a process
 * that entered, left or made a thread) into route's file: what, the
 * cgroup id, and the path (a kernel string; NULL: none).
 */
static __always_inline void group__record(__u32 route, struct task_struct *task, __u32 what,
					  __u64 id, const char *path, __u32 flags)
{
	struct rec_ref r = rec__reserve(sizeof(struct group_sample), route, KTR_CGROUP,
					sizeof(struct ktr_cgroup), task->tgid, task->pid, task);
	struct group_sample *rec = r.rec;
	long n = 0;

	if (!rec)
		return;
	__builtin_memset(&rec->c, 0, sizeof(rec->c));
	rec->c.kc_id = id;
	rec->c.kc_what = what;
	rec->c.kc_flags = flags;
	if (what != KTR_CGROUP_MADE && what != KTR_CGROUP_REMOVED)
		group__ns_ids(task, &rec->c);
	if (path)
		n = bpf_probe_read_kernel_str(rec->path, sizeof(rec->path), path);
	if (n < 1) {
		rec->path[0] = '\0';
		n = 1;
	}
	if (n > KTR_CGROUP_PATH_MAX)
		n = KTR_CGROUP_PATH_MAX;
	r.len = sizeof(struct ktr_cgroup) + n;
	rec->h.ktr_len = r.len;
	rec__submit(r);
}

struct group_ctor_sample {
	struct ktr_sample s;
	struct ktr_header h;
	struct ktr_proc_ctor c;
	__u32 pad;
};

/* The PROCCTOR the daemon writes for a process -p names, for one that entered. */
static __always_inline void group__ctor(__u32 route, struct task_struct *task, __u32 sv_flags)
{
	struct rec_ref r = rec__reserve(sizeof(struct group_ctor_sample), route, KTR_PROCCTOR,
					sizeof(struct ktr_proc_ctor), task->tgid, task->tgid, task);
	struct group_ctor_sample *rec = r.rec;

	if (!rec)
		return;
	rec->c.sv_flags = sv_flags;
	rec->pad = 0;
	rec__submit(r);
}

/*
 * task's process (task is its main thread) enters the group of slot:
 * traced from now on with the group's state, if the group may take it,
 * else counted as left out.  what: KTR_CGROUP_FORKED or _MOVED; id, path:
 * its cgroup (path NULL: the group's own path is said).  Its entry is put
 * first, then its credentials and life looked at again: an exec or an
 * exit the first look came before is seen, or sees the entry (the
 * daemon's three steps, ktr_procmap.h, in two).  True if traced.
 */
static __always_inline bool group__enter(struct task_struct *task, __u32 slot, __u32 what,
					 __u64 id, const char *path)
{
	struct ktr_group *g = bpf_map_lookup_elem(&groups, &slot);
	__u32 tgid = task->tgid;
	struct ktr_proc_state *old;
	int why;

	if (!g || !g->live || tgid == ktr_daemon_tgid || (task->flags & PF_KTHREAD))
		return false;
	old = proc__lookup_tgid(tgid);
	if (old && !(old->flags & KTR_PS_GROUP))
		why = KTR_CGROUP_SKIP_TRACED; /* -p, -i or a command: that trace stays */
	else if (old && (old->facs & KTRFAC_ROOT) && !(g->ps.facs & KTRFAC_ROOT))
		why = KTR_CGROUP_SKIP_ROOT;
	else
		why = group__refuses(task, g);
	if (why >= 0) {
		__sync_fetch_and_add(&g->skipped[why & (KTR_CGROUP_SKIPS - 1)], 1);
		return false;
	}
	proc__mark_traced(tgid);
	if (bpf_map_update_elem(&procs, &tgid, &g->ps, BPF_ANY) < 0) {
		rec__count_lost(g->ps.route, 1);
		return false;
	}
	proc__changed(); /* an atomic: the looks below come after the entry is seen */
	if (BPF_CORE_READ(task, signal, live.counter) == 0 || group__refuses(task, g) >= 0) {
		bpf_map_delete_elem(&procs, &tgid);
		proc__changed();
		return false;
	}
	group__record(g->ps.route, task, what, id, path ? path : g->path,
		      path ? 0 : KTR_CGROUP_F_GROUP_PATH);
	group__ctor(g->ps.route, task, g->ps.sv_flags);
	if (g->ps.facs & (KTRFAC_USER | KTRFAC_USTACK))
		note__emit(g->ps.route, KTR_NOTE_ENTER, tgid, 0, 0);
	return true;
}

/* task's process, traced by its group (ps), moved out to cgroup id, path: no longer traced. */
static __always_inline void group__leave(struct task_struct *task, struct ktr_proc_state *ps,
					 __u64 id, const char *path)
{
	__u32 tgid = task->tgid;

	group__record(ps->route, task, KTR_CGROUP_LEFT, id, path, 0);
	bpf_map_delete_elem(&procs, &tgid);
	proc__changed();
}

/* A new thread of a process its group traces: its ids, for kdump -N. */
static __always_inline void group__thread(struct task_struct *child)
{
	struct ktr_proc_state *ps = proc__lookup_tgid(child->tgid);

	if (ps && (ps->flags & KTR_PS_GROUP) && !(ps->flags & KTR_PS_QUIET))
		group__record(ps->route, child, KTR_CGROUP_THREAD, 0, NULL, 0);
}

/* A new process (child) not traced by its parent's trace: traced if its cgroup is. */
static __always_inline bool group__fork(struct task_struct *child)
{
	struct cgroup *cg = BPF_CORE_READ(child, cgroups, dfl_cgrp);
	__u32 slot = cg ? group__slot_of(cg) : 0;

	return slot && group__enter(child, slot, KTR_CGROUP_FORKED, BPF_CORE_READ(cg, kn, id), NULL);
}

#endif /* KTRACEB_GROUP_BPF_H */
