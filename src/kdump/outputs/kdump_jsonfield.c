// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * A Linux structure as JSON (kdump -J's STRU), from the fields the decoder
 * gives (decode.h), never from kdump's text.  Two passes over the same
 * decoding: the first counts each group's named and unnamed fields, the
 * second writes it as one of
 *   an object, a structure of named members: {"dev":"8:1","ino":12,...}
 *   the value itself, a structure shown as one value alone (an int, a
 *     sockaddr's "AF_INET 127.0.0.1:80", a sigset)
 *   an array, an array group's items, or the values of a structure shown
 *     as several values alone (fd_pair's [3,4])
 * The top group goes to "fields" (an object or an array) or to "value"
 * (the value alone, and a "string"); what the decoder left out (its
 * notes) becomes "more_bytes" in an object, and "more_items" or
 * "more_bytes" on the record for an array's.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "kdump_jsonout.h"

#define DEPTH_MAX 8 /* groups within groups (the decoder gives 2 at most) */

/*
 * What the first pass found in one group, in the order the groups begin:
 * its named and unnamed fields (named is -1 for an array group).
 */
struct shape {
	int named, unnamed;
};

enum form { FORM_OBJECT, FORM_VALUE, FORM_ARRAY };

struct shapes {
	struct shape *g;
	size_t n, size;
	int stack[DEPTH_MAX]; /* the open groups' indexes, -1 past the array */
	int depth;
	bool nomem;
};

static void s_begin(void *ctx, enum ktr_field_group g)
{
	struct shapes *s = ctx;
	int i = -1;

	if (s->n == s->size && !s->nomem) {
		size_t size = s->size ? 2 * s->size : 16;
		struct shape *p = realloc(s->g, size * sizeof(*p));

		if (p) {
			s->g = p;
			s->size = size;
		} else {
			s->nomem = true;
		}
	}
	if (s->n < s->size) {
		i = (int)s->n++;
		s->g[i] = (struct shape){ g == KTR_GROUP_ARRAY ? -1 : 0, 0 };
	}
	if (s->depth < DEPTH_MAX)
		s->stack[s->depth] = i;
	s->depth++;
}

static void s_end(void *ctx, enum ktr_field_group g)
{
	struct shapes *s = ctx;

	(void)g;
	s->depth--;
}

static void s_field(void *ctx, const struct ktr_field *f)
{
	struct shapes *s = ctx;
	int i;

	if (s->depth < 1 || s->depth > DEPTH_MAX || f->kind == KTR_FIELD_NOTE)
		return;
	i = s->stack[s->depth - 1];
	if (i < 0 || s->g[i].named < 0)
		return;
	if (f->name)
		s->g[i].named++;
	else
		s->g[i].unnamed++;
}

/* How a group is written: an array group's named count is -1. */
static enum form form_of(const struct shape *sh)
{
	if (sh->named < 0)
		return FORM_ARRAY;
	if (sh->named > 0 || sh->unnamed == 0)
		return FORM_OBJECT; /* a value alone among members is "value" */
	return sh->unnamed == 1 ? FORM_VALUE : FORM_ARRAY;
}

struct writer {
	FILE *out;
	const struct shapes *shapes;
	size_t next; /* the next group's index */
	enum form form[DEPTH_MAX + 1]; /* [0]: the record itself */
	int items[DEPTH_MAX + 1];
	int depth;
	int deeper; /* groups past DEPTH_MAX, left out (the decoder has none) */
	/* an array's notes, for the record after it */
	long long more_items, more_bytes;
	bool more_unknown;
};

/* The number a note says ("<3 bytes more>", "... 5 more"); which one it is. */
static void note(struct writer *w, const struct ktr_field *f, bool in_object)
{
	char buf[64];
	unsigned long long n;
	size_t len = f->len < sizeof(buf) - 1 ? f->len : sizeof(buf) - 1;

	memcpy(buf, f->text, len);
	buf[len] = '\0';
	if (sscanf(buf, "<%llu byte", &n) == 1) {
		if (in_object)
			fprintf(w->out, "%s\"more_bytes\":%llu", w->items[w->depth]++ ? "," : "",
				n);
		else
			w->more_bytes = (long long)n;
	} else if (sscanf(buf, "... %llu more", &n) == 1) {
		w->more_items = (long long)n;
	} else { /* "...": more, not counted */
		w->more_unknown = true;
	}
}

/* Where an item goes: its key in an object or on the record, a comma. */
static void item(struct writer *w, const char *name, bool group)
{
	FILE *out = w->out;
	enum form f = w->form[w->depth];

	if (w->depth == 0) { /* the record's own member */
		fputs(group ? ",\"fields\":" : ",\"value\":", out);
		return;
	}
	if (f == FORM_VALUE)
		return;
	if (w->items[w->depth]++)
		fputc(',', out);
	if (f == FORM_OBJECT) {
		if (name)
			kd_json_cstr(out, name);
		else
			fputs("\"value\"", out);
		fputc(':', out);
	}
}

static void w_begin(void *ctx, enum ktr_field_group g)
{
	struct writer *w = ctx;
	const struct shapes *s = w->shapes;
	enum form f = FORM_ARRAY;
	size_t i = w->next++;

	(void)g;
	if (i < s->n)
		f = form_of(&s->g[i]);
	if (w->deeper || w->depth == DEPTH_MAX) {
		w->deeper++;
		return;
	}
	if (w->depth == 0 && f == FORM_VALUE)
		fputs(",\"value\":", w->out);
	else
		item(w, NULL, true);
	if (f == FORM_OBJECT)
		fputc('{', w->out);
	else if (f == FORM_ARRAY)
		fputc('[', w->out);
	w->depth++;
	w->form[w->depth] = f;
	w->items[w->depth] = 0;
}

static void w_end(void *ctx, enum ktr_field_group g)
{
	struct writer *w = ctx;
	enum form f = w->form[w->depth];

	(void)g;
	if (w->deeper) {
		w->deeper--;
		return;
	}
	if (w->depth == 0)
		return;
	if (f == FORM_VALUE && w->items[w->depth] == 0)
		fputs("null", w->out); /* no value given: cannot happen */
	else if (f == FORM_OBJECT)
		fputc('}', w->out);
	else if (f == FORM_ARRAY)
		fputc(']', w->out);
	w->depth--;
}

static void w_field(void *ctx, const struct ktr_field *f)
{
	struct writer *w = ctx;

	if (w->deeper)
		return;
	if (f->kind == KTR_FIELD_NOTE) {
		note(w, f, w->depth > 0 && w->form[w->depth] == FORM_OBJECT);
		return;
	}
	if (w->form[w->depth] == FORM_VALUE && w->items[w->depth]++)
		return; /* a second value alone: not a value alone (cannot happen) */
	item(w, f->name, false);
	if (f->kind == KTR_FIELD_NUM) {
		if (f->is_signed)
			fprintf(w->out, "%lld", (long long)f->raw);
		else
			fprintf(w->out, "%llu", (unsigned long long)f->raw);
	} else { /* a name, a set of them, a time, hex or octal ...: the decoder's text */
		kd_json_str(w->out, f->text, f->len);
	}
}

static void put_hex(FILE *out, const unsigned char *p, size_t len)
{
	fputc('"', out);
	for (size_t i = 0; i < len; i++)
		fprintf(out, "%02x", p[i]);
	fputc('"', out);
}

void kd_json_struct(FILE *out, const char *name, const void *data, size_t len, int decode)
{
	struct shapes s = { 0 };
	const struct ktr_field_sink count = { s_begin, s_field, s_end, &s, NULL };
	struct writer w = { .out = out, .shapes = &s, .form = { FORM_OBJECT } };
	const struct ktr_field_sink write = { w_begin, w_field, w_end, &w, NULL };

	switch (ktr_decode_struct(&count, name, data, len, decode)) {
	case KTR_STRUCT_DECODED:
		break;
	case KTR_STRUCT_BAD_SIZE:
		fputs(",\"bad_size\":true", out);
		/* fall through */
	case KTR_STRUCT_UNKNOWN:
		fputs(",\"data\":", out);
		put_hex(out, data, len);
		return;
	case KTR_STRUCT_NOMEM:
		return;
	}
	if (!s.nomem && ktr_decode_struct(&write, name, data, len, decode) == KTR_STRUCT_DECODED) {
		if (w.more_items)
			fprintf(out, ",\"more_items\":%lld", w.more_items);
		else if (w.more_unknown)
			fputs(",\"more_items\":null", out);
		if (w.more_bytes)
			fprintf(out, ",\"more_bytes\":%lld", w.more_bytes);
	}
	free(s.g);
}

void kd_json_struct_data(FILE *out, const void *data, size_t len)
{
	fputs(",\"data\":", out);
	put_hex(out, data, len);
}
