/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Which system calls a trace shows: strace's selection language, as
 * ktraceb records with it (-e trace=SET, -e status=..., -Z) and kdump
 * reads with it, the same on both sides.
 *
 *   trace=SET    SET: comma-separated items, each a name (openat), a class
 *                (%file %desc %network %process %signal %ipc %memory %creds
 *                %clock %stat %lstat %fstat %%stat %statfs %fstatfs
 *                %%statfs %pure), ?name (no error if this kernel has no
 *                such call), /regex (an extended regular expression on
 *                names), all or none; a leading ! takes the complement.
 *                Several trace= add up.
 *   status=SET   successful, failed (a return of -1 and an errno), or both.
 *
 * Names and classes are looked up in the tables given: the syscall
 * numbers of the ABI the trace is of (native) and its 32-bit one (compat,
 * if any), so one selection is two bitmaps over syscall numbers.
 */
#ifndef KTRACEB_KTR_SELECT_H
#define KTRACEB_KTR_SELECT_H

#include <stdbool.h>
#include <linux/types.h>

#include "ktraceb/bpf_select.h"
#include "syscalltab.h"

enum ktr_sysclass {
	KTR_CL_FILE = 1 << 0,
	KTR_CL_DESC = 1 << 1,
	KTR_CL_NETWORK = 1 << 2,
	KTR_CL_PROCESS = 1 << 3,
	KTR_CL_SIGNAL = 1 << 4,
	KTR_CL_IPC = 1 << 5,
	KTR_CL_MEMORY = 1 << 6,
	KTR_CL_CREDS = 1 << 7,
	KTR_CL_CLOCK = 1 << 8,
	KTR_CL_STAT = 1 << 9,
	KTR_CL_LSTAT = 1 << 10,
	KTR_CL_FSTAT = 1 << 11,
	KTR_CL_STAT_LIKE = 1 << 12,
	KTR_CL_STATFS = 1 << 13,
	KTR_CL_FSTATFS = 1 << 14,
	KTR_CL_STATFS_LIKE = 1 << 15,
	KTR_CL_PURE = 1 << 16,
};

/* The classes of the system call named so (0: none, or no such call). */
unsigned int ktr_sysclass__of(const char *name);

/* One ABI's syscall table, as the selection looks names up in it. */
struct ktr_select_abi {
	const struct ktr_sysent *tab;
	unsigned int n;
};

#define KTR_SELECT_TEXT_MAX 160

struct ktr_select {
	bool calls_given;			/* a trace= was given; else every call */
	__u64 native[KTR_SELECT_WORDS];		/* bit nr: syscall nr is selected */
	__u64 compat[KTR_SELECT_WORDS];
	__u32 status;				/* KTR_SELECT_SUCCESSFUL | _FAILED; 0: not given */
	char text[KTR_SELECT_TEXT_MAX];		/* what was given: "trace=... status=..." */
};

void ktr_select__init(struct ktr_select *s);

/* Is arg a selection (trace=..., status=...) rather than a kernel event? */
bool ktr_select__is_arg(const char *arg);

/*
 * Add one selection argument.  0, or -1 with *why a one-line reason
 * ("unknown system call 'opne'", "empty selection", "unknown class
 * '%nosuch'"); compat may have no table (n 0).
 */
int ktr_select__add(struct ktr_select *s, const char *arg, const struct ktr_select_abi *native,
		    const struct ktr_select_abi *compat, const char **why);

/* Does it select anything less than everything? */
bool ktr_select__active(const struct ktr_select *s);

/* Is syscall nr (of the compat ABI if compat) selected? */
bool ktr_select__has_call(const struct ktr_select *s, long nr, bool compat);

/* Does a return with this errno (0: success) pass status=? */
bool ktr_select__has_status(const struct ktr_select *s, int error);

#endif /* KTRACEB_KTR_SELECT_H */
