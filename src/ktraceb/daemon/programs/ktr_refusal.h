/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The last program the kernel refused, and the verifier's reason (its log's
 * last line before the statistics): a failed load says which and why in one
 * line, with or without -v.  Several threads load at once.
 */
#ifndef KTRACEB_KTR_REFUSAL_H
#define KTRACEB_KTR_REFUSAL_H

#include <stdbool.h>
#include <stddef.h>

/* libbpf's messages through here from now on; verbose: its debug ones to stderr too */
void ktr_refusal__listen(bool verbose);
void ktr_refusal__clear(void);
/* "the kernel refused the BPF program PROG: REASON" into buf; NULL if none was */
const char *ktr_refusal__say(char *buf, size_t size);
/* The refused program's name into buf; false if none was refused */
bool ktr_refusal__prog(char *buf, size_t size);

#endif /* KTRACEB_KTR_REFUSAL_H */
