/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The facilities, one row each (trstr.c): a -t letter, its KTRFAC_* bits
 * (include/ktraceb/ktr.h) and help, shared by ktraceb and kdump as BSD's
 * subr.c, read by ktr_getpoints() and by ktraceb -h and kdump -h; and what
 * the daemon does with the facility: its BPF program by name, which load
 * it is in, when it is attached, its number for the tests' fault injection
 * and, for a facility a trace can do without, the line that says the
 * kernel refused it.  kdump reads only the first part; the daemon's
 * programs are named by string, so kdump links no daemon code.  The
 * programs that belong to no facility (exec, the stages, -G's) are the
 * daemon's own (daemon/programs/ktr_progs.c).
 */
#ifndef KTRACEB_TRSTR_H
#define KTRACEB_TRSTR_H

/* Which load a program is in (the daemon's ktr_loader.c). */
enum ktr_prog_load {
	KTR_LOAD_EXIT, /* by the calling thread */
	KTR_LOAD_ENTER, /* by a second thread */
	KTR_LOAD_USDT, /* when a trace first needs it (ktr_loader__load_usdt) */
	KTR_LOAD_GROUPS, /* at the first -G (ktr_loader__load_groups) */
};

/* When the daemon attaches a program. */
enum ktr_prog_attach {
	KTR_ATTACH_ALWAYS, /* with the others, while some trace runs (ktr_loader__attach) */
	KTR_ATTACH_TRACED, /* while some process is traced with the facility (ktr_attach__facs) */
	KTR_ATTACH_APART, /* by the part that uses it, the row says which; or never */
};

struct ktr_trpoint {
	char letter;
	int facs; /* the KTRFAC_* bits it turns on */
	const char *name; /* the facility, as BSD names it */
	const char *help; /* for ktraceb -h; a new line goes on with 5 blanks */
	const char *records; /* for kdump -h: the records the letter shows */
	/* the daemon's; a facility made by programs every trace has leaves prog NULL */
	const char *prog; /* its own BPF program (bpf/), by name */
	enum ktr_prog_load load;
	enum ktr_prog_attach attach;
	unsigned int refuse; /* KTR_REFUSE_* (bpf_kernel.h): KTRACEB_REFUSE_PROG=prog refuses it */
	/*
	 * NULL: the kernel's refusal of prog fails the whole load.  Else a
	 * trace can do without the facility, and a trace that asks for it is
	 * told "<lacks> are not recorded on this kernel: <why>".
	 */
	const char *lacks;
};

/* At most so many rows (the daemon keeps a reason for each). */
#define KTR_TRPOINTS_MAX 24

/* The rows, in ktraceb -h's order, ended by one with letter '\0'. */
extern const struct ktr_trpoint ktr_trpoints[];
/* How many rows, the end's not counted. */
extern const unsigned int ktr_ntrpoints;

/* The KTRFAC_* mask for a trstr such as "cnisuw+", or -1 on an unknown letter. */
int ktr_getpoints(const char *trstr);

#endif /* KTRACEB_TRSTR_H */
