/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * What the tracer knows about the machine it runs on, in one table: the
 * name the trace file records, the syscall tables of its native and 32-bit
 * ABIs (what the BPF programs count arguments and paths with, and the
 * command checks -e trace= against), and which of the tracer's x86_64-only
 * parts apply.  The table is ktr_arch.c's; its BPF counterpart is
 * bpf/arch.bpf.h.
 */
#ifndef KTRACEB_KTR_ARCH_H
#define KTRACEB_KTR_ARCH_H

#include <stdbool.h>
#include "syscalltab.h"

struct ktr_arch {
	const char *machine; /* uname -m, into the trace file's INFO record */
	const struct ktr_sysent *native;
	const unsigned int *nnative;
	const struct ktr_sysent *compat; /* NULL: 32-bit syscalls not decoded */
	const unsigned int *ncompat;
	/* x86_64-only: the STRUCT capture layouts (ktr_captures.c) */
	bool struct_captures;
	/* the USDT operands' registers are known (ktr_usdt_elf.c: x86_64, arm64) */
	bool usdt_args;
};

extern const struct ktr_arch ktr_arch_host;

#endif /* KTRACEB_KTR_ARCH_H */
