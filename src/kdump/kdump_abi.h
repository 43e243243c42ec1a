/* SPDX-License-Identifier: BSD-2-Clause */
/* Copyright (c) 2026 The ktraceb developers */
/*
 * Which syscall table a CALL or RET is read with, and the exec's RET
 * (docs/FORMAT.md, KTR_SYSCALL and KTR_SYSRET): the decoder's rules for
 * a call's ABI, apart from its state.
 */
#ifndef KTRACEB_KDUMP_ABI_H
#define KTRACEB_KDUMP_ABI_H

#include <stdbool.h>
#include "kdump_event.h"

/*
 * The ABI (decode.h KTR_SV_*) of record h of a file of system sys: a
 * ktraceb CALL's or RET's own (KTRH_ABI_*), else process_sv, its
 * process's.
 */
unsigned int kd_abi_of_record(enum kd_sys sys, const struct ktr_header *h,
			      unsigned int process_sv);

/* Is code an execve or execveat in that ABI? */
bool kd_abi_is_exec(unsigned int sv_flags, int code);

/*
 * A successful exec's RET sr (event ev) in a file whose RETs do not say
 * their ABI, after its thread t's exec CALL: the kernel made the call look
 * like the new image's execve, so the RET is the CALL's.
 */
bool kd_abi_exec_ret_of_call(const struct kd_event *ev, const struct ktr_sysret *sr,
			     const struct kd_thread *t);

#endif /* KTRACEB_KDUMP_ABI_H */
