// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * MIB: NetBSD's sysctl MIB, ints (kdump_bsd.h KD_T_MIB).
 */
#include "kind_file.h"

static int dec_mib(struct kd_decoder *d, struct kd_event *ev)
{
	return ev->len % 4 == 0 ? 0 : kd_dec_invalid(ev);
}

static void body_mib(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	__s32 v;

	for (size_t i = 0; i < ev->len / 4; i++) {
		memcpy(&v, ev->data + 4 * i, 4);
		fprintf(out, "%s%d", i ? "." : "", v);
	}
}

const struct kd_kind_def kd_kind_mib = {
	.kind = KD_MIB,
	.tag = "MIB",
	.decode = dec_mib,
	.text = body_mib,
	.json_text = true,
	.count = kd_summary__not_counted,
	.timeline = kd_timeline__not_drawn,
};
