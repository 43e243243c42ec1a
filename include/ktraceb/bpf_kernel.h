/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * What the loader tells the programs about the kernel they run on, in
 * .rodata before load: the program the tests want refused, and what the
 * kernel lacks of what the programs would use.
 */
#ifndef KTRACEB_BPF_KERNEL_H
#define KTRACEB_BPF_KERNEL_H

/*
 * Fault injection for the tests (tests/e2e/t_kernel.sh): the loader sets
 * ktr_refuse_prog (.rodata) from KTRACEB_REFUSE_PROG=NAME, and the program
 * so named reads past its stack, which every verifier refuses in its own
 * words; what a kernel refusing that program looks like to a user is then
 * tested on any kernel.  Unset (0), the verifier drops the check as dead
 * code: it costs nothing.
 */
#define KTR_REFUSE_CSW		1	/* ktr_csw_switch */
#define KTR_REFUSE_TP		2	/* ktr_tp_record */
#define KTR_REFUSE_USDT		3	/* ktr_usdt_record */
#define KTR_REFUSE_SYS_ENTER	4	/* ktr_syscall_enter */
/*
 * stage_send: no program refused, but neither the daemon's flush nor a
 * context switch sends a stage on (ktr_stage_flush says it is held), as
 * when a virtual CPU stops in the middle of a program: what a file whose
 * records a stage keeps at its end looks like (t_stage.sh).
 */
#define KTR_REFUSE_STAGE_SEND	5
/*
 * switch_in: no program refused, but the switch program acts as if the
 * kernel had not reported any switch that puts a thread on a CPU, as a
 * kernel does not when the task it switches from is one it hides from
 * tracing: what the resumes it then notices late look like (t_csw.sh).
 */
#define KTR_REFUSE_SWITCH_IN	6

/*
 * What the kernel lacks of what the programs would use (ktr_kernel_lacks,
 * in .rodata, set by the loader: ktr_kernel_caps.c): each has a way
 * without, and the verifier drops the way not taken.  The first kernel
 * that has each is in ktr_kernel_caps.c.
 */
#define KTR_LACKS_ATTACH_COOKIE	0x1	/* bpf_get_attach_cookie(): stubs name the event (tp.bpf.c) */
#define KTR_LACKS_TASK_PT_REGS	0x2	/* bpf_task_pt_regs(): found from the stack (csw.bpf.c) */
#define KTR_LACKS_SWITCH_STATE	0x4	/* sched_switch's prev_state: read from the task */

#endif /* KTRACEB_BPF_KERNEL_H */
