// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * MAPPING (KTR_MAPPING): where a process mapped an object (-k), kept to name
 * its stacks' frames; never shown.
 */
#include "kind_file.h"
#include "kdump_decode_stack.h"

static int dec_mapping(struct kd_decoder *d, struct kd_event *ev)
{
	return kd_decoder__stacks(d) ? kd_stacks__mapping(d->stacks, ev) : -ENOMEM;
}

const struct kd_kind_def kd_kind_mapping = {
	.kind = KD_MAPPING,
	.tag = "MAP",
	.type = KTR_MAPPING,
	.hidden = true,
	.decode = dec_mapping,
};
