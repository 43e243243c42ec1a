// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * OBJ (KTR_OBJECT): an object file's build id and path (-k).
 */
#include "kind_file.h"
#include "kdump_decode_stack.h"

static int dec_object(struct kd_decoder *d, struct kd_event *ev)
{
	return kd_decoder__stacks(d) ? kd_stacks__object(d->stacks, ev) : -ENOMEM;
}

static int m_object(struct kd_json_out *j, const struct kd_event *ev)
{
	FILE *out = j->out;

	fputs(",\"build_id\":", out);
	kd_json_hex_id(out, ev->object.build_id, ev->object.id_len);
	fputs(",\"path\":", out);
	kd_json_cstr(out, ev->object.path);
	return 0;
}

const struct kd_kind_def kd_kind_object = {
	.kind = KD_OBJECT,
	.tag = "OBJ",
	.type = KTR_OBJECT,
	.decode = dec_object,
	.text = kd_body_object,
	.json = m_object,
	.count = kd_summary__not_counted,
	.timeline = kd_timeline__not_drawn,
};
