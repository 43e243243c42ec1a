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

const struct kd_kind_def kd_kind_user = {
	.kind = KD_USER,
	.tag = "USER",
	.type = KTR_USER,
	.decode = dec_user,
	.text = kd_body_user,
	.json = m_user,
};
