// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * prctl(2) and arch_prctl(2): the option, what each option's arguments
 * mean, and how many of them it takes, as strace shows them.  The option
 * numbers are the kernel's (include/uapi/linux/prctl.h, asm/prctl.h),
 * written out: a build machine's headers may be older than the kernel.
 */
#include "decode_int.h"

/* Options of every architecture: an option is the same number everywhere. */
static const struct ktr_sym prctl_sym[] = {
	{ 1, "PR_SET_PDEATHSIG" },
	{ 2, "PR_GET_PDEATHSIG" },
	{ 3, "PR_GET_DUMPABLE" },
	{ 4, "PR_SET_DUMPABLE" },
	{ 5, "PR_GET_UNALIGN" },
	{ 6, "PR_SET_UNALIGN" },
	{ 7, "PR_GET_KEEPCAPS" },
	{ 8, "PR_SET_KEEPCAPS" },
	{ 9, "PR_GET_FPEMU" },
	{ 10, "PR_SET_FPEMU" },
	{ 11, "PR_GET_FPEXC" },
	{ 12, "PR_SET_FPEXC" },
	{ 13, "PR_GET_TIMING" },
	{ 14, "PR_SET_TIMING" },
	{ 15, "PR_SET_NAME" },
	{ 16, "PR_GET_NAME" },
	{ 19, "PR_GET_ENDIAN" },
	{ 20, "PR_SET_ENDIAN" },
	{ 21, "PR_GET_SECCOMP" },
	{ 22, "PR_SET_SECCOMP" },
	{ 23, "PR_CAPBSET_READ" },
	{ 24, "PR_CAPBSET_DROP" },
	{ 25, "PR_GET_TSC" },
	{ 26, "PR_SET_TSC" },
	{ 27, "PR_GET_SECUREBITS" },
	{ 28, "PR_SET_SECUREBITS" },
	{ 29, "PR_SET_TIMERSLACK" },
	{ 30, "PR_GET_TIMERSLACK" },
	{ 31, "PR_TASK_PERF_EVENTS_DISABLE" },
	{ 32, "PR_TASK_PERF_EVENTS_ENABLE" },
	{ 33, "PR_MCE_KILL" },
	{ 34, "PR_MCE_KILL_GET" },
	{ 35, "PR_SET_MM" },
	{ 36, "PR_SET_CHILD_SUBREAPER" },
	{ 37, "PR_GET_CHILD_SUBREAPER" },
	{ 38, "PR_SET_NO_NEW_PRIVS" },
	{ 39, "PR_GET_NO_NEW_PRIVS" },
	{ 40, "PR_GET_TID_ADDRESS" },
	{ 41, "PR_SET_THP_DISABLE" },
	{ 42, "PR_GET_THP_DISABLE" },
	{ 43, "PR_MPX_ENABLE_MANAGEMENT" },
	{ 44, "PR_MPX_DISABLE_MANAGEMENT" },
	{ 45, "PR_SET_FP_MODE" },
	{ 46, "PR_GET_FP_MODE" },
	{ 47, "PR_CAP_AMBIENT" },
	{ 50, "PR_SVE_SET_VL" },
	{ 51, "PR_SVE_GET_VL" },
	{ 52, "PR_GET_SPECULATION_CTRL" },
	{ 53, "PR_SET_SPECULATION_CTRL" },
	{ 54, "PR_PAC_RESET_KEYS" },
	{ 55, "PR_SET_TAGGED_ADDR_CTRL" },
	{ 56, "PR_GET_TAGGED_ADDR_CTRL" },
	{ 57, "PR_SET_IO_FLUSHER" },
	{ 58, "PR_GET_IO_FLUSHER" },
	{ 59, "PR_SET_SYSCALL_USER_DISPATCH" },
	{ 60, "PR_PAC_SET_ENABLED_KEYS" },
	{ 61, "PR_PAC_GET_ENABLED_KEYS" },
	{ 62, "PR_SCHED_CORE" },
	{ 63, "PR_SME_SET_VL" },
	{ 64, "PR_SME_GET_VL" },
	{ 65, "PR_SET_MDWE" },
	{ 66, "PR_GET_MDWE" },
	{ 67, "PR_SET_MEMORY_MERGE" },
	{ 68, "PR_GET_MEMORY_MERGE" },
	{ 69, "PR_RISCV_V_SET_CONTROL" },
	{ 70, "PR_RISCV_V_GET_CONTROL" },
	{ 71, "PR_RISCV_SET_ICACHE_FLUSH_CTX" },
	{ 72, "PR_PPC_GET_DEXCR" },
	{ 73, "PR_PPC_SET_DEXCR" },
	{ 74, "PR_GET_SHADOW_STACK_STATUS" },
	{ 75, "PR_SET_SHADOW_STACK_STATUS" },
	{ 76, "PR_LOCK_SHADOW_STACK_STATUS" },
	{ 77, "PR_TIMER_CREATE_RESTORE_IDS" },
	{ 78, "PR_FUTEX_HASH" },
	{ 79, "PR_RSEQ_SLICE_EXTENSION" },
	{ 80, "PR_GET_CFI" },
	{ 81, "PR_SET_CFI" },
	{ 0x41555856, "PR_GET_AUXV" },
	{ 0x53564d41, "PR_SET_VMA" },
	{ 0x59616d61, "PR_SET_PTRACER" },
};
static const struct ktr_symtab prctl_tab = KTR_SYMTAB(prctl_sym);

/* The options' own values, used below. */
enum {
	PR_SET_PDEATHSIG_ = 1,
	PR_GET_PDEATHSIG_ = 2,
	PR_GET_DUMPABLE_ = 3,
	PR_SET_DUMPABLE_ = 4,
	PR_GET_UNALIGN_ = 5,
	PR_SET_UNALIGN_ = 6,
	PR_GET_KEEPCAPS_ = 7,
	PR_SET_KEEPCAPS_ = 8,
	PR_GET_FPEMU_ = 9,
	PR_SET_FPEMU_ = 10,
	PR_GET_FPEXC_ = 11,
	PR_SET_FPEXC_ = 12,
	PR_GET_TIMING_ = 13,
	PR_SET_TIMING_ = 14,
	PR_SET_NAME_ = 15,
	PR_GET_NAME_ = 16,
	PR_GET_ENDIAN_ = 19,
	PR_SET_ENDIAN_ = 20,
	PR_GET_SECCOMP_ = 21,
	PR_SET_SECCOMP_ = 22,
	PR_CAPBSET_READ_ = 23,
	PR_CAPBSET_DROP_ = 24,
	PR_GET_TSC_ = 25,
	PR_SET_TSC_ = 26,
	PR_GET_SECUREBITS_ = 27,
	PR_SET_SECUREBITS_ = 28,
	PR_SET_TIMERSLACK_ = 29,
	PR_GET_TIMERSLACK_ = 30,
	PR_TASK_PERF_EVENTS_DISABLE_ = 31,
	PR_TASK_PERF_EVENTS_ENABLE_ = 32,
	PR_MCE_KILL_ = 33,
	PR_SET_MM_ = 35,
	PR_SET_CHILD_SUBREAPER_ = 36,
	PR_GET_CHILD_SUBREAPER_ = 37,
	PR_SET_NO_NEW_PRIVS_ = 38,
	PR_GET_TID_ADDRESS_ = 40,
	PR_SET_THP_DISABLE_ = 41,
	PR_SET_FP_MODE_ = 45,
	PR_GET_FP_MODE_ = 46,
	PR_CAP_AMBIENT_ = 47,
	PR_SVE_SET_VL_ = 50,
	PR_SVE_GET_VL_ = 51,
	PR_GET_SPECULATION_CTRL_ = 52,
	PR_SET_SPECULATION_CTRL_ = 53,
	PR_SET_IO_FLUSHER_ = 57,
	PR_SCHED_CORE_ = 62,
	PR_SME_SET_VL_ = 63,
	PR_SME_GET_VL_ = 64,
	PR_SET_MDWE_ = 65,
	PR_RISCV_V_SET_CONTROL_ = 69,
	PR_RISCV_V_GET_CONTROL_ = 70,
	PR_RISCV_SET_ICACHE_FLUSH_CTX_ = 71,
	PR_SET_VMA_ = 0x53564d41,
	PR_SET_PTRACER_ = 0x59616d61,
};

static const struct ktr_sym dumpable_sym[] = {
	{ 0, "SUID_DUMP_DISABLE" },
	{ 1, "SUID_DUMP_USER" },
	{ 2, "SUID_DUMP_ROOT" },
};
static const struct ktr_symtab dumpable_tab = KTR_SYMTAB(dumpable_sym);

static const struct ktr_sym unalign_sym[] = {
	{ 1, "PR_UNALIGN_NOPRINT" },
	{ 2, "PR_UNALIGN_SIGBUS" },
};
static const struct ktr_symtab unalign_tab = KTR_SYMTAB(unalign_sym);

static const struct ktr_sym seccomp_mode_sym[] = {
	{ 0, "SECCOMP_MODE_DISABLED" },
	{ 1, "SECCOMP_MODE_STRICT" },
	{ 2, "SECCOMP_MODE_FILTER" },
};
static const struct ktr_symtab seccomp_mode_tab = KTR_SYMTAB(seccomp_mode_sym);

static const struct ktr_sym tsc_sym[] = {
	{ 1, "PR_TSC_ENABLE" },
	{ 2, "PR_TSC_SIGSEGV" },
};
static const struct ktr_symtab tsc_tab = KTR_SYMTAB(tsc_sym);

static const struct ktr_sym secbits_sym[] = {
	{ 1 << 0, "SECBIT_NOROOT" },
	{ 1 << 1, "SECBIT_NOROOT_LOCKED" },
	{ 1 << 2, "SECBIT_NO_SETUID_FIXUP" },
	{ 1 << 3, "SECBIT_NO_SETUID_FIXUP_LOCKED" },
	{ 1 << 4, "SECBIT_KEEP_CAPS" },
	{ 1 << 5, "SECBIT_KEEP_CAPS_LOCKED" },
	{ 1 << 6, "SECBIT_NO_CAP_AMBIENT_RAISE" },
	{ 1 << 7, "SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED" },
	{ 1 << 8, "SECBIT_EXEC_RESTRICT_FILE" },
	{ 1 << 9, "SECBIT_EXEC_RESTRICT_FILE_LOCKED" },
	{ 1 << 10, "SECBIT_EXEC_DENY_INTERACTIVE" },
	{ 1 << 11, "SECBIT_EXEC_DENY_INTERACTIVE_LOCKED" },
};
static const struct ktr_symtab secbits_tab = KTR_SYMTAB(secbits_sym);

static const struct ktr_sym mce_kill_sym[] = {
	{ 0, "PR_MCE_KILL_CLEAR" },
	{ 1, "PR_MCE_KILL_SET" },
};
static const struct ktr_symtab mce_kill_tab = KTR_SYMTAB(mce_kill_sym);

static const struct ktr_sym mce_policy_sym[] = {
	{ 0, "PR_MCE_KILL_LATE" },
	{ 1, "PR_MCE_KILL_EARLY" },
	{ 2, "PR_MCE_KILL_DEFAULT" },
};
static const struct ktr_symtab mce_policy_tab = KTR_SYMTAB(mce_policy_sym);

static const struct ktr_sym set_mm_sym[] = {
	{ 1, "PR_SET_MM_START_CODE" },	{ 2, "PR_SET_MM_END_CODE" },
	{ 3, "PR_SET_MM_START_DATA" },	{ 4, "PR_SET_MM_END_DATA" },
	{ 5, "PR_SET_MM_START_STACK" }, { 6, "PR_SET_MM_START_BRK" },
	{ 7, "PR_SET_MM_BRK" },		{ 8, "PR_SET_MM_ARG_START" },
	{ 9, "PR_SET_MM_ARG_END" },	{ 10, "PR_SET_MM_ENV_START" },
	{ 11, "PR_SET_MM_ENV_END" },	{ 12, "PR_SET_MM_AUXV" },
	{ 13, "PR_SET_MM_EXE_FILE" },	{ 14, "PR_SET_MM_MAP" },
	{ 15, "PR_SET_MM_MAP_SIZE" },
};
static const struct ktr_symtab set_mm_tab = KTR_SYMTAB(set_mm_sym);

static const struct ktr_sym fp_mode_sym[] = {
	{ 1, "PR_FP_MODE_FR" },
	{ 2, "PR_FP_MODE_FRE" },
};
static const struct ktr_symtab fp_mode_tab = KTR_SYMTAB(fp_mode_sym);

static const struct ktr_sym cap_ambient_sym[] = {
	{ 1, "PR_CAP_AMBIENT_IS_SET" },
	{ 2, "PR_CAP_AMBIENT_RAISE" },
	{ 3, "PR_CAP_AMBIENT_LOWER" },
	{ 4, "PR_CAP_AMBIENT_CLEAR_ALL" },
};
static const struct ktr_symtab cap_ambient_tab = KTR_SYMTAB(cap_ambient_sym);

static const struct ktr_sym spec_sym[] = {
	{ 0, "PR_SPEC_STORE_BYPASS" },
	{ 1, "PR_SPEC_INDIRECT_BRANCH" },
	{ 2, "PR_SPEC_L1D_FLUSH" },
};
static const struct ktr_symtab spec_tab = KTR_SYMTAB(spec_sym);

static const struct ktr_sym spec_set_sym[] = {
	{ 1 << 1, "PR_SPEC_ENABLE" },
	{ 1 << 2, "PR_SPEC_DISABLE" },
	{ 1 << 3, "PR_SPEC_FORCE_DISABLE" },
	{ 1 << 4, "PR_SPEC_DISABLE_NOEXEC" },
};
static const struct ktr_symtab spec_set_tab = KTR_SYMTAB(spec_set_sym);

static const struct ktr_sym sched_core_sym[] = {
	{ 0, "PR_SCHED_CORE_GET" },
	{ 1, "PR_SCHED_CORE_CREATE" },
	{ 2, "PR_SCHED_CORE_SHARE_TO" },
	{ 3, "PR_SCHED_CORE_SHARE_FROM" },
};
static const struct ktr_symtab sched_core_tab = KTR_SYMTAB(sched_core_sym);

static const struct ktr_sym pidtype_sym[] = {
	{ 0, "PIDTYPE_PID" },
	{ 1, "PIDTYPE_TGID" },
	{ 2, "PIDTYPE_PGID" },
};
static const struct ktr_symtab pidtype_tab = KTR_SYMTAB(pidtype_sym);

static const struct ktr_sym mdwe_sym[] = {
	{ 1, "PR_MDWE_REFUSE_EXEC_GAIN" },
	{ 2, "PR_MDWE_NO_INHERIT" },
};
static const struct ktr_symtab mdwe_tab = KTR_SYMTAB(mdwe_sym);

static const struct ktr_sym set_vma_sym[] = { { 0, "PR_SET_VMA_ANON_NAME" } };
static const struct ktr_symtab set_vma_tab = KTR_SYMTAB(set_vma_sym);

/* Capabilities (linux/capability.h), by number. */
static const char *const cap_names[] = {
	"CAP_CHOWN",
	"CAP_DAC_OVERRIDE",
	"CAP_DAC_READ_SEARCH",
	"CAP_FOWNER",
	"CAP_FSETID",
	"CAP_KILL",
	"CAP_SETGID",
	"CAP_SETUID",
	"CAP_SETPCAP",
	"CAP_LINUX_IMMUTABLE",
	"CAP_NET_BIND_SERVICE",
	"CAP_NET_BROADCAST",
	"CAP_NET_ADMIN",
	"CAP_NET_RAW",
	"CAP_IPC_LOCK",
	"CAP_IPC_OWNER",
	"CAP_SYS_MODULE",
	"CAP_SYS_RAWIO",
	"CAP_SYS_CHROOT",
	"CAP_SYS_PTRACE",
	"CAP_SYS_PACCT",
	"CAP_SYS_ADMIN",
	"CAP_SYS_BOOT",
	"CAP_SYS_NICE",
	"CAP_SYS_RESOURCE",
	"CAP_SYS_TIME",
	"CAP_SYS_TTY_CONFIG",
	"CAP_MKNOD",
	"CAP_LEASE",
	"CAP_AUDIT_WRITE",
	"CAP_AUDIT_CONTROL",
	"CAP_SETFCAP",
	"CAP_MAC_OVERRIDE",
	"CAP_MAC_ADMIN",
	"CAP_SYSLOG",
	"CAP_WAKE_ALARM",
	"CAP_BLOCK_SUSPEND",
	"CAP_AUDIT_READ",
	"CAP_PERFMON",
	"CAP_BPF",
	"CAP_CHECKPOINT_RESTORE",
};

static void print_cap(FILE *out, __u64 v, int flags)
{
	if (!(flags & KTR_DEC_RAW) && v < KTR_NELEM(cap_names))
		fputs(cap_names[v], out);
	else
		ktr_print_num(out, v, flags);
}

/* The argument after the option, by option; the others are plain numbers. */
static void arg_prctl2(FILE *out, const struct ktr_argctx *c, int i)
{
	__u64 v = c->a[i];

	switch ((__u32)c->a[0]) {
	case PR_SET_PDEATHSIG_:
		if (v > 128)
			fprintf(out, "%llu", (unsigned long long)v);
		else
			ktr_print_signal(out, (int)v, c->flags);
		break;
	case PR_SET_DUMPABLE_:
		ktr_print_enum(out, &dumpable_tab, (__s64)v, c->flags);
		break;
	case PR_SET_UNALIGN_:
		ktr_print_mask(out, &unalign_tab, v, c->flags);
		break;
	case PR_SET_KEEPCAPS_:
	case PR_SET_FPEMU_:
	case PR_SET_FPEXC_:
	case PR_SET_TIMING_:
	case PR_SET_ENDIAN_:
	case PR_SET_CHILD_SUBREAPER_:
	case PR_SET_NO_NEW_PRIVS_:
	case PR_SET_THP_DISABLE_:
	case PR_SET_IO_FLUSHER_:
		fprintf(out, "%llu", (unsigned long long)v);
		break;
	case PR_SET_SECCOMP_:
		ktr_print_enum(out, &seccomp_mode_tab, (__s64)v, c->flags);
		break;
	case PR_CAPBSET_READ_:
	case PR_CAPBSET_DROP_:
		print_cap(out, v, c->flags);
		break;
	case PR_SET_TSC_:
		ktr_print_enum(out, &tsc_tab, (__s64)v, c->flags);
		break;
	case PR_SET_SECUREBITS_:
		ktr_print_mask(out, &secbits_tab, v, c->flags);
		break;
	case PR_SET_TIMERSLACK_:
		fprintf(out, "%lld", (long long)v);
		break;
	case PR_MCE_KILL_:
		ktr_print_enum(out, &mce_kill_tab, (__s64)v, c->flags);
		break;
	case PR_SET_MM_:
		ktr_print_enum(out, &set_mm_tab, (__s64)v, c->flags);
		break;
	case PR_SET_FP_MODE_:
		ktr_print_mask(out, &fp_mode_tab, v, c->flags);
		break;
	case PR_CAP_AMBIENT_:
		ktr_print_enum(out, &cap_ambient_tab, (__s64)v, c->flags);
		break;
	case PR_GET_SPECULATION_CTRL_:
	case PR_SET_SPECULATION_CTRL_:
		ktr_print_enum(out, &spec_tab, (__s64)v, c->flags);
		break;
	case PR_SCHED_CORE_:
		ktr_print_enum(out, &sched_core_tab, (__s64)v, c->flags);
		break;
	case PR_SET_MDWE_:
		ktr_print_mask(out, &mdwe_tab, v, c->flags);
		break;
	case PR_SET_VMA_:
		ktr_print_enum(out, &set_vma_tab, (__s64)v, c->flags);
		break;
	case PR_SET_PTRACER_:
		if ((int)v == -1 && !(c->flags & KTR_DEC_RAW))
			fputs("PR_SET_PTRACER_ANY", out);
		else
			fprintf(out, "%d", (int)v);
		break;
	default:
		ktr_print_num(out, v, c->flags);
	}
}

/* The third: a capability, an MCE policy, a speculation control, a pid. */
static void arg_prctl3(FILE *out, const struct ktr_argctx *c, int i)
{
	__u64 v = c->a[i], sub = c->a[1];

	switch ((__u32)c->a[0]) {
	case PR_MCE_KILL_:
		if (sub == 1) /* PR_MCE_KILL_SET */
			ktr_print_enum(out, &mce_policy_tab, (__s64)v, c->flags);
		else
			ktr_print_num(out, v, c->flags);
		break;
	case PR_CAP_AMBIENT_:
		if (sub >= 1 && sub <= 3) /* IS_SET, RAISE, LOWER */
			print_cap(out, v, c->flags);
		else
			ktr_print_num(out, v, c->flags);
		break;
	case PR_SET_SPECULATION_CTRL_:
		if (sub <= 2)
			ktr_print_enum(out, &spec_set_tab, (__s64)v, c->flags);
		else
			ktr_print_num(out, v, c->flags);
		break;
	case PR_SCHED_CORE_:
		fprintf(out, "%d", (int)v);
		break;
	default:
		ktr_print_num(out, v, c->flags);
	}
}

static void arg_prctl4(FILE *out, const struct ktr_argctx *c, int i)
{
	if ((__u32)c->a[0] == PR_SCHED_CORE_)
		ktr_print_enum(out, &pidtype_tab, (int)c->a[i], c->flags);
	else if ((__u32)c->a[0] == PR_SET_VMA_ && c->a[1] == 0)
		fprintf(out, "%llu", (unsigned long long)c->a[i]);
	else
		ktr_print_num(out, c->a[i], c->flags);
}

static void arg_prctl(FILE *out, const struct ktr_argctx *c, int i)
{
	const char *name = ktr_sym_name(&prctl_tab, (__u32)c->a[i]);

	if (name && !(c->flags & KTR_DEC_RAW))
		fputs(name, out);
	else
		fprintf(out, "%#x", (__u32)c->a[i]);
}

/*
 * The arguments an option takes, as strace shows them: the getters of no
 * argument alone, the setters of one value with it; options that check
 * that their unused arguments are 0 (and those kdump does not know) with
 * all five.
 */
static int nargs_prctl(const struct ktr_argctx *c)
{
	switch ((__u32)c->a[0]) {
	case PR_GET_DUMPABLE_:
	case PR_GET_KEEPCAPS_:
	case PR_GET_TIMING_:
	case PR_GET_SECCOMP_:
	case PR_GET_SECUREBITS_:
	case PR_GET_TIMERSLACK_:
	case PR_TASK_PERF_EVENTS_DISABLE_:
	case PR_TASK_PERF_EVENTS_ENABLE_:
	case PR_GET_FP_MODE_:
	case PR_SVE_GET_VL_:
	case PR_SME_GET_VL_:
	case PR_RISCV_V_GET_CONTROL_:
		return 1;
	case PR_GET_PDEATHSIG_:
	case PR_SET_PDEATHSIG_:
	case PR_SET_DUMPABLE_:
	case PR_GET_UNALIGN_:
	case PR_SET_UNALIGN_:
	case PR_SET_KEEPCAPS_:
	case PR_GET_FPEMU_:
	case PR_SET_FPEMU_:
	case PR_GET_FPEXC_:
	case PR_SET_FPEXC_:
	case PR_SET_TIMING_:
	case PR_SET_NAME_:
	case PR_GET_NAME_:
	case PR_GET_ENDIAN_:
	case PR_SET_ENDIAN_:
	case PR_CAPBSET_READ_:
	case PR_CAPBSET_DROP_:
	case PR_GET_TSC_:
	case PR_SET_TSC_:
	case PR_SET_SECUREBITS_:
	case PR_SET_TIMERSLACK_:
	case PR_SET_CHILD_SUBREAPER_:
	case PR_GET_CHILD_SUBREAPER_:
	case PR_GET_TID_ADDRESS_:
	case PR_SET_FP_MODE_:
	case PR_SVE_SET_VL_:
	case PR_GET_SPECULATION_CTRL_:
	case PR_SME_SET_VL_:
	case PR_RISCV_V_SET_CONTROL_:
	case PR_SET_PTRACER_:
		return 2;
	case PR_SET_SECCOMP_:
		return c->a[1] == 1 ? 2 : c->a[1] == 2 ? 3 : 5; /* STRICT, FILTER */
	case PR_SET_SPECULATION_CTRL_:
	case PR_RISCV_SET_ICACHE_FLUSH_CTX_:
		return 3;
	default:
		return 5;
	}
}

/* arch_prctl is x86-only: asm/prctl.h values, written out for every build */
static const struct ktr_sym archprctl_sym[] = {
	{ 0x1001, "ARCH_SET_GS" },
	{ 0x1002, "ARCH_SET_FS" },
	{ 0x1003, "ARCH_GET_FS" },
	{ 0x1004, "ARCH_GET_GS" },
	{ 0x1011, "ARCH_GET_CPUID" },
	{ 0x1012, "ARCH_SET_CPUID" },
	{ 0x1021, "ARCH_GET_XCOMP_SUPP" },
	{ 0x1022, "ARCH_GET_XCOMP_PERM" },
	{ 0x1023, "ARCH_REQ_XCOMP_PERM" },
	{ 0x1024, "ARCH_GET_XCOMP_GUEST_PERM" },
	{ 0x1025, "ARCH_REQ_XCOMP_GUEST_PERM" },
	{ 0x2001, "ARCH_MAP_VDSO_X32" },
	{ 0x2002, "ARCH_MAP_VDSO_32" },
	{ 0x2003, "ARCH_MAP_VDSO_64" },
	{ 0x4001, "ARCH_GET_UNTAG_MASK" },
	{ 0x4002, "ARCH_ENABLE_TAGGED_ADDR" },
	{ 0x4003, "ARCH_GET_MAX_TAG_BITS" },
	{ 0x4004, "ARCH_FORCE_TAGGED_SVA" },
	{ 0x5001, "ARCH_SHSTK_ENABLE" },
	{ 0x5002, "ARCH_SHSTK_DISABLE" },
	{ 0x5003, "ARCH_SHSTK_LOCK" },
	{ 0x5004, "ARCH_SHSTK_UNLOCK" },
	{ 0x5005, "ARCH_SHSTK_STATUS" },
};
static const struct ktr_symtab archprctl_tab = KTR_SYMTAB(archprctl_sym);

#define ARCH_GET_CPUID_		   0x1011
#define ARCH_REQ_XCOMP_PERM_	   0x1023
#define ARCH_REQ_XCOMP_GUEST_PERM_ 0x1025

/*
 * The state components ARCH_REQ_XCOMP_PERM asks for (the kernel's
 * XFEATURE_* numbers): XTILE_CFG and XTILE_DATA are the AMX ones.
 */
static const struct ktr_sym xfeature_sym[] = {
	{ 0, "XFEATURE_FP" },
	{ 1, "XFEATURE_SSE" },
	{ 2, "XFEATURE_YMM" },
	{ 3, "XFEATURE_BNDREGS" },
	{ 4, "XFEATURE_BNDCSR" },
	{ 5, "XFEATURE_OPMASK" },
	{ 6, "XFEATURE_ZMM_Hi256" },
	{ 7, "XFEATURE_Hi16_ZMM" },
	{ 8, "XFEATURE_PT_UNIMPLEMENTED_SO_FAR" },
	{ 9, "XFEATURE_PKRU" },
	{ 10, "XFEATURE_PASID" },
	{ 15, "XFEATURE_LBR" },
	{ 17, "XFEATURE_XTILE_CFG" },
	{ 18, "XFEATURE_XTILE_DATA" },
};
static const struct ktr_symtab xfeature_tab = KTR_SYMTAB(xfeature_sym);

static void arg_archprctl(FILE *out, const struct ktr_argctx *c, int i)
{
	const char *name = ktr_sym_name(&archprctl_tab, (__u32)c->a[i]);

	if (name && !(c->flags & KTR_DEC_RAW))
		fputs(name, out);
	else
		fprintf(out, "%#x", (__u32)c->a[i]);
}

static void arg_archprctl2(FILE *out, const struct ktr_argctx *c, int i)
{
	__u32 op = (__u32)c->a[0];
	const char *name = ktr_sym_name(&xfeature_tab, c->a[i]);

	if ((op == ARCH_REQ_XCOMP_PERM_ || op == ARCH_REQ_XCOMP_GUEST_PERM_) && name &&
	    !(c->flags & KTR_DEC_RAW))
		fputs(name, out);
	else
		ktr_arg_hex(out, c, i);
}

/* ARCH_GET_CPUID takes no argument. */
static int nargs_archprctl(const struct ktr_argctx *c)
{
	return (__u32)c->a[0] == ARCH_GET_CPUID_ ? 1 : 2;
}

#define H ktr_arg_hex

/* Sorted by name. */
const struct ktr_scdec ktr_scdec_prctl[] = {
	{ KTR_SC(arch_prctl), { arg_archprctl, arg_archprctl2 }, nargs_archprctl },
	{ KTR_SC(prctl), { arg_prctl, arg_prctl2, arg_prctl3, arg_prctl4, H }, nargs_prctl },
};
const size_t ktr_nscdec_prctl = KTR_NELEM(ktr_scdec_prctl);
