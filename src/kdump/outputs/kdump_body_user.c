// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * USER's text (kdump_body.h): a utrace(2) record's bytes as BSD prints
 * them, and the records ktraceb makes from USDT probes (ktr.h, "KTRU"):
 * probes as provider:name(arguments), spans as an indented enter/exit tree
 * with durations, drawn at the depth the decoder found.  An exit whose
 * enter the trace does not have (tracing began inside the span) prints "?"
 * for its duration.
 */
#include <stdbool.h>
#include <string.h>

#include "decode.h"
#include "kdump_body.h"
#include "kdump_data.h"
#include "kdump_fmt.h"

#define DEPTH_SHOWN_MAX 63 /* the design's depth range: deeper is drawn at 63 */

#define UTRACE_INLINE_MAX 32 /* longer records show their bytes as GIO data does */

static void print_escaped(FILE *out, const char *s)
{
	ktr_put_escaped(out, s, strlen(s), KTR_ESC_CR);
}

/*
 * BSD: the length, then the bytes.  A short record on its line (quoted if
 * text, else FreeBSD's " %02x" each, -d: " %d"); a longer one below it as
 * GIO data is shown (text lines or a hexdump), up to -m bytes.
 */
static void print_utrace(FILE *out, const unsigned char *d, size_t len, const struct kdump_opts *o)
{
	bool text = len > 0;

	fprintf(out, "%zu", len);
	if (len == 0)
		return;
	if (len > UTRACE_INLINE_MAX) {
		if (o->maxdata > 0 && len > (size_t)o->maxdata)
			len = o->maxdata;
		fputc('\n', out);
		kd_dump_data(out, d, len);
		return;
	}
	for (size_t i = 0; i < len && text; i++)
		text = (d[i] >= 0x20 && d[i] < 0x7f) || d[i] == '\n' || d[i] == '\t';
	if (text) {
		fputc(' ', out);
		kd_putquoted(out, d, len);
		return;
	}
	fputc(' ', out);
	for (size_t i = 0; i < len; i++)
		fprintf(out, (o->decode & KTR_DEC_DECIMAL) ? " %d" : " %02x", d[i]);
}

static void print_arg(FILE *out, __u64 v, const struct kdump_opts *o)
{
	__s64 s = (__s64)v;

	/* small numbers as numbers (-1, 42), addresses and flags in hex */
	if ((o->decode & KTR_DEC_DECIMAL) || (s > -65536 && s < 65536))
		fprintf(out, "%lld", (long long)s);
	else
		fprintf(out, "%#llx", (unsigned long long)v);
}

static void print_probe_body(FILE *out, const struct kd_urec *u, const struct kdump_opts *o)
{
	print_escaped(out, u->who);
	fputc(':', out);
	print_escaped(out, u->name);
	fputc('(', out);
	for (int i = 0; i < u->h.ku_nargs; i++) {
		if (i)
			fputs(", ", out);
		if (u->argstr[i])
			kd_putquoted(out, u->argstr[i], strlen(u->argstr[i]));
		else
			print_arg(out, u->args[i], o);
	}
	fputc(')', out);
}

static void print_marker(FILE *out, char mark, int depth)
{
	if (depth > DEPTH_SHOWN_MAX)
		depth = DEPTH_SHOWN_MAX;
	fprintf(out, "%c%*s", mark, 2 + 2 * depth, "");
}

/* A span's enter or exit, drawn at the depth the decoder found. */
static void print_span(FILE *out, const struct kd_event *ev)
{
	const struct kd_urec *u = &ev->user;
	const struct kd_span_step *st = &ev->span;
	char dur[32];

	print_marker(out, st->is_exit ? '<' : '>', st->depth);
	print_escaped(out, u->who);
	fputc(' ', out);
	print_escaped(out, u->name);
	if (st->is_exit) {
		kd_fmt_ns(dur, sizeof(dur), st->dur);
		fprintf(out, " %s %s", st->found ? dur : "?",
			(u->h.ku_flags & KTR_UREC_ERR) ? "err" : "ok");
	}
	if (u->kv[0]) {
		fputc(' ', out);
		print_escaped(out, u->kv);
	}
	if (st->is_exit && !st->found)
		fputs(" (entered before the trace)", out);
}

static void print_probe(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	const struct kd_span_step *st = &ev->span;
	char dur[32];

	if (!st->spanlike) {
		print_probe_body(out, &ev->user, o);
		return;
	}
	print_marker(out, st->is_exit ? '<' : '>', st->depth);
	print_probe_body(out, &ev->user, o);
	if (st->is_exit) {
		kd_fmt_ns(dur, sizeof(dur), st->dur);
		fprintf(out, " %s", st->found ? dur : "? (entered before the trace)");
	}
}

void kd_body_user(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	if ((o->decode & KTR_DEC_RAW) || !ev->ktru)
		print_utrace(out, ev->data, ev->len, o);
	else if (ev->user.h.ku_kind == KTR_UREC_PROBE)
		print_probe(out, ev, o);
	else
		print_span(out, ev);
}
