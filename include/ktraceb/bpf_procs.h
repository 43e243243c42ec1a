/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * A traced process as the BPF programs and the daemon both see it: its
 * entry in the procs map (BSD's p_traceflag and trace node), the bitmap
 * every program looks at first, and the syscall programs' copies of
 * entries.  The daemon writes an entry only through ktr_procmap.c.
 */
#ifndef KTRACEB_BPF_PROCS_H
#define KTRACEB_BPF_PROCS_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define KTR_MAX_PROCS 32768 /* traced processes at once */

/* procs map: tgid -> tracing state of one process (BSD p_traceflag + node) */
struct ktr_proc_state {
	__u32 facs; /* KTRFAC_* including INHERIT and ROOT */
	__u32 route;
	__u32 flags; /* KTR_PS_* */
	__u32 sv_flags; /* ABI, as in KTR_PROCCTOR */
	__u32 iosize; /* GENIO bytes kept per I/O */
	__u16 select; /* its trace's syscall selection (selects), 0 for every call */
	__u16 group; /* KTR_PS_GROUP: its group's slot (groups) */
	__u16 ustack_kib; /* -k: KiB of user stack copied per call (-K); 0: frame pointers only */
	__u16 pad;
};
#define KTR_PS_AWAIT_EXEC 0x1 /* ignore everything before the first execve */
/*
 * Set by the daemon between a non-root caller's permission check and its
 * second check (ktr_policy.c): nothing is recorded, but a set-id exec
 * already ends the tracing, so no exec can slip between check and start.
 */
#define KTR_PS_PENDING	  0x2
#define KTR_PS_QUIET	  (KTR_PS_AWAIT_EXEC | KTR_PS_PENDING)
/*
 * ktraceb's own command (traced with 'u'), whose parent is ktraceb and no
 * shell: stopped (SIGSTOP) at its execs and executable mappings of files
 * not known to be quiet, until the daemon has armed their USDT probes and
 * continues it, so no probe fires unseen.  Not inherited.
 */
#define KTR_PS_HOLD	  0x4
#define KTR_PS_HELD	  0x8 /* stopped for that now: the daemon continues it */
/*
 * Traced because it is in a traced cgroup (ktraceb -G), the one whose slot
 * is in group: it stays traced while it is in that group or below it, and
 * its tracing ends when it moves out (cgroup.bpf.c).
 */
#define KTR_PS_GROUP	  0x10

/*
 * ktr_traced: one bit per tgid modulo KTR_TRACED_BITS, set before a
 * process enters the procs map (by the daemon, or by BPF at an inherited
 * fork) and cleared only when no trace is left.  Every program looks here
 * first: a process whose bit is clear is not traced, found with one load
 * instead of a hash lookup (the cost every process on the machine pays for
 * the syscall tracepoints while anything is traced).
 */
#define KTR_TRACED_BITS	 65536
#define KTR_TRACED_WORDS (KTR_TRACED_BITS / 64)
#define KTR_TRACED_WORD(tgid) (((tgid) / 64) % KTR_TRACED_WORDS)
#define KTR_TRACED_BIT(tgid)  (1ull << ((tgid) % 64))

/*
 * ktr_proc_copies (.bss): the syscall programs' copies of procs entries,
 * one 64-byte line per tgid modulo KTR_PROC_COPIES, read with plain loads
 * where a hash lookup is a call (the most a traced syscall pays, twice).
 * A copy is good while its gen is ktr_procs_gen: whoever changes the procs
 * map (the daemon, or a BPF program) bumps ktr_procs_gen after the change,
 * and every copy is stale.  seq is odd while a copy is written, 0 before
 * the first.  Entries a program changes in place (QUIET, HELD) are never
 * copied; a HOLD one is, and what may set its HELD takes the entry itself
 * (syscall__note_mmap, proc.bpf.c at exec).
 */
#define KTR_PROC_COPIES 4096
struct ktr_proc_copy {
	__u64 seq;
	__u64 gen;
	__u32 tgid;
	__u32 pad;
	struct ktr_proc_state ps;
	__u64 pad2[2];
};

#endif /* KTRACEB_BPF_PROCS_H */
