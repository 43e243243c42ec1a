// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * A structure's members as JSON (kdump -J's STRU "fields"), from the
 * fields the decoder gives (decode.h): one JSON member per named member of
 * a structure.  A structure with other things in it (a value shown alone,
 * a note of what was left out, a structure within) and an array have no
 * "fields": their "text" says it all.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "decode.h"
#include "kdump_jsonout.h"

struct members {
	FILE *out;
	int depth;
	int n;
	bool plain; /* one structure of named members */
};

static void m_begin(void *ctx, enum ktr_field_group g)
{
	struct members *m = ctx;

	if (m->depth++ || g != KTR_GROUP_STRUCT)
		m->plain = false;
}

static void m_end(void *ctx, enum ktr_field_group g)
{
	struct members *m = ctx;

	(void)g;
	m->depth--;
}

static void m_field(void *ctx, const struct ktr_field *f)
{
	struct members *m = ctx;

	if (m->depth != 1 || !f->name || f->kind == KTR_FIELD_NOTE)
		m->plain = false;
	if (!m->plain)
		return;
	fputs(m->n++ ? "," : ",\"fields\":{", m->out);
	kd_json_cstr(m->out, f->name);
	fputc(':', m->out);
	switch (f->kind) {
	case KTR_FIELD_NUM:
		if (f->is_signed)
			fprintf(m->out, "%lld", (long long)f->raw);
		else
			fprintf(m->out, "%llu", (unsigned long long)f->raw);
		break;
	default: /* a name, a set of them, a time ...: the text the decoder wrote */
		kd_json_str(m->out, f->text, f->len);
		break;
	}
}

bool kd_json_struct_text(FILE *text, FILE *fields, const char *name, const void *data, size_t len,
			 int decode)
{
	struct members m = { .out = fields, .plain = true };
	const struct ktr_field_sink sink = { m_begin, m_field, m_end, &m, NULL };

	/* one pass: the text, and the members as they come, kept if all named */
	if (ktr_print_struct_also(text, name, data, len, decode, &sink) != KTR_STRUCT_DECODED ||
	    !m.plain || !m.n)
		return false;
	fputc('}', fields);
	return true;
}
