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

/* -Y: the counts are incomplete */
static int count_lost(struct kd_summary *s, const struct kd_event *ev)
{
	if (!ev->valid)
		return kd_summary__invalid(s);
	kd_summary__lost(s, ev->lost.lost);
	return 0;
}

/* -P: a global instant */
static int draw_lost(struct kd_timeline *c, struct kd_tl_thread *t, const struct kd_event *ev,
		     __s64 ns)
{
	kd_timeline__instant(c, t, "lost", kd_kind_tag(KD_LOST), kd_kind_tag(KD_LOST), ns);
	kd_json_lost(kd_timeline__out(c), ev);
	kd_timeline__done(c);
	return 0;
}

const struct kd_kind_def kd_kind_lost = {
	.kind = KD_LOST,
	.tag = "LOST",
	.type = KTR_LOST,
	.decode = kd_dec_lost,
	.text = body_lost,
	.json = m_lost,
	.count = count_lost,
	.timeline = draw_lost,
};
