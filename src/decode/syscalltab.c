// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* Lookup in the generated syscall tables (build/gen/syscalls_*.c). */
#include "ktraceb/ktr.h"
#include "syscalltab.h"
#include "decode.h"

const struct ktr_sysent *ktr_sysent_lookup(unsigned int sv_flags, long nr)
{
	const struct ktr_sysent *tab = ktr_sysent_x86_64;
	unsigned int n = ktr_nsysent_x86_64;

	if (sv_flags & KTR_SV_ILP32) {
		tab = ktr_sysent_i386;
		n = ktr_nsysent_i386;
	}
	if (nr < 0 || (unsigned long)nr >= n || !tab[nr].name)
		return NULL;
	return &tab[nr];
}

const char *ktr_syscall_name(unsigned int sv_flags, long nr)
{
	const struct ktr_sysent *se = ktr_sysent_lookup(sv_flags, nr);

	return se ? se->name : NULL;
}
