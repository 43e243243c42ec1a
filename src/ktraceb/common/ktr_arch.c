// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* The machine the tracer was built for (ktr_arch.h). */
#include <stddef.h>
#include "ktr_arch.h"

#if defined(__x86_64__)
const struct ktr_arch ktr_arch_host = {
	.machine = "x86_64",
	.native = ktr_sysent_x86_64,
	.nnative = &ktr_nsysent_x86_64,
	.compat = ktr_sysent_i386,
	.ncompat = &ktr_nsysent_i386,
	.struct_captures = true,
	.usdt_args = true,
};
#elif defined(__aarch64__)
const struct ktr_arch ktr_arch_host = {
	.machine = "aarch64",
	.native = ktr_sysent_arm64,
	.nnative = &ktr_nsysent_arm64,
	.compat = NULL, /* AArch32: not decoded */
	.ncompat = NULL,
	.struct_captures = false,
	.usdt_args = true,
};
#else
#error "ktraceb: no arch table for this machine (src/ktraceb/common/ktr_arch.c: x86_64, aarch64)"
#endif
