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

/*
 * STRU: its name and length, then its members from the decoder's fields
 * (kdump_jsonfield.c); another system's structure: its bytes in hex.
 */
static int m_struct(struct kd_json_out *j, const struct kd_event *ev)
{
	FILE *out = j->out;

	fputs(",\"struct\":", out);
	kd_json_str(out, ev->strct.name, ev->strct.nlen);
	fprintf(out, ",\"len\":%zu", ev->strct.len);
	if (ev->bsd)
		kd_json_struct_data(out, ev->strct.data, ev->strct.len);
	else
		kd_json_struct(out, ev->strct.name, ev->strct.data, ev->strct.len, j->o->decode);
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
