// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * CTOR (KTR_PROCCTOR): a process's ABI from now on.  Only another system's
 * files show it; in ktraceb's it is kept and not shown.
 */
#include "kind_file.h"

/*
 * PROCCTOR, PROCDTOR: the ABI of the process from now on.  Only another
 * system's files show them (ktraceb's kdump never has).
 */
static int dec_procctor(struct kd_decoder *d, struct kd_event *ev)
{
	struct ktr_proc_ctor pc;
	struct kd_map_ent *e;

	if (d->fmt.sys == KD_SYS_KTRACEB) /* kept, not shown */
		ev->kind = KD_NONE;
	if (ev->len != sizeof(pc)) {
		d->ninvalid++;
		return kd_dec_invalid(ev);
	}
	memcpy(&pc, ev->data, sizeof(pc));
	e = kd_map__add(&d->abi, ev->h->ktr_pid);
	if (!e)
		return -ENOMEM;
	e->v1 = ev->procctor = pc.sv_flags;
	return 0;
}

static void body_procctor(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	fprintf(out, "sv_flags %#x", ev->procctor);
}

const struct kd_kind_def kd_kind_procctor = {
	.kind = KD_PROCCTOR,
	.tag = "CTOR",
	.type = KTR_PROCCTOR,
	.decode = dec_procctor,
	.text = body_procctor,
	.json_text = true,
	.count = kd_summary__not_counted,
	.timeline = kd_timeline__not_drawn,
};
