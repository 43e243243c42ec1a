// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * RING (KTR_FLIGHT): a recorder's dump (ktraceb -R), what it recovered and why.
 */
#include "kind_file.h"

/* A recorder's dump (ktraceb -R): what it recovered, and why it was written. */
int kd_dec_flight(struct kd_decoder *d, struct kd_event *ev)
{
	struct ktr_flight_info *fi = &ev->flight;

	if (ev->len < sizeof(*fi))
		return kd_dec_invalid(ev);
	memcpy(fi, ev->data, sizeof(*fi));
	if (fi->kf_part != KTR_FLIGHT_LAST_PER_CPU &&
	    (fi->kf_part != KTR_FLIGHT_RING || fi->kf_kept > fi->kf_produced))
		return kd_dec_invalid(ev);
	return 0;
}

/* A recorder's dump (ktraceb -R): what it recovered, and why it was written. */
static void body_flight(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	const struct ktr_flight_info *fi = &ev->flight;

	if (fi->kf_part == KTR_FLIGHT_LAST_PER_CPU) {
		fprintf(out, "last recorded per-CPU events: %llu", (unsigned long long)fi->kf_kept);
		return;
	}
	fprintf(out, "recovered %llu/%llu entries", (unsigned long long)fi->kf_kept,
		(unsigned long long)fi->kf_produced);
	if (fi->kf_out_of_order)
		fprintf(out, ", %llu out of order", (unsigned long long)fi->kf_out_of_order);
	if (fi->kf_compact)
		fputs(", compact", out);
	if (fi->kf_why == KTR_FLIGHT_CRASH && WIFSIGNALED(fi->kf_status)) {
		fprintf(out, ": pid %d killed by ", fi->kf_pid);
		kd_put_signal(out, ktr_signal_name(WTERMSIG(fi->kf_status)), WTERMSIG(fi->kf_status));
	} else if (fi->kf_why == KTR_FLIGHT_EXIT && WIFEXITED(fi->kf_status)) {
		fprintf(out, ": pid %d exited %d", fi->kf_pid, WEXITSTATUS(fi->kf_status));
	} else if (fi->kf_why == KTR_FLIGHT_DEMAND) {
		fputs(": on demand", out);
	}
}

/* RING: the part, the counts, why the ring was dumped and the process's end */
static int m_flight(struct kd_json_out *j, const struct kd_event *ev)
{
	static const char *const why[] = {
		[KTR_FLIGHT_CRASH] = "crash",
		[KTR_FLIGHT_EXIT] = "exit",
		[KTR_FLIGHT_DEMAND] = "demand",
	};
	const struct ktr_flight_info *fi = &ev->flight;
	FILE *out = j->out;

	if (fi->kf_part == KTR_FLIGHT_LAST_PER_CPU) {
		fprintf(out, ",\"part\":\"last_per_cpu\",\"kept\":%llu",
			(unsigned long long)fi->kf_kept);
		return 0;
	}
	fprintf(out, ",\"part\":\"ring\",\"kept\":%llu,\"produced\":%llu,\"out_of_order\":%llu",
		(unsigned long long)fi->kf_kept, (unsigned long long)fi->kf_produced,
		(unsigned long long)fi->kf_out_of_order);
	fprintf(out, ",\"compact\":%s", fi->kf_compact ? "true" : "false");
	if (fi->kf_why < sizeof(why) / sizeof(why[0]) && why[fi->kf_why])
		fprintf(out, ",\"why\":\"%s\"", why[fi->kf_why]);
	else
		fprintf(out, ",\"why\":%u", fi->kf_why);
	if (fi->kf_why == KTR_FLIGHT_CRASH && WIFSIGNALED(fi->kf_status)) {
		fprintf(out, ",\"ended_pid\":%d,\"signal\":", fi->kf_pid);
		if (ktr_signal_name(WTERMSIG(fi->kf_status)))
			kd_json_cstr(out, ktr_signal_name(WTERMSIG(fi->kf_status)));
		else
			fputs("null", out);
		fprintf(out, ",\"signo\":%d", WTERMSIG(fi->kf_status));
	} else if (fi->kf_why == KTR_FLIGHT_EXIT && WIFEXITED(fi->kf_status)) {
		fprintf(out, ",\"ended_pid\":%d,\"exit_code\":%d", fi->kf_pid,
			WEXITSTATUS(fi->kf_status));
	}
	return 0;
}

const struct kd_kind_def kd_kind_flight = {
	.kind = KD_FLIGHT,
	.tag = "RING",
	.type = KTR_FLIGHT,
	.decode = kd_dec_flight,
	.text = body_flight,
	.json = m_flight,
	.count = kd_summary__not_counted,
	.timeline = kd_timeline__not_drawn,
};
