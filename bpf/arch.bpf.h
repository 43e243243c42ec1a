/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Everything the BPF programs know about the machine, in one place: where a
 * syscall's number and arguments are in the registers, the numbers the
 * programs look for (execve, mmap), and whether the current syscall is a
 * 32-bit compat one.  The rest of bpf/ reads syscalls only through these.
 *
 *   x86_64: the argument registers survive the syscall (the kernel leaves
 *     di/si/dx/r10/r8/r9 alone, which is how strace reads them too), so
 *     sys_exit reads them where they are: nothing is kept per thread.
 *     32-bit (int 0x80) syscalls come from the i386 table.
 *   arm64: x0 holds the return value at exit, so the arguments are read at
 *     sys_enter and kept for sys_exit in task storage (ARCH_KEEP_ARGS).
 *     32-bit (AArch32) compat syscalls are not decoded (x86-only): they
 *     are recorded as native numbers.
 *
 * arch_probe_ctx_t is a uprobe program's context as the verifier names it
 * (the kernel's bpf_user_pt_regs_t: struct pt_regs on x86, struct
 * user_pt_regs on arm64).  A global function's argument is checked by its
 * BTF type, and only that name (a typedef resolved) makes it the context:
 * another pointer is memory of its struct's size, and the context passed
 * for it is refused ("invalid bpf_context access", arm64's struct pt_regs
 * being larger than the context).
 */
#ifndef KTRACEB_ARCH_BPF_H
#define KTRACEB_ARCH_BPF_H

#if defined(__TARGET_ARCH_x86)

#define ARCH_NR_EXECVE	   59 /* syscall_x86_64.tbl */
#define ARCH_NR_EXECVEAT   322
#define ARCH_NR_MMAP	   9
#define ARCH_NR32_EXECVE   11 /* syscall_i386.tbl */
#define ARCH_NR32_EXECVEAT 358
#define ARCH_KEEP_ARGS	   0
#define ARCH_SV_NATIVE	   KTR_SV_LINUX_AMD64 /* PROCCTOR sv_flags, as FreeBSD's */
#define ARCH_SV_COMPAT	   KTR_SV_LINUX_I386

typedef struct pt_regs arch_probe_ctx_t;

/* Where user space ends (4-level paging: 47 bits; 5-level only on request). */
#define ARCH_USER_ADDR_END 0x0000800000000000ULL
/*
 * A task's kernel stack, whose top holds its user registers (task_pt_regs();
 * TOP_OF_KERNEL_STACK_PADDING is 0 on x86_64): 32 KiB only with KASAN.
 */
#define ARCH_THREAD_SIZE 16384

static __always_inline long arch__syscall_nr(struct pt_regs *regs)
{
	return regs->orig_ax;
}

static __always_inline void arch__regs_args(struct pt_regs *regs, int compat, __u64 *args)
{
	if (compat) {
		args[0] = (__u32)regs->bx;
		args[1] = (__u32)regs->cx;
		args[2] = (__u32)regs->dx;
		args[3] = (__u32)regs->si;
		args[4] = (__u32)regs->di;
		args[5] = (__u32)regs->bp;
	} else {
		args[0] = regs->di;
		args[1] = regs->si;
		args[2] = regs->dx;
		args[3] = regs->r10;
		args[4] = regs->r8;
		args[5] = regs->r9;
	}
}

/* A task's saved user registers say it is inside a syscall (for CSW). */
static __always_inline bool arch__regs_in_syscall(struct pt_regs *regs)
{
	return (long)BPF_CORE_READ(regs, orig_ax) >= 0;
}

/*
 * The user registers for -k's DWARF unwinding, by their DWARF numbers
 * (ktr.h, struct ktr_uregs): rax rdx rcx rbx rsi rdi rbp rsp r8-r15 rip.
 */
#define ARCH_EM		 62 /* EM_X86_64 */
#define ARCH_DWARF_NREGS 17

static __always_inline void arch__dwarf_regs(struct pt_regs *regs, __u64 *r, __u64 *sp, __u64 *pc)
{
	r[0] = regs->ax;
	r[1] = regs->dx;
	r[2] = regs->cx;
	r[3] = regs->bx;
	r[4] = regs->si;
	r[5] = regs->di;
	r[6] = regs->bp;
	r[7] = regs->sp;
	r[8] = regs->r8;
	r[9] = regs->r9;
	r[10] = regs->r10;
	r[11] = regs->r11;
	r[12] = regs->r12;
	r[13] = regs->r13;
	r[14] = regs->r14;
	r[15] = regs->r15;
	r[16] = regs->ip;
	*sp = regs->sp;
	*pc = regs->ip;
}

/* Is task (the current thread) inside a 32-bit (int 0x80 / compat) syscall? */
static __always_inline int arch__in_compat_syscall(struct task_struct *task)
{
	if (bpf_core_field_exists(task->thread_info.status))
		return (task__read(task, thread_info.status) & 0x0002 /* TS_COMPAT */) != 0;
	return 0;
}

#elif defined(__TARGET_ARCH_arm64)

#define ARCH_NR_EXECVE	   221 /* syscall_arm64.tbl */
#define ARCH_NR_EXECVEAT   281
#define ARCH_NR_MMAP	   222
#define ARCH_NR32_EXECVE   (-1) /* AArch32 compat: not decoded */
#define ARCH_NR32_EXECVEAT (-1)
#define ARCH_KEEP_ARGS	   1
/* FreeBSD's sv_flags of a 64-bit Linux process; the machine is in the INFO record */
#define ARCH_SV_NATIVE KTR_SV_LINUX_AMD64
#define ARCH_SV_COMPAT KTR_SV_LINUX_I386

typedef struct user_pt_regs arch_probe_ctx_t;

/*
 * Where user space ends (48-bit addresses: PIE programs load at
 * 0xaaaa..., stacks below 0x1000000000000; 52 bits only on request).
 */
#define ARCH_USER_ADDR_END 0x0001000000000000ULL
/* A task's kernel stack, whose top holds its user registers (task_pt_regs()); KASAN doubles it */
#define ARCH_THREAD_SIZE 16384

static __always_inline long arch__syscall_nr(struct pt_regs *regs)
{
	return regs->syscallno;
}

/* At sys_enter only: by sys_exit, x0 is the return value. */
static __always_inline void arch__regs_args(struct pt_regs *regs, int compat, __u64 *args)
{
	args[0] = regs->orig_x0;
	for (int i = 1; i < 6; i++)
		args[i] = regs->regs[i];
}

static __always_inline bool arch__regs_in_syscall(struct pt_regs *regs)
{
	return (int)BPF_CORE_READ(regs, syscallno) >= 0; /* NO_SYSCALL is -1 */
}

static __always_inline int arch__in_compat_syscall(struct task_struct *task)
{
	return 0;
}

/* -k's DWARF registers: x0-x30, then sp (31); the pc apart (ktr.h, struct ktr_uregs). */
#define ARCH_EM		 183 /* EM_AARCH64 */
#define ARCH_DWARF_NREGS 32

static __always_inline void arch__dwarf_regs(struct pt_regs *regs, __u64 *r, __u64 *sp, __u64 *pc)
{
	for (int i = 0; i < 31; i++)
		r[i] = regs->regs[i];
	r[31] = regs->sp;
	*sp = regs->sp;
	*pc = regs->pc;
}

#else
#error "ktraceb: no arch layer for this target (bpf/arch.bpf.h: x86, arm64)"
#endif

#endif /* KTRACEB_ARCH_BPF_H */
