// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Process, thread and time syscalls: clone, wait, rlimits,
 * futex, clocks, scheduling and priorities.
 */
#include <sched.h>
#include <time.h>
#include <sys/wait.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <linux/futex.h>
#include "decode_int.h"

#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x00001000
#endif
#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif
#ifndef P_PIDFD
#define P_PIDFD 3
#endif
#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif
#ifndef FUTEX_LOCK_PI2
#define FUTEX_LOCK_PI2 13
#endif
#ifndef CLOCK_TAI
#define CLOCK_TAI 11
#endif

static const struct ktr_sym clone_sym[] = {
	KTR_SYM(CLONE_VM),
	KTR_SYM(CLONE_FS),
	KTR_SYM(CLONE_FILES),
	KTR_SYM(CLONE_SIGHAND),
	KTR_SYM(CLONE_PIDFD),
	KTR_SYM(CLONE_PTRACE),
	KTR_SYM(CLONE_VFORK),
	KTR_SYM(CLONE_PARENT),
	KTR_SYM(CLONE_THREAD),
	KTR_SYM(CLONE_NEWNS),
	KTR_SYM(CLONE_SYSVSEM),
	KTR_SYM(CLONE_SETTLS),
	KTR_SYM(CLONE_PARENT_SETTID),
	KTR_SYM(CLONE_CHILD_CLEARTID),
	KTR_SYM(CLONE_DETACHED),
	KTR_SYM(CLONE_UNTRACED),
	KTR_SYM(CLONE_CHILD_SETTID),
	KTR_SYM(CLONE_NEWCGROUP),
	KTR_SYM(CLONE_NEWUTS),
	KTR_SYM(CLONE_NEWIPC),
	KTR_SYM(CLONE_NEWUSER),
	KTR_SYM(CLONE_NEWPID),
	KTR_SYM(CLONE_NEWNET),
	KTR_SYM(CLONE_IO),
	{ 0x100000000ULL, "CLONE_CLEAR_SIGHAND" },
	{ 0x200000000ULL, "CLONE_INTO_CGROUP" },
	KTR_SYM(CLONE_NEWTIME),
};
const struct ktr_symtab ktr_clone_flags_tab = KTR_SYMTAB(clone_sym);

/* clone(2): flags in the high bits, the exit signal in the low byte. */
static void arg_cloneflags(FILE *out, const struct ktr_argctx *c, int i)
{
	__u64 v = c->a[i];
	int sig = v & 0xff, n;

	if (c->flags & KTR_DEC_RAW) {
		ktr_print_num(out, v, c->flags);
		return;
	}
	n = ktr_print_mask_cont(out, &ktr_clone_flags_tab, v & ~0xffULL, 0);
	if (sig || !n) {
		if (n)
			fputc('|', out);
		ktr_print_signal(out, sig, c->flags);
	}
}

/* unshare(2) and setns(2) take the namespace bits alone. */
static void arg_nsflags(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_mask(out, &ktr_clone_flags_tab, c->a[i] & 0xffffffffu, c->flags);
}

static const struct ktr_sym wait_sym[] = {
	KTR_SYM(WNOHANG), KTR_SYM(WUNTRACED),	KTR_SYM(WEXITED), KTR_SYM(WCONTINUED),
	KTR_SYM(WNOWAIT), KTR_SYM(__WNOTHREAD), KTR_SYM(__WALL),  KTR_SYM(__WCLONE),
};
static const struct ktr_symtab wait_tab = KTR_SYMTAB(wait_sym);

static void arg_waitopt(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_mask(out, &wait_tab, c->a[i] & 0xffffffffu, c->flags);
}

static const struct ktr_sym idtype_sym[] = {
	KTR_SYM(P_ALL),
	KTR_SYM(P_PID),
	KTR_SYM(P_PGID),
	KTR_SYM(P_PIDFD),
};
static const struct ktr_symtab idtype_tab = KTR_SYMTAB(idtype_sym);

static void arg_idtype(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_enum(out, &idtype_tab, (int)c->a[i], c->flags);
}

void ktr_print_wstatus(FILE *out, int s, int flags)
{
	if (flags & KTR_DEC_RAW) {
		fprintf(out, "%#x", (unsigned int)s);
		return;
	}
	if (WIFEXITED(s)) {
		fprintf(out, "WIFEXITED(s) && WEXITSTATUS(s) == %d", WEXITSTATUS(s));
	} else if (WIFSIGNALED(s)) {
		fputs("WIFSIGNALED(s) && WTERMSIG(s) == ", out);
		ktr_print_signal(out, WTERMSIG(s), flags);
		if (WCOREDUMP(s))
			fputs(" && WCOREDUMP(s)", out);
	} else if (WIFSTOPPED(s)) {
		fputs("WIFSTOPPED(s) && WSTOPSIG(s) == ", out);
		ktr_print_signal(out, WSTOPSIG(s), flags);
		if (s >> 16)
			fprintf(out, " && (s >> 16) == %d", (s >> 16) & 0xffff);
	} else if (WIFCONTINUED(s)) {
		fputs("WIFCONTINUED(s)", out);
	} else {
		fprintf(out, "%#x", (unsigned int)s);
	}
}

static const struct ktr_sym rlimit_sym[] = {
	KTR_SYM(RLIMIT_CPU),	  KTR_SYM(RLIMIT_FSIZE),  KTR_SYM(RLIMIT_DATA),
	KTR_SYM(RLIMIT_STACK),	  KTR_SYM(RLIMIT_CORE),	  KTR_SYM(RLIMIT_RSS),
	KTR_SYM(RLIMIT_NPROC),	  KTR_SYM(RLIMIT_NOFILE), KTR_SYM(RLIMIT_MEMLOCK),
	KTR_SYM(RLIMIT_AS),	  KTR_SYM(RLIMIT_LOCKS),  KTR_SYM(RLIMIT_SIGPENDING),
	KTR_SYM(RLIMIT_MSGQUEUE), KTR_SYM(RLIMIT_NICE),	  KTR_SYM(RLIMIT_RTPRIO),
	KTR_SYM(RLIMIT_RTTIME),
};
static const struct ktr_symtab rlimit_tab = KTR_SYMTAB(rlimit_sym);

static void arg_rlimit(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_enum(out, &rlimit_tab, (int)c->a[i], c->flags);
}

static const struct ktr_sym futex_sym[] = {
	KTR_SYM(FUTEX_WAIT),	       KTR_SYM(FUTEX_WAKE),	   KTR_SYM(FUTEX_FD),
	KTR_SYM(FUTEX_REQUEUE),	       KTR_SYM(FUTEX_CMP_REQUEUE), KTR_SYM(FUTEX_WAKE_OP),
	KTR_SYM(FUTEX_LOCK_PI),	       KTR_SYM(FUTEX_UNLOCK_PI),   KTR_SYM(FUTEX_TRYLOCK_PI),
	KTR_SYM(FUTEX_WAIT_BITSET),    KTR_SYM(FUTEX_WAKE_BITSET), KTR_SYM(FUTEX_WAIT_REQUEUE_PI),
	KTR_SYM(FUTEX_CMP_REQUEUE_PI), KTR_SYM(FUTEX_LOCK_PI2),
};
static const struct ktr_symtab futex_tab = KTR_SYMTAB(futex_sym);

/* "FUTEX_WAIT_PRIVATE", "FUTEX_WAIT_BITSET_PRIVATE|FUTEX_CLOCK_REALTIME" as strace */
static void arg_futexop(FILE *out, const struct ktr_argctx *c, int i)
{
	unsigned int op = (unsigned int)c->a[i];
	const char *name = ktr_sym_name(&futex_tab, op & FUTEX_CMD_MASK);

	if ((c->flags & KTR_DEC_RAW) || !name ||
	    (op & ~(FUTEX_CMD_MASK | FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME))) {
		fprintf(out, "%#x", op);
		return;
	}
	fprintf(out, "%s%s%s", name, (op & FUTEX_PRIVATE_FLAG) ? "_PRIVATE" : "",
		(op & FUTEX_CLOCK_REALTIME) ? "|FUTEX_CLOCK_REALTIME" : "");
}

static const struct ktr_sym abstime_sym[] = { KTR_SYM(TIMER_ABSTIME) };
static const struct ktr_symtab abstime_tab = KTR_SYMTAB(abstime_sym);

static void arg_abstime(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_mask(out, &abstime_tab, c->a[i] & 0xffffffffu, c->flags);
}

static const struct ktr_sym sched_sym[] = {
	KTR_SYM(SCHED_OTHER),
	KTR_SYM(SCHED_FIFO),
	KTR_SYM(SCHED_RR),
	KTR_SYM(SCHED_BATCH),
	KTR_SYM(SCHED_IDLE),
	KTR_SYM(SCHED_DEADLINE),
	{ 7, "SCHED_EXT" },
	{ SCHED_RESET_ON_FORK | SCHED_OTHER, "SCHED_OTHER|SCHED_RESET_ON_FORK" },
	{ SCHED_RESET_ON_FORK | SCHED_FIFO, "SCHED_FIFO|SCHED_RESET_ON_FORK" },
	{ SCHED_RESET_ON_FORK | SCHED_RR, "SCHED_RR|SCHED_RESET_ON_FORK" },
	{ SCHED_RESET_ON_FORK | SCHED_BATCH, "SCHED_BATCH|SCHED_RESET_ON_FORK" },
	{ SCHED_RESET_ON_FORK | SCHED_IDLE, "SCHED_IDLE|SCHED_RESET_ON_FORK" },
};
static const struct ktr_symtab sched_tab = KTR_SYMTAB(sched_sym);

static void arg_policy(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_enum(out, &sched_tab, (int)c->a[i], c->flags);
}

static const struct ktr_sym prio_sym[] = {
	KTR_SYM(PRIO_PROCESS),
	KTR_SYM(PRIO_PGRP),
	KTR_SYM(PRIO_USER),
};
static const struct ktr_symtab prio_tab = KTR_SYMTAB(prio_sym);

static void arg_priowhich(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_enum(out, &prio_tab, (int)c->a[i], c->flags);
}

static const struct ktr_sym itimer_sym[] = {
	KTR_SYM(ITIMER_REAL),
	KTR_SYM(ITIMER_VIRTUAL),
	KTR_SYM(ITIMER_PROF),
};
static const struct ktr_symtab itimer_tab = KTR_SYMTAB(itimer_sym);

static void arg_itimer(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_enum(out, &itimer_tab, (int)c->a[i], c->flags);
}

static const struct ktr_sym rusage_sym[] = {
	KTR_SYM(RUSAGE_SELF),
	KTR_SYM(RUSAGE_CHILDREN),
	KTR_SYM(RUSAGE_THREAD),
};
static const struct ktr_symtab rusage_tab = KTR_SYMTAB(rusage_sym);

static void arg_rusagewho(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_enum(out, &rusage_tab, (int)c->a[i], c->flags);
}

/* Request numbers from include/uapi/linux/ptrace.h and arch/x86 */
static const struct ktr_sym ptrace_sym[] = {
	{ 0, "PTRACE_TRACEME" },
	{ 1, "PTRACE_PEEKTEXT" },
	{ 2, "PTRACE_PEEKDATA" },
	{ 3, "PTRACE_PEEKUSER" },
	{ 4, "PTRACE_POKETEXT" },
	{ 5, "PTRACE_POKEDATA" },
	{ 6, "PTRACE_POKEUSER" },
	{ 7, "PTRACE_CONT" },
	{ 8, "PTRACE_KILL" },
	{ 9, "PTRACE_SINGLESTEP" },
	{ 12, "PTRACE_GETREGS" },
	{ 13, "PTRACE_SETREGS" },
	{ 14, "PTRACE_GETFPREGS" },
	{ 15, "PTRACE_SETFPREGS" },
	{ 16, "PTRACE_ATTACH" },
	{ 17, "PTRACE_DETACH" },
	{ 18, "PTRACE_GETFPXREGS" },
	{ 19, "PTRACE_SETFPXREGS" },
	{ 24, "PTRACE_SYSCALL" },
	{ 30, "PTRACE_ARCH_PRCTL" },
	{ 31, "PTRACE_SYSEMU" },
	{ 32, "PTRACE_SYSEMU_SINGLESTEP" },
	{ 33, "PTRACE_SINGLEBLOCK" },
	{ 0x4200, "PTRACE_SETOPTIONS" },
	{ 0x4201, "PTRACE_GETEVENTMSG" },
	{ 0x4202, "PTRACE_GETSIGINFO" },
	{ 0x4203, "PTRACE_SETSIGINFO" },
	{ 0x4204, "PTRACE_GETREGSET" },
	{ 0x4205, "PTRACE_SETREGSET" },
	{ 0x4206, "PTRACE_SEIZE" },
	{ 0x4207, "PTRACE_INTERRUPT" },
	{ 0x4208, "PTRACE_LISTEN" },
	{ 0x4209, "PTRACE_PEEKSIGINFO" },
	{ 0x420a, "PTRACE_GETSIGMASK" },
	{ 0x420b, "PTRACE_SETSIGMASK" },
	{ 0x420c, "PTRACE_SECCOMP_GET_FILTER" },
	{ 0x420d, "PTRACE_SECCOMP_GET_METADATA" },
	{ 0x420e, "PTRACE_GET_SYSCALL_INFO" },
	{ 0x420f, "PTRACE_GET_RSEQ_CONFIGURATION" },
};
static const struct ktr_symtab ptrace_tab = KTR_SYMTAB(ptrace_sym);

static void arg_ptrace(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_enum(out, &ptrace_tab, (long)c->a[i], c->flags);
}

#define F  ktr_arg_fd
#define H  ktr_arg_hex
#define I  ktr_arg_int
#define CK ktr_arg_clockid

/* Sorted by name. */
const struct ktr_scdec ktr_scdec_proc[] = {
	{ KTR_SC(clock_adjtime), { CK, H }, NULL },
	{ KTR_SC(clock_getres), { CK, H }, NULL },
	{ KTR_SC(clock_gettime), { CK, H }, NULL },
	{ KTR_SC(clock_nanosleep), { CK, arg_abstime, H, H }, NULL },
	{ KTR_SC(clock_settime), { CK, H }, NULL },
	{ KTR_SC(clone), { arg_cloneflags, H, H, H, H }, NULL },
	{ KTR_SC(clone3), { H }, NULL },
	{ KTR_SC(exit), { I }, NULL },
	{ KTR_SC(exit_group), { I }, NULL },
	{ KTR_SC(futex), { H, arg_futexop, NULL, H, H }, NULL },
	{ KTR_SC(getitimer), { arg_itimer, H }, NULL },
	{ KTR_SC(getpriority), { arg_priowhich, I }, NULL },
	{ KTR_SC(getrlimit), { arg_rlimit, H }, NULL },
	{ KTR_SC(getrusage), { arg_rusagewho, H }, NULL },
	{ KTR_SC(prlimit64), { F, arg_rlimit, H, H }, NULL },
	{ KTR_SC(ptrace), { arg_ptrace, F, H, H }, NULL },
	{ KTR_SC(sched_getscheduler), { F }, NULL },
	{ KTR_SC(sched_setscheduler), { F, arg_policy, H }, NULL },
	{ KTR_SC(setitimer), { arg_itimer, H, H }, NULL },
	{ KTR_SC(setns), { F, arg_nsflags }, NULL },
	{ KTR_SC(setpriority), { arg_priowhich, I, I }, NULL },
	{ KTR_SC(setrlimit), { arg_rlimit, H }, NULL },
	{ KTR_SC(timer_create), { CK, H, H }, NULL },
	{ KTR_SC(ugetrlimit), { arg_rlimit, H }, NULL },
	{ KTR_SC(unshare), { arg_nsflags }, NULL },
	{ KTR_SC(wait4), { F, H, arg_waitopt, H }, NULL },
	{ KTR_SC(waitid), { arg_idtype, I, H, arg_waitopt, H }, NULL },
	{ KTR_SC(waitpid), { F, H, arg_waitopt }, NULL },
};
const size_t ktr_nscdec_proc = KTR_NELEM(ktr_scdec_proc);
