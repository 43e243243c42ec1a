// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * PLDG: OpenBSD's pledge violation (kdump_bsd.h KD_T_PLEDGE).
 */
#include "kind_file.h"

static int dec_pledge(struct kd_decoder *d, struct kd_event *ev)
{
	if (ev->len != 16) /* int error, syscall; uint64_t code */
		return kd_dec_invalid(ev);
	memcpy(&ev->pledge.error, ev->data, 4);
	memcpy(&ev->pledge.call, ev->data + 4, 4);
	memcpy(&ev->pledge.code, ev->data + 8, 8);
	return 0;
}

static void body_pledge(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	const char *name = ktr_syscall_name(ev->sv_flags, ev->pledge.call);

	fprintf(out, "%s, errno %d %s, promise %#llx", name ? name : "?", ev->pledge.error,
		ktr_bsd_errno_name(ev->sv_flags, ev->pledge.error) ?: "",
		(unsigned long long)ev->pledge.code);
}

const struct kd_kind_def kd_kind_pledge = {
	.kind = KD_PLEDGE,
	.tag = "PLDG",
	.decode = dec_pledge,
	.text = body_pledge,
	.json_text = true,
	.count = kd_summary__not_counted,
	.timeline = kd_timeline__not_drawn,
};
