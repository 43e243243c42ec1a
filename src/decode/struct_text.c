// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * kdump's text of a KTR_STRUCT: the fields ktr_decode_struct() gives, as
 * "struct stat { dev=8:1, ino=12, ... }", "struct pollfd [ { fd=3, ... } ]".
 */
#include <string.h>
#include "struct_int.h"

#define TEXT_DEPTH 4 /* groups within groups the text follows */

struct text {
	FILE *out;
	const struct ktr_field_sink *also; /* NULL: the values come straight to out */
	int depth;
	int n[TEXT_DEPTH]; /* the items written at each depth */
};

/* ", " before every item of a group but its first */
static void sep(struct text *t)
{
	int d = t->depth < TEXT_DEPTH ? t->depth : TEXT_DEPTH - 1;

	if (t->n[d]++)
		fputs(", ", t->out);
}

static void text_begin(void *ctx, enum ktr_field_group g)
{
	struct text *t = ctx;

	if (t->depth == 0)
		fputc(' ', t->out);
	else
		sep(t);
	fputs(g == KTR_GROUP_ARRAY ? "[ " : "{ ", t->out);
	if (++t->depth < TEXT_DEPTH)
		t->n[t->depth] = 0;
	if (t->also)
		t->also->begin(t->also->ctx, g);
}

static void text_end(void *ctx, enum ktr_field_group g)
{
	struct text *t = ctx;

	fputs(g == KTR_GROUP_ARRAY ? " ]" : " }", t->out);
	if (t->depth > 0)
		t->depth--;
	if (t->also)
		t->also->end(t->also->ctx, g);
}

static void text_field(void *ctx, const struct ktr_field *f)
{
	struct text *t = ctx;

	sep(t);
	if (f->name) {
		fputs(f->name, t->out);
		fputc('=', t->out);
	}
	if (t->also)
		t->also->field(t->also->ctx, f);
	else if (f->kind == KTR_FIELD_TEXT)
		return; /* direct: the decoder writes the value next */
	if (f->kind == KTR_FIELD_STR) {
		fputc('"', t->out);
		ktr_put_escaped(t->out, f->text, f->len, KTR_ESC_C);
		fputc('"', t->out);
	} else {
		fwrite(f->text, 1, f->len, t->out);
	}
}

#define HEXDUMP_MAX 64

static void print_unknown(FILE *out, const unsigned char *p, size_t len)
{
	fprintf(out, " %zu byte%s", len, len == 1 ? "" : "s");
	for (size_t i = 0; i < len && i < HEXDUMP_MAX; i++)
		fprintf(out, " %02x", p[i]);
	if (len > HEXDUMP_MAX)
		fputs(" ...", out);
}

enum ktr_struct_found ktr_print_struct_also(FILE *out, const char *name, const void *data,
					    size_t len, int flags,
					    const struct ktr_field_sink *also)
{
	struct text t = { .out = out, .also = also };
	const struct ktr_field_sink sink = { text_begin, text_field, text_end, &t,
					     also ? NULL : out };
	enum ktr_struct_found found;

	if (strcmp(name, "string") == 0) {
		fputs("string ", out);
	} else {
		fputs("struct ", out);
		ktr_print_cstr(out, name, strlen(name), false);
	}
	found = ktr_decode_struct(&sink, name, data, len, flags);
	switch (found) {
	case KTR_STRUCT_UNKNOWN:
		print_unknown(out, data, len);
		break;
	case KTR_STRUCT_BAD_SIZE:
		fprintf(out, " invalid record (len %zu)", len);
		break;
	case KTR_STRUCT_NOMEM:
		fputs(" (out of memory)", out);
		break;
	case KTR_STRUCT_DECODED:
		break;
	}
	return found;
}

void ktr_print_struct(FILE *out, const char *name, const void *data, size_t len, int flags)
{
	ktr_print_struct_also(out, name, data, len, flags, NULL);
}
