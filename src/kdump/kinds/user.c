// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * USER (KTR_USER): utrace(2) bytes, or a user record: a probe, a span's enter or exit
 * (its text kdump_body_user.c, its JSON kdump_jsonout.c).
 */
#include "kind_file.h"

/* USER: a KTRU record, and what it does to its thread's open spans; or utrace bytes. */
static int dec_user(struct kd_decoder *d, struct kd_event *ev)
{
	struct kd_thread *t = kd_threads__get(&d->threads, ev->h->ktr_tid);

	if (!t)
		return -ENOMEM;
	ev->thread = t;
	memset(&ev->span, 0, sizeof(ev->span));
	if (kd_urec__parse(ev->data, ev->len, &ev->user) < 0)
		return 0;
	ev->ktru = true;
	return kd_threads__step(&d->threads, t, ev->h, ev->recno, &ev->user, &ev->span);
}

static int m_user(struct kd_json_out *j, const struct kd_event *ev)
{
	kd_json_user(j->out, ev, j->o);
	return 0;
}

/*
 * -P: a span's enter or exit (or an entry/exit probe's) begins or ends a
 * slice; another user record is an instant, named by its provider and probe.
 */
static int draw_user(struct kd_timeline *c, struct kd_tl_thread *t, const struct kd_event *ev,
		     __s64 ns)
{
	const struct kdump_opts *o = kd_timeline__opts(c);
	bool raw = o->decode & KTR_DEC_RAW;
	char name[KD_TL_NAME_MAX];

	if (!ev->ktru || !ev->span.spanlike || raw) {
		if (ev->ktru && !raw)
			snprintf(name, sizeof(name), "%s:%s", ev->user.who, ev->user.name);
		else
			snprintf(name, sizeof(name), "utrace");
		kd_timeline__instant(c, t, "user", name, kd_kind_tag(KD_USER), ns);
	} else {
		kd_json_span_name(ev, name, sizeof(name));
		if (ev->span.is_exit)
			kd_timeline__end_slice(c, t, false, name, kd_kind_tag(KD_USER), ns);
		else
			kd_timeline__start_slice(c, t, false, name, kd_kind_tag(KD_USER), ns);
	}
	kd_json_user(kd_timeline__out(c), ev, o);
	kd_timeline__done(c);
	return 0;
}

const struct kd_kind_def kd_kind_user = {
	.kind = KD_USER,
	.tag = "USER",
	.type = KTR_USER,
	.decode = dec_user,
	.text = kd_body_user,
	.json = m_user,
	.count = kd_summary__user,
	.timeline = draw_user,
};
