// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Linux signals: their names, si_code names and sigaction flags, and the
 * printers of a signal and a signal set that argument and structure
 * decoders share.
 */
#include <signal.h>
#include "decode_int.h"

/*
 * Kernel numbering, named as strace names them: real-time signals start at
 * 32 (SIGRTMIN in the kernel), then SIGRT_1 (33) to SIGRT_32 (64).  glibc
 * reserves 32 and 33 for itself and reports SIGRTMIN as 34, so what a
 * program calls SIGRTMIN shows here as SIGRT_2.
 */
#define RT(n) [32 + n] = "SIGRT_" #n
static const char *const signames[65] = {
	[1] = "SIGHUP",
	[2] = "SIGINT",
	[3] = "SIGQUIT",
	[4] = "SIGILL",
	[5] = "SIGTRAP",
	[6] = "SIGABRT",
	[7] = "SIGBUS",
	[8] = "SIGFPE",
	[9] = "SIGKILL",
	[10] = "SIGUSR1",
	[11] = "SIGSEGV",
	[12] = "SIGUSR2",
	[13] = "SIGPIPE",
	[14] = "SIGALRM",
	[15] = "SIGTERM",
	[16] = "SIGSTKFLT",
	[17] = "SIGCHLD",
	[18] = "SIGCONT",
	[19] = "SIGSTOP",
	[20] = "SIGTSTP",
	[21] = "SIGTTIN",
	[22] = "SIGTTOU",
	[23] = "SIGURG",
	[24] = "SIGXCPU",
	[25] = "SIGXFSZ",
	[26] = "SIGVTALRM",
	[27] = "SIGPROF",
	[28] = "SIGWINCH",
	[29] = "SIGIO",
	[30] = "SIGPWR",
	[31] = "SIGSYS",
	[32] = "SIGRTMIN",
	RT(1),
	RT(2),
	RT(3),
	RT(4),
	RT(5),
	RT(6),
	RT(7),
	RT(8),
	RT(9),
	RT(10),
	RT(11),
	RT(12),
	RT(13),
	RT(14),
	RT(15),
	RT(16),
	RT(17),
	RT(18),
	RT(19),
	RT(20),
	RT(21),
	RT(22),
	RT(23),
	RT(24),
	RT(25),
	RT(26),
	RT(27),
	RT(28),
	RT(29),
	RT(30),
	RT(31),
	RT(32),
};

const char *ktr_signal_name(int sig)
{
	if (sig < 1 || sig > 64)
		return NULL;
	return signames[sig];
}

/* si_code values from include/uapi/asm-generic/siginfo.h */
static const struct ktr_sym si_generic[] = {
	{ 0, "SI_USER" },
	{ 0x80, "SI_KERNEL" },
	{ (__u64)-1, "SI_QUEUE" },
	{ (__u64)-2, "SI_TIMER" },
	{ (__u64)-3, "SI_MESGQ" },
	{ (__u64)-4, "SI_ASYNCIO" },
	{ (__u64)-5, "SI_SIGIO" },
	{ (__u64)-6, "SI_TKILL" },
	{ (__u64)-7, "SI_DETHREAD" },
	{ (__u64)-60, "SI_ASYNCNL" },
};
static const struct ktr_symtab si_generic_tab = KTR_SYMTAB(si_generic);

#define CODES(sig, ...) static const char *const codes_##sig[] = { NULL, __VA_ARGS__ }
CODES(SIGILL, "ILL_ILLOPC", "ILL_ILLOPN", "ILL_ILLADR", "ILL_ILLTRP", "ILL_PRVOPC", "ILL_PRVREG",
      "ILL_COPROC", "ILL_BADSTK", "ILL_BADIADDR");
CODES(SIGFPE, "FPE_INTDIV", "FPE_INTOVF", "FPE_FLTDIV", "FPE_FLTOVF", "FPE_FLTUND", "FPE_FLTRES",
      "FPE_FLTINV", "FPE_FLTSUB", "FPE_DECOVF", "FPE_DECDIV", "FPE_DECERR", "FPE_INVASC",
      "FPE_INVDEC", "FPE_FLTUNK", "FPE_CONDTRAP");
CODES(SIGSEGV, "SEGV_MAPERR", "SEGV_ACCERR", "SEGV_BNDERR", "SEGV_PKUERR", "SEGV_ACCADI",
      "SEGV_ADIDERR", "SEGV_ADIPERR", "SEGV_MTEAERR", "SEGV_MTESERR", "SEGV_CPERR");
CODES(SIGBUS, "BUS_ADRALN", "BUS_ADRERR", "BUS_OBJERR", "BUS_MCEERR_AR", "BUS_MCEERR_AO");
CODES(SIGTRAP, "TRAP_BRKPT", "TRAP_TRACE", "TRAP_BRANCH", "TRAP_HWBKPT", "TRAP_UNK", "TRAP_PERF");
CODES(SIGCHLD, "CLD_EXITED", "CLD_KILLED", "CLD_DUMPED", "CLD_TRAPPED", "CLD_STOPPED",
      "CLD_CONTINUED");
CODES(SIGIO, "POLL_IN", "POLL_OUT", "POLL_MSG", "POLL_ERR", "POLL_PRI", "POLL_HUP");
CODES(SIGSYS, "SYS_SECCOMP", "SYS_USER_DISPATCH");

#define CODETAB(sig) [sig] = { codes_##sig, KTR_NELEM(codes_##sig) }
static const struct {
	const char *const *name;
	size_t n;
} sigcodes[32] = {
	CODETAB(SIGILL),  CODETAB(SIGFPE),  CODETAB(SIGSEGV), CODETAB(SIGBUS),
	CODETAB(SIGTRAP), CODETAB(SIGCHLD), CODETAB(SIGIO),   CODETAB(SIGSYS),
};

const char *ktr_sigcode_name(int sig, int code)
{
	/* signal-specific codes are positive and below SI_KERNEL */
	if (code > 0 && code < 0x80) {
		if (sig < 1 || sig >= 32 || (size_t)code >= sigcodes[sig].n)
			return NULL;
		return sigcodes[sig].name[code];
	}
	return ktr_sym_name(&si_generic_tab, (__u64)(__s64)code);
}

static const struct ktr_sym sa_sym[] = {
	KTR_SYM(SA_NOCLDSTOP),
	KTR_SYM(SA_NOCLDWAIT),
	KTR_SYM(SA_SIGINFO),
	{ 0x400, "SA_UNSUPPORTED" },
	{ 0x800, "SA_EXPOSE_TAGBITS" },
	{ 0x04000000, "SA_RESTORER" },
	KTR_SYM(SA_ONSTACK),
	KTR_SYM(SA_RESTART),
	KTR_SYM(SA_NODEFER),
	KTR_SYM(SA_RESETHAND),
};
const struct ktr_symtab ktr_sa_flags_tab = KTR_SYMTAB(sa_sym);

void ktr_print_signal(FILE *out, __s64 sig, int flags)
{
	const char *name = (flags & KTR_DEC_RAW) ? NULL : ktr_signal_name((int)sig);

	if (name && sig == (int)sig)
		fputs(name, out);
	else
		fprintf(out, "%lld", (long long)sig);
}

static void print_siglist(FILE *out, __u64 set)
{
	int n = 0;

	for (int sig = 1; sig <= 64; sig++)
		if (set & (1ULL << (sig - 1)))
			fprintf(out, "%s%s", n++ ? "|" : "", ktr_signal_name(sig));
}

void ktr_print_sigset(FILE *out, __u64 set, int flags)
{
	if (flags & KTR_DEC_RAW)
		fprintf(out, "%#llx", (unsigned long long)set);
	else if (set == 0)
		fputs("0", out);
	else if (set == ~0ULL)
		fputs("~0", out);
	else if (__builtin_popcountll(set) > 32) {
		/* a mostly full set reads better as what it leaves out */
		fputs("~(", out);
		print_siglist(out, ~set);
		fputs(")", out);
	} else {
		print_siglist(out, set);
	}
}
