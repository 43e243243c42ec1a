// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The argument formatters the syscall families (decode_*.c) and the
 * generic rule (args.c) share: numbers, descriptors, signals, modes,
 * clocks.
 */
#include <fcntl.h>
#include <time.h>
#include "decode_int.h"

void ktr_arg_hex(FILE *out, const struct ktr_argctx *c, int i)
{
	fprintf(out, "%#llx", (unsigned long long)c->a[i]);
}

/* An int argument: only the low 32 bits of the register are meaningful. */
void ktr_arg_int(FILE *out, const struct ktr_argctx *c, int i)
{
	fprintf(out, "%d", (int)c->a[i]);
}

void ktr_arg_fd(FILE *out, const struct ktr_argctx *c, int i)
{
	fprintf(out, "%d", (int)c->a[i]);
}

void ktr_arg_dfd(FILE *out, const struct ktr_argctx *c, int i)
{
	if ((int)c->a[i] == AT_FDCWD)
		fputs("AT_FDCWD", out);
	else
		fprintf(out, "%d", (int)c->a[i]);
}

void ktr_arg_signal(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_signal(out, (int)c->a[i], c->flags);
}

/* A umode_t: the kernel sees the register's low 16 bits (strace prints those too). */
void ktr_arg_mode(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_octal(out, c->a[i] & 0xffffu, c->flags);
}

/* A uid_t or gid_t: 32 bits, unsigned, but -1 ("no change" to chown) as -1, as strace. */
void ktr_arg_uid(FILE *out, const struct ktr_argctx *c, int i)
{
	__u32 id = (__u32)c->a[i];

	if (id == (__u32)-1)
		fputs("-1", out);
	else
		fprintf(out, "%u", id);
}

static const struct ktr_sym clock_sym[] = {
	KTR_SYM(CLOCK_REALTIME),
	KTR_SYM(CLOCK_MONOTONIC),
	KTR_SYM(CLOCK_PROCESS_CPUTIME_ID),
	KTR_SYM(CLOCK_THREAD_CPUTIME_ID),
	KTR_SYM(CLOCK_MONOTONIC_RAW),
	KTR_SYM(CLOCK_REALTIME_COARSE),
	KTR_SYM(CLOCK_MONOTONIC_COARSE),
	KTR_SYM(CLOCK_BOOTTIME),
	KTR_SYM(CLOCK_REALTIME_ALARM),
	KTR_SYM(CLOCK_BOOTTIME_ALARM),
	KTR_SYM(CLOCK_TAI),
};
static const struct ktr_symtab clock_tab = KTR_SYMTAB(clock_sym);

/* Negative clock ids are per-process/thread CPU clocks: shown as numbers. */
void ktr_arg_clockid(FILE *out, const struct ktr_argctx *c, int i)
{
	ktr_print_enum(out, &clock_tab, (int)c->a[i], c->flags);
}
