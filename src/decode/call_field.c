// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* A syscall's arguments and its return as fields (decode.h), for kdump -J and -P. */
#include "ktraceb/ktr.h"
#include "struct_int.h"

int ktr_decode_syscall_args(const struct ktr_field_sink *s, unsigned int sv_flags, int code,
			    int narg, const __u64 *args, int flags)
{
	/* the arguments the call takes, as the text shows them */
	int n = ktr_syscall_nargs_taken(sv_flags, code, narg, args, flags);
	char argn[KTR_MAXARGS][16]; /* each lives until its field is given */
	struct ktr_fields f;
	int err;

	if (n == 0)
		return 0;
	err = ktr_fields_init(&f, s);
	if (err)
		return err;
	for (int i = 0; i < n; i++) {
		const char *name = ktr_syscall_argname(sv_flags, code, i);

		if (!name) {
			snprintf(argn[i], sizeof(argn[i]), "arg%d", i);
			name = argn[i];
		}
		ktr_field_of(&f, name, args[i], false);
		ktr_print_syscall_arg(f.out, sv_flags, code, narg, args, i, flags);
	}
	ktr_fields_done(&f);
	return 0;
}

int ktr_decode_sysret(const struct ktr_field_sink *s, unsigned int sv_flags, int code, int error,
		      __s64 retval, int flags)
{
	struct ktr_fields f;
	int err = ktr_fields_init(&f, s);

	if (err)
		return err;
	ktr_field_of(&f, "retval", (__u64)retval, true);
	ktr_print_sysret(f.out, sv_flags, code, error, retval, flags);
	ktr_fields_done(&f);
	return 0;
}
