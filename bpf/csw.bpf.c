// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Facility 'w' (KTR_CSW): a traced thread leaving and getting the CPU.
 * sched_switch runs for every switch on the machine, so the daemon attaches
 * this program only while it traces (for the stage, below).
 *
 * "user" follows BSD's meaning, the thread was running user code: its saved
 * user registers say it was not inside a syscall (arch__regs_in_syscall(): after an
 * interrupt from user mode).  wmesg says why it switched, as FreeBSD's
 * wait message does: preempt, yield, sleep, dsleep (uninterruptible),
 * stopped, traced, or dead.
 *
 * A kernel may not report a switch: tracepoints do not fire while a task
 * it hides from tracing runs (some virtual machines' own agent), and a
 * switch from that task to a traced thread is one.  The thread's resume
 * would be missing.  So each CPU's stage notes the thread the last switch
 * seen there put on it: when a thread leaves a CPU that the program did
 * not see it come to, its resume is written then, before its stop, with
 * the wait message "unseen" and that time.
 */
#include "procs.bpf.h"
#include "record.bpf.h"
#include "arch.bpf.h"
#include "ktraceb/bpf_kernel.h"
#include "ktraceb/bpf_procs.h"
#include "ktraceb/bpf_stage.h"

struct csw_sample {
	struct ktr_sample s;
	struct ktr_header h;
	struct ktr_csw c;
};

/*
 * The wait message as one little-endian 8-byte store: string literals
 * would put a .rodata.str1.1 section into the object, which the libbpf 1.1
 * linker mis-relocates when objects are linked into one.
 */
#define WMESG(a, b, c, d, e, f, g)                                                               \
	((__u64)(a) | (__u64)(b) << 8 | (__u64)(c) << 16 | (__u64)(d) << 24 | (__u64)(e) << 32 | \
	 (__u64)(f) << 40 | (__u64)(g) << 48)

#define CSW_UNSEEN WMESG('u', 'n', 's', 'e', 'e', 'n', 0)

/* A stop's wait message. */
static __always_inline __u64 csw__wmesg(bool preempt, unsigned int state)
{
	if (preempt)
		return WMESG('p', 'r', 'e', 'e', 'm', 'p', 't');
	if (state == 0)
		return WMESG('y', 'i', 'e', 'l', 'd', 0, 0);
	if (state & 0x1)
		return WMESG('s', 'l', 'e', 'e', 'p', 0, 0);
	if (state & 0x2)
		return WMESG('d', 's', 'l', 'e', 'e', 'p', 0);
	if (state & 0x4)
		return WMESG('s', 't', 'o', 'p', 'p', 'e', 'd');
	if (state & 0x8)
		return WMESG('t', 'r', 'a', 'c', 'e', 'd', 0);
	return WMESG('d', 'e', 'a', 'd', 0, 0, 0);
}

/*
 * The fields of a task the ways without below read, as the running kernel
 * has them (CO-RE: the part of the name after ___ is ours): its kernel
 * stack, and its state word, __state from 5.14, state before.
 */
struct task_struct___ktr {
	void *stack;
	unsigned int __state;
} __attribute__((preserve_access_index));

struct task_struct___before_5_14 {
	long state;
} __attribute__((preserve_access_index));

/*
 * The user registers task saved on entering the kernel: bpf_task_pt_regs()
 * from 5.15, else where that finds them, at the top of the task's stack.
 */
static __always_inline struct pt_regs *csw__regs(struct task_struct *task)
{
	void *stack;

	if (!(ktr_kernel_lacks & KTR_LACKS_TASK_PT_REGS))
		return (struct pt_regs *)bpf_task_pt_regs(task);
	stack = BPF_CORE_READ((struct task_struct___ktr *)task, stack);
	return stack ? (struct pt_regs *)(stack + ARCH_THREAD_SIZE) - 1 : NULL;
}

static __always_inline unsigned int csw__task_state(struct task_struct *task)
{
	struct task_struct___ktr *t = (void *)task;

	if (bpf_core_field_exists(t->__state))
		return BPF_CORE_READ(t, __state);
	return BPF_CORE_READ((struct task_struct___before_5_14 *)task, state);
}

static __always_inline void csw__fill(struct csw_sample *rec, struct task_struct *task, int out,
				      __u64 wmesg)
{
	struct pt_regs *regs = csw__regs(task);

	rec->c.out = out;
	rec->c.user = regs ? !arch__regs_in_syscall(regs) : 0;
	*(__u64 *)rec->c.wmesg = wmesg;
}

static __always_inline void csw__emit(struct task_struct *task, int out, __u64 wmesg)
{
	__u32 tgid = task->tgid;
	struct ktr_proc_state *ps = proc__lookup_tgid(tgid);
	struct rec_ref r;

	if (!ps || (ps->flags & KTR_PS_QUIET) || !(ps->facs & KTRFAC_CSW))
		return;
	r = rec__reserve(sizeof(struct csw_sample), ps->route, KTR_CSW, sizeof(struct ktr_csw),
			 tgid, task->pid, task);
	if (!r.rec)
		return;
	csw__fill(r.rec, task, out, wmesg);
	rec__submit(r);
}

/*
 * Also what keeps a thread's records in order while staging is on
 * (bpf_stage.h): prev, still the current thread here, has the CALL it
 * blocks in made a record, and this CPU's stage goes into prev's ring
 * before prev can run on another CPU.  The daemon attaches this program
 * for that whenever it traces, and the 'w' records only for whom asked.
 */
SEC("tp_btf/sched_switch")
int BPF_PROG(ktr_csw_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	struct ktr_stage *st = stage__get();
	__u32 attached = *(volatile __u32 *)&ktr_stage_on;
	unsigned int prev_state;

	prog__refuse_for_tests(KTR_REFUSE_CSW);
	if (prog__stage_stuck_for_tests())
		st = NULL;
	if (st && st->call.tid && stage__enter(st)) {
		stage__call_out(st);
		stage__leave(st);
	}
	/* prev came to this CPU by a switch the kernel did not report (above) */
	if (st && st->switched_in_on == attached && st->switched_in != prev->pid)
		csw__emit(prev, 0, CSW_UNSEEN);
	/* the tracepoint's fourth argument from 5.18; before, what it is read from */
	if (ktr_kernel_lacks & KTR_LACKS_SWITCH_STATE)
		prev_state = csw__task_state(prev);
	else
		prev_state = ctx[3];
	csw__emit(prev, 1, csw__wmesg(preempt, prev_state));
	if (st)
		rec__stage_out();
	if (ktr_refuse_prog == KTR_REFUSE_SWITCH_IN) {
		if (st) {
			st->switched_in = (__u32)-1; /* no thread's */
			st->switched_in_on = attached;
		}
		return 0;
	}
	/*
	 * After the stage went into prev's ring: next's record waits in the
	 * stage for next's own records, and goes into next's ring with them.
	 */
	csw__emit(next, 0, 0);
	if (st) {
		st->switched_in = next->pid;
		st->switched_in_on = attached;
	}
	return 0;
}
