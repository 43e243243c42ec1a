// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * PFLT: FreeBSD's page fault, address and type (kdump_bsd.h KD_T_FAULT).
 */
#include "kind_file.h"

static int dec_fault(struct kd_decoder *d, struct kd_event *ev)
{
	if (ev->len != 12) /* as the reader makes it: u64 vaddr, s32 type */
		return kd_dec_invalid(ev);
	memcpy(&ev->fault.va, ev->data, 8);
	memcpy(&ev->fault.type, ev->data + 8, 4);
	return 0;
}

static void body_fault(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	fprintf(out, "%#llx type %d", (unsigned long long)ev->fault.va, ev->fault.type);
}

const struct kd_kind_def kd_kind_fault = {
	.kind = KD_FAULT,
	.tag = "PFLT",
	.decode = dec_fault,
	.text = body_fault,
	.json_text = true,
	.count = kd_summary__not_counted,
	.timeline = kd_timeline__not_drawn,
};
