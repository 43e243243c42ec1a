// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * CALL (KTR_SYSCALL): a system call's number and arguments, at its entry.
 */
#include "kind_file.h"
#include "kdump_fmt.h"

static int dec_call(struct kd_decoder *d, struct kd_event *ev)
{
	struct kd_thread *t = kd_threads__get(&d->threads, ev->h->ktr_tid);
	struct ktr_syscall sc;

	if (!t)
		return -ENOMEM;
	ev->thread = t;
	ev->sv_flags = kd_decoder__record_sv(d, ev->h);
	if (ev->len < sizeof(sc))
		return kd_dec_invalid(ev);
	memcpy(&sc, ev->data, sizeof(sc));
	/* the thread's last CALL names a sigreturn's RET, valid or not */
	t->has_call = true;
	t->last_call = sc.ktr_code;
	t->last_sv = ev->sv_flags;
	if (sc.ktr_narg < 0 || sc.ktr_narg > KD_SYSCALL_MAXARGS ||
	    ev->len != sizeof(sc) + sizeof(__u64) * sc.ktr_narg)
		return kd_dec_invalid(ev);
	ev->call.code = sc.ktr_code;
	ev->call.narg = sc.ktr_narg;
	memcpy(ev->call.args, ev->data + sizeof(sc), sizeof(__u64) * sc.ktr_narg);
	return 0;
}

static void body_call(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	kd_put_scname(out, ev->sv_flags, ev->call.code, o->flags & KD_SYSNR);
	if ((o->flags & KD_FDS) && ev->call.fdmask) {
		kd_body_call_fds(out, ev, o);
		return;
	}
	ktr_print_syscall_args(out, ev->sv_flags, ev->call.code, ev->call.narg, ev->call.args,
			       o->decode);
}

static int m_call(struct kd_json_out *j, const struct kd_event *ev)
{
	kd_json_call(j->out, ev, j->o, false);
	return 0;
}

/* -Y: a call is counted at its CALL (exit_group never returns) */
static int count_call(struct kd_summary *s, const struct kd_event *ev)
{
	return ev->valid ? kd_summary__call(s, ev) : kd_summary__invalid(s);
}

/* -P: a syscall's slice begins; one still open on the thread (its RET lost, exit_group) ends */
static int draw_call(struct kd_timeline *c, struct kd_tl_thread *t, const struct kd_event *ev,
		     __s64 ns)
{
	const struct kdump_opts *o = kd_timeline__opts(c);
	char name[KD_TL_NAME_MAX];

	kd_timeline__end_syscall(c, t, ns);
	kd_fmt_scname(name, sizeof(name), ev->sv_flags, ev->call.code, o->flags & KD_SYSNR);
	kd_timeline__start_slice(c, t, true, name, kd_kind_tag(KD_CALL), ns);
	kd_json_call(kd_timeline__out(c), ev, o, true);
	kd_timeline__done(c);
	return 0;
}

const struct kd_kind_def kd_kind_call = {
	.kind = KD_CALL,
	.tag = "CALL",
	.type = KTR_SYSCALL,
	.decode = dec_call,
	.text = body_call,
	.json = m_call,
	.count = count_call,
	.timeline = draw_call,
};
