// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * NAMI (KTR_NAMEI): a path a system call was given.
 */
#include "kind_file.h"
#include "kdump_fmt.h"

/* NAMI: any bytes; the call it is an argument of, the thread's last. */
static int dec_namei(struct kd_decoder *d, struct kd_event *ev)
{
	const struct kd_thread *t = kd_threads__find(&d->threads, ev->h->ktr_tid);

	if (t && t->has_call) {
		ev->namei.has_call = true;
		ev->namei.call = (__s16)t->last_call;
		ev->sv_flags = t->last_sv;
	}
	ev->namei.cut = ev->len >= KTR_PATH_MAX && d->fmt.sys == KD_SYS_KTRACEB;
	return 0;
}

/* A path cut at KTR_PATH_MAX bytes ends in "..." after its quote, as strace shows it. */
static void body_namei(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	kd_putquoted(out, ev->data, ev->len);
	if (ev->namei.cut)
		fputs("...", out);
}

/* NAMI: the path, and the syscall it is an argument of (its thread's CALL). */
static int m_namei(struct kd_json_out *j, const struct kd_event *ev)
{
	const char *name = ev->namei.has_call ? ktr_syscall_name(ev->sv_flags, ev->namei.call) :
						NULL;

	fputs(",\"path\":", j->out);
	kd_json_str(j->out, ev->data, ev->len);
	if (ev->namei.cut)
		fputs(",\"cut\":true", j->out);
	if (name) {
		fputs(",\"syscall\":", j->out);
		kd_json_cstr(j->out, name);
	}
	return 0;
}

/* -P: a path, kept for its syscall's end ("path", "path2"); no event of its own */
static int draw_namei(struct kd_timeline *c, struct kd_tl_thread *t, const struct kd_event *ev,
		      __s64 ns)
{
	return kd_timeline__path(t, ev->data, ev->len);
}

const struct kd_kind_def kd_kind_namei = {
	.kind = KD_NAMEI,
	.tag = "NAMI",
	.type = KTR_NAMEI,
	.decode = dec_namei,
	.text = body_namei,
	.json = m_namei,
	.count = kd_summary__not_counted,
	.timeline = draw_namei,
};
