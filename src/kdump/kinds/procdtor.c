// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * DTOR (KTR_PROCDTOR): a process's ABI forgotten.  Only another system's
 * files show it.
 */
#include "kind_file.h"

static int dec_procdtor(struct kd_decoder *d, struct kd_event *ev)
{
	struct kd_map_ent *e = kd_map__get(&d->abi, ev->h->ktr_pid);

	if (d->fmt.sys == KD_SYS_KTRACEB) /* kept, not shown */
		ev->kind = KD_NONE;
	if (e)
		e->v1 = 0;
	return ev->len == 0 ? 0 : kd_dec_invalid(ev);
}

static void body_empty(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
}

const struct kd_kind_def kd_kind_procdtor = {
	.kind = KD_PROCDTOR,
	.tag = "DTOR",
	.type = KTR_PROCDTOR,
	.decode = dec_procdtor,
	.text = body_empty,
	.json_text = true,
	.count = kd_summary__not_counted,
	.timeline = kd_timeline__not_drawn,
};
