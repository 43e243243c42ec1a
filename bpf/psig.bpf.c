// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Facility 's' (KTR_PSIG): every signal delivered to a traced thread,
 * caught, ignored or fatal.  signal_deliver fires in the receiving thread
 * as get_signal() hands the signal over, with ka == NULL for the SIGKILL of
 * a dying thread group (on some kernels) and info == SEND_SIG_NOINFO or
 * SEND_SIG_PRIV (0 or 1)
 * for signals the kernel sends without a siginfo.
 */
#include "procs.bpf.h"
#include "record.bpf.h"
#include "flight_ring.bpf.h"
#include "ktraceb/bpf_procs.h"
#include "ktraceb/bpf_sample.h"

#define SIGCONT	  18
#define SIGSTOP	  19
#define SI_USER	  0
#define SI_KERNEL 0x80

/*
 * A fatal signal reaches signal_deliver as the group-exit SIGKILL, without
 * its siginfo: remember the si_code it was generated with, per process.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32); /* tgid */
	__type(value, __u64); /* signo << 32 | si_code */
} fatal_codes SEC(".maps");

static __always_inline int psig__code(struct kernel_siginfo *info)
{
	if ((unsigned long)info <= 1)
		return info ? SI_KERNEL : SI_USER;
	return BPF_CORE_READ(info, si_code);
}

SEC("tp_btf/signal_generate")
int BPF_PROG(ktr_psig_generate, int sig, struct kernel_siginfo *info, struct task_struct *task,
	     int group, int result)
{
	__u32 tgid = task->tgid;
	struct ktr_proc_state *ps = proc__lookup_tgid(tgid);
	__u64 v;

	if (!ps || !(ps->facs & KTRFAC_PSIG))
		return 0;
	/* a SIGCONT throws away a pending stop: a hold's too (note.bpf.c) */
	if (sig == SIGCONT)
		bpf_map_delete_elem(&hold_stops, &tgid);
	v = (__u64)sig << 32 | (__u32)psig__code(info);
	bpf_map_update_elem(&fatal_codes, &tgid, &v, BPF_ANY);
	return 0;
}

/*
 * True for the SIGSTOP a hold sent (note.bpf.c), taken: whatever order the
 * daemon's clearing of KTR_PS_HELD, its SIGCONT and this delivery come in.
 * The delivery and a SIGCONT's generation both run under the process's
 * signal lock, so only one of them finds the entry.
 */
static __always_inline bool psig__hold_stop(void)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;

	return bpf_map_delete_elem(&hold_stops, &tgid) == 0;
}

struct psig_sample {
	struct ktr_sample s;
	struct ktr_header h;
	struct ktr_psig p;
};

/* The PSIG of signal sig with action ka, delivered to the current thread. */
static __always_inline void psig__fill(struct psig_sample *rec, int sig,
				       struct kernel_siginfo *info, struct k_sigaction *ka)
{
	struct task_struct *task;
	__u64 blocked;
	int killed_by;

	task = task__current();
	rec->p.signo = sig;
	rec->p.pad0 = 0;
	rec->p.action = ka ? (__u64)BPF_CORE_READ(ka, sa.sa_handler) : 0;
	rec->p.code = psig__code(info);
	/*
	 * A fatal signal turns into a group-wide SIGKILL (complete_signal())
	 * and reaches us as that: report the signal that kills the process,
	 * with the code it was sent with.
	 */
	killed_by = sig == 9 ? BPF_CORE_READ(task, signal, group_exit_code) & 0x7f : 0;
	if (killed_by) {
		__u32 tgid = task__read(task, tgid);
		__u64 *gen = bpf_map_lookup_elem(&fatal_codes, &tgid);

		rec->p.signo = killed_by;
		if (gen && (gen[0] >> 32) == (__u64)rec->p.signo)
			rec->p.code = (__s32)gen[0];
	}
	blocked = task__read(task, blocked.sig[0]);
	rec->p.mask[0] = (__u32)blocked;
	rec->p.mask[1] = blocked >> 32;
	rec->p.mask[2] = 0;
	rec->p.mask[3] = 0;
	rec->p.pad1 = 0;
}

SEC("tp_btf/signal_deliver")
int BPF_PROG(ktr_psig_deliver, int sig, struct kernel_siginfo *info, struct k_sigaction *ka)
{
	struct ktr_proc_state *ps = proc__lookup();
	struct psig_sample *rec;
	struct rec_ref r;

	if (!ps || (ps->flags & KTR_PS_QUIET) || !(ps->facs & KTRFAC_PSIG))
		return 0;
	/*
	 * the stop of a command whose probes are being attached (note.bpf.c):
	 * the kernel's (bpf_send_signal), so a kill(2)'s stop is never taken
	 * for it, whatever entry a process killed while held left behind
	 */
	if (sig == SIGSTOP && psig__code(info) == SI_KERNEL && psig__hold_stop())
		return 0;
	r = rec__reserve_current(sizeof(*rec), ps->route, KTR_PSIG, sizeof(rec->p));
	rec = r.rec;
	if (!rec)
		return 0;
	psig__fill(rec, sig, info, ka);
	/* a recorder's process got a signal that dumps core, with its default action: a crash */
	if (r.where == REC_FLIGHT && !rec->p.action && flight__dumps_core(rec->p.signo))
		flight__crash_begins(ps->route);
	rec__submit(r);
	return 0;
}
