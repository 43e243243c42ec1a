// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* A call's ABI, and an exec's RET (kdump_abi.h). */
#include <string.h>

#include "decode.h"
#include "kdump_abi.h"
#include "kdump_span.h"

unsigned int kd_abi_of_record(enum kd_sys sys, const struct ktr_header *h, unsigned int process_sv)
{
	if (sys == KD_SYS_KTRACEB && (h->ktr_type == KTR_SYSCALL || h->ktr_type == KTR_SYSRET)) {
		if (h->ktr_flags & KTRH_ABI_COMPAT)
			return KTR_SV_LINUX_I386;
		if (h->ktr_flags & KTRH_ABI_NATIVE)
			return KTR_SV_LINUX_AMD64;
	}
	return process_sv;
}

bool kd_abi_is_exec(unsigned int sv_flags, int code)
{
	const char *name = ktr_syscall_name(sv_flags, code);

	return name && (strcmp(name, "execve") == 0 || strcmp(name, "execveat") == 0);
}

/* (x86's set_personality_64bit: "pretend that this comes from a 64bit execve") */
bool kd_abi_exec_ret_of_call(const struct kd_event *ev, const struct ktr_sysret *sr,
			     const struct kd_thread *t)
{
	return !(ev->h->ktr_flags & (KTRH_ABI_NATIVE | KTRH_ABI_COMPAT)) && t->has_call &&
	       sr->ktr_error == 0 && sr->ktr_retval == 0 && !ktr_bsd_abi(ev->sv_flags) &&
	       kd_abi_is_exec(ev->sv_flags, sr->ktr_code) &&
	       kd_abi_is_exec(t->last_sv, t->last_call);
}
