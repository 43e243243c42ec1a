/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * What the programs are loaded with, in their .rodata: the syscall tables
 * (arguments, paths), the captures (data, structures), what comes between
 * a call's CALL and RET, the possible CPUs and the tests' fault injection.
 * The same for a kept program (ktr_progcache.h), whose key hashes it.
 */
#ifndef KTRACEB_KTR_RODATA_H
#define KTRACEB_KTR_RODATA_H

struct ktraceb_bpf;

/* skel's .rodata filled, before its load; ncpus: the possible CPUs. */
void ktr_rodata__fill(struct ktraceb_bpf *skel, int ncpus);

#endif /* KTRACEB_KTR_RODATA_H */
