// SPDX-License-Identifier: BSD-2-Clause
/* Copyright (c) 2026 The ktraceb developers */
/*
 * CSW (KTR_CSW): a context switch, out or in, and its wait channel.
 */
#include "kind_file.h"
#include "kdump_fmt.h"

#define CSW_OLD_LEN 8 /* DragonFly / old FreeBSD struct ktr_csw */

static int dec_csw(struct kd_decoder *d, struct kd_event *ev)
{
	struct ktr_csw cs;

	/* FreeBSD tells the two layouts apart by size (ktr_csw_old) */
	if (ev->len != sizeof(cs) && ev->len != CSW_OLD_LEN)
		return kd_dec_invalid(ev);
	memset(&cs, 0, sizeof(cs));
	memcpy(&cs, ev->data, ev->len);
	ev->csw.out = cs.out;
	ev->csw.user = cs.user;
	if (ev->len == sizeof(cs) && cs.wmesg[0]) {
		ev->csw.wmesg = (const char *)ev->data + offsetof(struct ktr_csw, wmesg);
		ev->csw.wlen = strnlen(cs.wmesg, sizeof(cs.wmesg));
	}
	return 0;
}

static void body_csw(FILE *out, const struct kd_event *ev, const struct kdump_opts *o)
{
	fprintf(out, "%s %s", ev->csw.out ? "stop" : "resume", ev->csw.user ? "user" : "kernel");
	if (ev->csw.wmesg) {
		fputc(' ', out);
		kd_putquoted(out, ev->csw.wmesg, ev->csw.wlen);
	}
}

/* CSW: out (stopping) or in, in user or kernel mode, and the wait channel if any */
static int m_csw(struct kd_json_out *j, const struct kd_event *ev)
{
	FILE *out = j->out;

	fprintf(out, ",\"switch\":\"%s\",\"mode\":\"%s\"", ev->csw.out ? "out" : "in",
		ev->csw.user ? "user" : "kernel");
	if (ev->csw.wmesg) {
		fputs(",\"wmesg\":", out);
		kd_json_str(out, ev->csw.wmesg, ev->csw.wlen);
	}
	return 0;
}

const struct kd_kind_def kd_kind_csw = {
	.kind = KD_CSW,
	.tag = "CSW",
	.type = KTR_CSW,
	.decode = dec_csw,
	.text = body_csw,
	.json = m_csw,
	.count = kd_summary__not_counted,
	.timeline = kd_timeline__not_drawn,
};
