// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * EXIT (KTR_EXIT): a process's end, its wait status.
 */
#include "kind_file.h"

int kd_dec_exit(struct kd_decoder *d, struct kd_event *ev)
{
	struct ktr_exit ex;

	if (ev->len != sizeof(ex))
		return kd_dec_invalid(ev);
	memcpy(&ex, ev->data, sizeof(ex));
	ev->exit_status = ex.status;
	return 0;
}

static void body_exit(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	int status = ev->exit_status;

	if (WIFEXITED(status)) {
		fprintf(out, "exited %d", WEXITSTATUS(status));
	} else if (WIFSIGNALED(status)) {
		fputs("killed by ", out);
		kd_put_signal(out, ktr_signal_name(WTERMSIG(status)), WTERMSIG(status));
		if (WCOREDUMP(status))
			fputs(" (core dumped)", out);
	} else {
		fprintf(out, "status %#x", (unsigned int)status);
	}
}

static int m_exit(struct kd_json_out *j, const struct kd_event *ev)
{
	kd_json_exit(j->out, ev);
	return 0;
}

/* -P: the process has ended, and so have all its threads' slices; an instant */
static int draw_exit(struct kd_timeline *c, struct kd_tl_thread *t, const struct kd_event *ev,
		     __s64 ns)
{
	kd_timeline__end_process(c, ev->h->ktr_pid, ns);
	kd_timeline__instant(c, t, "process", kd_kind_tag(KD_EXIT), kd_kind_tag(KD_EXIT), ns);
	kd_json_exit(kd_timeline__out(c), ev);
	kd_timeline__done(c);
	return 0;
}

const struct kd_kind_def kd_kind_exit = {
	.kind = KD_EXIT,
	.tag = "EXIT",
	.type = KTR_EXIT,
	.decode = kd_dec_exit,
	.text = body_exit,
	.json = m_exit,
	.count = kd_summary__not_counted,
	.timeline = draw_exit,
};
