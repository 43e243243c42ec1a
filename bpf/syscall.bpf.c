// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Facilities 'c' (KTR_SYSCALL, KTR_SYSRET) and 'n' (KTR_NAMEI), from the
 * raw syscall tracepoints.
 *
 * Paths are read at syscall exit, not entry: by then the kernel has copied
 * them (getname() faults the pages in), so a path in a page the program has
 * not touched yet is still recorded; the order stays CALL, NAMI, RET as in
 * BSD.  A successful execve has no old image left at exit: its path comes
 * from the kernel's own copy in sched_process_exec (proc.bpf.c).  Where the
 * arguments are at exit is the arch layer's business (arch.bpf.h): still in
 * the registers on x86_64, kept from sys_enter on arm64.
 *
 * GENIO and STRUCT come from helpers in genio.bpf.h and struct.bpf.h rather
 * than programs of their own: one program per tracepoint does the procs
 * lookup once and fixes the order CALL STRU / NAMI STRU GIO RET.  Both cover
 * the native syscall table; 32-bit compat syscalls get CALL, NAMI and RET.
 */
#include "procs.bpf.h"
#include "record.bpf.h"
#include "call.bpf.h"
#include "note.bpf.h"
#include "arch.bpf.h"
#include "flight_ring.bpf.h"
#include "genio.bpf.h"
#include "struct.bpf.h"
#include "select.bpf.h"
#include "ustack.bpf.h"
#include "ktraceb/bpf_captures.h"
#include "ktraceb/bpf_kernel.h"
#include "ktraceb/bpf_procs.h"
#include "ktraceb/bpf_select.h"
#include "ktraceb/bpf_stage.h"

#define PROT_WRITE    0x2
#define PROT_EXEC     0x4
#define MAP_PRIVATE   0x02
#define MAP_FIXED     0x10
#define MAP_ANONYMOUS 0x20

struct ret_sample {
	struct ktr_sample s;
	struct ktr_header h;
	struct ktr_sysret r;
};

#if ARCH_KEEP_ARGS
/* The arguments of each traced thread's current syscall, from sys_enter. */
#ifndef KTR_OLD_KERNEL
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct kept_args);
} kept_args SEC(".maps");
#else
/* no task storage before 5.11: by thread id, the least recently used going first */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct kept_args);
} kept_args SEC(".maps");
#endif

struct kept_args {
	__u64 a[KTR_MAXARGS];
	long nr; /* whose: an exit whose entry went unseen must not take another's */
};

/* The current thread's kept arguments; created if create. */
static __always_inline struct kept_args *syscall__kept(bool create)
{
#ifndef KTR_OLD_KERNEL
	return bpf_task_storage_get(&kept_args, bpf_get_current_task_btf(), NULL,
				    create ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
#else
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct kept_args *k = bpf_map_lookup_elem(&kept_args, &tid), zero = {};

	if (k || !create)
		return k;
	bpf_map_update_elem(&kept_args, &tid, &zero, BPF_ANY);
	return bpf_map_lookup_elem(&kept_args, &tid);
#endif
}
#endif

/*
 * The exec each thread is in, from its sys_enter to its sys_exit: the
 * kernel's registers cannot say at the exit.  A successful exec sets the
 * new image's personality, which makes the call look like the execve of
 * the new image's ABI (x86's set_personality_64bit: "pretend that this
 * comes from a 64bit execve"), so an execveat would return as an execve,
 * and an exec between ABIs from the other table.  And an exec by a thread
 * other than the leader gives the thread its process's id (de_thread):
 * the RET carries the id it called with, like the CALL (docs/FORMAT.md).
 */
struct exec_call {
	long nr;
	__u32 tid;
	__u32 compat;
};

#ifndef KTR_OLD_KERNEL
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct exec_call);
} exec_calls SEC(".maps");

/* task's exec in progress; created if create */
static __always_inline struct exec_call *syscall__exec_call(struct task_struct *task, bool create)
{
	return bpf_task_storage_get(&exec_calls, task, NULL,
				    create ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
}

static __always_inline void syscall__exec_done(struct task_struct *task)
{
	bpf_task_storage_delete(&exec_calls, task);
}
#else
/*
 * No task storage before 5.11: by the task's address, which an exec by a
 * thread keeps (its id changes), the least recently used going first.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);
	__type(value, struct exec_call);
} exec_calls SEC(".maps");

static __always_inline struct exec_call *syscall__exec_call(struct task_struct *task, bool create)
{
	struct exec_call *e, zero = {};
	__u64 key = (__u64)task;

	e = bpf_map_lookup_elem(&exec_calls, &key);
	if (e || !create)
		return e;
	bpf_map_update_elem(&exec_calls, &key, &zero, BPF_ANY);
	return bpf_map_lookup_elem(&exec_calls, &key);
}

static __always_inline void syscall__exec_done(struct task_struct *task)
{
	__u64 key = (__u64)task;

	bpf_map_delete_elem(&exec_calls, &key);
}
#endif

static __always_inline void syscall__exec_enter(struct task_struct *task, long id, int compat)
{
	struct exec_call *e = syscall__exec_call(task, true);

	if (e) {
		e->nr = id;
		e->tid = task__read(task, pid);
		e->compat = compat;
	}
}

/* At an exec's sys_exit: the call as it was made, from its sys_enter, if seen. */
static __always_inline void syscall__exec_exit(struct task_struct *task, long *id, int *compat,
					       __u32 *tid)
{
	struct exec_call *e = syscall__exec_call(task, false);

	if (!e)
		return;
	*id = e->nr;
	*compat = e->compat;
	*tid = e->tid;
	syscall__exec_done(task);
}

/* The arguments at sys_enter; kept for sys_exit where the arch needs it. */
static __always_inline void syscall__entry_args(struct pt_regs *regs, long id, int compat,
						__u64 *args)
{
	arch__regs_args(regs, compat, args);
#if ARCH_KEEP_ARGS
	struct kept_args *k = syscall__kept(true);

	if (k) {
		for (int i = 0; i < KTR_MAXARGS; i++)
			k->a[i] = args[i];
		k->nr = id;
	}
#endif
}

/* The arguments at sys_exit: false if they are not known (entry unseen). */
static __always_inline bool syscall__exit_args(struct pt_regs *regs, long id, int compat,
					       __u64 *args)
{
#if ARCH_KEEP_ARGS
	struct kept_args *k = syscall__kept(false);

	if (!k || k->nr != id)
		return false;
	for (int i = 0; i < KTR_MAXARGS; i++)
		args[i] = k->a[i];
	return true;
#else
	arch__regs_args(regs, compat, args);
	return true;
#endif
}

static __always_inline int syscall__is_exec(long id, int compat)
{
	if (compat)
		return id == ARCH_NR32_EXECVE || id == ARCH_NR32_EXECVEAT;
	return id == ARCH_NR_EXECVE || id == ARCH_NR_EXECVEAT;
}

/*
 * Does the syscall need the global functions below (paths, structures, I/O
 * data)?  Most need none, and calling one costs more than this look at the
 * loader's tables.
 */
static __always_inline bool syscall__has_paths(long id, int compat)
{
	if (id < 0 || id >= KTR_MAX_SYSCALLS)
		return false;
	return (compat ? ktr_pathmask32[sys__index(id)] : ktr_pathmask64[sys__index(id)]) != 0;
}

static __always_inline bool syscall__has_captures(long id, int compat, int when)
{
	return !compat && id >= 0 && id < KTR_MAX_SYSCALLS &&
	       (ktr_capwhen64[sys__index(id)] & when);
}

static __always_inline bool syscall__has_genio(long id, int compat)
{
	return !compat && id >= 0 && id < KTR_MAX_SYSCALLS &&
	       ktr_genio64[sys__index(id)] != KTR_GIO_NONE;
}

/* The header flag of a CALL or RET: which table its number is from (ktr.h). */
static __always_inline __u16 syscall__abi_flag(int compat)
{
	return compat ? KTRH_ABI_COMPAT : KTRH_ABI_NATIVE;
}

static __always_inline void syscall__emit_call(__u32 route, long id, int compat, const __u64 *args)
{
	__u32 narg = KTR_MAXARGS;
	struct call_sample *rec;
	struct rec_ref r;

	if (id >= 0 && id < KTR_MAX_SYSCALLS)
		narg = compat ? ktr_nargs32[sys__index(id)] : ktr_nargs64[sys__index(id)];
	/* the length is the payload's, known once call__fill() made it */
	r = rec__reserve_current(sizeof(*rec), route, KTR_SYSCALL, 0);
	if (!r.rec)
		return;
	rec = r.rec;
	r.len = call__fill(rec, id, narg, args);
	rec->h.ktr_len = r.len;
	rec->h.ktr_flags |= syscall__abi_flag(compat);
	rec__submit(r);
}

static __always_inline void ret__fill(struct ktr_sysret *r, long id, long ret)
{
	r->ktr_code = id;
	r->ktr_eosys = 0;
	if (ret < 0 && ret >= -4095) {
		r->ktr_error = -ret;
		r->ktr_retval = -1;
	} else {
		r->ktr_error = 0;
		r->ktr_retval = ret;
	}
}

/*
 * The RET of the current thread's call id, made from the compat table or
 * not, by the thread whose id was tid when it called (its own but after
 * an exec that made it its process's leader: struct exec_call), at time ns.
 */
static __always_inline void syscall__emit_ret(struct task_struct *task, __u32 route, long id,
					      int compat, __u32 tid, long ret, __u64 ns)
{
	__u16 abi = syscall__abi_flag(compat);
	struct rec_ref r;

	if (flight__compact_ret(task, route, id, abi, tid, ret) == 0)
		return; /* a compact recorder's, written there */
	r = rec__reserve_at(sizeof(struct ret_sample), route, KTR_SYSRET, sizeof(struct ktr_sysret),
			    task__read(task, tgid), tid, task, ns);
	if (!r.rec)
		return;
	ret__fill(&((struct ret_sample *)r.rec)->r, id, ret);
	((struct ret_sample *)r.rec)->h.ktr_flags |= abi;
	rec__submit(r);
}

/*
 * One KTR_NAMEI for a user-space path; NULL and unreadable pointers give
 * none, "" (AT_EMPTY_PATH) an empty one.  One byte more than a path can
 * have is read: a record of KTR_PATH_MAX bytes is a path cut there (ktr.h).
 * A path of KTR_PATH_MAX bytes that runs into a page that cannot be read
 * (the kernel, which reads no further, says ENAMETOOLONG) is cut there too.
 */
static __always_inline void namei__emit_user(__u32 route, __u64 uptr, __u64 ns)
{
	struct ktr_sample *s;
	struct ktr_header *h;
	long n;

	if (!uptr)
		return;
	s = rec__scratch();
	if (!s)
		return;
	h = (void *)(s + 1);
	n = bpf_probe_read_user_str(h + 1, KTR_PATH_MAX + 1, (const void *)uptr);
	if (n <= 0) {
		/* its first KTR_PATH_MAX - 1 bytes, no NUL among them, then the last one */
		n = bpf_probe_read_user_str(h + 1, KTR_PATH_MAX, (const void *)uptr);
		if (n != KTR_PATH_MAX ||
		    bpf_probe_read_user((char *)(h + 1) + KTR_PATH_MAX - 1, 1,
					(const void *)(uptr + KTR_PATH_MAX - 1)))
			return; /* unreadable */
		n = KTR_PATH_MAX + 1;
	}
	n--;
	if (n > KTR_PATH_MAX)
		n = KTR_PATH_MAX;
	rec__send_at(s, route, KTR_NAMEI, n, ns);
}

static __always_inline void namei__emit_args(__u32 route, long id, int compat, const __u64 *args,
					     __u64 ns)
{
	__u8 mask;

	if (id < 0 || id >= KTR_MAX_SYSCALLS)
		return;
	mask = compat ? ktr_pathmask32[sys__index(id)] : ktr_pathmask64[sys__index(id)];
	if (!mask)
		return;
	for (int i = 0; i < KTR_MAXARGS; i++)
		if (mask & (1 << i))
			namei__emit_user(route, args[i], ns);
}

/* The file the current process has open as fd, NULL if none. */
static __always_inline struct file *syscall__fd_file(__u64 fd)
{
	struct task_struct *task = task__current();
	struct fdtable *fdt = BPF_CORE_READ(task, files, fdt);
	struct file **fds, *file = NULL;

	if (!fdt || fd >= BPF_CORE_READ(fdt, max_fds))
		return NULL;
	fds = BPF_CORE_READ(fdt, fd);
	bpf_probe_read_kernel(&file, sizeof(file), &fds[fd]);
	return file;
}

/*
 * A syscall's arguments, sized, as a global function takes them, and the
 * time of the records made from them: at a return, every record has the
 * return's time (they are all made there, in one program run; a clock
 * read each would time only that run).
 */
struct syscall_args {
	__u64 v[KTR_MAXARGS];
	__u64 mono_ns;
};

/*
 * The facilities with many paths, as global functions: the verifier
 * checks each once on its own, not again inside every path of the
 * programs that call them, and that check is most of the daemon's start.
 */
KTR_GLOBAL int syscall__namei(__u32 route, long id, int compat, struct syscall_args *a)
{
	if (a)
		namei__emit_args(route, id, compat, a->v, a->mono_ns);
	return 0;
}

KTR_GLOBAL int syscall__structs(__u32 route, long id, long ret, struct syscall_args *a, int when)
{
	if (a)
		struct__capture(route, id, ret, a->v, when, a->mono_ns);
	return 0;
}

KTR_GLOBAL int syscall__genio(struct ktr_proc_state *ps, long id, long ret, struct syscall_args *a)
{
	if (ps && a)
		genio__emit(ps, id, ret, a->v, a->mono_ns);
	return 0;
}

/*
 * Both programs read the task once, and the process's state from its copy
 * (proc__lookup_syscall): on the path every traced syscall takes twice, a
 * helper call costs as much as the rest of the work.
 */
/*
 * With a status filter (-e status=) a call's CALL waits for its return:
 * then it is known whether the call passes, and its arguments are still
 * there (in the registers on x86_64, kept from sys_enter on arm64).  Not
 * an exec's: the image whose arguments they were is gone at its return.
 */
static __always_inline bool syscall__call_at_exit(const struct ktr_select_map *sel, long id,
						  int compat)
{
	return sel && sel->status && !syscall__is_exec(id, compat);
}

/*
 * A call's CALL kept in the stage until its return (bpf_stage.h): when
 * nothing of the call's comes between, and the records go to the ring
 * buffer through the stage.  True if kept.
 */
static __always_inline bool syscall__defer_call(const struct ktr_proc_state *ps,
						struct task_struct *task, long id, int compat,
						const __u64 *args)
{
	struct ktr_stage_call *c;
	struct ktr_stage *st;
	__u32 narg;

	if (compat || id < 0 || id >= KTR_MAX_SYSCALLS ||
	    (ps->facs & (KTRFAC_USTACK | KTRFAC_CSW | KTRFAC_TRACEPOINT)) ||
	    (ktr_between64[sys__index(id)] & (ps->facs | KTR_CALL_AT_ENTRY)))
		return false;
	st = stage__get();
	if (!st || rec__to_flight(ps->route) || !stage__enter(st))
		return false;
	c = &st->call;
	if (c->tid)
		stage__call_out(st); /* cannot be: a call that ended unseen */
	narg = ktr_nargs64[sys__index(id)];
	c->route = ps->route;
	c->mono_ns = bpf_ktime_get_ns();
	c->code = id;
	c->narg = narg < KTR_MAXARGS ? narg : KTR_MAXARGS;
	c->facs = ps->facs;
	for (int i = 0; i < KTR_MAXARGS; i++)
		c->args[i] = args[i];
	c->tid = task__read(task, pid);
	stage__leave(st);
	return true;
}

/*
 * The return of a call whose CALL the stage st kept (syscall__defer_call):
 * nothing of the call's comes between, so the CALL, with its entry time,
 * and the RET go into the stage as one record (KTR_STAGED_PAIR), one
 * header for both.  The trace's facilities came with the CALL (c->facs):
 * the return needs no look at the process's state.  False if the current
 * thread has no CALL kept there.
 */
static __always_inline bool syscall__pair_out(struct task_struct *task, struct ktr_stage *st,
					      long ret)
{
	struct ktr_stage_call *c = &st->call;
	struct ktr_pair_ret *pr;
	struct ktr_sample *s;
	__u32 route;
	__u64 len;

	if (!stage__enter(st))
		return false;
	if (c->tid != (__u32)task__read(task, pid)) {
		/* the daemon's flush made it a record between the look and the taking */
		stage__leave(st);
		return false;
	}
	if (!(c->facs & KTRFAC_SYSRET)) {
		stage__call_out(st);
		stage__leave(st);
		return true;
	}
	route = c->route;
	s = stage__room(st, route); /* it fits: a record's room is the slack */
	len = call__fill((struct call_sample *)s, c->code, c->narg, c->args);
	rec__header_at((struct ktr_header *)(s + 1), KTR_STAGED_PAIR, len, task__read(task, tgid),
		       task__read(task, pid), task, c->mono_ns);
	/* a compat call is never kept: this one is the machine's own */
	((struct ktr_header *)(s + 1))->ktr_flags |= KTRH_ABI_NATIVE;
	asm volatile("%0 &= %1" : "+r"(len) : "i"(0x3f)); /* for the verifier: 8 to 56 */
	pr = (struct ktr_pair_ret *)((unsigned char *)s + sizeof(*s) + sizeof(struct ktr_header) +
				     len);
	pr->mono_ns = bpf_ktime_get_ns();
	ret__fill(&pr->r, c->code, ret);
	stage__commit(st, s, route, len + sizeof(*pr));
	st->nrec++; /* two records */
	c->tid = 0;
	stage__leave(st);
	return true;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(ktr_syscall_enter, struct pt_regs *regs, long id)
{
	struct task_struct *task = task__current();
	struct ktr_proc_state copy, *ps = proc__lookup_syscall(task, &copy);
	const struct ktr_select_map *sel;
	struct syscall_args args;
	int compat;

	prog__refuse_for_tests(KTR_REFUSE_SYS_ENTER);
	if (!ps)
		return 0;
	compat = arch__in_compat_syscall(task);
	if (ps->flags & KTR_PS_QUIET) {
		/* ktraceb command: tracing starts at the command's execve (never a copy) */
		if ((ps->flags & KTR_PS_PENDING) || !syscall__is_exec(id, compat))
			return 0;
		ps->flags &= ~KTR_PS_AWAIT_EXEC;
		proc__changed();
	}
	if (syscall__is_exec(id, compat))
		syscall__exec_enter(task, id, compat);
	sel = select__of(ps);
	if (sel && !select__call(sel, id, compat))
		return 0; /* not selected: no record, nothing kept */
	syscall__entry_args(regs, id, compat, args.v);
	if (syscall__call_at_exit(sel, id, compat))
		return 0;
	if ((ps->facs & KTRFAC_SYSCALL) && !syscall__defer_call(ps, task, id, compat, args.v))
		syscall__emit_call(ps->route, id, compat, args.v);
	if (ps->facs & KTRFAC_USTACK)
		ustack__record(ctx, regs, ps, compat);
	if ((ps->facs & KTRFAC_STRUCT) && syscall__has_captures(id, compat, KTR_CAP_AT_ENTRY)) {
		args.mono_ns = bpf_ktime_get_ns();
		syscall__structs(ps->route, id, 0, &args, KTR_CAP_AT_ENTRY);
	}
	return 0;
}

/*
 * A library loaded (at start, or by dlopen): its text mapped executable,
 * then its data (where semaphores are) privately writable at a fixed
 * place, as ld.so does.  Each time, its USDT probes need a scan: whatever
 * the trace's syscall selection.  mmap(addr, len, prot, flags, fd, off).
 */
static __always_inline void syscall__note_mmap(struct pt_regs *regs, struct ktr_proc_state *ps,
					       __u32 tgid, long id, int compat, long ret)
{
	__u64 args[KTR_MAXARGS];

	if (!(ps->facs & (KTRFAC_USER | KTRFAC_USTACK)) || id != ARCH_NR_MMAP || compat || ret < 0)
		return;
	if (syscall__exit_args(regs, id, 0, args) && !(args[3] & MAP_ANONYMOUS) &&
	    ((args[2] & PROT_EXEC) ||
	     ((args[2] & PROT_WRITE) &&
	      (args[3] & (MAP_PRIVATE | MAP_FIXED)) == (MAP_PRIVATE | MAP_FIXED))))
		/* the entry, not the copy: a HOLD process is stopped there (HELD) */
		note__file(proc__lookup_tgid(tgid), KTR_NOTE_MMAP, tgid,
			   (__u64)syscall__fd_file(args[4]));
}

/* The CALL (and what a call's entry captures) of a call that waited for its return. */
static __always_inline void syscall__late_call(void *ctx, struct pt_regs *regs,
					       struct ktr_proc_state *ps, long id, int compat)
{
	struct syscall_args args;

	if (!syscall__exit_args(regs, id, compat, args.v))
		return;
	if (ps->facs & KTRFAC_SYSCALL)
		syscall__emit_call(ps->route, id, compat, args.v);
	if (ps->facs & KTRFAC_USTACK)
		ustack__record(ctx, regs, ps, compat);
	if ((ps->facs & KTRFAC_STRUCT) && syscall__has_captures(id, compat, KTR_CAP_AT_ENTRY)) {
		args.mono_ns = bpf_ktime_get_ns();
		syscall__structs(ps->route, id, 0, &args, KTR_CAP_AT_ENTRY);
	}
}

SEC("tp_btf/sys_exit")
int BPF_PROG(ktr_syscall_exit, struct pt_regs *regs, long ret)
{
	struct task_struct *task = task__current();
	struct ktr_proc_state copy, *ps;
	const struct ktr_select_map *sel;
	struct ktr_stage *st;
	__u32 tid = task__read(task, pid);
	__u64 now;
	long id;
	int compat;

	if (!proc__may_be_traced(task__read(task, tgid)))
		return 0;
	/* a CALL kept: nothing else of the call's to make, the state not needed */
	st = stage__get();
	if (st && st->call.tid == (__u32)task__read(task, pid) && syscall__pair_out(task, st, ret))
		return 0;
	ps = proc__lookup_syscall(task, &copy);
	if (!ps || (ps->flags & KTR_PS_QUIET))
		return 0;
	id = arch__syscall_nr(regs);
	compat = arch__in_compat_syscall(task);
	if (syscall__is_exec(id, compat))
		syscall__exec_exit(task, &id, &compat, &tid);
	syscall__note_mmap(regs, ps, task__read(task, tgid), id, compat, ret);
	sel = select__of(ps);
	if (sel && (!select__call(sel, id, compat) || !select__status(sel, ret)))
		return 0;
	if (syscall__call_at_exit(sel, id, compat))
		syscall__late_call(ctx, regs, ps, id, compat);
	now = bpf_ktime_get_ns(); /* the time of every record of the return (struct syscall_args) */
	/* each facility fetches the arguments itself: one verifier path each */
	if ((ps->facs & KTRFAC_NAMEI) && syscall__has_paths(id, compat) &&
	    !(ret == 0 && syscall__is_exec(id, compat))) {
		struct syscall_args args;

		args.mono_ns = now;
		if (syscall__exit_args(regs, id, compat, args.v))
			syscall__namei(ps->route, id, compat, &args);
	}
	if ((ps->facs & KTRFAC_STRUCT) && syscall__has_captures(id, compat, KTR_CAP_AT_EXIT)) {
		struct syscall_args args;

		args.mono_ns = now;
		if (syscall__exit_args(regs, id, 0, args.v))
			syscall__structs(ps->route, id, ret, &args, KTR_CAP_AT_EXIT);
	}
	if ((ps->facs & KTRFAC_GENIO) && syscall__has_genio(id, compat)) {
		struct syscall_args args;

		args.mono_ns = now;
		if (syscall__exit_args(regs, id, 0, args.v))
			syscall__genio(ps, id, ret, &args);
	}
	if (ps->facs & KTRFAC_SYSRET)
		syscall__emit_ret(task, ps->route, id, compat, tid, ret, now);
	return 0;
}
