/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The facilities, one row each (trstr.c): a -t letter (or, for -k's, the
 * option), its KTRFAC_* bits (include/ktraceb/ktr.h) and help, shared by
 * ktraceb and kdump as BSD's subr.c, read by ktr_getpoints() and by
 * ktraceb -h and kdump -h; what else the facility is to ktraceb, kdump and
 * the daemon, each a column asked through one function below (which bits
 * arm USDT probes, which bits a compact recorder keeps, which records
 * kdump -t shows with a letter ...); and what the daemon does with the
 * facility: its BPF program by name, which load it is in, when it is
 * attached, its number for the tests' fault injection and, for a facility
 * a trace can do without, the line that says the kernel refused it.
 * kdump reads only the first parts; the daemon's programs are named by
 * string, so kdump links no daemon code.  The programs that belong to no
 * facility (exec, the stages, -G's) are the daemon's own
 * (daemon/programs/ktr_progs.c).  Outside this table and the BPF programs
 * no facility's KTRFAC_* bit is named: a part asks the table.  BSD's
 * control flags beside them (KTRFAC_ROOT, KTRFAC_INHERIT, KTRFAC_MASK)
 * are no facilities, and are used by name.
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

/*
 * What a facility does beyond its own records (a row's .does, several
 * or'ed); ktr_facs_that() gives the bits of the rows that do it.
 */
enum ktr_fac_does {
	/*
	 * records the USDT probes the daemon finds in the objects a traced
	 * process maps (daemon/usdt/ktr_usdt.c); -e usdt: names which
	 */
	KTR_FAC_PROBES = 1 << 0,
	/*
	 * tells the trace the objects a traced process maps, and where
	 * (KTR_OBJECT, KTR_MAPPING), found as the daemon reads them: -k's
	 * stacks are unwound with them
	 */
	KTR_FAC_OBJECTS = 1 << 1,
	/* records the kernel events -e names: a trace has both or neither */
	KTR_FAC_EVENTS = 1 << 2,
};
/* Either: the daemon reads the objects of a process traced with it. */
#define KTR_FAC_SCANNED (KTR_FAC_PROBES | KTR_FAC_OBJECTS)

/*
 * Which of a call's captures (bpf_captures.h, the daemon's
 * ktr_captures.c) makes a facility's records between the call's CALL
 * and its RET.
 */
enum ktr_between {
	KTR_BETWEEN_NONE,
	KTR_BETWEEN_PATHS, /* its path arguments */
	KTR_BETWEEN_STRUCTS, /* the structures it passes */
	KTR_BETWEEN_DATA, /* the data it reads or writes */
};

struct ktr_trpoint {
	char letter;
	int facs; /* the KTRFAC_* bits it turns on */
	const char *name; /* the facility, as BSD names it */
	const char *help; /* for ktraceb -h; a new line goes on with 5 blanks */
	const char *records; /* for kdump -h: the records the letter shows */
	/* more record types kdump -t shows with the letter (beyond 1 << type of its bits) */
	int shows[2];
	/* a facility no -t letter turns on (letter '\0'): the ktraceb option that does */
	char option;
	unsigned int does; /* KTR_FAC_*, what else it does */
	int compact; /* of its bits, those a compact recorder keeps (-R size,compact) */
	/* of its bits, those of the records between a call's CALL and RET, and what makes them */
	struct {
		enum ktr_between by;
		int facs;
	} between;
	/* bits a trace with it must have too, and the line that says so if not */
	int needs;
	const char *unmet;
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

/*
 * The rows, those with a letter in ktraceb -h's order, then those of an
 * option; ended by an empty one.
 */
extern const struct ktr_trpoint ktr_trpoints[];
/* How many rows, the end's not counted. */
extern const unsigned int ktr_ntrpoints;

/* The KTRFAC_* mask for a trstr such as "cnisuw+", or -1 on an unknown letter. */
int ktr_getpoints(const char *trstr);

/* The bits of the rows that do any of does (KTR_FAC_*). */
unsigned int ktr_facs_that(unsigned int does);
/* The bits of the row that option (a ktraceb flag, 'k') turns on, or 0. */
unsigned int ktr_facs_of_option(char option);
/* The bits a compact recorder keeps: returns and signals. */
unsigned int ktr_facs_compact(void);
/* The bits of the records between a call's CALL and RET that by makes. */
unsigned int ktr_facs_between(enum ktr_between by);
/* The -t bits that show a ktraceb record of type (KTR_*) in kdump. */
unsigned int ktr_facs_showing(int type);
/* The line that says what facs lacks that one of its facilities needs, or NULL. */
const char *ktr_facs_unmet(unsigned int facs);

#endif /* KTRACEB_TRSTR_H */
