// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The text of each kind's body (kdump_body.h): its kind's text function
 * (kdump_kind.h); and what several kinds' texts share.  The decoder has
 * checked every payload, so none can fail.
 */
#include <string.h>

#include "kdump_body.h"
#include "kdump_data.h"
#include "kdump_fmt.h"

void kd_body_data(FILE *out, const unsigned char *p, size_t n, const struct kdump_opts *o)
{
	if ((o->flags & KD_NOGIO) || n == 0)
		return;
	if (o->maxdata > 0 && n > (size_t)o->maxdata)
		n = o->maxdata;
	fputc('\n', out);
	kd_dump_data(out, p, n);
}

void kd_put_signal(FILE *out, const char *name, int signo)
{
	if (name)
		fputs(name, out);
	else
		fprintf(out, "SIG%d", signo);
}

void kd_text_string(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	kd_putquoted(out, ev->data, strnlen((const char *)ev->data, ev->len));
}

void kd_text_bytes(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	fprintf(out, "%zu byte%s", ev->len, ev->len == 1 ? "" : "s");
	kd_body_data(out, ev->data, ev->len, o);
}

void kd_body(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	const struct kd_kind_def *k = ev->kind < KD_NKINDS ? kd_kinds[ev->kind] : NULL;

	if (k && k->text)
		k->text(out, ev, o);
}
