/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Syscall tables generated at build time by scripts/gensyscalls.sh from the
 * kernel's syscall tables committed in src/decode/tables/ and the kernel's
 * signatures.  Indexed by syscall number; an entry whose name is 0 is an
 * unused number.
 *
 * An entry holds no pointer: its strings (name, each argument's type and
 * name) are offsets into its table's one string, ktr_sysent_str() turns
 * them into C strings.  A table of pointers is written over by the dynamic
 * loader at every start of ktraceb and kdump (a position-independent
 * program's pointers are fixed up where it was loaded), and each page
 * written costs a fault: about 40 pages, 0.5 ms a start on a VM here
 * (docs/PERFORMANCE.md).
 */
#ifndef KTRACEB_SYSCALLTAB_H
#define KTRACEB_SYSCALLTAB_H

#include <stddef.h>
#include "syscall_names.h"

/*
 * A syscall's name, checked at build time: KTR_SC(openat) is "openat", and
 * KTR_SC(opneat) does not compile, since no kernel table (x86_64, i386,
 * arm64) has that name.  Every table keyed by syscall name uses it.
 */
#define KTR_SC(name) (&#name[0 * KTR_SCN_##name])

/* Which table an entry is from, so which string its offsets are into. */
enum ktr_systab_abi { KTR_SYSTAB_x86_64, KTR_SYSTAB_i386, KTR_SYSTAB_arm64 };

struct ktr_sysent {
	unsigned short name;		/* offset of the name; 0: an unused number */
	unsigned char abi;		/* enum ktr_systab_abi */
	unsigned char narg;
	unsigned char pathmask;		/* bit i: argument i is a path (KTR_NAMEI) */
	unsigned char strmask;		/* bit i: argument i is another C string */
	unsigned short argtype[6];	/* offset of the kernel's C type, e.g. "unsigned int" */
	unsigned short argname[6];	/* offset of the kernel's parameter name, e.g. "fd" */
};

extern const struct ktr_sysent ktr_sysent_x86_64[];
extern const unsigned int ktr_nsysent_x86_64;
extern const char ktr_sysstr_x86_64[];
extern const struct ktr_sysent ktr_sysent_i386[];
extern const unsigned int ktr_nsysent_i386;
extern const char ktr_sysstr_i386[];
extern const struct ktr_sysent ktr_sysent_arm64[];
extern const unsigned int ktr_nsysent_arm64;
extern const char ktr_sysstr_arm64[];

/* One of an entry's strings (se->name, se->argtype[i], se->argname[i]); NULL for 0. */
static inline const char *ktr_sysent_str(const struct ktr_sysent *se, unsigned short offset)
{
	const char *strings = se->abi == KTR_SYSTAB_i386  ? ktr_sysstr_i386 :
			      se->abi == KTR_SYSTAB_arm64 ? ktr_sysstr_arm64 :
							    ktr_sysstr_x86_64;

	return offset ? strings + offset : NULL;
}

/* An entry's name; NULL for an unused number. */
static inline const char *ktr_sysent_name(const struct ktr_sysent *se)
{
	return ktr_sysent_str(se, se->name);
}

/* The entry for nr in the table of an ABI (KTR_SV_* flags), or NULL. */
const struct ktr_sysent *ktr_sysent_lookup(unsigned int sv_flags, long nr);

#endif /* KTRACEB_SYSCALLTAB_H */
