// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * END (KTR_END): why the trace ended in this file, what it wrote and lost.
 */
#include "kind_file.h"
#include "kdump_fmt.h"

int kd_dec_end(struct kd_decoder *d, struct kd_event *ev)
{
	if (ev->len != sizeof(ev->end))
		return kd_dec_invalid(ev);
	memcpy(&ev->end, ev->data, sizeof(ev->end));
	return 0;
}

/* The trace's end in this file: why, then what it wrote and lost. */
static void body_end(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	const struct ktr_end *e = &ev->end;
	const char *why = kd_fmt_end_why(e->ke_why, false);

	fputs("trace ended: ", out);
	if (why)
		fputs(why, out);
	else
		fprintf(out, "reason %u", e->ke_why);
	if (e->ke_why == KTR_END_WRITE_ERROR) {
		const char *name = ktr_errno_name(e->ke_errno);

		fprintf(out, ": %s", e->ke_errno > 0 ? strerror(e->ke_errno) : "error");
		if (name)
			fprintf(out, " (%s)", name);
	}
	if (e->ke_why == KTR_END_CLEARED && e->ke_pid)
		fprintf(out, " by pid %d (uid %u)", e->ke_pid, e->ke_uid);
	if (e->ke_why == KTR_END_KILLED) {
		fputs(": its last records are missing", out);
		return;
	}
	/* the session's records with the END's own: what ktraceb said it wrote */
	fprintf(out, "; %llu records, %llu lost", (unsigned long long)e->ke_records + 1,
		(unsigned long long)e->ke_lost);
	if (e->ke_unwritten)
		fprintf(out, " (%llu the file did not take)", (unsigned long long)e->ke_unwritten);
}

static int m_end(struct kd_json_out *j, const struct kd_event *ev)
{
	kd_json_end(j->out, ev);
	return 0;
}

/*
 * -Y: records its file did not take after its last LOST are lost too, and
 * an end that cut the trace short is said.
 */
static int count_end(struct kd_summary *s, const struct kd_event *ev)
{
	const struct ktr_end *e = &ev->end;

	if (!ev->valid)
		return kd_summary__invalid(s);
	kd_summary__session_lost(s, e->ke_lost);
	if (e->ke_why == KTR_END_WRITE_ERROR || e->ke_why == KTR_END_REMOVED ||
	    e->ke_why == KTR_END_RING || e->ke_why == KTR_END_KILLED)
		kd_summary__cut_short(s, e->ke_why);
	return 0;
}

/* -P: the trace's end in this file: a global instant, as a loss */
static int draw_end(struct kd_timeline *c, struct kd_tl_thread *t, const struct kd_event *ev,
		    __s64 ns)
{
	kd_timeline__instant(c, t, "end", kd_kind_tag(KD_END), kd_kind_tag(KD_END), ns);
	kd_json_end(kd_timeline__out(c), ev);
	kd_timeline__done(c);
	return 0;
}

const struct kd_kind_def kd_kind_end = {
	.kind = KD_END,
	.tag = "END",
	.type = KTR_END,
	.decode = kd_dec_end,
	.text = body_end,
	.json = m_end,
	.count = count_end,
	.timeline = draw_end,
};
