// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * INFO (KTR_FILTER): the syscall selection (-e trace=) or the USDT probes the trace
 * was made with (its text kdump_body_stack.c).
 */
#include "kind_file.h"

/* A string that ends, NUL-terminated, at the payload's end: its length, or -1. */
static long tail_string(const struct kd_event *ev, size_t off)
{
	const char *p = (const char *)ev->data + off;
	size_t n;

	if (ev->len <= off)
		return -1;
	n = strnlen(p, ev->len - off);
	return n + 1 == ev->len - off ? (long)n : -1;
}

static int dec_filter(struct kd_decoder *d, struct kd_event *ev)
{
	struct ktr_filter f;

	if (ev->len < sizeof(f) || tail_string(ev, sizeof(f)) < 0)
		return kd_dec_invalid(ev);
	memcpy(&f, ev->data, sizeof(f));
	ev->filter.status = f.kf_status;
	ev->filter.flags = f.kf_flags;
	ev->filter.text = (const char *)ev->data + sizeof(f);
	return 0;
}

/* INFO of a selection: of what, what it was, and whether CALLs wait for their return */
static int m_filter(struct kd_json_out *j, const struct kd_event *ev)
{
	FILE *out = j->out;

	fprintf(out, ",\"of\":\"%s\"",
		(ev->filter.flags & KTR_FILTER_USDT_HOT) ? "usdt_high_rate" :
		(ev->filter.flags & KTR_FILTER_USDT)	 ? "usdt" :
							   "syscalls");
	fputs(",\"selection\":", out);
	kd_json_cstr(out, ev->filter.text);
	fprintf(out, ",\"calls_at_return\":%s",
		(ev->filter.flags & KTR_FILTER_CALLS_AT_RETURN) ? "true" : "false");
	return 0;
}

const struct kd_kind_def kd_kind_filter = {
	.kind = KD_FILTER,
	.tag = "INFO",
	.type = KTR_FILTER,
	.decode = dec_filter,
	.text = kd_body_filter,
	.json = m_filter,
	.count = kd_summary__not_counted,
	.timeline = kd_timeline__not_drawn,
};
