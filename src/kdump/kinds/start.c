// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * STRT: OpenBSD's KTR_START, the start of a ktrace(2); empty (kdump_bsd.h KD_T_START).
 */
#include "kind_file.h"

static int dec_empty(struct kd_decoder *d, struct kd_event *ev)
{
	return ev->len == 0 ? 0 : kd_dec_invalid(ev);
}

static void body_empty(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
}

const struct kd_kind_def kd_kind_start = {
	.kind = KD_START,
	.tag = "STRT",
	.decode = dec_empty,
	.text = body_empty,
	.json_text = true,
	.count = kd_summary__not_counted,
	.timeline = kd_timeline__not_drawn,
};
