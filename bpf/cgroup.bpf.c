// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Traced cgroups (ktraceb -G, bpf_groups.h): a process forked or moved into
 * a traced group (or below one) is traced from its first system call
 * there, one moved out stops; a sub-group made is named in the trace; the
 * group removed and made again under its path (systemctl restart) is
 * traced again; a process left out when it came in (not dumpable then) is
 * looked at again at its exec.  Only the cgroup2 hierarchy counts (hierarchy 0): a move
 * in a v1 hierarchy changes no membership.  The daemon loads these
 * programs at the first -G (a cold start verifies none of them) and
 * attaches them only while a group is traced: the kernel formats a path
 * for each cgroup event a program is on.
 */
#include "canset.bpf.h"
#include "procs.bpf.h"
#include "record.bpf.h"
#include "ktraceb/bpf_groups.h"
#include "ktraceb/bpf_sample.h"

/*
 * The global functions below, each verified once, not in every path of the
 * programs that call them: kernel pointers go to them as numbers
 * (group__num), read with BPF_CORE_READ there.
 */
int group__slot_of(__u64 cg);
int group__enter(__u64 task, __u32 slot, __u32 what, __u64 id, __u64 path);
int group__record(__u64 how, __u64 task, __u64 id, __u64 path, __u64 ns);

#define PF_KTHREAD		      0x00200000
/* group__record()'s how: the route of the record, what it says and its kc_flags, in one */
#define GROUP_HOW(route, what, flags) ((__u64)(route) << 32 | (what) | (flags) << 16)

extern __u32 ktr_daemon_tgid; /* tp.bpf.c: never traced, whatever its group */

/* A kernel pointer as a number, for a global function (the verifier takes no BTF pointer there). */
static __always_inline __u64 group__num(const void *p)
{
	__u64 v = 0;

	bpf_probe_read_kernel(&v, sizeof(v), &p);
	return v;
}

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
		bpf_probe_read_kernel(
			&id, sizeof(id),
			(void *)cg + bpf_core_field_offset(struct cgroup___ids, ancestor_ids) +
				level * sizeof(id));
	}
	return id;
}

/*
 * One lookup per level a traced group is at, at or above cg's, the deepest
 * first.  The levels to look at are a mask made before the loop, so that
 * each turn branches on nothing the next one looks at again: the verifier
 * walks the loop once per turn, not once per way through the turns before.
 */
__noinline int group__slot_of(__u64 cgp)
{
	struct cgroup *cg = (struct cgroup *)cgp;
	__u64 want;
	int level;

	if (!cg)
		return 0;
	level = BPF_CORE_READ(cg, level);
	if (level < 0)
		return 0;
	want = ktr_group_levels;
	if (level < KTR_GROUP_LEVELS - 1)
		want &= (2ull << level) - 1;
	for (int i = 0; i < KTR_GROUP_LEVELS; i++) {
		__u32 l = KTR_GROUP_LEVELS - 1 - i, *slot;
		__u64 id;

		if (!((want >> l) & 1))
			continue;
		id = group__ancestor_id(cg, l);
		slot = bpf_map_lookup_elem(&group_ids, &id);
		if (slot)
			return *slot;
	}
	return 0;
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
 * The header of a record made in the current task's name made about task:
 * its ids, flags and comm (rec__header's, read as a number's).
 */
static __always_inline void group__header_of(struct ktr_header *h, struct task_struct *task)
{
	__u32 tid = BPF_CORE_READ(task, pid);

	h->ktr_pid = BPF_CORE_READ(task, tgid);
	h->ktr_tid = tid;
	h->ktr_flags = rec__flags(tid);
	bpf_core_read(h->ktr_comm, KTR_MAXCOMLEN, &task->comm);
}

/* The CGRP record how says (GROUP_HOW) about task, made by the current thread at time ns. */
__noinline int group__record(__u64 how, __u64 taskp, __u64 id, __u64 path, __u64 ns)
{
	__u32 route = how >> 32, what = how & 0xffff, flags = (how >> 16) & 0xffff;
	struct task_struct *task = (struct task_struct *)taskp;
	struct rec_ref r = rec__reserve_current_at(sizeof(struct group_sample), route, KTR_CGROUP,
						   sizeof(struct ktr_cgroup), ns);
	struct group_sample *rec = r.rec;
	long n = 0;

	if (!rec)
		return 0;
	group__header_of(&rec->h, task);
	__builtin_memset(&rec->c, 0, sizeof(rec->c));
	rec->c.kc_id = id;
	rec->c.kc_what = what;
	rec->c.kc_flags = flags;
	if (what != KTR_CGROUP_MADE && what != KTR_CGROUP_REMOVED)
		group__ns_ids(task, &rec->c);
	if (path)
		n = bpf_probe_read_kernel_str(rec->path, sizeof(rec->path), (const void *)path);
	if (n < 1) {
		rec->path[0] = '\0';
		n = 1;
	}
	if (n > KTR_CGROUP_PATH_MAX)
		n = KTR_CGROUP_PATH_MAX;
	r.len = sizeof(struct ktr_cgroup) + n;
	rec->h.ktr_len = r.len;
	rec__submit(r);
	return 0;
}

struct group_ctor_sample {
	struct ktr_sample s;
	struct ktr_header h;
	struct ktr_proc_ctor c;
	__u32 pad;
};

/* The PROCCTOR the daemon writes for a process -p names, for one that entered (at ns). */
static __always_inline void group__ctor(__u32 route, struct task_struct *task, __u32 sv_flags,
					__u64 ns)
{
	struct rec_ref r = rec__reserve_current_at(sizeof(struct group_ctor_sample), route,
						   KTR_PROCCTOR, sizeof(struct ktr_proc_ctor), ns);
	struct group_ctor_sample *rec = r.rec;

	if (!rec)
		return;
	group__header_of(&rec->h, task);
	rec->c.sv_flags = sv_flags;
	rec->pad = 0;
	rec__submit(r);
}

/*
 * The entry is put first, then the credentials and the life looked at
 * again: an exec or an exit the first look came before is seen, or sees
 * the entry (the daemon's three steps, ktr_policy.h, in two).  The records
 * saying so bear the time read before the entry was put: a record the
 * process makes once traced, on another CPU, has a later one.
 */
__noinline int group__enter(__u64 taskp, __u32 slot, __u32 what, __u64 id, __u64 path)
{
	struct task_struct *task = (struct task_struct *)taskp;
	struct ktr_group *g = bpf_map_lookup_elem(&groups, &slot);
	struct ktr_proc_state *old;
	__u32 tgid;
	__u64 ns;
	int why;

	if (!task || !g || !g->live)
		return 0;
	tgid = BPF_CORE_READ(task, tgid);
	if (tgid == ktr_daemon_tgid || (BPF_CORE_READ(task, flags) & PF_KTHREAD))
		return 0;
	old = proc__lookup_tgid(tgid);
	if (old && !(old->flags & KTR_PS_GROUP))
		why = KTR_CGROUP_SKIP_TRACED; /* -p, -i or a command: that trace stays */
	else
		why = canset(&(struct canset_target){ .task = task, .old = old }, g->ps.facs,
			     g->uid, g->gid);
	if (why >= 0) {
		/* an exec of a process left out: counted when it came in */
		if (what != KTR_CGROUP_EXEC)
			__sync_fetch_and_add(&g->skipped[why & (KTR_CGROUP_SKIPS - 1)], 1);
		return 0;
	}
	proc__mark_traced(tgid);
	ns = bpf_ktime_get_ns();
	if (bpf_map_update_elem(&procs, &tgid, &g->ps, BPF_ANY) < 0) {
		rec__count_lost(g->ps.route, 1);
		return 0;
	}
	proc__changed(); /* an atomic: the looks below come after the entry is seen */
	if (BPF_CORE_READ(task, signal, live.counter) == 0 ||
	    canset(&(struct canset_target){ .task = task }, g->ps.facs, g->uid, g->gid) >= 0) {
		bpf_map_delete_elem(&procs, &tgid);
		proc__changed();
		return 0;
	}
	group__record(GROUP_HOW(g->ps.route, what, path ? 0 : KTR_CGROUP_F_GROUP_PATH), taskp, id,
		      path ? path : group__num(g->path), ns);
	group__ctor(g->ps.route, task, g->ps.sv_flags, ns);
	if (g->ps.facs & (KTRFAC_USER | KTRFAC_USTACK))
		note__emit(g->ps.route, KTR_NOTE_ENTER, tgid, 0, 0);
	return 1;
}

/*
 * task's process, traced by its group (ps), moved out to cgroup id, path:
 * no longer traced.  The entry goes first, and the record bears the time
 * after: a call the process makes on another CPU while traced still has an
 * earlier one.
 */
static __always_inline void group__leave(struct task_struct *task, struct ktr_proc_state *ps,
					 __u64 id, const char *path)
{
	__u32 tgid = task->tgid, route = ps->route;

	bpf_map_delete_elem(&procs, &tgid);
	proc__changed();
	group__record(GROUP_HOW(route, KTR_CGROUP_LEFT, 0), group__num(task), id, group__num(path),
		      bpf_ktime_get_ns());
}

/*
 * The slot whose group takes task, a process that moves to, or is forked
 * in, a group of slot (0: none traced) while ps is its tracing (or its
 * parent's, by a group): slot, unless root set ps and slot's group is a
 * user's (a user never changes what root set: canset() says so); then ps's
 * own group keeps it, and slot's counts it left out.
 */
static __always_inline __u32 group__taker(struct task_struct *task, const struct ktr_proc_state *ps,
					  __u32 slot)
{
	struct ktr_group *g;

	if (!slot || slot == ps->group)
		return slot;
	g = bpf_map_lookup_elem(&groups, &slot);
	if (!g || !g->live ||
	    canset(&(struct canset_target){ .task = task, .old = ps }, g->ps.facs, g->uid,
		   g->gid) != KTR_CGROUP_SKIP_ROOT)
		return slot;
	__sync_fetch_and_add(&g->skipped[KTR_CGROUP_SKIP_ROOT], 1);
	return ps->group;
}

/* A new thread of a process its group traces: its ids, for kdump -N. */
static __always_inline void group__thread(struct task_struct *child)
{
	struct ktr_proc_state *ps = proc__lookup_tgid(child->tgid);

	if (ps && (ps->flags & KTR_PS_GROUP) && !(ps->flags & KTR_PS_QUIET))
		group__record(GROUP_HOW(ps->route, KTR_CGROUP_THREAD, 0), group__num(child), 0, 0,
			      bpf_ktime_get_ns());
}

/*
 * A new process (child) not traced by its parent's trace (pps, NULL if
 * none): traced if its cgroup is, by its parent's group if root set that.
 */
static __always_inline bool group__fork(struct task_struct *child, const struct ktr_proc_state *pps)
{
	struct cgroup *cg = BPF_CORE_READ(child, cgroups, dfl_cgrp);
	__u32 slot = cg ? group__slot_of((__u64)cg) : 0;

	if (pps && (pps->flags & KTR_PS_GROUP))
		slot = group__taker(child, pps, slot);
	return slot && group__enter(group__num(child), slot, KTR_CGROUP_FORKED,
				    BPF_CORE_READ(cg, kn, id), 0);
}

/* cgrp (a tracepoint's) as a number, and whether it is of the cgroup2 hierarchy. */
static __always_inline struct cgroup *cgroup__v2(struct cgroup *cgrp)
{
	if (!ktr_group_levels || BPF_CORE_READ(cgrp, root, hierarchy_id) != 0)
		return NULL;
	return BPF_CORE_READ(cgrp, self.cgroup);
}

/*
 * A fork, beside proc.bpf.c's (which takes a child of a process traced with
 * inheritance): a new thread of a process a group traces has its ids said;
 * a new process not inherited is traced if its cgroup is (forked in a
 * traced group, or into one with clone3's CLONE_INTO_CGROUP).
 */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(ktr_cgroup_fork, struct task_struct *parent, struct task_struct *child)
{
	struct ktr_proc_state *ps;

	if (!ktr_group_levels)
		return 0;
	if (parent->tgid == child->tgid) {
		group__thread(child);
		return 0;
	}
	ps = proc__lookup_tgid(parent->tgid);
	if (!ps || !(ps->facs & KTRFAC_INHERIT))
		group__fork(child, ps);
	return 0;
}

/*
 * An exec of a process in a traced group that the group left out: one not
 * dumpable when it came in, as a rootless container's first process is
 * while its runtime sets it up, is dumpable again after an exec that
 * gained nothing, and is traced from there if the rule allows it now
 * (canset() looks at the new credentials: the exec has made them).
 */
SEC("tp_btf/sched_process_exec")
int BPF_PROG(ktr_cgroup_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	struct cgroup *cg;
	__u32 slot;

	if (!ktr_group_levels || proc__lookup_tgid(p->tgid))
		return 0;
	cg = BPF_CORE_READ(p, cgroups, dfl_cgrp);
	slot = cg ? group__slot_of((__u64)cg) : 0;
	if (slot)
		group__enter(group__num(p), slot, KTR_CGROUP_EXEC, BPF_CORE_READ(cg, kn, id), 0);
	return 0;
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
	slot = group__slot_of((__u64)cg);
	id = BPF_CORE_READ(cg, kn, id);
	ps = proc__lookup_tgid(task->tgid);
	if (ps && (ps->flags & KTR_PS_GROUP)) {
		if (group__taker(task, ps, slot) == ps->group) {
			/* within its group, or kept by root's: where it is now */
			group__record(GROUP_HOW(ps->route, KTR_CGROUP_MOVED, 0), group__num(task),
				      id, group__num(path), bpf_ktime_get_ns());
			return 0;
		}
		group__leave(task, ps, id, path);
	}
	if (slot)
		group__enter(group__num(task), slot, KTR_CGROUP_MOVED, id, group__num(path));
	return 0;
}

/*
 * The group made again: its slot again if the group may have it (canset():
 * a user's group only a directory that is his, as when he traced it).
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
	if (canset(&(struct canset_target){ .owner = uid }, g->ps.facs, g->uid, g->gid) >= 0)
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
		slot = group__slot_of((__u64)cg); /* a sub-group of a traced group */
	g = slot ? bpf_map_lookup_elem(&groups, &slot) : NULL;
	if (g && g->live)
		group__record(GROUP_HOW(g->ps.route, KTR_CGROUP_MADE, 0),
			      group__num(task__current()), id, group__num(path),
			      bpf_ktime_get_ns());
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
	slot = group__slot_of((__u64)cg);
	g = slot ? bpf_map_lookup_elem(&groups, &slot) : NULL;
	if (g && g->live)
		group__record(GROUP_HOW(g->ps.route, KTR_CGROUP_REMOVED, 0),
			      group__num(task__current()), BPF_CORE_READ(cg, kn, id),
			      group__num(path), bpf_ktime_get_ns());
	/* a traced group's id goes with it: ids are never used again */
	id = BPF_CORE_READ(cg, kn, id);
	slotp = bpf_map_lookup_elem(&group_ids, &id);
	if (slotp)
		bpf_map_delete_elem(&group_ids, &id);
	return 0;
}
