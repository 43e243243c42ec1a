// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * STRU (KTR_STRUCT): a structure a system call read or wrote, by name.
 */
#include "kind_file.h"
#include "kdump_data.h"

/* STRUCT: a printable name, its NUL, then the structure's bytes. */
static int dec_struct(struct kd_decoder *d, struct kd_event *ev)
{
	const unsigned char *nul = memchr(ev->data, '\0', ev->len);
	size_t nl;

	if (!nul || nul == ev->data)
		return kd_dec_invalid(ev);
	nl = nul - ev->data;
	for (size_t i = 0; i < nl; i++)
		if (ev->data[i] < 0x20 || ev->data[i] > 0x7e)
			return kd_dec_invalid(ev);
	ev->strct.name = (const char *)ev->data;
	ev->strct.nlen = nl;
	ev->strct.data = nul + 1;
	ev->strct.len = ev->len - nl - 1;
	return 0;
}

static void body_struct(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	size_t len = ev->strct.len;

	if (ev->bsd) {
		/* another system's structure: its name and bytes, not Linux's fields */
		fprintf(out, "struct %.*s, %zu bytes", (int)ev->strct.nlen, ev->strct.name, len);
		if (!(o->flags & KD_NOGIO) && len > 0) {
			fputc('\n', out);
			kd_dump_data(out, ev->strct.data, len);
		}
		return;
	}
	if ((o->flags & KD_FDS) && kd_body_fdpair(out, ev, o))
		return;
	ktr_print_struct(out, ev->strct.name, ev->strct.data, len, o->decode);
}

/* STRU: its name, length and text, and its members as the decoder gives them. */
static int m_struct(struct kd_json_out *j, const struct kd_event *ev)
{
	FILE *out = j->out, *cap, *fcap = NULL;
	const char *text, *fields = NULL;
	size_t tlen, flen = 0;
	bool linux_fields = !ev->bsd && !(j->o->decode & KTR_DEC_RAW);

	fputs(",\"struct\":", out);
	kd_json_str(out, ev->strct.name, ev->strct.nlen);
	fprintf(out, ",\"len\":%zu,\"text\":", ev->strct.len);
	cap = kd_capture__start(j->cap);
	if (cap && linux_fields)
		fcap = kd_capture__start(j->fcap);
	if (fcap) { /* the text and the members from one decoding */
		if (kd_json_struct_text(cap, fcap, ev->strct.name, ev->strct.data, ev->strct.len,
					j->o->decode))
			fields = kd_capture__text(j->fcap, &flen);
	} else if (cap) {
		kd_body(cap, ev, j->o);
	}
	text = cap ? kd_capture__text(j->cap, &tlen) : NULL;
	if (!text) {
		fputs("null", out);
		return 0;
	}
	kd_json_str(out, text, tlen);
	if (fields)
		fwrite(fields, 1, flen, out);
	return 0;
}

const struct kd_kind_def kd_kind_struct = {
	.kind = KD_STRUCT,
	.tag = "STRU",
	.type = KTR_STRUCT,
	.decode = dec_struct,
	.text = body_struct,
	.json = m_struct,
	.count = kd_summary__not_counted,
	.timeline = kd_timeline__not_drawn,
};
