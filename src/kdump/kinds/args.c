// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * ARGS (KTR_ARGS): an exec's argv, NUL-separated strings; ENVS (envs.c) has
 * its layout and shows by these functions.
 */
#include "kind_file.h"
#include "kdump_fmt.h"

/* ARGS, ENVS: NUL-separated strings, the last NUL optional. */
void kd_args_text(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	const unsigned char *d = ev->data, *end = d + ev->len, *nul;

	while (d < end) {
		nul = memchr(d, '\0', end - d);
		if (!nul)
			nul = end;
		kd_putquoted(out, d, nul - d);
		d = nul + 1;
		if (d < end)
			fputs(", ", out);
	}
}

/* ARGS, ENVS: NUL-separated strings, the last NUL optional. */
int kd_args_json(struct kd_json_out *j, const struct kd_event *ev)
{
	const unsigned char *d = ev->data, *end = d + ev->len, *nul;
	FILE *out = j->out;

	fputs(",\"strings\":[", out);
	for (int i = 0; d < end; i++) {
		nul = memchr(d, '\0', end - d);
		if (!nul)
			nul = end;
		fputs(i ? "," : "", out);
		kd_json_str(out, d, nul - d);
		d = nul + 1;
	}
	fputc(']', out);
	return 0;
}

const struct kd_kind_def kd_kind_args = {
	.kind = KD_ARGS,
	.tag = "ARGS",
	.type = KTR_ARGS,
	.text = kd_args_text,
	.json = kd_args_json,
	.count = kd_summary__not_counted,
	.timeline = kd_timeline__not_drawn,
};
