// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Process life cycle: inheritance on fork (BSD KTRFAC_INHERIT), the ABI
 * marker and path on exec, and the end of a process.
 */
#include "canset.bpf.h"
#include "procs.bpf.h"
#include "record.bpf.h"
#include "note.bpf.h"
#include "select.bpf.h"
#include "arch.bpf.h"
#include "ktraceb/bpf_groups.h"
#include "ktraceb/bpf_sample.h"
#include "ktraceb/bpf_select.h"

#define ELFCLASS32 1

struct ctor_sample {
	struct ktr_sample s;
	struct ktr_header h;
	struct ktr_proc_ctor c;
	__u32 pad;
};

struct exit_sample {
	struct ktr_sample s;
	struct ktr_header h;
	struct ktr_exit e;
};

static __always_inline void proc__emit_ctor(__u32 route, __u32 sv_flags, __u32 pid, __u32 tid,
					    struct task_struct *task)
{
	struct rec_ref r = rec__reserve(sizeof(struct ctor_sample), route, KTR_PROCCTOR,
					sizeof(struct ktr_proc_ctor), pid, tid, task);
	struct ctor_sample *rec = r.rec;

	if (!rec)
		return;
	rec->c.sv_flags = sv_flags;
	rec->pad = 0;
	rec__submit(r);
}

/*
 * A record of the exec's, built in scratch: under the id its thread had
 * when it called (tid), which is the process's own after an exec by a
 * thread other than the leader (docs/FORMAT.md, KTR_SYSRET).
 */
static __always_inline void proc__send_exec(struct ktr_sample *s, __u32 route, int type, __u64 len,
					    __u32 tid)
{
	struct task_struct *task = task__current();

	rec__header((struct ktr_header *)(s + 1), type, len, task__read(task, tgid), tid, task);
	rec__output(s, route, len);
}

/*
 * The exec'd file's path, from the kernel's copy: the old image is gone.
 * As a user path is (syscall.bpf.c): KTR_PATH_MAX bytes if cut there.
 */
static __always_inline void proc__emit_exec_namei(__u32 route, struct linux_binprm *bprm, __u32 tid)
{
	struct ktr_sample *s = rec__scratch();
	struct ktr_header *h;
	long n;

	if (!s)
		return;
	h = (void *)(s + 1);
	n = bpf_probe_read_kernel_str(h + 1, KTR_PATH_MAX + 1, BPF_CORE_READ(bprm, filename));
	if (n <= 0)
		return; /* unreadable */
	n--;
	if (n > KTR_PATH_MAX)
		n = KTR_PATH_MAX;
	proc__send_exec(s, route, KTR_NAMEI, n, tid);
}

/*
 * One record of argv or envp: n bytes at start.  A global function, so
 * that the verifier checks it once, not once per chunk of the loop below
 * (the daemon's start is mostly verification).  0, or -1 if unreadable.
 */
__noinline int proc__emit_chunk(__u32 route, int type, __u64 start, __u64 n, __u32 tid)
{
	struct ktr_sample *s = rec__scratch();
	struct ktr_header *h;

	if (!s)
		return -1;
	if (n > KTR_ARGS_CHUNK)
		n = KTR_ARGS_CHUNK;
	n &= (2 * KTR_ARGS_CHUNK - 1);
	h = (void *)(s + 1);
	if (bpf_probe_read_user(h + 1, n, (void *)start) < 0)
		return -1;
	proc__send_exec(s, route, type, n, tid);
	return 0;
}

/*
 * argv or envp of the new image, whole: the kernel has just copied them to
 * the new stack, between mm->arg_start and arg_end (env_start, env_end).
 * Large vectors take several consecutive records of the same type.
 */
static __always_inline void proc__emit_strings(__u32 route, int type, __u64 start, __u64 end,
					       __u32 tid)
{
	for (int i = 0; i < KTR_ARGS_CHUNKS && start < end; i++) {
		__u64 n = end - start < KTR_ARGS_CHUNK ? end - start : KTR_ARGS_CHUNK;

		if (proc__emit_chunk(route, type, start, n, tid) < 0)
			return;
		start += n;
	}
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(ktr_proc_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 ptgid = parent->tgid, ctgid = child->tgid;
	struct ktr_proc_state *ps, cs;

	if (ptgid == ctgid)
		return 0; /* a new thread: traced with its process */
	ps = proc__lookup_tgid(ptgid);
	if (!ps)
		return 0;
	/* the child's copy of the parent's memory has its probes armed; -k: its mappings */
	if (ps->facs & (KTRFAC_USER | KTRFAC_USTACK))
		note__emit(ps->route, KTR_NOTE_FORK, ptgid, ctgid,
			   (ps->facs & KTRFAC_INHERIT) ? KTR_NOTE_CHILD_TRACED : 0);
	if (!(ps->facs & KTRFAC_INHERIT))
		return 0;
	/*
	 * The child keeps the parent's flags: a parent still awaiting its exec
	 * makes a child that awaits its own, and a child of a pending parent
	 * stays pending until the daemon's second check (ktr_policy.c) takes
	 * it in with the parent's other pending entries of the same file.
	 */
	cs = *ps;
	cs.flags &= ~(KTR_PS_HOLD | KTR_PS_HELD); /* its parent is no ktraceb */
	proc__mark_traced(ctgid);
	if (bpf_map_update_elem(&procs, &ctgid, &cs, BPF_ANY) < 0) {
		/* the child goes untraced: every record it would make is lost */
		rec__count_lost(cs.route, 1);
		return 0;
	}
	proc__changed(); /* it may replace a stale entry of a reused pid */
	if (!(cs.flags & KTR_PS_QUIET))
		proc__emit_ctor(cs.route, cs.sv_flags, ctgid, child->pid, child);
	return 0;
}

/* The exec's path, argv and envp belong to the execve: shown if the trace's selection has it. */
static __always_inline bool proc__exec_selected(const struct ktr_proc_state *ps)
{
	const struct ktr_select_map *sel = select__of(ps);

	return !sel || select__call(sel, ARCH_NR_EXECVE, 0) ||
	       select__call(sel, ARCH_NR_EXECVEAT, 0);
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(ktr_proc_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	struct ktr_proc_state *ps = proc__lookup();
	bool exec_shown;
	__u8 elfclass;
	int why;

	if (!ps)
		return 0;
	/*
	 * A set-id (or file-capability) exec ends tracing unless root set it
	 * (BSD kern_exec.c): the new image must not leak to a lesser tracer.
	 * This comes before anything else, whatever the entry's state: an
	 * entry still pending or awaiting its exec must not outlive the exec
	 * of a set-id image either.
	 */
	/* the tracer's ids are not asked: a user never traces an image that gained privileges */
	why = BPF_CORE_READ_BITFIELD(bprm, secureexec) ?
		      canset(&(struct canset_target){ .task = p, .old = ps, .gained = true },
			     ps->facs, 0, 0) :
		      -1;
	if (why >= 0) {
		__u32 tgid = p->tgid, slot = ps->group;
		struct ktr_group *g;

		/* a user's group (-G): counted as left out, as at its entry */
		g = (ps->flags & KTR_PS_GROUP) ? bpf_map_lookup_elem(&groups, &slot) : NULL;
		if (g)
			__sync_fetch_and_add(&g->skipped[why & (KTR_CGROUP_SKIPS - 1)], 1);

		bpf_map_delete_elem(&procs, &tgid);
		proc__changed();
		return 0;
	}
	/* even before the first exec of a command: the new image's probes */
	if (ps->facs & (KTRFAC_USER | KTRFAC_USTACK))
		note__file(ps, KTR_NOTE_EXEC, p->tgid, (__u64)BPF_CORE_READ(bprm, file));
	/*
	 * ktraceb's command: tracing starts at its exec.  sys_enter says so at
	 * the execve's entry; this says so when sys_enter is not attached
	 * (only compact recorders, which keep no CALL).
	 */
	if ((ps->flags & KTR_PS_QUIET) == KTR_PS_AWAIT_EXEC)
		ps->flags &= ~KTR_PS_AWAIT_EXEC;
	if (ps->flags & KTR_PS_QUIET)
		return 0;
	elfclass = BPF_CORE_READ(bprm, buf[4]);
	ps->sv_flags = elfclass == ELFCLASS32 ? ARCH_SV_COMPAT : ARCH_SV_NATIVE;
	proc__changed();
	exec_shown = proc__exec_selected(ps);
	/* old_pid: the thread's id at its call, another than p's after a non-leader's exec */
	if ((ps->facs & KTRFAC_NAMEI) && exec_shown)
		proc__emit_exec_namei(ps->route, bprm, old_pid);
	proc__emit_ctor(ps->route, ps->sv_flags, p->tgid, old_pid, p);
	if ((ps->facs & KTRFAC_ARGS) && exec_shown)
		proc__emit_strings(ps->route, KTR_ARGS, p->mm->arg_start, p->mm->arg_end, old_pid);
	if ((ps->facs & KTRFAC_ENVS) && exec_shown)
		proc__emit_strings(ps->route, KTR_ENVS, p->mm->env_start, p->mm->env_end, old_pid);
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(ktr_proc_exit, struct task_struct *p)
{
	__u32 tgid = p->tgid;
	struct ktr_proc_state *ps = proc__lookup_tgid(tgid);
	struct exit_sample *rec;
	struct rec_ref r;
	__s32 status;
	__u32 route;

	if (!ps)
		return 0;
	/* signal->live drops before this tracepoint: 0 means the last thread */
	if (BPF_CORE_READ(p, signal, live.counter) != 0)
		return 0;
	if (ps->flags & KTR_PS_PENDING) {
		/* never traced yet: nothing to say, just no stale entry */
		bpf_map_delete_elem(&procs, &tgid);
		proc__changed();
		return 0;
	}
	/*
	 * Submit before deleting: once the daemon sees the entry gone, the
	 * EXIT record is already in the ring for its last drain of the file.
	 */
	route = ps->route;
	status = BPF_CORE_READ(p, exit_code);
	r = rec__reserve(sizeof(*rec), route, KTR_EXIT, sizeof(rec->e), tgid, p->pid, p);
	rec = r.rec;
	if (rec) {
		rec->e.status = status;
		rec->e.pad = 0;
		rec__submit(r);
	}
	/* a crash (or a non-zero exit with ,exit) froze a recorder's ring: the daemon writes it */
	if (rec__to_flight(route) && flight__exit(route, tgid, status))
		note__emit(route, KTR_NOTE_FLIGHT, tgid, route, 0);
	bpf_map_delete_elem(&procs, &tgid);
	proc__changed();
	/* its file may have no process left: the daemon looks now, not at its next tick */
	note__emit(route, KTR_NOTE_EXIT, tgid, 0, 0);
	return 0;
}
