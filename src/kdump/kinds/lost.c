// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * LOST (KTR_LOST): records the ring buffer or a CPU's buffer lost.
 */
#include "kind_file.h"

int kd_dec_lost(struct kd_decoder *d, struct kd_event *ev)
{
	struct ktr_lost lo;

	if (ev->len != sizeof(lo))
		return kd_dec_invalid(ev);
	memcpy(&lo, ev->data, sizeof(lo));
	ev->lost.lost = lo.lost;
	ev->lost.total = lo.lost_total;
	return 0;
}

static void body_lost(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	if (ev->h->ktr_flags & KTRH_SYSWIDE) /* one CPU's buffer (ktraceb -S) */
		fprintf(out, "%llu records lost on CPU %d (%llu in all there)",
			(unsigned long long)ev->lost.lost, KTRH_CPUID_DECODE(ev->h->ktr_flags),
			(unsigned long long)ev->lost.total);
	else
		fprintf(out, "%llu records lost (%llu in all)", (unsigned long long)ev->lost.lost,
			(unsigned long long)ev->lost.total);
}

static int m_lost(struct kd_json_out *j, const struct kd_event *ev)
{
	kd_json_lost(j->out, ev);
	return 0;
}

const struct kd_kind_def kd_kind_lost = {
	.kind = KD_LOST,
	.tag = "LOST",
	.type = KTR_LOST,
	.decode = kd_dec_lost,
	.text = body_lost,
	.json = m_lost,
};
