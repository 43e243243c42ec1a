// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * kdump's text of a KTR_SYSCALL's arguments and of a KTR_SYSRET: the fields
 * ktr_decode_syscall_args() and ktr_decode_sysret() give, to a sink whose
 * values come straight to the output (decode.h's direct).
 */
#include "decode.h"

static void no_group(void *ctx, enum ktr_field_group g)
{
	(void)ctx;
	(void)g;
}

struct arg_list {
	FILE *out;
	int n; /* the arguments written */
};

/* "(" before the first argument, "," before each other; its value comes next */
static void arg_text(void *ctx, const struct ktr_field *f)
{
	struct arg_list *l = ctx;

	(void)f;
	fputc(l->n++ ? ',' : '(', l->out);
}

void ktr_print_syscall_args(FILE *out, unsigned int sv_flags, int code, int narg, const __u64 *args,
			    int flags)
{
	struct arg_list l = { out, 0 };
	const struct ktr_field_sink sink = { no_group, arg_text, no_group, &l, out };

	ktr_decode_syscall_args(&sink, sv_flags, code, narg, args, flags);
	if (l.n)
		fputc(')', out);
}

/* The return value alone: nothing before it */
static void ret_text(void *ctx, const struct ktr_field *f)
{
	(void)ctx;
	(void)f;
}

void ktr_print_sysret(FILE *out, unsigned int sv_flags, int code, int error, __s64 retval,
		      int flags)
{
	const struct ktr_field_sink sink = { no_group, ret_text, no_group, NULL, out };

	ktr_decode_sysret(&sink, sv_flags, code, error, retval, flags);
}
