/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Which syscalls move data (GENIO) and which structures they pass
 * (KTR_STRUCT), by syscall name; turned into the per-number tables the BPF
 * side reads from .rodata.
 */
#ifndef KTRACEB_KTR_CAPTURES_H
#define KTRACEB_KTR_CAPTURES_H

#include <stddef.h>
#include "ktraceb/bpf_captures.h"

/* Fill genio[nr], caps[nr][] and when[nr] (the captures' when bits, or'ed) for the x86_64 syscall table. */
void ktr_captures__fill(volatile __u8 *genio, volatile struct ktr_capture (*caps)[KTR_CAPTURES],
			volatile __u8 *when);

/* The syscall of the i-th capture or GENIO entry, NULL past the last. */
const char *ktr_captures__syscall_at(size_t i);

#endif /* KTRACEB_KTR_CAPTURES_H */
