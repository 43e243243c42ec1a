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
#include "ktraceb.bpf.h"

#define SI_USER		0
#define SI_KERNEL	0x80

struct psig_sample {
	struct ktr_sample s;
	struct ktr_header h;
	struct ktr_psig p;
};

SEC("tp_btf/signal_deliver")
int BPF_PROG(ktr_psig_deliver, int sig, struct kernel_siginfo *info, struct k_sigaction *ka)
{
	struct ktr_proc_state *ps = proc__lookup();
	struct task_struct *task;
	struct psig_sample *rec;
	__u64 blocked;

	if (!ps || (ps->flags & KTR_PS_AWAIT_EXEC) || !(ps->facs & KTRFAC_PSIG))
		return 0;
	rec = bpf_ringbuf_reserve(&rb, sizeof(*rec), 0);
	if (!rec) {
		rec__count_lost(ps->route);
		return 0;
	}
	task = bpf_get_current_task_btf();
	rec__header_current(&rec->h, KTR_PSIG, sizeof(rec->p));
	rec->s.route = ps->route;
	rec->s.reserved = 0;
	rec->p.signo = sig;
	rec->p.pad0 = 0;
	rec->p.action = ka ? (__u64)BPF_CORE_READ(ka, sa.sa_handler) : 0;
	if ((unsigned long)info <= 1)
		rec->p.code = info ? SI_KERNEL : SI_USER;
	else
		rec->p.code = BPF_CORE_READ(info, si_code);
	/*
	 * A fatal signal turns into a group-wide SIGKILL (complete_signal())
	 * and reaches us as that: report the signal that kills the process.
	 */
	if (sig == 9 && (task->signal->group_exit_code & 0x7f))
		rec->p.signo = task->signal->group_exit_code & 0x7f;
	blocked = task->blocked.sig[0];
	rec->p.mask[0] = (__u32)blocked;
	rec->p.mask[1] = blocked >> 32;
	rec->p.mask[2] = 0;
	rec->p.mask[3] = 0;
	rec->p.pad1 = 0;
	bpf_ringbuf_submit(rec, rec__wakeup_flag());
	return 0;
}
