/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * BSD's ktrcanset() as the BPF programs apply it, on the credentials the
 * kernel has now: the daemon's is ktr_perm__canset (common/ktr_perm.h),
 * the same rules on /proc.  Every program that decides whether tracing of
 * a process may begin, move or go on asks canset(): a group taking a
 * process (cgroup.bpf.c: at a fork, a move, and again after its entry is
 * put), a process that root's group keeps when moved into a user's, a
 * group made again under its path, and an exec (proc.bpf.c: a set-id image
 * ends what root did not set).  A fork with -i asks nothing: the child has
 * its parent's credentials, and its parent's tracing was checked.
 */
#ifndef KTRACEB_CANSET_BPF_H
#define KTRACEB_CANSET_BPF_H

#include "maps.bpf.h"
#include "ktraceb/bpf_procs.h"

#define CANSET_MMF_DUMPABLE_MASK 3
#define CANSET_SUID_DUMP_USER	 1

/* Linux before 6.18: mm->flags a word, not a bitmap of one (mm_flags_t) */
struct mm_struct___word {
	unsigned long flags;
} __attribute__((preserve_access_index));

/* The user namespaces walked up from a process's to the one below the initial one */
#define CANSET_USERNS_DEPTH 8

/* The parts of a user namespace and of credentials read here (not in every vmlinux.h) */
struct user_namespace___canset {
	struct user_namespace___canset *parent;
	int level;
	kuid_t owner;
} __attribute__((preserve_access_index));

struct cred___canset {
	struct user_namespace___canset *user_ns;
} __attribute__((preserve_access_index));

/*
 * Are the capabilities of credentials cr those of a user namespace uid
 * made (directly below the initial one), or of one below it?  A rootless
 * container's root holds every capability there and none over uid: the
 * kernel lets uid ptrace it (cap_ptrace_access_check), and so does ktraceb.
 */
static __always_inline bool canset__own_userns(const struct cred *cr, __u32 uid)
{
	struct user_namespace___canset *ns = BPF_CORE_READ((const struct cred___canset *)cr, user_ns);

	for (int i = 0; i < CANSET_USERNS_DEPTH && ns; i++) {
		int level = BPF_CORE_READ(ns, level);

		if (level <= 0)
			return false; /* the initial namespace's capabilities */
		if (level == 1)
			return BPF_CORE_READ(ns, owner.val) == uid;
		ns = BPF_CORE_READ(ns, parent);
	}
	return false;
}

/*
 * Why a user of ids uid, gid may not trace task, or -1 if he may: its real,
 * effective and saved ids all his, no capability (but in a user namespace
 * of his), dumpable (no set-id or file-capability exec).
 */
static __always_inline int canset__creds(struct task_struct *task, __u32 uid, __u32 gid)
{
	const struct cred *cr = BPF_CORE_READ(task, real_cred);
	__u64 caps = 0, mmflags = 0;
	struct mm_struct *mm;

	if (BPF_CORE_READ(cr, uid.val) != uid)
		return KTR_CGROUP_SKIP_NOT_YOURS;
	if (BPF_CORE_READ(cr, euid.val) != uid || BPF_CORE_READ(cr, suid.val) != uid ||
	    BPF_CORE_READ(cr, gid.val) != gid || BPF_CORE_READ(cr, egid.val) != gid ||
	    BPF_CORE_READ(cr, sgid.val) != gid)
		return KTR_CGROUP_SKIP_PRIVILEGED;
	/* kernel_cap_t: 64 bits, as two words before 6.3, one since */
	bpf_probe_read_kernel(&caps, sizeof(caps),
			      (void *)cr + bpf_core_field_offset(struct cred, cap_permitted));
	mm = BPF_CORE_READ(task, mm);
	if ((caps && !canset__own_userns(cr, uid)) || !mm)
		return KTR_CGROUP_SKIP_PRIVILEGED;
	/* mm->flags: a word, or a bitmap of one word since 6.18; the dumpable bits first */
	if (bpf_core_field_exists(struct mm_struct___word, flags))
		bpf_probe_read_kernel(&mmflags, sizeof(mmflags),
				      (void *)mm + bpf_core_field_offset(struct mm_struct___word,
									 flags));
	else
		bpf_probe_read_kernel(&mmflags, sizeof(mmflags),
				      (void *)mm + bpf_core_field_offset(struct mm_struct, flags));
	if ((mmflags & CANSET_MMF_DUMPABLE_MASK) != CANSET_SUID_DUMP_USER)
		return KTR_CGROUP_SKIP_PRIVILEGED;
	return -1;
}

/*
 * What a tracing is asked for: a process (task; old its entry, NULL if
 * none), or, task NULL, a group directory made again, whose owner is
 * owner.  gained: task has just gained privileges by an exec
 * (bprm->secureexec), whatever its ids say.
 */
struct canset_target {
	struct task_struct *task;
	const struct ktr_proc_state *old;
	__u32 owner;
	bool gained;
};

/*
 * BSD's ktrcanset(), BPF's one ownership check, as the daemon's
 * (ktr_perm__canset) on the kernel's credentials now: may a tracer (facs
 * with KTRFAC_ROOT: root's; else a user's, of ids uid, gid) trace target?
 * -1 if it may, else why not, a KTR_CGROUP_SKIP_*: root may trace
 * anything; a user never changes what root set (the entry's KTRFAC_ROOT),
 * and traces only a process of his own ids that gained nothing, or a group
 * directory of his own.
 */
static __always_inline int canset(const struct canset_target *t, __u32 facs, __u32 uid, __u32 gid)
{
	if (facs & KTRFAC_ROOT)
		return -1;
	if (t->old && (t->old->facs & KTRFAC_ROOT))
		return KTR_CGROUP_SKIP_ROOT;
	if (!t->task)
		return t->owner == uid ? -1 : KTR_CGROUP_SKIP_NOT_YOURS;
	if (t->gained)
		return KTR_CGROUP_SKIP_PRIVILEGED;
	return canset__creds(t->task, uid, gid);
}

#endif /* KTRACEB_CANSET_BPF_H */
