// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* Lookup in the generated syscall tables (build/gen/syscalls_*.c). */
#include <stdbool.h>
#include <string.h>
#include "ktraceb/ktr.h"
#include "syscalltab.h"
#include "decode.h"
#include "decode_int.h"

/* The machine the trace was made on: x86_64 until its INFO record says. */
static const struct ktr_sysent *native_tab = ktr_sysent_x86_64;
static const unsigned int *native_n = &ktr_nsysent_x86_64;
static const struct ktr_sysent *compat_tab = ktr_sysent_i386;
static const unsigned int *compat_n = &ktr_nsysent_i386;

void ktr_decode_set_machine(const char *machine)
{
	if (strcmp(machine, "aarch64") == 0 || strcmp(machine, "arm64") == 0) {
		native_tab = ktr_sysent_arm64;
		native_n = &ktr_nsysent_arm64;
		compat_tab = NULL; /* AArch32 syscalls are not decoded */
		compat_n = NULL;
	} else {
		native_tab = ktr_sysent_x86_64;
		native_n = &ktr_nsysent_x86_64;
		compat_tab = ktr_sysent_i386;
		compat_n = &ktr_nsysent_i386;
	}
}

void ktr_decode_tables(const char *machine, const struct ktr_sysent **native, unsigned int *nnative,
		       const struct ktr_sysent **compat, unsigned int *ncompat)
{
	bool arm64 = machine && (strcmp(machine, "aarch64") == 0 || strcmp(machine, "arm64") == 0);

	if (!machine) {
		*native = native_tab;
		*nnative = *native_n;
		*compat = compat_tab;
		*ncompat = compat_n ? *compat_n : 0;
	} else if (arm64) {
		*native = ktr_sysent_arm64;
		*nnative = ktr_nsysent_arm64;
		*compat = NULL;
		*ncompat = 0;
	} else {
		*native = ktr_sysent_x86_64;
		*nnative = ktr_nsysent_x86_64;
		*compat = ktr_sysent_i386;
		*ncompat = ktr_nsysent_i386;
	}
}

const struct ktr_sysent *ktr_sysent_lookup(unsigned int sv_flags, long nr)
{
	const struct ktr_sysent *tab = native_tab;
	unsigned int n = *native_n;

	if (sv_flags & KTR_SV_ILP32) {
		if (!compat_tab)
			return NULL;
		tab = compat_tab;
		n = *compat_n;
	}
	if (nr < 0 || (unsigned long)nr >= n || !tab[nr].name)
		return NULL;
	return &tab[nr];
}

const char *ktr_syscall_name(unsigned int sv_flags, long nr)
{
	if (ktr_bsd_abi(sv_flags))
		return ktr_bsd_syscall_name(sv_flags, nr);
	const struct ktr_sysent *se = ktr_sysent_lookup(sv_flags, nr);

	return se ? ktr_sysent_name(se) : NULL;
}
