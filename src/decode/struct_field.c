// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/* How the KTR_STRUCT printers give their fields to a sink (struct_int.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include "struct_int.h"

/*
 * A memory stream kept for the next structure or call, so that each does
 * not open its own; one that starts while another is given (a sink that
 * decodes) opens its own.
 */
static _Thread_local struct {
	FILE *out;
	char *buf;
	size_t size;
	bool busy;
} spare;

int ktr_fields_init(struct ktr_fields *f, const struct ktr_field_sink *sink)
{
	*f = (struct ktr_fields){ .sink = sink };
	if (sink->direct) {
		f->out = sink->direct;
		f->direct = true;
		return 0;
	}
	if (!spare.busy) {
		if (!spare.out) {
			spare.out = open_memstream(&spare.buf, &spare.size);
			if (spare.out) /* this thread's alone: no lock each write */
				__fsetlocking(spare.out, FSETLOCKING_BYCALLER);
		}
		if (spare.out && fseek(spare.out, 0, SEEK_SET) == 0) {
			spare.busy = true;
			f->spare = true;
			f->out = spare.out;
			f->buf = &spare.buf;
			return 0;
		}
	}
	f->out = open_memstream(&f->own, &f->size);
	f->buf = &f->own;
	return f->out ? 0 : -ENOMEM;
}

static void give(struct ktr_fields *f, const struct ktr_field *fl)
{
	f->sink->field(f->sink->ctx, fl);
}

/* The field being written ends: give it with the text written since it began. */
static void close_field(struct ktr_fields *f)
{
	long n;

	if (!f->open)
		return;
	f->open = false;
	fflush(f->out);
	n = ftell(f->out);
	f->cur.text = *f->buf;
	f->cur.len = n > 0 ? (size_t)n : 0;
	give(f, &f->cur);
}

void ktr_fields_done(struct ktr_fields *f)
{
	close_field(f);
	if (f->direct)
		return;
	if (f->spare) {
		spare.busy = false;
		return;
	}
	fclose(f->out);
	free(f->own);
}

void ktr_fields_begin(struct ktr_fields *f, enum ktr_field_group g)
{
	close_field(f);
	f->sink->begin(f->sink->ctx, g);
}

void ktr_fields_end(struct ktr_fields *f, enum ktr_field_group g)
{
	close_field(f);
	f->sink->end(f->sink->ctx, g);
}

void ktr_field(struct ktr_fields *f, const char *name)
{
	close_field(f);
	f->cur = (struct ktr_field){ .name = name, .kind = KTR_FIELD_TEXT };
	if (f->direct) { /* the sink writes its part; the value comes next */
		give(f, &f->cur);
		return;
	}
	fseek(f->out, 0, SEEK_SET);
	f->open = true;
}

void ktr_field_of(struct ktr_fields *f, const char *name, __u64 raw, bool is_signed)
{
	ktr_field(f, name);
	f->cur.raw = raw;
	f->cur.is_signed = is_signed;
}

static void number(struct ktr_fields *f, const char *name, enum ktr_field_kind kind, bool is_signed,
		   __u64 raw, const char *text)
{
	close_field(f);
	give(f, &(struct ktr_field){ .name = name,
				     .kind = kind,
				     .is_signed = is_signed,
				     .raw = raw,
				     .text = text,
				     .len = strlen(text) });
}

void ktr_field_u64(struct ktr_fields *f, const char *name, __u64 v)
{
	char text[32];

	snprintf(text, sizeof(text), "%llu", (unsigned long long)v);
	number(f, name, KTR_FIELD_NUM, false, v, text);
}

void ktr_field_s64(struct ktr_fields *f, const char *name, __s64 v)
{
	char text[32];

	snprintf(text, sizeof(text), "%lld", (long long)v);
	number(f, name, KTR_FIELD_NUM, true, (__u64)v, text);
}

void ktr_field_hex(struct ktr_fields *f, const char *name, __u64 v)
{
	char text[32];

	snprintf(text, sizeof(text), "%#llx", (unsigned long long)v);
	number(f, name, KTR_FIELD_HEX, false, v, text);
}

void ktr_field_mask(struct ktr_fields *f, const char *name, const struct ktr_symtab *t, __u64 v,
		    int flags)
{
	/* 0 with no name for it: ktr_print_mask writes "0" */
	if (v == 0 && !(flags & KTR_DEC_RAW) && !ktr_sym_name(t, 0)) {
		ktr_field_u64(f, name, 0);
		return;
	}
	ktr_field(f, name);
	ktr_print_mask(f->out, t, v, flags);
}

void ktr_field_enum(struct ktr_fields *f, const char *name, const struct ktr_symtab *t, __s64 v,
		    int flags)
{
	const char *sym = (flags & KTR_DEC_RAW) ? NULL : ktr_sym_name(t, (__u64)v);

	if (!sym) {
		ktr_field_s64(f, name, v);
		return;
	}
	ktr_field(f, name);
	fputs(sym, f->out);
}

void ktr_field_signal(struct ktr_fields *f, const char *name, __s64 sig, int flags)
{
	const char *sym = (flags & KTR_DEC_RAW) ? NULL : ktr_signal_name((int)sig);

	if (!sym || sig != (int)sig) {
		ktr_field_s64(f, name, sig);
		return;
	}
	ktr_field(f, name);
	fputs(sym, f->out);
}

void ktr_field_sigset(struct ktr_fields *f, const char *name, __u64 set, int flags)
{
	/* the empty set: ktr_print_sigset writes "0" */
	if (set == 0 && !(flags & KTR_DEC_RAW)) {
		ktr_field_u64(f, name, 0);
		return;
	}
	ktr_field(f, name);
	ktr_print_sigset(f->out, set, flags);
}

void ktr_field_str(struct ktr_fields *f, const char *name, const void *p, size_t len)
{
	close_field(f);
	give(f, &(struct ktr_field){ .name = name, .kind = KTR_FIELD_STR, .text = p, .len = len });
}

void ktr_field_note(struct ktr_fields *f, const char *fmt, ...)
{
	char text[64];
	va_list ap;
	int n;

	close_field(f);
	va_start(ap, fmt);
	n = vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	give(f,
	     &(struct ktr_field){ .kind = KTR_FIELD_NOTE,
				  .text = text,
				  .len = (size_t)n < sizeof(text) ? (size_t)n : sizeof(text) - 1 });
}

void ktr_field_rest(struct ktr_fields *f, size_t len, size_t shown)
{
	if (len <= shown)
		return;
	ktr_field_note(f, "<%zu byte%s more>", len - shown, len - shown == 1 ? "" : "s");
}

void ktr_print_time(FILE *out, __s64 sec, __s64 frac, int ndigits)
{
	fprintf(out, "%lld.%0*lld", (long long)sec, ndigits, (long long)frac);
}
