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
}

static void text_end(void *ctx, enum ktr_field_group g)
{
	struct text *t = ctx;

	fputs(g == KTR_GROUP_ARRAY ? " ]" : " }", t->out);
	if (t->depth > 0)
		t->depth--;
}

static void text_field(void *ctx, const struct ktr_field *f)
{
	struct text *t = ctx;

	sep(t);
	if (f->name)
		fprintf(t->out, "%s=", f->name);
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

void ktr_print_struct(FILE *out, const char *name, const void *data, size_t len, int flags)
{
	struct text t = { .out = out };
	const struct ktr_field_sink sink = { text_begin, text_field, text_end, &t };

	if (strcmp(name, "string") == 0) {
		fputs("string ", out);
	} else {
		fputs("struct ", out);
		ktr_print_cstr(out, name, strlen(name), false);
	}
	switch (ktr_decode_struct(&sink, name, data, len, flags)) {
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
}
