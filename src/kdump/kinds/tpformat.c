// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * TPFORMAT (KTR_TPFORMAT): a kernel event's format, kept for its TRACE records; never shown.
 */
#include "kind_file.h"
#include "kdump_tp.h"

/* A format that does not fit is counted; its events print without it. */
static int dec_tpformat(struct kd_decoder *d, struct kd_event *ev)
{
	int err = kd_tp__add(&d->tp, ev->data, ev->len);

	if (err == -EINVAL)
		d->ninvalid++;
	return err == -ENOMEM ? err : 0;
}

const struct kd_kind_def kd_kind_tpformat = {
	.kind = KD_TPFORMAT,
	.tag = "TPFMT",
	.type = KTR_TPFORMAT,
	.hidden = true,
	.decode = dec_tpformat,
};
