// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * TRACE (KTR_TRACEPOINT): a kernel event (-e), its fields as its format reads them.
 */
#include "kind_file.h"
#include "kdump_tp.h"

struct tp_out {
	FILE *out;
	unsigned int n;
};

/* TRACE: -Y counts a record by its id even when the entry's length is wrong. */
static int dec_tracepoint(struct kd_decoder *d, struct kd_event *ev)
{
	struct ktr_tracepoint t;

	if (ev->len < sizeof(t))
		return kd_dec_invalid(ev);
	memcpy(&t, ev->data, sizeof(t));
	ev->tp.has_id = true;
	ev->tp.id = t.kt_id;
	ev->tp.fmt = kd_tp__find(d->tp, t.kt_id);
	if (t.kt_len != ev->len - sizeof(t) || t.kt_len > KTR_TP_MAX_BYTES)
		return kd_dec_invalid(ev);
	ev->tp.raw = ev->data + sizeof(t);
	ev->tp.len = t.kt_len;
	return 0;
}

static void body_tracepoint(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	kd_tp__print(out, ev->tp.fmt, ev->tp.id, ev->tp.raw, ev->tp.len);
}

/* one field of a TRACE: "name":value, a number, a string, bytes in hex, null if cut */
static void tp_member(void *ctx, const struct kd_tpval *v)
{
	struct tp_out *t = ctx;
	FILE *out = t->out;

	fputs(t->n++ ? "," : "", out);
	kd_json_cstr(out, v->name);
	fputc(':', out);
	switch (v->kind) {
	case KD_TPV_OUTSIDE:
		fputs("null", out);
		break;
	case KD_TPV_STRING:
		kd_json_str(out, v->p, v->len);
		break;
	case KD_TPV_BYTES:
		fputc('"', out);
		kd_tp__put_hex(out, v->p, v->len);
		fputc('"', out);
		break;
	case KD_TPV_POINTER:
		fprintf(out, "\"0x%llx\"", (unsigned long long)v->u);
		break;
	case KD_TPV_SIGNED:
		fprintf(out, "%lld", (long long)v->s);
		break;
	case KD_TPV_UNSIGNED:
		fprintf(out, "%llu", (unsigned long long)v->u);
		break;
	}
}

/*
 * TRACE: the event's id, its name and fields as its format reads them; an
 * event the file has no format for: its bytes, all of them, in hex.
 */
static int m_tracepoint(struct kd_json_out *j, const struct kd_event *ev)
{
	struct tp_out t = { .out = j->out };

	fprintf(t.out, ",\"event_id\":%u,\"event\":", ev->tp.id);
	if (ev->tp.fmt) {
		kd_json_cstr(t.out, ev->tp.fmt->f.tf_name);
		fputs(",\"fields\":{", t.out);
		kd_tp__fields(ev->tp.fmt, ev->tp.raw, ev->tp.len, tp_member, &t);
		fputc('}', t.out);
	} else {
		fputs("null,\"data\":\"", t.out);
		kd_tp__put_hex(t.out, ev->tp.raw, ev->tp.len);
		fputc('"', t.out);
	}
	return 0;
}

const struct kd_kind_def kd_kind_tracepoint = {
	.kind = KD_TRACEPOINT,
	.tag = "TRACE",
	.type = KTR_TRACEPOINT,
	.decode = dec_tracepoint,
	.text = body_tracepoint,
	.json = m_tracepoint,
	.count = kd_summary__tp,
	.timeline = kd_timeline__not_drawn,
};
