// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * RET (KTR_SYSRET): a system call's return, its value or error, and its time since its CALL.
 */
#include "kind_file.h"
#include "kdump_abi.h"
#include "kdump_fmt.h"

static int dec_ret(struct kd_decoder *d, struct kd_event *ev)
{
	struct kd_thread *t = kd_threads__get(&d->threads, ev->h->ktr_tid);
	struct ktr_sysret sr;

	if (!t)
		return -ENOMEM;
	ev->thread = t;
	if (ev->len != sizeof(sr))
		return kd_dec_invalid(ev);
	memcpy(&sr, ev->data, sizeof(sr));
	ev->sv_flags = kd_decoder__record_sv(d, ev->h);
	ev->ret.raw_code = ev->ret.code = sr.ktr_code;
	/* rt_sigreturn restores orig_ax = -1: the return is the thread's last call's */
	if (sr.ktr_code < 0 && t->has_call) {
		ev->ret.code = (__s16)t->last_call;
		ev->sv_flags = t->last_sv;
	} else if (kd_abi_exec_ret_of_call(ev, &sr, t)) {
		ev->ret.code = (__s16)t->last_call;
		ev->sv_flags = t->last_sv;
	}
	ev->ret.error = sr.ktr_error;
	ev->ret.retval = sr.ktr_retval;
	/* the exec's RET carries the id its thread called with (docs/FORMAT.md) */
	if (sr.ktr_error == 0 && sr.ktr_retval == 0 && ev->h->ktr_tid != ev->h->ktr_pid &&
	    d->fmt.sys == KD_SYS_KTRACEB && kd_abi_is_exec(ev->sv_flags, ev->ret.code))
		ev->ret.new_tid = ev->h->ktr_pid;
	return 0;
}

static void body_ret(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	kd_put_scname(out, ev->sv_flags, ev->ret.code, o->flags & KD_SYSNR);
	fputc(' ', out);
	ktr_print_sysret(out, ev->sv_flags, ev->ret.code, ev->ret.error, ev->ret.retval, o->decode);
	if ((o->flags & KD_FDS) && ev->ret.fd_new)
		kd_put_fd(out, ev, (int)ev->ret.retval, o);
	if (ev->ret.new_tid)
		fprintf(out, " <pid changed to %d>", ev->ret.new_tid);
	if ((o->flags & KD_DURATION) && ev->ret.has_dur)
		kd_put_duration(out, ev->ret.dur_ns);
}

static int m_ret(struct kd_json_out *j, const struct kd_event *ev)
{
	kd_json_ret(j->out, ev, j->o);
	return 0;
}

/* -Y: the call's time and error */
static int count_ret(struct kd_summary *s, const struct kd_event *ev)
{
	return ev->valid ? kd_summary__ret(s, ev) : kd_summary__invalid(s);
}

/* -P: the syscall's slice ends */
static int draw_ret(struct kd_timeline *c, struct kd_tl_thread *t, const struct kd_event *ev,
		    __s64 ns)
{
	const struct kdump_opts *o = kd_timeline__opts(c);
	char name[KD_TL_NAME_MAX];

	kd_fmt_scname(name, sizeof(name), ev->sv_flags, ev->ret.code, o->flags & KD_SYSNR);
	kd_timeline__end_slice(c, t, true, name, kd_kind_tag(KD_RET), ns);
	kd_json_ret(kd_timeline__out(c), ev, o);
	kd_timeline__done(c);
	return 0;
}

const struct kd_kind_def kd_kind_ret = {
	.kind = KD_RET,
	.tag = "RET",
	.type = KTR_SYSRET,
	.decode = dec_ret,
	.text = body_ret,
	.json = m_ret,
	.count = count_ret,
	.timeline = draw_ret,
};
