// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * PRET: FreeBSD's page fault's end, its result (kdump_bsd.h KD_T_FAULTEND).
 */
#include "kind_file.h"

static int dec_faultend(struct kd_decoder *d, struct kd_event *ev)
{
	if (ev->len != 4)
		return kd_dec_invalid(ev);
	memcpy(&ev->faultend, ev->data, 4);
	return 0;
}

static void body_faultend(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	fprintf(out, "%d", ev->faultend);
}

const struct kd_kind_def kd_kind_faultend = {
	.kind = KD_FAULTEND,
	.tag = "PRET",
	.decode = dec_faultend,
	.text = body_faultend,
	.json_text = true,
	.count = kd_summary__not_counted,
	.timeline = kd_timeline__not_drawn,
};
