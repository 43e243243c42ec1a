// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * PSIG (KTR_PSIG): a signal delivered, its action and mask.
 */
#include "kind_file.h"

static int dec_psig(struct kd_decoder *d, struct kd_event *ev)
{
	if (ev->len != sizeof(ev->psig))
		return kd_dec_invalid(ev);
	memcpy(&ev->psig, ev->data, sizeof(ev->psig));
	return 0;
}

/* Linux: its signal and si_code names, a 64-bit mask; BSD kdump's ktrpsig(): a 32-bit one. */
static void body_psig(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	const struct ktr_psig *ps = &ev->psig;
	const char *code = ev->bsd ? NULL : ktr_sigcode_name(ps->signo, ps->code);

	kd_put_signal(out,
		   ev->bsd ? ktr_bsd_signal_name(ev->sv_flags, ps->signo) :
			     ktr_signal_name(ps->signo),
		   ps->signo);
	if (ps->action == 0)
		fputs(" SIG_DFL", out);
	else if (ps->action == 1)
		fputs(" SIG_IGN", out);
	else if (ev->bsd)
		fprintf(out, " caught handler=0x%llx mask=0x%x", (unsigned long long)ps->action,
			ps->mask[0]);
	else
		/* Linux sigset_t is 64 bits, in mask[0] (low) and mask[1] */
		fprintf(out, " caught handler=0x%llx mask=0x%llx", (unsigned long long)ps->action,
			(unsigned long long)ps->mask[1] << 32 | ps->mask[0]);
	if (code)
		fprintf(out, " code=%s", code);
	else
		fprintf(out, " code=%d", ps->code);
}

static int m_psig(struct kd_json_out *j, const struct kd_event *ev)
{
	kd_json_psig(j->out, ev);
	return 0;
}

/* -P: an instant */
static int draw_psig(struct kd_timeline *c, struct kd_tl_thread *t, const struct kd_event *ev,
		     __s64 ns)
{
	kd_timeline__instant(c, t, "signal", kd_kind_tag(KD_PSIG), kd_kind_tag(KD_PSIG), ns);
	kd_json_psig(kd_timeline__out(c), ev);
	kd_timeline__done(c);
	return 0;
}

const struct kd_kind_def kd_kind_psig = {
	.kind = KD_PSIG,
	.tag = "PSIG",
	.type = KTR_PSIG,
	.decode = dec_psig,
	.text = body_psig,
	.json = m_psig,
	.count = kd_summary__not_counted,
	.timeline = draw_psig,
};
