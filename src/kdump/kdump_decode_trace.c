// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * The decoder (kdump_decode.h), the records about the trace itself rather
 * than a traced process's events: LOST, EXIT, END, and a recorder's RING.
 * Each checks its payload's size and takes its fields; the table of record
 * types that calls them is kdump_decode.c's.
 */
#include <string.h>

#include "kdump_decode.h"

/* The payload does not fit the record's type: "invalid record". */
static int invalid(struct kd_event *ev)
{
	ev->valid = false;
	return 0;
}

int kd_dec_lost(struct kd_decoder *d, struct kd_event *ev)
{
	struct ktr_lost lo;

	if (ev->len != sizeof(lo))
		return invalid(ev);
	memcpy(&lo, ev->data, sizeof(lo));
	ev->lost.lost = lo.lost;
	ev->lost.total = lo.lost_total;
	return 0;
}

int kd_dec_end(struct kd_decoder *d, struct kd_event *ev)
{
	if (ev->len != sizeof(ev->end))
		return invalid(ev);
	memcpy(&ev->end, ev->data, sizeof(ev->end));
	return 0;
}

int kd_dec_exit(struct kd_decoder *d, struct kd_event *ev)
{
	struct ktr_exit ex;

	if (ev->len != sizeof(ex))
		return invalid(ev);
	memcpy(&ex, ev->data, sizeof(ex));
	ev->exit_status = ex.status;
	return 0;
}

/* A recorder's dump (ktraceb -R): what it recovered, and why it was written. */
int kd_dec_flight(struct kd_decoder *d, struct kd_event *ev)
{
	struct ktr_flight_info *fi = &ev->flight;

	if (ev->len < sizeof(*fi))
		return invalid(ev);
	memcpy(fi, ev->data, sizeof(*fi));
	if (fi->kf_part != KTR_FLIGHT_LAST_PER_CPU &&
	    (fi->kf_part != KTR_FLIGHT_RING || fi->kf_kept > fi->kf_produced))
		return invalid(ev);
	return 0;
}
