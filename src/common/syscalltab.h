/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Syscall tables generated at build time by scripts/gensyscalls.sh from the
 * kernel's syscall tables committed in src/decode/tables/ and the kernel's
 * signatures.  Indexed by syscall number; an entry with a NULL name is an
 * unused number.
 */
#ifndef KTRACEB_SYSCALLTAB_H
#define KTRACEB_SYSCALLTAB_H

#include "syscall_names.h"

/*
 * A syscall's name, checked at build time: KTR_SC(openat) is "openat", and
 * KTR_SC(opneat) does not compile, since no kernel table (x86_64, i386,
 * arm64) has that name.  Every table keyed by syscall name uses it.
 */
#define KTR_SC(name) (&#name[0 * KTR_SCN_##name])

struct ktr_sysent {
	const char *name;
	unsigned char narg;
	unsigned char pathmask;		/* bit i: argument i is a path (KTR_NAMEI) */
	unsigned char strmask;		/* bit i: argument i is another C string */
	const char *argtype[6];		/* kernel's C type, e.g. "unsigned int" */
	const char *argname[6];		/* kernel's parameter name, e.g. "fd" */
};

extern const struct ktr_sysent ktr_sysent_x86_64[];
extern const unsigned int ktr_nsysent_x86_64;
extern const struct ktr_sysent ktr_sysent_i386[];
extern const unsigned int ktr_nsysent_i386;
extern const struct ktr_sysent ktr_sysent_arm64[];
extern const unsigned int ktr_nsysent_arm64;

/* The entry for nr in the table of an ABI (KTR_SV_* flags), or NULL. */
const struct ktr_sysent *ktr_sysent_lookup(unsigned int sv_flags, long nr);

#endif /* KTRACEB_SYSCALLTAB_H */
