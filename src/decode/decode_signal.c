// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* The signal syscalls' arguments (their names and printers: signal.c). */
#include <signal.h>
#include "decode_int.h"

static const struct ktr_sym how_sym[] = {
	KTR_SYM(SIG_BLOCK),
	KTR_SYM(SIG_UNBLOCK),
	KTR_SYM(SIG_SETMASK),
};
static const struct ktr_symtab how_tab = KTR_SYMTAB(how_sym);

static void arg_how(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_enum(out, &how_tab, (int)c->a[i], c->flags);
}

/* signal(2) on i386: SIG_DFL, SIG_IGN or a handler address */
static void arg_handler(FILE *out, const struct ktr_argctx *c, int i)
{
	if (c->a[i] == 0 || c->a[i] == 1)
		fputs(c->a[i] ? "SIG_IGN" : "SIG_DFL", out);
	else
		ktr_arg_hex(out, c, i);
}

#define F ktr_arg_fd
#define H ktr_arg_hex
#define S ktr_arg_signal

/* Sorted by name. */
const struct ktr_scdec ktr_scdec_signal[] = {
	{ KTR_SC(kill), { F, S }, NULL },
	{ KTR_SC(pidfd_send_signal), { F, S, H }, NULL },
	{ KTR_SC(rt_sigaction), { S, H, H }, NULL },
	{ KTR_SC(rt_sigprocmask), { arg_how, H, H }, NULL },
	{ KTR_SC(rt_sigqueueinfo), { F, S, H }, NULL },
	{ KTR_SC(rt_tgsigqueueinfo), { F, F, S, H }, NULL },
	{ KTR_SC(sigaction), { S, H, H }, NULL },
	{ KTR_SC(signal), { S, arg_handler }, NULL },
	{ KTR_SC(sigprocmask), { arg_how, H, H }, NULL },
	{ KTR_SC(tgkill), { F, F, S }, NULL },
	{ KTR_SC(tkill), { F, S }, NULL },
};
const size_t ktr_nscdec_signal = KTR_NELEM(ktr_scdec_signal);
