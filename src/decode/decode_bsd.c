// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Syscalls, return values and signals of the BSDs' own processes (kdump
 * reading a FreeBSD, OpenBSD, NetBSD, Darwin or DragonFly trace).  The
 * process's ABI comes in sv_flags as FreeBSD's PROCCTOR gives it (low
 * byte: the ELF OSABI), or as kdump sets it for a system without one.
 */
#include <stdbool.h>
#include "ktraceb/ktr.h"
#include "bsdtab.h"
#include "decode_int.h"

const struct ktr_bsd_names *ktr_bsd_names(unsigned int sv_flags)
{
	switch (sv_flags & KTR_SV_ABI_MASK) {
	case KTR_SV_ABI_FREEBSD:
		return &ktr_bsd_names_freebsd;
	case KTR_SV_ABI_OPENBSD:
		return &ktr_bsd_names_openbsd;
	case KTR_SV_ABI_NETBSD:
		return &ktr_bsd_names_netbsd;
	case KTR_SV_ABI_DARWIN:
		return &ktr_bsd_names_darwin;
	case KTR_SV_ABI_DRAGONFLY:
		return &ktr_bsd_names_dragonfly;
	}
	return NULL;
}

bool ktr_bsd_abi(unsigned int sv_flags)
{
	return ktr_bsd_names(sv_flags) != NULL;
}

const char *ktr_bsd_syscall_name(unsigned int sv_flags, long nr)
{
	const struct ktr_bsd_names *b = ktr_bsd_names(sv_flags);

	if (!b || nr < 0 || (unsigned long)nr >= b->nsc)
		return NULL;
	return b->sc[nr];
}

const char *ktr_bsd_errno_name(unsigned int sv_flags, int err)
{
	const struct ktr_bsd_names *b = ktr_bsd_names(sv_flags);
	unsigned int i;

	for (i = 0; b && i < b->nerr; i++)
		if (b->err[i].nr == err)
			return b->err[i].name;
	return NULL;
}

/* One argument as BSD kdump shows it: in hex ("0" for zero), or decimal with -d. */
void ktr_bsd_print_arg(FILE *out, __u64 arg, int flags)
{
	if (flags & KTR_DEC_DECIMAL)
		fprintf(out, "%lld", (long long)arg);
	else
		fprintf(out, "%#llx", (unsigned long long)arg);
}

/* BSD kdump's ktrsysret(): "3", "12/0xc", "-1 errno 2 ENOENT", "RESTART". */
void ktr_bsd_print_sysret(FILE *out, unsigned int sv_flags, int error, __s64 retval, int flags)
{
	const char *name;

	if (error == 0) {
		if (flags & KTR_DEC_RAW)
			ktr_print_num(out, (__u64)retval, flags);
		else if (retval < 0 || retval > 9)
			fprintf(out, "%lld/%#llx", (long long)retval, (unsigned long long)retval);
		else
			fprintf(out, "%lld", (long long)retval);
		return;
	}
	name = ktr_bsd_errno_name(sv_flags, error);
	if (error < 0 && name && name[0] == 'E') {
		fputs(name + 1, out); /* RESTART, JUSTRETURN, as BSD kdump */
		return;
	}
	fprintf(out, "-1 errno %d", error);
	if (name && !(flags & KTR_DEC_RAW))
		fprintf(out, " %s", name);
}

/* 4.4BSD's signal numbers, the same on every BSD up to 31. */
static const char *const bsd_signames[] = {
	NULL,	   "SIGHUP",  "SIGINT",	   "SIGQUIT", "SIGILL",	  "SIGTRAP", "SIGABRT", "SIGEMT",
	"SIGFPE",  "SIGKILL", "SIGBUS",	   "SIGSEGV", "SIGSYS",	  "SIGPIPE", "SIGALRM", "SIGTERM",
	"SIGURG",  "SIGSTOP", "SIGTSTP",   "SIGCONT", "SIGCHLD",  "SIGTTIN", "SIGTTOU", "SIGIO",
	"SIGXCPU", "SIGXFSZ", "SIGVTALRM", "SIGPROF", "SIGWINCH", "SIGINFO", "SIGUSR1", "SIGUSR2",
};

const char *ktr_bsd_signal_name(unsigned int sv_flags, int sig)
{
	(void)sv_flags;
	if (sig < 1 || sig >= (int)KTR_NELEM(bsd_signames))
		return NULL;
	return bsd_signames[sig];
}
